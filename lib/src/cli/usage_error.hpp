#pragma once
// How the tools that read their options with an option table (sbatch,
// salloc, srun) print getopt's errors: Slurm's lines, no "error:" prefix.

#include <string_view>

#include "cli/option_table.hpp"

namespace stint::cli {

/// Prints `<tool>: <getopt's message>`, then stint's line (where in a script,
/// or the option probably meant), then `Try "<tool> --help" for more
/// information`; returns 255, Slurm's exit status for it.
int print_usage_error(std::string_view tool, const UsageError& e);

}  // namespace stint::cli
