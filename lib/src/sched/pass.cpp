#include <algorithm>
#include <set>

#include "sched/limits.hpp"
#include "sched/placement.hpp"
#include "sched/plan.hpp"
#include "sched/preempt.hpp"
#include "sched/reservation.hpp"
#include "sched/sched.hpp"

namespace stint::sched {

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

const std::unordered_map<JobId, std::size_t>& JobReasons::index() const {
  if (m_index.size() != m_items.size()) {
    m_index.clear();
    m_index.reserve(m_items.size());
    for (std::size_t i = 0; i < m_items.size(); ++i) m_index.emplace(m_items[i].first, i);
  }
  return m_index;
}

Reason JobReasons::at(JobId id) const { return m_items[index().at(id)].second; }

bool JobReasons::contains(JobId id) const { return index().count(id) > 0; }

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

// What the pass knows of a partition: its nodes (names for fit, a mask for
// the plan), built when its first job is tried, and whether a job of it waits.
struct PartitionPass {
  const PartitionConfig* config = nullptr;
  bool prepared = false;
  bool waits = false;      ///< a job of it waits: the first got Resources, the later ones Priority
  std::uint32_t left = 0;  ///< its eligible jobs the walk in queue order has yet to reach
  std::vector<std::string> nodes;
  std::vector<NodeDef> defs;  ///< the same nodes, for the jobs that narrow them
  std::vector<bool> mask;
};

// A job's own narrowing of its nodes (sched/placement.hpp) in the plan's
// terms: one mask per choice, within `base`.
struct Narrowed {
  std::vector<std::vector<bool>> masks;
  std::vector<bool> preferred;  ///< within the masks; empty: no --prefer
  std::vector<bool> required;   ///< -w nodes, when the job has more nodes than them
  bool contiguous = false;
  std::vector<std::string> names;           ///< every node any mask allows, in order
  std::vector<std::string> required_names;  ///< the -w nodes
};

std::vector<bool> both(std::vector<bool> a, const std::vector<bool>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = a[i] && i < b.size() && b[i];
  return a;
}

Narrowed narrow(const Job& job, const std::vector<NodeDef>& defs, const Plan& plan,
                const std::vector<bool>& base) {
  const NodeChoice choice = choose_nodes(job.spec, defs);
  auto plan_mask = [&](const std::vector<bool>& by_partition) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < defs.size(); ++i) {
      if (by_partition[i]) names.push_back(defs[i].name);
    }
    return both(plan.allowed_mask(names), base);
  };
  Narrowed n;
  n.contiguous = choice.contiguous;
  std::vector<bool> required;
  if (choice.required_count > 0) {
    required = plan_mask(choice.required);
    for (std::size_t i = 0; i < defs.size(); ++i) {
      if (choice.required[i]) n.required_names.push_back(defs[i].name);
    }
  }
  std::vector<bool> any(base.size(), false);
  for (const std::vector<bool>& m : choice.masks) {
    std::vector<bool> mask = plan_mask(m);
    // As many -w nodes as nodes: those are the job's nodes.
    if (choice.required_count >= job.req.nodes && !required.empty()) mask = both(mask, required);
    for (std::size_t i = 0; i < mask.size(); ++i) any[i] = any[i] || mask[i];
    n.masks.push_back(std::move(mask));
  }
  if (choice.required_count > 0 && choice.required_count < job.req.nodes) n.required = required;
  if (!choice.preferred.empty()) n.preferred = plan_mask(choice.preferred);
  for (const NodeDef& d : defs) {
    const std::vector<bool> one = plan.allowed_mask({d.name});
    for (std::size_t i = 0; i < one.size(); ++i) {
      if (one[i] && any[i]) n.names.push_back(d.name);
    }
  }
  return n;
}

