// --time-min: how long a job started early may run before the room it uses
// is someone else's (the backfill plan's reservations, running jobs).

#include <algorithm>

#include "sched/plan.hpp"

namespace stint::sched {

Seconds least_duration(const Job& job, Seconds duration) {
  const std::optional<Seconds>& least = job.spec.options().time_min;
  return least && *least > 0 && *least < duration ? *least : duration;
}

Seconds time_min_limit(Seconds room, Seconds least, Seconds duration) {
  if (room >= duration) return duration;
  // Slurm's limits are whole minutes.
  return std::clamp<Seconds>(room / 60 * 60, least, duration);
}

Seconds Plan::room(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
                   Seconds longest) const {
  Seconds room = longest;
  for (const std::string& name : nodes) {
    const auto it = std::find_if(m_nodes.begin(), m_nodes.end(),
                                 [&](const Node& n) { return n.usage->def.name == name; });
    if (it == m_nodes.end()) continue;
    const std::vector<Step>& steps = it->steps;
    // The step in force at `start`, then each after it while it has room.
    auto step = std::upper_bound(steps.begin(), steps.end(), start,
                                 [](Seconds t, const Step& s) { return t < s.time; });
    if (step != steps.begin()) --step;
    for (; step != steps.end(); ++step) {
      if (step->time - start >= room) break;
      if (!fits(*it, *step, req)) {
        room = std::max<Seconds>(0, step->time - start);
        break;
      }
    }
  }
  return room;
}

}  // namespace stint::sched
