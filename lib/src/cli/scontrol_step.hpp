#pragma once
// scontrol show step (cli/scontrol_step.cpp): the steps of the running jobs,
// each job's batch step first, in Slurm's record format.

#include <string>
#include <vector>

namespace stint::tools::scontrol_step {

/// `scontrol show step[s] [JOB[.STEP] ...]`; returns scontrol's exit status.
int show(const std::vector<std::string>& ids, bool one_liner);

}  // namespace stint::tools::scontrol_step