// One pending job, with what decides its fate without the plan, read once
// in the jobs' memory order: the walk in queue order then touches the job
// itself only for the jobs it tries (in a deep queue most are a cache miss).
struct Entry {
  const Job* job;
  std::uint32_t part;  ///< index into the pass's partitions; k_no_partition: none
  Reason ineligible;   ///< Reason::none: may be considered
  bool throttled;      ///< an array task under a %N throttle
};

// Where an entry goes in the queue: goes_before as PriorityTier and priority
// (both higher first) in one word, then submit time and id. Small, so that
// sorting a deep queue moves little.
struct SortKey {
  std::uint64_t rank;
  Seconds submit_time;
  JobId id;
  std::uint32_t entry;  ///< index into the entries
};

constexpr std::uint32_t k_no_partition = ~std::uint32_t{0};

// `nodes` less `taken`, in order.
std::vector<std::string> without(const std::vector<std::string>& nodes,
                                 const std::vector<std::string>& taken) {
  if (taken.empty()) return nodes;
  std::vector<std::string> out;
  for (const std::string& n : nodes) {
    if (std::find(taken.begin(), taken.end(), n) == taken.end()) out.push_back(n);
  }
  return out;
}
constexpr std::size_t k_prefetch_ahead = 8;

// The earliest place among a narrowed job's choices; the nodes it prefers
// when they have room now.
std::optional<Plan::Place> earliest_narrowed(const Plan& plan, const ResourceRequest& req,
                                             const Narrowed& n, Seconds duration, Seconds latest,
                                             Seconds now) {
  const NodeSetRules rules{n.required.empty() ? nullptr : &n.required, n.contiguous};
  auto best_of = [&](bool preferred_only) {
    std::optional<Plan::Place> best;
    for (const std::vector<bool>& mask : n.masks) {
      auto p = plan.earliest(req, preferred_only ? both(mask, n.preferred) : mask, duration, latest,
                             rules);
      if (p && (!best || p->start < best->start)) best = std::move(p);
    }
    return best;
  };
  if (!n.preferred.empty()) {
    if (auto preferred = best_of(true); preferred && preferred->start <= now) return preferred;
  }
  return best_of(false);
}

