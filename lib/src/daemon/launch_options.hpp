#pragma once
// What a job's options ask of its stepd beyond running the task: the limits
// PropagateResourceLimits lets through, and the user's login environment
// (--get-user-env). One call from the launcher.

#include <stint/config.hpp>
#include <stint/model.hpp>

#include "stepd/launch.hpp"

namespace stint::daemon {

/// The mask of limits stepd applies from the job's SLURM_RLIMIT_* variables
/// without a 'U' mark: PropagateResourceLimitsExcept's complement when it is
/// set, else PropagateResourceLimits (ALL by default).
std::uint32_t propagated_rlimits(const Config& config);

/// Whether and how the job loads the user's login environment, as Slurm's
/// sbatch asks slurmd to (SLURM_GET_USER_ENV): --get-user-env[=timeout][S|L],
/// or an --export other than ALL. Sets `l.user_env_timeout` (its timeout, 8 s
/// by default; 120 s, slurmd's wait, when --export asked) and
/// `l.user_env_mode`; leaves them when not asked.
void set_user_env_request(TaskLaunch& l, const Job& job);

/// Both of the above into `l`.
void add_launch_options(TaskLaunch& l, const Job& job, const Config& config);

}  // namespace stint::daemon
