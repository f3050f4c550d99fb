#include <algorithm>
#include <set>

#include "sched/limits.hpp"
#include "sched/plan.hpp"
#include "sched/preempt.hpp"
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

PassOptions pass_options(const Config& config) {
  PassOptions o;
  std::string type = config.conf("SchedulerType").value_or("sched/backfill");
  o.backfill = type != "sched/builtin";
  // SchedulerParameters: comma-separated key[=value] words.
  const std::string params = config.conf("SchedulerParameters").value_or("");
  std::size_t start = 0;
  while (start <= params.size()) {
    std::size_t end = params.find(',', start);
    if (end == std::string::npos) end = params.size();
    const std::string word = params.substr(start, end - start);
    start = end + 1;
    const auto eq = word.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = word.substr(0, eq);
    std::int64_t value = 0;
    try {
      value = std::stoll(word.substr(eq + 1));
    } catch (...) {
      continue;  // config validation reports it; the pass keeps the default
    }
    if (value <= 0) continue;
    if (key == "bf_window") o.window = value * 60;
    if (key == "bf_resolution") o.resolution = value;
    if (key == "bf_max_job_test") o.max_job_test = static_cast<std::uint32_t>(value);
  }
  return o;
}

namespace {

struct Entry {
  QueueKey key;
  const Job* job;
  const PartitionConfig* part;
};

// Tries to make room for `job` now by preempting lower jobs. Returns true
// when the job is to wait for jobs being preempted (new ones or earlier ones).
bool try_preempt(const Job& job, const std::vector<std::string>& allowed, const Cluster& cluster,
                 PassContext& ctx, std::set<JobId>& preempting, Seconds now, Decision& d) {
  const PreemptRules& rules = *ctx.preempt;
  std::vector<const Job*> candidates;
  std::map<JobId, Preemption> terms;
  bool any_leaving = false;
  for (const Job* running : cluster.jobs()) {
    if (preempting.count(running->id)) {
      any_leaving = true;
      continue;
    }
    if (running->state != JobState::running) continue;
    auto p = preemption_of(rules, job, *running);
    if (!p || now < preemptable_from(rules, *running)) continue;
    candidates.push_back(running);
    terms.emplace(running->id, *p);
  }
  // Most waiting jobs may preempt nothing: they cost no copy of the cluster.
  if (candidates.empty() && !any_leaving) return false;
  // Jobs already on their way out free their room for the first job that
  // needs it: wait for them rather than preempt more.
  Cluster after = cluster;
  for (const Job* running : cluster.jobs()) {
    if (preempting.count(running->id)) after.give_back(running->alloc);
  }
  if (any_leaving && fit(job.req, after, allowed)) return true;
  if (candidates.empty()) return false;
  auto victims = choose_victims(job.req, allowed, after, std::move(candidates));
  if (!victims) return false;
  for (const Job* v : *victims) {
    d.preemptions.push_back(terms.at(v->id));
    preempting.insert(v->id);
  }
  return true;
}

}  // namespace

Decision schedule(const std::vector<const Job*>& pending, Cluster& cluster, const Config& config,
                  Seconds now, std::map<JobId, std::uint32_t> array_running, LimitTracker* limits) {
  PassContext ctx;
  ctx.array_running = std::move(array_running);
  ctx.limits = limits;
  return schedule(pending, cluster, config, now, std::move(ctx));
}

Decision schedule(const std::vector<const Job*>& pending, Cluster& cluster, const Config& config,
                  Seconds now, PassContext ctx) {
  const PassOptions options = pass_options(config);
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
  d.reasons.reserve(queue.size());
  Plan plan(cluster, now, options.resolution);
  std::set<std::string> waiting_partitions;  // those with a job that waits: Resources given
  std::set<JobId> preempting(ctx.preempting.begin(), ctx.preempting.end());
  std::map<std::string, std::vector<std::string>> partition_nodes;
  std::map<std::string, std::vector<bool>> partition_masks;
  std::uint32_t tested = 0;
  for (const auto& e : queue) {
    const Job& job = *e.job;
    if (auto why = ineligible(job, e.part, now)) {
      d.reasons[job.id] = *why;
      continue;
    }
    if (job.is_array_task() && job.array_throttle > 0 &&
        ctx.array_running[job.array_job_id] >= job.array_throttle) {
      d.reasons[job.id] = Reason::job_array_task_limit;
      continue;
    }
    if (ctx.limits) {
      if (auto why = ctx.limits->run_blocker(job)) {
        d.reasons[job.id] = *why;
        continue;
      }
    }
    const bool partition_waits = waiting_partitions.count(e.part->id) > 0;
    // Past bf_max_job_test only the main scheduler's rule is left: strict
    // order, so behind a waiting job nothing more is tried (and a deep queue
    // costs next to nothing).
    const bool plans = options.backfill && tested < options.max_job_test;
    if (!plans && partition_waits) {
      d.reasons[job.id] = Reason::priority;
      continue;
    }
    auto [nodes_it, inserted] = partition_nodes.try_emplace(e.part->id);
    if (inserted) {
      for (const auto& n : config.partition_nodes(*e.part)) nodes_it->second.push_back(n.name);
      partition_masks[e.part->id] = plan.allowed_mask(nodes_it->second);
    }
    const std::vector<std::string>& allowed = nodes_it->second;
    const Seconds duration = job.time_limit == k_infinite ? k_plan_forever : job.time_limit;

    // Where the plan places it: now, later (reserved), or nowhere in the window.
    std::optional<Plan::Place> place;
    if (options.backfill) {
      ++tested;
      place = plan.earliest(job.req, partition_masks.at(e.part->id), duration,
                            plans ? now + options.window : now);
    } else if (auto alloc = fit(job.req, cluster, allowed)) {
      place = Plan::Place{now, {}};
      for (const auto& a : *alloc) place->nodes.push_back(a.node);
    }
    if (place && place->start <= now) {
      auto alloc = fit(job.req, cluster, place->nodes);
      if (alloc) {
        for (const auto& a : *alloc) cluster.find(a.node)->take(a);
        if (options.backfill) plan.add(job.req, place->nodes, now, duration);
        if (job.is_array_task()) ++ctx.array_running[job.array_job_id];
        if (ctx.limits) ctx.limits->started(job);
        d.starts.emplace_back(job.id, std::move(*alloc));
        continue;
      }
      place.reset();  // the plan's counts and the CPU map disagree: wait
    }
    if (ctx.preempt && ctx.preempt->enabled() &&
        try_preempt(job, allowed, cluster, ctx, preempting, now, d)) {
      d.reasons[job.id] = Reason::resources;
      waiting_partitions.insert(e.part->id);
      continue;
    }
    if (place) {
      plan.add(job.req, place->nodes, place->start, duration);
      d.planned_starts[job.id] = {place->start, place->nodes};
    }
    d.reasons[job.id] = partition_waits ? Reason::priority : Reason::resources;
    waiting_partitions.insert(e.part->id);
  }
  return d;
}

}  // namespace stint::sched
