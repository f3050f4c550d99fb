#include <algorithm>
#include <set>

#include "sched/limits.hpp"
#include "sched/sched.hpp"

namespace stint::sched {

bool goes_before(const QueueKey& a, const QueueKey& b) {
  if (a.priority_tier != b.priority_tier) return a.priority_tier > b.priority_tier;
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return a.id < b.id;
}

std::uint32_t job_priority(const Job& job) {
  constexpr std::int64_t k_base = 10000;
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, k_base - job.spec.nice));
}

namespace {

// Why a job that is otherwise eligible may not be considered at all.
std::optional<Reason> ineligible(const Job& job, const PartitionConfig* part, Seconds now) {
  if (job.hold_reason != Reason::none) return job.hold_reason;
  if (job.eligible_time > now) return Reason::begin_time;
  if (!part) return Reason::partition_inactive;
  // A DRAIN partition takes no new jobs but runs the ones it has queued.
  if (part->state == PartitionState::down) return Reason::partition_down;
  if (part->state == PartitionState::inactive) return Reason::partition_inactive;
  if (part->max_time != k_infinite &&
      (job.time_limit == k_infinite || job.time_limit > part->max_time))
    return Reason::partition_time_limit;
  return std::nullopt;
}

}  // namespace

Decision schedule(const std::vector<const Job*>& pending, Cluster& cluster, const Config& config,
                  Seconds now, std::map<JobId, std::uint32_t> array_running, LimitTracker* limits) {
  struct Entry {
    QueueKey key;
    const Job* job;
    const PartitionConfig* part;
  };
  std::vector<Entry> queue;
  queue.reserve(pending.size());
  for (const Job* job : pending) {
    const PartitionConfig* part = config.find_partition(job->partition);
    queue.push_back(
        {QueueKey{part ? part->priority_tier : 0, job->priority, job->submit_time, job->id}, job,
         part});
  }
  std::sort(queue.begin(), queue.end(),
            [](const Entry& a, const Entry& b) { return goes_before(a.key, b.key); });

  Decision d;
  std::set<std::string> blocked_partitions;
  for (const auto& e : queue) {
    if (auto why = ineligible(*e.job, e.part, now)) {
      d.reasons[e.job->id] = *why;
      continue;
    }
    if (e.job->is_array_task() && e.job->array_throttle > 0 &&
        array_running[e.job->array_job_id] >= e.job->array_throttle) {
      d.reasons[e.job->id] = Reason::job_array_task_limit;
      continue;
    }
    if (limits) {
      if (auto why = limits->run_blocker(*e.job)) {
        d.reasons[e.job->id] = *why;
        continue;
      }
    }
    if (blocked_partitions.count(e.part->id)) {
      d.reasons[e.job->id] = Reason::priority;
      continue;
    }
    std::vector<std::string> allowed;
    for (const auto& n : config.partition_nodes(*e.part)) allowed.push_back(n.name);
    auto alloc = fit(e.job->req, cluster, allowed);
    if (!alloc) {
      d.reasons[e.job->id] = Reason::resources;
      blocked_partitions.insert(e.part->id);
      continue;
    }
    for (const auto& a : *alloc) cluster.find(a.node)->take(a);
    if (e.job->is_array_task()) ++array_running[e.job->array_job_id];
    if (limits) limits->started(*e.job);
    d.starts.emplace_back(e.job->id, std::move(*alloc));
  }
  return d;
}

}  // namespace stint::sched
