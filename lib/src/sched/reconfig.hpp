#pragma once
// What a new configuration must allow of the jobs that live now, before
// stintd switches to it (scontrol reconfigure). Pure: no I/O.

#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

namespace stint::sched {

/// Why `next` cannot replace the running config under the live (pending and
/// active) jobs: a partition a job is in is gone, a node a job runs on is gone
/// or smaller than what the job holds of it. One sentence each; empty: it may.
std::vector<std::string> reconfigure_problems(const Config& next,
                                              const std::vector<const Job*>& live);

}  // namespace stint::sched
