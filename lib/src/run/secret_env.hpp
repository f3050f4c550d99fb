#pragma once
// A run's variables may hold tokens (--env WANDB_API_KEY=...). stint.db, which
// every local user reads, keeps their names only; the values are in the job's
// environment in scripts.db (stintd's alone), and stintd gives them to the
// run's owner and operators. Everyone else sees which variables a run sets
// (run-list's columns), each with this mark for its value.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stint::run {

inline constexpr std::string_view k_masked_value = "***";

using EnvPairs = std::vector<std::pair<std::string, std::string>>;

/// `env` with every value replaced by k_masked_value (an empty one too: that
/// a value is empty is the owner's to know as well).
EnvPairs masked_env(EnvPairs env);
/// Sets each of `run_env`'s values from `environment` (the job's environment
/// as submitted, where run-create put them); a name it lacks becomes empty.
void fill_env_values(EnvPairs& run_env, const EnvPairs& environment);

}  // namespace stint::run
