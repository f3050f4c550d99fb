#pragma once
// salloc's options: sbatch's table less what only a batch job has (its
// output files, --array, --wrap, --export...), plus salloc's own (--bell,
// --immediate, --kill-command, --no-shell). The allocation itself is built
// by sbatch's builder from the shared options, so that every option means
// here what it means to sbatch.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/sbatch_options.hpp"

namespace stint::cli {

/// salloc's own options, numbered after sbatch's (OptionSpec::id).
enum class SallocOpt : int {
  bell = 200,
  immediate,
  kill_command,
  no_bell,
  no_shell,
  x11,
};

/// When salloc rings the terminal's bell once the allocation is granted.
enum class Bell : std::uint8_t { after_delay, always, never };

struct SallocCommandLine {
  /// sbatch's options among salloc's, with the action (--help, --usage,
  /// --version); script and script_args stay empty.
  SbatchCommandLine allocation;
  std::vector<std::string> command;  ///< the command and its arguments; empty: the default
  bool no_shell = false;
  Bell bell = Bell::after_delay;
  /// -I: give up when not allocated within this many seconds (0: at once).
  std::optional<unsigned> immediate;
  /// -K: the signal sent to the command when the allocation is revoked.
  std::optional<int> kill_command_signal;
};

/// salloc's option table, in --help order.
std::span<const OptionSpec> salloc_option_table();

/// Reads salloc's command line (without argv[0]) with getopt_long's rules
/// (option_table.hpp): options, then the command. A ':' (a heterogeneous
/// allocation) is refused: Errc::invalid_argument.
SallocCommandLine parse_salloc_command_line(const std::vector<std::string>& args);

/// salloc's input environment variables as sbatch's builder reads them:
/// SALLOC_<X> becomes SBATCH_<X> and the SBATCH_ ones go, so that an
/// SBATCH_ variable meant for batch jobs does not change an allocation.
EnvList salloc_input_environment(const EnvList& environment);

std::string salloc_help_text();
std::string salloc_usage_text();

}  // namespace stint::cli
