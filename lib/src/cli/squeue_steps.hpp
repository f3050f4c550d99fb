#pragma once
// squeue -s: the steps of the running jobs.

#include <string>
#include <string_view>
#include <vector>

#include <stint/model.hpp>

namespace stint::cli {

/// Renders the steps of `jobs` (those that run) as squeue -s does: each
/// job's batch step and its srun steps still running, in `format` (squeue's
/// step fields: %A %i %j %l %M %N %P %S %u %U; empty for Slurm's default),
/// sorted by `sort` (-S's letters, each maybe preceded by '+' or '-'), then
/// by partition and step id. `wanted` holds step ids as -s takes
/// them ("12.0", or "12" for all of job 12's steps); empty means all.
/// Throws Error for a field that only jobs have, as Slurm refuses it.
std::string render_squeue_steps(const std::vector<Job>& jobs, const std::vector<JobStep>& steps,
                                std::string_view format, std::string_view sort, bool no_header,
                                const std::vector<std::string>& wanted, Seconds now);

}  // namespace stint::cli
