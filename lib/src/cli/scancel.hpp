#pragma once
// scancel's small languages (pure, for the tool and its tests): job id
// arguments and state names. Signal names are parse::signal_number's.

#include <cstdint>
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
  explicit PlainError(const std::string& message) : Error(Errc::invalid_argument, message) {}
};

/// One job named on the command line, as the cancel request names it
/// (docs/protocol.md): a job or a whole array by number, or one array task.
struct CancelTarget {
  JobId job_id = 0;
  /// The task of array `job_id` ("12_3"); k_no_array_task for a job or a
  /// whole array ("12", "12_*").
  std::uint32_t array_task = k_no_array_task;
  /// As written, one task each: "12", "12_3", "12_4" for "12_[4-5]", "12.0".
  std::string text;
  /// The batch or extern step ("12.batch"): stint has no such step to
  /// cancel, so these are reported as invalid job ids.
  bool unsupported = false;
  /// A step srun started ("12.0"): cancelled as a step, not as the job.
  std::optional<std::uint32_t> step;
};

/// The job id arguments: "12", "12_3", "12_*", "12_[4-5]" and "12_[1,3-4]"
/// (one target per task, in task order), "12.0", "12+1", and several joined by
/// commas ("12,13_2"). Throws Errc::invalid_argument "Invalid job id X"
/// (Slurm's message) for anything else.
std::vector<CancelTarget> parse_cancel_targets(const std::vector<std::string>& args);

/// -t/--state: a state name or code in any case ("PENDING", "pd", "running").
/// Throws PlainError with Slurm's two lines otherwise.
JobState cancel_state_from_name(std::string_view text);

}  // namespace stint::cli
