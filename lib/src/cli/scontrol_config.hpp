#pragma once
// `scontrol show config`: the configuration stintd runs with, as Slurm 22.05
// prints it, and whether stintd is up.

#include <optional>
#include <string>

namespace stint::cli {

/// Prints `scontrol show config` for the state directory the tools use and
/// returns scontrol's exit status: 0 when stintd answers (a personal one is
/// started, as for any request), 1 when it cannot be reached.
int show_config();

/// `scontrol write config [FILE]`: the running configuration in slurm.conf's
/// words, grouped in Slurm's sections, into FILE (or SLURM_CONF_OUT, or
/// SLURM_CONF, else the state directory's slurm.conf) with the time after a
/// dot; prints "Slurm config saved to <path>".
int write_config(const std::optional<std::string>& file_name);

}  // namespace stint::cli
