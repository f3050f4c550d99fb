#pragma once
// scancel's small languages (pure, for the tool and its tests): signal names,
// job id arguments, state names.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/error.hpp>
#include <stint/model.hpp>

namespace stint::cli {

/// An error scancel prints as it is, without "scancel: error: " (Slurm prints
/// these with a plain fprintf), exiting 1.
class PlainError : public Error {
 public:
  explicit PlainError(std::string message) : Error(Errc::invalid_argument, std::move(message)) {}
};

/// A signal as -s/--signal takes it (Slurm's sig_name2num): a number 1-64, or
/// a name with or without "SIG" in any case ("TERM", "sigusr1", "KILL").
/// nullopt for anything else, 0 included.
std::optional<int> signal_from_name(std::string_view text);

/// One job named on the command line.
struct CancelTarget {
  JobId job_id = 0;
  std::string text;  ///< as written, e.g. "12", "12_3", "12.0"
  /// False for an array task ("12_3", "12_[1-3]", "12_*") or a step ("12.0"):
  /// stint has neither yet, so these are refused as invalid job ids.
  bool whole_job = true;
};

/// The job id arguments: "12", "12_3", "12_[4-5]", "12_*", "12.0", and several
/// joined by commas ("12,13"). Throws Errc::invalid_argument "Invalid job id X"
/// (Slurm's message) for anything else.
std::vector<CancelTarget> parse_cancel_targets(const std::vector<std::string>& args);

/// -t/--state: a state name or code in any case ("PENDING", "pd", "running").
/// Throws PlainError with Slurm's two lines otherwise.
JobState cancel_state_from_name(std::string_view text);

}  // namespace stint::cli
