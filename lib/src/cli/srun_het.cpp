// srun --het-group (cli/srun_het.hpp).

#include "cli/srun_het.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/store.hpp>

namespace stint::cli {

namespace {

bool has(const EnvList& env, const std::string& key) {
  return std::any_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == key; });
}

}  // namespace

const char* const k_no_het_component =
    "No directives to start application on any available hetjob components";

// --het-group: "1", "0-1", "[0,2]". A step runs in one component here.
std::uint32_t het_group(const std::string& text) {
  // Slurm's limit on components (MAX_HET_JOB_COMPONENTS).
  constexpr std::uint32_t k_max_components = 128;
  auto invalid = [&] {
    return Error(Errc::invalid_argument, fmt::format("Invalid --het-group value: {}", text));
  };
  auto number = [](const std::string& word) -> std::optional<std::uint32_t> {
    std::uint32_t n = 0;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
    if (word.empty() || ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return n;
  };
  std::string list = text;
  if (list.size() >= 2 && list.front() == '[' && list.back() == ']')
    list = list.substr(1, list.size() - 2);
  std::vector<std::uint32_t> groups;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string item = list.substr(start, comma - start);
    const std::size_t dash = item.find('-');
    const auto first = number(item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (!first || !last || *first > *last || *last >= k_max_components) throw invalid();
    for (auto g = *first; g <= *last; ++g) groups.push_back(g);
    start = comma + 1;
  }
  if (groups.size() > 1)
    throw Error(Errc::invalid_argument,
                fmt::format("--het-group={} is not available here: a step runs in one component "
                            "at a time; start one srun per component (srun --het-group=0 ... & "
                            "srun --het-group=1 ... & wait)",
                            text));
  return groups.front();
}

// The job id of component `offset` of the heterogeneous job `job` (its
// components' ids follow the leader's); a job of one component has only 0.
JobId het_component(JobId job, std::uint32_t offset) {
  if (offset == 0) return job;
  const Paths paths = default_paths();
  if (Store::exists(paths.db())) {
    auto store = Store::reader(paths.db());
    if (const std::optional<Job> component = store->job(job + offset);
        component && component->het_job_id == job && component->het_job_offset == offset)
      return component->id;
  }
  throw Error(Errc::invalid_argument, cli::k_no_het_component);
}

// Inside a heterogeneous job, srun --het-group=N reads component N's
// variables (SLURM_NTASKS_HET_GROUP_N as SLURM_NTASKS, ...), as Slurm's srun
// does; a variable only component 0 has is not N's. The job id stays the
// leader's: the component is found from it.
EnvList het_group_environment(const EnvList& env, std::uint32_t group) {
  const std::string mine = fmt::format("_HET_GROUP_{}", group);
  const std::string leader = "_HET_GROUP_0";
  auto base_of = [](const std::string& key,
                    const std::string& suffix) -> std::optional<std::string> {
    if (key.size() <= suffix.size() ||
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
      return std::nullopt;
    std::string base = key.substr(0, key.size() - suffix.size());
    if (base == "SLURM_JOB_ID" || base == "SLURM_JOBID") return std::nullopt;
    return base;
  };
  EnvList out = env;
  auto put = [&](const std::string& key, const std::string* value) {
    std::erase_if(out, [&](const auto& kv) { return kv.first == key; });
    if (value != nullptr) out.emplace_back(key, *value);
  };
  for (const auto& [key, value] : env) {
    if (auto base = base_of(key, mine)) {
      put(*base, &value);
    } else if (auto base0 = base_of(key, leader); base0 && !has(env, *base0 + mine)) {
      put(*base0, nullptr);
    }
  }
  return out;
}

}  // namespace stint::cli
