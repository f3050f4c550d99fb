#pragma once
// #PBS and #BSUB lines of a batch script, read as Slurm's sbatch reads them
// (src/sbatch/xlate.c): translated into sbatch options, applied after the
// #SBATCH directives unless --ignore-pbs (or SBATCH_IGNORE_PBS) is given.

#include <string_view>
#include <vector>

#include "cli/option_table.hpp"

namespace stint::cli {

/// The sbatch options the script's #BSUB lines stand for, or, when it has
/// none, its #PBS lines (Slurm reads one kind only, #BSUB first). Lines are
/// looked for until the 100th line that is not a comment. Each option's
/// spelling is the directive it came from ("#PBS -l"). Throws UsageError
/// for an option the translation does not know ("Unrecognized command line
/// parameter"), stint::Error for a malformed value, as Slurm exits there.
std::vector<FoundOption> pbs_options(std::string_view script, std::string_view file);

}  // namespace stint::cli
