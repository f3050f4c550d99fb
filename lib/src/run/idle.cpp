#include "run/idle.hpp"

#include <algorithm>

namespace stint::run {

bool is_idle(const Job& job) {
  if (!job.spec.run || job.spec.run->stopped || job.state != JobState::running) return false;
  bool running = false;
  for (const NodeAlloc& a : job.alloc) {
    if (a.task_ended) continue;
    if (a.idle_since == k_no_time) return false;
    running = true;
  }
  return running;
}

Seconds idle_since(const Job& job) {
  if (!is_idle(job)) return k_no_time;
  Seconds since = k_no_time;
  for (const NodeAlloc& a : job.alloc) {
    if (!a.task_ended) since = std::max(since, a.idle_since);
  }
  return since;
}

bool idle_on_gpus(const Job& job) {
  return is_idle(job) && std::all_of(job.alloc.begin(), job.alloc.end(), [](const NodeAlloc& a) {
           return a.task_ended || a.idle_gpus;
         });
}

}  // namespace stint::run
