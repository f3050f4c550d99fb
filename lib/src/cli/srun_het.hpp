#pragma once
// srun --het-group: which component of a heterogeneous job a step runs in,
// and the environment srun reads for it, as Slurm's srun does.

#include <cstdint>
#include <string>

#include <stint/model.hpp>

#include "cli/sbatch_options.hpp"

namespace stint::cli {

/// Slurm's message for a component the job does not have.
extern const char* const k_no_het_component;

/// --het-group's value ("1", "[1]", "0-1"): the one component named;
/// Errc::invalid_argument "Invalid --het-group value: X" for a bad value,
/// and a refusal for several components at once.
std::uint32_t het_group(const std::string& text);

/// The job id of component `offset` of the heterogeneous job `job` (its
/// components' ids follow the leader's); a job of one component has only 0.
/// Throws Errc::invalid_argument with k_no_het_component otherwise.
JobId het_component(JobId job, std::uint32_t offset);

/// `env` as component `group` sees it: its _HET_GROUP_<group> variables in
/// place of the plain ones, which only component 0 has otherwise dropped.
EnvList het_group_environment(const EnvList& env, std::uint32_t group);

}  // namespace stint::cli
