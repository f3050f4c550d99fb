#pragma once
// A tool's option table, and Slurm's way of reading a command line with it.
//
// sbatch (and, after it, srun and salloc) keeps every option in one table:
// its names, its argument, the input environment variables that set it, its
// --help lines and what it does on this machine. The parser, --help, the man
// page's OPTIONS section (through the help text) and the bash completion (the
// same) all come from that table, so none of them can list an option the
// others lack.
//
// The reading follows glibc's getopt_long as Slurm's tools call it ("+"
// optstring): bundled short options, values attached or separate, long
// options abbreviated to a unique prefix, "--" and the first operand ending
// the options, and getopt's own error messages, which scripts and people
// already know.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <stint/error.hpp>

namespace stint::cli {

/// A command-line error that getopt itself would report ("unrecognized
/// option '--x'", "option '--wrap' requires an argument"). The tool prints it
/// as `<tool>: <message>` followed by `Try "<tool> --help" for more
/// information`, and exits 255, as Slurm does; unlike other errors it has no
/// "error:" prefix.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message, std::string suggestion = {},
                      std::size_t arg_index = 0, std::string detail = {})
      : Error(Errc::usage, message),
        m_suggestion(std::move(suggestion)),
        m_detail(std::move(detail)),
        m_arg_index(arg_index) {}
  /// The option that was probably meant ("--mail-type"), or empty.
  const std::string& suggestion() const { return m_suggestion; }
  /// A line of stint's to print after getopt's ("job.sh:7: unrecognized
  /// option '--mial-type'; did you mean '--mail-type'?"), or empty.
  const std::string& detail() const { return m_detail; }
  /// The argument getopt stopped at (index into the arguments scanned).
  std::size_t arg_index() const { return m_arg_index; }

 private:
  std::string m_suggestion;
  std::string m_detail;
  std::size_t m_arg_index;
};

/// An error Slurm's client prints after a line of its own without the
/// "<tool>: error: " prefix (parse_time's "Invalid time specification
/// (pos=0): notatime" before "sbatch: error: Invalid --begin specification").
class PrefacedError : public Error {
 public:
  PrefacedError(Errc code, const std::string& message, std::string preface)
      : Error(code, message), m_preface(std::move(preface)) {}
  const std::string& preface() const { return m_preface; }

 private:
  std::string m_preface;
};

enum class ArgKind : std::uint8_t { none, required, optional };

/// What an option does on this machine (the man page says which).
enum class Effect : std::uint8_t {
  acts,      ///< done here as a cluster does it
  recorded,  ///< checked and recorded: the facility it drives does not exist here, as on a
             ///< cluster built without it
  tool,      ///< changes what the tool itself does (--parsable, --help)
};

/// One option of a tool.
struct OptionSpec {
  /// The tool's own number for it. Two entries with the same id are one
  /// option to getopt (Slurm's aliases, --tasks-per-node and
  /// --ntasks-per-node): a prefix of both is not ambiguous.
  int id = 0;
  char short_name = '\0';  ///< '\0' when there is none
  std::string_view long_name;
  ArgKind arg = ArgKind::none;
  /// Its place in Slurm's own table (src/common/slurm_opt.c): getopt lists
  /// the candidates of an ambiguous abbreviation in that order.
  std::uint16_t slurm_rank = 0;
  /// Input environment variables that set it, space-separated, in the order
  /// applied (a later one wins).
  std::string_view env;
  /// The --help section it is listed in (the section's title lines).
  std::string_view section;
  /// Its --help lines, each ending in '\n': Slurm's own where Slurm prints
  /// the option, in Slurm's layout (description from column 30) otherwise.
  std::string_view help;
  Effect effect = Effect::acts;
  /// What it does on this machine, for the man page.
  std::string_view here;
};

/// One option as found: which, how it was written ("-t", "--time",
/// "SBATCH_TIMELIMIT"), and its value when it has one.
struct FoundOption {
  int id = 0;
  std::string spelling;
  std::optional<std::string> value;
  std::size_t arg_index = 0;  ///< the argument it was found in (index into those scanned)
};

/// Options as getopt_long reads them, up to the first operand.
struct OptionScan {
  std::vector<FoundOption> options;
  std::size_t first_operand = 0;  ///< index of the first argument that is not an option
};

/// Reads `args` (without argv[0]) as getopt_long with a "+" optstring does.
/// Throws UsageError with getopt's message for an unknown option (and the
/// closest known one as its suggestion), an ambiguous abbreviation, a
/// missing or unexpected value.
OptionScan scan_options(std::span<const OptionSpec> table, const std::vector<std::string>& args);

/// The entry of an id (the first, for aliases); nullptr when none.
const OptionSpec* find_option(std::span<const OptionSpec> table, int id);

/// The long option closest to an unknown one ("--mial-type" -> "--mail-type"),
/// or empty when none is close enough to be a likely typo.
std::string closest_option(std::span<const OptionSpec> table, std::string_view unknown);

/// The --help text: `usage_line`, then each section's title and its options'
/// help lines in table order, sections separated by a blank line.
std::string help_text(std::span<const OptionSpec> table, std::string_view usage_line);

/// The man page's OPTIONS section in scdoc: each option as --help lists it,
/// with what it does here, its input environment variables, and whether it
/// is only recorded.
std::string options_scdoc(std::span<const OptionSpec> table);

}  // namespace stint::cli
