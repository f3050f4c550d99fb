#include "stepd/rlimits.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include <fmt/core.h>

namespace stint::stepd::detail {
namespace {

// RLIMIT_* in the order of k_rlimit_names.
constexpr std::array<int, k_rlimit_names.size()> k_resources = {
    RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_DATA,   RLIMIT_STACK,   RLIMIT_CORE,
    RLIMIT_RSS, RLIMIT_NPROC, RLIMIT_NOFILE, RLIMIT_MEMLOCK, RLIMIT_AS,
};

const std::string* env_value(const TaskLaunch& l, std::string_view name) {
  for (const auto& [k, v] : l.env) {
    if (k == name) return &v;
  }
  return nullptr;
}

// slurmstepd's rlim_to_string: "inf" for no limit.
std::string limit_text(rlim_t v) { return v == RLIM_INFINITY ? "inf" : std::to_string(v); }

void add(RlimitPlan& plan, int resource, rlim_t cur, rlim_t max) {
  RlimitPlan::Setting& s = plan.settings[plan.count++];
  s.resource = resource;
  s.value.rlim_cur = cur;
  s.value.rlim_max = max;
}

}  // namespace

RlimitPlan plan_rlimits(const TaskLaunch& l, std::vector<std::string>& notes) {
  RlimitPlan plan;
  for (std::size_t i = 0; i < k_rlimit_names.size(); ++i) {
    const std::string name = fmt::format("RLIMIT_{}", k_rlimit_names[i]);
    const std::string* text = env_value(l, "SLURM_" + name);
    if (!text) continue;
    std::string_view value = *text;
    // 'U': the user asked for it (sbatch --propagate); applied whatever the
    // configuration says.
    const bool asked = !value.empty() && value.front() == 'U';
    if (asked) value.remove_prefix(1);
    unsigned long requested = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), requested);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
      notes.push_back(fmt::format("Invalid SLURM_{} env var, value = `{}'", name, value));
      continue;
    }
    if (!asked && (l.propagate_rlimits & (1U << i)) == 0) continue;
    rlimit current{};
    if (::getrlimit(k_resources[i], &current) != 0) {
      notes.push_back(fmt::format("getrlimit({}): {}", name, std::strerror(errno)));
      continue;
    }
    rlim_t wanted = static_cast<rlim_t>(requested);
    if (current.rlim_cur == wanted) continue;
    if (wanted > current.rlim_max) {
      if (asked) {
        // What setrlimit would answer: a soft limit over the hard one.
        notes.push_back(fmt::format("Can't propagate {} of {} from submit host: {}", name,
                                    wanted == RLIM_INFINITY ? "'unlimited'" : limit_text(wanted),
                                    std::strerror(EINVAL)));
        continue;
      }
      notes.push_back(fmt::format("set_user_limits: {}: reducing req:{} to max:{}", name,
                                  limit_text(wanted), limit_text(current.rlim_max)));
      wanted = current.rlim_max;
      if (current.rlim_cur == wanted) continue;
    }
    add(plan, k_resources[i], wanted, current.rlim_max);
  }
  // As slurmstepd: the job's memory as the RSS limit, soft and hard (Linux
  // ignores it, but `ulimit -m` in the job shows it, as on a cluster).
  if (l.mem_limit_mb > 0) {
    const rlim_t bytes = static_cast<rlim_t>(l.mem_limit_mb) * 1024 * 1024;
    rlimit current{};
    if (::getrlimit(RLIMIT_RSS, &current) == 0 && current.rlim_max > bytes)
      add(plan, RLIMIT_RSS, bytes, bytes);
  }
  return plan;
}

void apply_rlimits(const RlimitPlan& plan) noexcept {
  for (std::size_t i = 0; i < plan.count; ++i) {
    const RlimitPlan::Setting& s = plan.settings[i];
    (void)::setrlimit(s.resource, &s.value);
  }
}

}  // namespace stint::stepd::detail
