#pragma once
// The submitting shell's resource limits, applied to the task as slurmstepd's
// set_user_limits does: sbatch records each soft limit as SLURM_RLIMIT_<NAME>
// ("U<value>" when asked for with --propagate); stepd sets those that
// PropagateResourceLimits names, and the 'U' ones always, in the task's
// process just before it execs (so stepd itself never runs under them).

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "stepd/launch.hpp"

namespace stint::stepd::detail {

/// The limits the task's process sets, decided before it starts: it only
/// makes the system calls.
struct RlimitPlan {
  struct Setting {
    int resource = 0;
    rlimit value{};
  };
  std::array<Setting, k_rlimit_names.size() + 1> settings{};
  std::size_t count = 0;
};

/// What the task's limits become, from `launch`'s SLURM_RLIMIT_* variables,
/// its propagate mask and its memory (RLIMIT_RSS, as slurmstepd sets it to
/// the job's memory). The soft limit never goes above this process's hard
/// limit: a configured one is lowered to it, one the user asked for is left
/// as it is; each such case, and a value that does not parse, adds a line to
/// `notes` in Slurm's words (for stepd's log; none is fatal).
RlimitPlan plan_rlimits(const TaskLaunch& launch, std::vector<std::string>& notes);

/// Sets each planned limit on the calling process; async-signal-safe (the
/// task's process calls it before execve). A limit that fails is skipped.
void apply_rlimits(const RlimitPlan& plan) noexcept;

}  // namespace stint::stepd::detail
