#include "sched/reconfig.hpp"

#include <algorithm>
#include <map>

#include <fmt/core.h>

namespace stint::sched {

std::vector<std::string> reconfigure_problems(const Config& next,
                                              const std::vector<const Job*>& live) {
  std::vector<std::string> out;
  std::map<std::string, NodeDef> nodes;
  for (const NodeDef& n : next.nodes()) nodes.emplace(n.name, n);
  for (const Job* job : live) {
    // A job keeps its partition for life; taking it away would strand it.
    if (!next.find_partition(job->partition))
      out.push_back(fmt::format("partition {} cannot be removed: job {} is {} in it",
                                job->partition, job->display_id(),
                                job->state == JobState::pending ? "pending" : "running"));
    if (!is_active(job->state)) continue;
    for (const NodeAlloc& a : job->alloc) {
      auto it = nodes.find(a.node);
      if (it == nodes.end()) {
        out.push_back(
            fmt::format("node {} cannot be removed: job {} runs on it", a.node, job->display_id()));
        continue;
      }
      const NodeDef& n = it->second;
      auto beyond = [](const std::vector<std::uint32_t>& ids, std::uint32_t count) {
        return std::any_of(ids.begin(), ids.end(), [&](std::uint32_t i) { return i >= count; });
      };
      if (beyond(a.cpu_ids, n.cpus) || beyond(a.gpu_ids, n.gpus) || a.mem_mb > n.memory_mb)
        out.push_back(fmt::format("node {} cannot shrink below what job {} holds of it", a.node,
                                  job->display_id()));
    }
  }
  // One line per problem, however many jobs share it.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace stint::sched
