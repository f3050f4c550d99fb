#pragma once
// scontrol help (cli/scontrol_help.cpp).

namespace stint::tools::scontrol_help {

/// Slurm 22.05's text for `scontrol help`, byte for byte.
const char* text();

}  // namespace stint::tools::scontrol_help