// Whether sched/builtin's first fit keeps to what the plan's rules ask:
// every -w node, adjacent nodes for --contiguous.
bool meets_rules(const std::vector<NodeAlloc>& alloc, const Narrowed& n, const Cluster& cluster) {
  for (const std::string& name : n.required_names) {
    if (std::none_of(alloc.begin(), alloc.end(),
                     [&](const NodeAlloc& a) { return a.node == name; }))
      return false;
  }
  if (!n.contiguous) return true;
  std::vector<std::size_t> at;
  for (const NodeAlloc& a : alloc) {
    for (std::size_t i = 0; i < cluster.nodes().size(); ++i) {
      if (cluster.nodes()[i].def.name == a.node) at.push_back(i);
    }
  }
  std::sort(at.begin(), at.end());
  for (std::size_t i = 1; i < at.size(); ++i) {
    if (at[i] != at[i - 1] + 1) return false;
  }
  return true;
}

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
    // A het job's components would have to go together: never a victim.
    if (running->state != JobState::running || running->is_het_component()) continue;
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
  std::vector<PartitionPass> parts;
  auto partition_index = [&](const PartitionConfig* part) {
    for (std::uint32_t i = 0; i < parts.size(); ++i)
      if (parts[i].config == part) return i;
    parts.emplace_back().config = part;
    return static_cast<std::uint32_t>(parts.size() - 1);
  };
  std::vector<Entry> entries;
  entries.reserve(pending.size());
  std::vector<SortKey> queue;
  queue.reserve(pending.size());
  // Most jobs name the partition the one before them names: one compare.
  const std::string* last_name = nullptr;
  const PartitionConfig* last_part = nullptr;
  std::uint32_t last_index = k_no_partition;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const Job* job = pending[i];
    // The jobs are far apart in memory (each over a kilobyte, in a map):
    // ask for the fields read here a few jobs ahead, so their cache misses overlap.
    if (i + k_prefetch_ahead < pending.size()) {
      const Job* next = pending[i + k_prefetch_ahead];
      __builtin_prefetch(&next->id);
      __builtin_prefetch(&next->partition);
      __builtin_prefetch(&next->eligible_time);
      __builtin_prefetch(&next->hold_reason);
    }
    if (!last_name || job->partition != *last_name) {
      last_name = &job->partition;
      last_part = config.find_partition(job->partition);
      last_index = last_part ? partition_index(last_part) : k_no_partition;
    }
    const std::uint32_t tier = last_part ? last_part->priority_tier : 0;
    queue.push_back({(std::uint64_t{~tier} << 32) | ~job->priority, job->submit_time, job->id,
                     static_cast<std::uint32_t>(i)});
    const Reason why_not = ineligible(*job, last_part, now).value_or(Reason::none);
    if (why_not == Reason::none) ++parts[last_index].left;
    entries.push_back({job, last_index, why_not, job->is_array_task() && job->array_throttle > 0});
  }

  // The queue is drawn from a heap in priority order, one job at a time, not
  // sorted whole: once no job can start any more (the plan has tried its
  // bf_max_job_test jobs and every partition with jobs left has one waiting),
  // what each remaining job gets (its hold, throttle, limit, or Priority) no
  // longer depends on its place, and the rest is taken as it lies. In a deep
  // queue that is nearly all of it (a third of the pass was the sort).
  auto goes_later = [](const SortKey& a, const SortKey& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    if (a.submit_time != b.submit_time) return a.submit_time > b.submit_time;
    return a.id > b.id;
  };
  std::make_heap(queue.begin(), queue.end(), goes_later);
  auto heap_end = queue.end();
  // Partitions that may still start a job: some left and none waiting.
  std::size_t open_parts = 0;
  for (const PartitionPass& p : parts) open_parts += p.left > 0 ? 1 : 0;

  Decision d;
  d.reasons.reserve(queue.size());
  Plan plan(cluster, now, options.resolution);
  // slurmctld's main scheduler (job_scheduler.c) tries a job only if its
  // partition has enough nodes in its avail_node_bitmap: nodes up and not
  // drained, less the nodes of every partition whose first job had to wait
  // in this pass ("reserved for jobs in higher priority partitions"). A job
  // short of them waits with Slurm's description of that, and its partition
  // counts as waiting too; backfill may still start it where it fits.
  std::vector<bool> main_available(cluster.nodes().size());
  std::size_t main_unavailable = 0;
  for (std::size_t i = 0; i < cluster.nodes().size(); ++i) {
    main_available[i] = cluster.nodes()[i].available;
    main_unavailable += main_available[i] ? 0 : 1;
  }
  auto set_waiting = [&](PartitionPass& p) {
    if (!p.waits && p.left > 0) --open_parts;
    if (!p.waits) {
      for (std::size_t i = 0; i < p.mask.size() && i < main_available.size(); ++i) {
        if (p.mask[i] && main_available[i]) {
          main_available[i] = false;
          ++main_unavailable;
        }
      }
    }
    p.waits = true;
  };
  auto main_scheduler_nodes = [&](const PartitionPass& p) {
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < p.mask.size() && i < main_available.size(); ++i)
      n += p.mask[i] && main_available[i] ? 1 : 0;
    return n;
  };
  const ReservationRules* reservations =
      ctx.reservations && !ctx.reservations->empty() ? ctx.reservations : nullptr;
  if (reservations) reservations->block(plan, cluster);
  std::set<std::string> reservation_waits;  // reservations a job of which waits
  std::set<JobId> preempting(ctx.preempting.begin(), ctx.preempting.end());
  // -L/--licenses: a job whose licenses are in use waits for them (Licenses)
  // and holds nothing meanwhile, as slurmctld's license check does.
  LicensePool licenses(config);
  if (!licenses.empty()) {
    for (const Job* running : cluster.jobs()) licenses.take(*running);
  }
  std::uint32_t tested = 0;
  bool ordered = true;
  while (heap_end != queue.begin()) {
    if (ordered) {
      ordered = open_parts > 0 || (options.backfill && tested < options.max_job_test);
      if (ordered) std::pop_heap(queue.begin(), heap_end, goes_later);
    }
    const SortKey& k = *--heap_end;
    const Entry& e = entries[k.entry];
    if (e.ineligible != Reason::none) {
      d.reasons.add(k.id, e.ineligible);
      continue;
    }
    PartitionPass& part = parts[e.part];
    if (--part.left == 0 && !part.waits) --open_parts;
    const Job& job = *e.job;
    if (e.throttled && ctx.array_running[job.array_job_id] >= job.array_throttle) {
      d.reasons.add(job.id, Reason::job_array_task_limit);
      continue;
    }
    if (ctx.limits) {
      if (auto why = ctx.limits->run_blocker(job)) {
        d.reasons.add(job.id, *why);
        continue;
      }
    }
    if (!licenses.empty() && !licenses.available(job)) {
      d.reasons.add(job.id, Reason::licenses);
      continue;
    }
    auto prepare = [&] {
      if (part.prepared) return;
      part.defs = config.partition_nodes(*part.config);
      for (const auto& n : part.defs) part.nodes.push_back(n.name);
      part.mask = plan.allowed_mask(part.nodes);
      part.prepared = true;
    };
    const Seconds duration = job.time_limit == k_infinite ? k_plan_forever : job.time_limit;
    // Advance reservations (sched/reservation.cpp): a job in one runs on its
    // nodes in its window and waits behind that reservation's jobs only;
    // other jobs never get its nodes then (its hold in the plan).
    ReservationRules::JobView resv;
    if (reservations) {
      prepare();
      resv = reservations->view(job, part.nodes, duration);
      if (resv.wait) {
        d.reasons.add(job.id, *resv.wait);
        continue;
      }
    }
    const bool partition_waits = resv.in ? reservation_waits.count(resv.in->name) > 0 : part.waits;
    auto now_waits = [&] {
      if (resv.in)
        reservation_waits.insert(resv.in->name);
      else
        set_waiting(part);
    };
    // Past bf_max_job_test only the main scheduler's rule is left: strict
    // order, so behind a waiting job nothing more is tried (and a deep queue
    // costs next to nothing).
    const bool plans = options.backfill && tested < options.max_job_test;
    if (!plans && partition_waits) {
      d.reasons.add(k.id, Reason::priority);
      continue;
    }
    prepare();
    const bool short_of_nodes = !resv.in && !partition_waits && main_unavailable > 0 &&
                                main_scheduler_nodes(part) < job.req.nodes;
    // -w, -x, -C, --prefer, --mincpus, --tmp, --contiguous, the node shape.
    std::optional<Narrowed> narrowed;
    if (narrows_nodes(job.spec)) {
      try {
        narrowed =
            narrow(job, part.defs, plan, resv.nodes ? plan.allowed_mask(*resv.nodes) : part.mask);
      } catch (const Error&) {
        // Checked at submission: only a config changed since can get here.
        d.reasons.add(job.id, Reason::bad_constraints);
        continue;
      }
    }
    const std::vector<std::string>& allowed = narrowed     ? narrowed->names
                                              : resv.nodes ? *resv.nodes
                                                           : part.nodes;
    // --time-min: placed by its least limit; started, it keeps what fits.
    const Seconds least = options.backfill ? least_duration(job, duration) : duration;

    // Where the plan places it: now, later (reserved), or nowhere in the window.
    std::optional<Plan::Place> place;
    if (options.backfill) {
      ++tested;
      Seconds latest = plans ? now + options.window : now;
      if (resv.latest) latest = std::min(latest, *resv.latest);
      std::vector<bool> resv_mask;
      if (resv.nodes) resv_mask = plan.allowed_mask(*resv.nodes);
      if (resv.in) reservations->lift(plan, cluster, resv);
      if (narrowed) {
        place = earliest_narrowed(plan, job.req, *narrowed, least, latest, now);
      } else {
        place = plan.earliest(job.req, resv.nodes ? resv_mask : part.mask, least, latest);
      }
      if (resv.in) reservations->restore(plan, cluster, resv);
    } else {
      std::vector<std::string> unreserved;
      if (reservations) unreserved = without(allowed, reservations->blocked(resv, duration));
      auto alloc = fit(job.req, cluster, reservations ? unreserved : allowed);
      if (alloc && narrowed && !meets_rules(*alloc, *narrowed, cluster)) alloc.reset();
      if (alloc) {
        place = Plan::Place{now, {}};
        for (const auto& a : *alloc) place->nodes.push_back(a.node);
      }
    }
    if (place && place->start <= now) {
      auto alloc = fit(job.req, cluster, place->nodes);
      if (alloc) {
        for (const auto& a : *alloc) cluster.find(a.node)->take(a);
        Seconds limit = duration;
        if (least < duration) {
          limit = time_min_limit(plan.room(job.req, place->nodes, now, duration), least, duration);
          if (limit != duration) d.time_limits[job.id] = limit;
        }
        if (options.backfill) plan.add(job.req, place->nodes, now, limit);
        if (job.is_array_task()) ++ctx.array_running[job.array_job_id];
        if (ctx.limits) ctx.limits->started(job);
        if (!licenses.empty()) licenses.take(job);
        d.starts.emplace_back(job.id, std::move(*alloc));
        // Backfill's start: the main scheduler had given up on the partition.
        if (short_of_nodes) set_waiting(part);
        continue;
      }
      place.reset();  // the plan's counts and the CPU map disagree: wait
    }
    // Never preempt for nodes a reservation keeps from the job. The main
    // scheduler does not try a job short of nodes, so it preempts nothing for
    // it either.
    std::vector<std::string> unreserved;
    if (reservations && ctx.preempt && ctx.preempt->enabled())
      unreserved = without(allowed, reservations->blocked(resv, duration));
    if (!short_of_nodes && ctx.preempt && ctx.preempt->enabled() &&
        try_preempt(job, reservations ? unreserved : allowed, cluster, ctx, preempting, now, d)) {
      d.reasons.add(job.id, Reason::resources);
      now_waits();
      continue;
    }
    if (place) {
      plan.add(job.req, place->nodes, place->start, least);
      d.planned_starts[job.id] = {place->start, place->nodes};
    }
    d.reasons.add(job.id, partition_waits  ? Reason::priority
                          : short_of_nodes ? Reason::req_node_not_avail
                                           : Reason::resources);
    now_waits();
  }
  if (!ctx.het_pending.empty()) keep_whole_het_jobs(d, pending, ctx.het_pending);
  return d;
}

void keep_whole_het_jobs(Decision& d, const std::vector<const Job*>& pending,
                         const std::map<JobId, std::uint32_t>& het_pending) {
  std::map<JobId, JobId> leader_of;  // started component -> its leader
  for (const Job* job : pending) {
    if (job->is_het_component()) leader_of.emplace(job->id, job->het_job_id);
  }
  if (leader_of.empty()) return;
  std::map<JobId, std::uint32_t> started;
  for (const auto& [id, alloc] : d.starts) {
    if (auto it = leader_of.find(id); it != leader_of.end()) ++started[it->second];
  }
  auto whole = [&](JobId leader) {
    auto want = het_pending.find(leader);
    return want == het_pending.end() || started[leader] >= want->second;
  };
  std::erase_if(d.starts, [&](const std::pair<JobId, std::vector<NodeAlloc>>& start) {
    auto it = leader_of.find(start.first);
    if (it == leader_of.end() || whole(it->second)) return false;
    d.reasons.add(start.first, Reason::resources);
    d.time_limits.erase(start.first);
    return true;
  });
}

}  // namespace stint::sched
