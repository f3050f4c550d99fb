#include "daemon/launch_options.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "util/rlimits.hpp"

namespace stint::daemon {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// sbatch(1): "Default value is 8 seconds".
constexpr Seconds k_user_env_timeout = 8;
// What slurmd waits for a batch job's login environment whatever was asked
// (req.c _get_user_env): the wait when --export asked for it.
constexpr Seconds k_slurmd_user_env_timeout = 120;

}  // namespace

std::uint32_t propagated_rlimits(const Config& config) {
  const std::string except = config.conf("PropagateResourceLimitsExcept").value_or("");
  if (!except.empty()) return k_all_rlimits & ~rlimit_mask(except).value_or(0);
  return rlimit_mask(config.conf("PropagateResourceLimits").value_or("ALL"))
      .value_or(k_all_rlimits);
}

void set_user_env_request(TaskLaunch& l, const Job& job) {
  const std::optional<std::string>& asked = job.spec.options().get_user_env;
  // Slurm's sbatch asks for it with any --export but ALL too, and says so
  // in the job's environment (SLURM_GET_USER_ENV=1), as slurmd reads it.
  const std::string& exported = job.spec.export_spec;
  const bool by_export = !exported.empty() && !iequals(exported, "ALL");
  const bool by_variable = std::any_of(
      job.spec.environment.begin(), job.spec.environment.end(),
      [](const auto& kv) { return kv.first == "SLURM_GET_USER_ENV" && kv.second == "1"; });
  if (!asked && !by_export && !by_variable) return;
  Seconds timeout = 0;
  char mode = 0;
  if (asked) {
    std::size_t i = 0;
    while (i < asked->size() && std::isdigit(static_cast<unsigned char>((*asked)[i])) != 0) {
      timeout = std::min<Seconds>(timeout * 10 + ((*asked)[i] - '0'), 86400);
      ++i;
    }
    if (i < asked->size())
      mode = std::toupper(static_cast<unsigned char>((*asked)[i])) == 'S' ? 'S' : 'L';
  }
  l.user_env_timeout = timeout > 0 ? timeout
                       : asked     ? k_user_env_timeout
                                   : k_slurmd_user_env_timeout;
  l.user_env_mode = mode;
}

void add_launch_options(TaskLaunch& l, const Job& job, const Config& config) {
  l.propagate_rlimits = propagated_rlimits(config);
  set_user_env_request(l, job);
}

}  // namespace stint::daemon
