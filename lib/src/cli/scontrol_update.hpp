#pragma once
// scontrol update (cli/scontrol_update.cpp): of jobs, steps (their time
// limit) and nodes, sent to stintd; reservations and partitions have their
// own files, reached from here.

#include <string>
#include <vector>

namespace stint::tools::scontrol_update {

/// `scontrol update KEY=VALUE ...` (`words` is the whole command, "update"
/// first): the first key names what is updated, as in Slurm. Returns
/// scontrol's exit status.
int update(const std::vector<std::string>& words);

}  // namespace stint::tools::scontrol_update
