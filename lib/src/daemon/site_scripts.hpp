#pragma once
// The site's prolog and epilog as stintd hands them to stint-stepd.

#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

#include "daemon/job_env.hpp"

namespace stint::daemon {

/// The prolog or epilog commands, in the order they run: slurm.conf's
/// Prolog= (Epilog=) path, then each of the file's prolog_bash_scripts
/// (epilog_bash_scripts), run by bash.
std::vector<std::vector<std::string>> site_scripts(const Config& config, bool prolog);

/// Slurm's prolog and epilog environment for a job (SLURM_JOB_ID,
/// SLURM_JOB_USER, SLURM_JOB_UID, SLURM_JOB_PARTITION, SLURM_JOB_NAME, ...);
/// stepd adds SLURMD_NODENAME and SLURM_SCRIPT_CONTEXT per node.
Environment script_environment(const Job& job, const Config& config);

}  // namespace stint::daemon
