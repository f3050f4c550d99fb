#pragma once
// `scontrol show config`: the configuration stintd runs with, as Slurm 22.05
// prints it, and whether stintd is up.

namespace stint::cli {

/// Prints `scontrol show config` for the state directory the tools use and
/// returns scontrol's exit status: 0 when stintd answers (a personal one is
/// started, as for any request), 1 when it cannot be reached.
int show_config();

}  // namespace stint::cli
