// The limits over time: GrpTRESMins, GrpTRESRunMins, GrpWall and
// MaxTRESMins (limits.hpp says how each is counted). slurmctld checks them in
// acct_policy.c against usage its decay thread keeps; here the usage is
// computed from the runs and the clock each time a tracker is built.

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "sched/limits.hpp"

namespace stint::sched {
namespace {

constexpr double k_forever = std::numeric_limits<double>::infinity();

// The reasons a limit over time on one TRES gives, by where it is set.
struct MinutesReasons {
  std::string_view tres;
  Reason assoc_grp_mins;
  Reason assoc_grp_run_mins;
  Reason assoc_max_mins;
  Reason qos_grp_mins;
  Reason qos_grp_run_mins;
  Reason qos_max_mins;
};

constexpr std::array k_minutes_reasons = {
    MinutesReasons{
        "cpu", Reason::assoc_grp_cpu_minutes_limit, Reason::assoc_grp_cpu_run_minutes_limit,
        Reason::assoc_max_cpu_minutes_per_job_limit, Reason::qos_grp_cpu_minutes_limit,
        Reason::qos_grp_cpu_run_minutes_limit, Reason::qos_max_cpu_minutes_per_job_limit},
    MinutesReasons{"mem", Reason::assoc_grp_mem_minutes, Reason::assoc_grp_mem_run_minutes,
                   Reason::assoc_max_mem_minutes_per_job, Reason::qos_grp_memory_minutes,
                   Reason::qos_grp_memory_run_minutes, Reason::qos_max_memory_minutes_per_job},
    MinutesReasons{"node", Reason::assoc_grp_node_minutes, Reason::assoc_grp_node_run_minutes,
                   Reason::assoc_max_node_minutes_per_job, Reason::qos_grp_node_minutes,
                   Reason::qos_grp_node_run_minutes, Reason::qos_max_node_minutes_per_job},
    MinutesReasons{"gres/gpu", Reason::assoc_grp_gres_minutes, Reason::assoc_grp_gres_run_minutes,
                   Reason::assoc_max_gres_minutes_per_job, Reason::qos_grp_gres_minutes,
                   Reason::qos_grp_gres_run_minutes, Reason::qos_max_gres_minutes_per_job},
    MinutesReasons{"billing", Reason::assoc_grp_billing_minutes,
                   Reason::assoc_grp_billing_run_minutes, Reason::assoc_max_billing_minutes_per_job,
                   Reason::qos_grp_billing_minutes, Reason::qos_grp_billing_run_minutes,
                   Reason::qos_max_billing_minutes_per_job},
};

bool has(const Tres& t, std::string_view name) { return t.count(std::string(name)) != 0; }

// A limit in TRES-minutes, in TRES-seconds.
double limit_secs(const Tres& t, std::string_view name) {
  return 60.0 * static_cast<double>(t.at(std::string(name)));
}

double amount(const Tres& t, std::string_view name) {
  auto it = t.find(std::string(name));
  return it == t.end() ? 0 : static_cast<double>(it->second);
}

double get(const std::map<std::string, double>& m, std::string_view name) {
  auto it = m.find(std::string(name));
  return it == m.end() ? 0 : it->second;
}

double time_limit_secs(const Job& job) {
  return job.time_limit == k_infinite ? k_forever : static_cast<double>(job.time_limit);
}

bool any_time_limit(const AssocLimits& l) {
  return !l.grp_tres_mins.empty() || !l.grp_tres_run_mins.empty() || l.grp_wall ||
         !l.max_tres_mins_per_job.empty();
}

bool any_time_limit(const QosLimits& l) {
  return !l.grp_tres_mins.empty() || !l.grp_tres_run_mins.empty() || l.grp_wall ||
         !l.max_tres_mins_per_job.empty();
}

// GrpTRESMins of one TRES at one level: already at the limit, or (safe) the
// job's whole time would not fit beside the running jobs' time left.
bool over_grp_mins(double limit, double used, double run, double want, bool safe) {
  if (used >= limit) return true;
  return safe && (want > limit || want + run > limit - used);
}

// GrpWall at one level. Slurm's safe check adds the job's time limit to the
// decayed wall time, but not the running jobs' time left.
bool over_grp_wall(Seconds limit, double used, double time, bool safe) {
  const double l = static_cast<double>(limit);
  return used >= l || (safe && used + time > l);
}

// MaxTRESMins: the QOS's on a TRES, else the first level of the chain that
// sets it.
std::optional<Reason> job_max_minutes(const JobLimits& jl, const Tres& want, double time) {
  for (const auto& row : k_minutes_reasons) {
    const double n = amount(want, row.tres);
    const double job_secs = n == 0 ? 0 : n * time;
    if (jl.qos && has(jl.qos->limits.max_tres_mins_per_job, row.tres)) {
      if (job_secs > limit_secs(jl.qos->limits.max_tres_mins_per_job, row.tres))
        return row.qos_max_mins;
      continue;
    }
    for (const Association* a : jl.chain) {
      if (!has(a->limits.max_tres_mins_per_job, row.tres)) continue;
      if (job_secs > limit_secs(a->limits.max_tres_mins_per_job, row.tres))
        return row.assoc_max_mins;
      break;
    }
  }
  return std::nullopt;
}

// QOS flags are kept as typed.
bool is_deny_on_limit(const std::string& flag) {
  std::string f(flag);
  for (char& c : f) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return f == "denyonlimit";
}

}  // namespace

UsageClock usage_clock(const Config& config, Seconds now, Seconds reset_now) {
  UsageClock c;
  c.now = now;
  c.half_life = std::max<Seconds>(0, config.conf_time("PriorityDecayHalfLife"));
  c.since =
      usage_reset_since(config.conf("PriorityUsageResetPeriod").value_or("NONE"), now, reset_now);
  c.safe = enforcement(config).safe;
  return c;
}

std::pair<double, double> running_time(const Job& job, const UsageClock& clock) {
  // A job starting in this pass may still carry a requeued run's start time.
  if (job.start_time == k_no_time || !is_active(job.state)) return {0.0, time_limit_secs(job)};
  UsageRecord r;
  r.start = job.start_time;
  r.billing = 1;
  const double used = decayed_usage(r, clock.now, clock.half_life, clock.since);
  const double left =
      job.time_limit == k_infinite
          ? k_forever
          : static_cast<double>(std::max<Seconds>(0, job.start_time + job.time_limit - clock.now));
  return {used, left};
}

void LimitTracker::track_usage(const UsageClock& clock, const std::vector<UsageRecord>& ended) {
  const bool wanted = std::any_of(m_data.associations.begin(), m_data.associations.end(),
                                  [](const Association& a) { return any_time_limit(a.limits); }) ||
                      std::any_of(m_data.qos.begin(), m_data.qos.end(),
                                  [](const Qos& q) { return any_time_limit(q.limits); });
  if (!wanted) return;
  m_clock = clock;
  for (const UsageRecord& r : ended) {
    if (r.end == k_no_time) continue;
    UsageRecord wall = r;
    wall.billing = 1;
    const double used = decayed_usage(wall, clock.now, clock.half_life, clock.since);
    if (used <= 0) continue;
    Job as_job;
    as_job.account = r.account;
    as_job.user_name = r.user;
    as_job.partition = r.partition;
    as_job.qos = r.qos;
    const Tres tres = {{"cpu", static_cast<std::int64_t>(r.tres.cpu)},
                       {"mem", static_cast<std::int64_t>(r.tres.mem_mb)},
                       {"node", static_cast<std::int64_t>(r.tres.node)},
                       {"gres/gpu", static_cast<std::int64_t>(r.tres.gpu)},
                       {"billing", static_cast<std::int64_t>(r.tres.cpu)}};
    count_time(limits_of(as_job), r.qos, tres, used, 0);
  }
}

void LimitTracker::count_time(const JobLimits& jl, const std::string& qos, const Tres& tres,
                              double used, double left) {
  const Qos* q = m_data.find_qos(qos);
  const double factor = q ? q->usage_factor : 1.0;
  auto add_to = [&](Usage& u) {
    u.wall += used;
    for (const auto& [name, n] : tres) {
      const double count = static_cast<double>(n);
      if (count == 0) continue;
      u.used_secs[name] += count * used * factor;
      u.run_secs[name] += count * left;
    }
  };
  for (const Association* a : jl.chain) add_to(m_grp[a->id]);
  add_to(m_qos[qos]);
}

std::optional<Reason> LimitTracker::time_blocker(const Job& job) const {
  if (!m_clock) return std::nullopt;
  const JobLimits& jl = limits_of(job);
  const Tres want = job_tres(job, m_node_mem_mb);
  const bool safe = m_clock->safe;
  static const Usage k_none;
  auto usage = [](const auto& map, const auto& key) -> const Usage& {
    auto it = map.find(key);
    return it == map.end() ? k_none : it->second;
  };
  const QosLimits* q = jl.qos ? &jl.qos->limits : nullptr;
  const Usage& in_qos = usage(m_qos, job.qos);
  const double time = time_limit_secs(job);

  if (q && q->grp_wall) {
    if (over_grp_wall(*q->grp_wall, in_qos.wall, time, safe)) return Reason::qos_grp_wall_limit;
  } else {
    for (const Association* a : jl.chain) {
      if (a->limits.grp_wall &&
          over_grp_wall(*a->limits.grp_wall, usage(m_grp, a->id).wall, time, safe))
        return Reason::assoc_grp_wall_limit;
    }
  }

  for (const auto& row : k_minutes_reasons) {
    const double n = amount(want, row.tres);
    const double job_secs = n == 0 ? 0 : n * time;
    if (q && has(q->grp_tres_mins, row.tres)) {
      if (over_grp_mins(limit_secs(q->grp_tres_mins, row.tres), get(in_qos.used_secs, row.tres),
                        get(in_qos.run_secs, row.tres), job_secs, safe))
        return row.qos_grp_mins;
    } else {
      for (const Association* a : jl.chain) {
        if (!has(a->limits.grp_tres_mins, row.tres)) continue;
        const Usage& u = usage(m_grp, a->id);
        if (over_grp_mins(limit_secs(a->limits.grp_tres_mins, row.tres), get(u.used_secs, row.tres),
                          get(u.run_secs, row.tres), job_secs, safe))
          return row.assoc_grp_mins;
      }
    }
    // GrpTRESRunMins is always checked as "safe": what runs must fit.
    if (q && has(q->grp_tres_run_mins, row.tres)) {
      if (job_secs + get(in_qos.run_secs, row.tres) > limit_secs(q->grp_tres_run_mins, row.tres))
        return row.qos_grp_run_mins;
    } else {
      for (const Association* a : jl.chain) {
        if (has(a->limits.grp_tres_run_mins, row.tres) &&
            job_secs + get(usage(m_grp, a->id).run_secs, row.tres) >
                limit_secs(a->limits.grp_tres_run_mins, row.tres))
          return row.assoc_grp_run_mins;
      }
    }
  }
  return job_max_minutes(jl, want, time);
}

bool deny_on_limit(const Accounting& data, const Job& job) {
  const Qos* qos = data.find_qos(job.qos);
  return qos && std::any_of(qos->flags.begin(), qos->flags.end(), is_deny_on_limit);
}

std::optional<Reason> job_minutes_refusal(const Accounting& data, const Job& job,
                                          std::uint64_t node_mem_mb) {
  if (!deny_on_limit(data, job)) return std::nullopt;
  // A tracker that sees no usage, with safe on: what it still refuses, no
  // usage could allow.
  LimitTracker empty(data, node_mem_mb);
  UsageClock clock;
  clock.safe = true;
  empty.track_usage(clock, {});
  return empty.time_blocker(job);
}

std::optional<Seconds> minutes_time_limit(const Accounting& data, const Job& job,
                                          std::uint64_t node_mem_mb) {
  const JobLimits jl = job_limits(data, job);
  const Tres want = job_tres(job, node_mem_mb);
  std::optional<Seconds> out;
  auto take = [&](Seconds t) {
    // A limit too small for even a minute gives no default: the job then
    // waits (or is refused) with the limit's reason.
    if (t > 0 && (!out || t < *out)) out = t;
  };
  // As _validate_time_limit: whole minutes of the limit over the job's count.
  auto per_tres = [&](const Tres& limits, const Tres* replaced_by) {
    for (const auto& [name, limit] : limits) {
      if (replaced_by && replaced_by->count(name)) continue;
      const auto n = static_cast<std::int64_t>(amount(want, name));
      if (n > 0) take(limit / n * 60);
    }
  };
  const QosLimits* q = jl.qos ? &jl.qos->limits : nullptr;
  if (q) {
    per_tres(q->max_tres_mins_per_job, nullptr);
    per_tres(q->grp_tres_mins, nullptr);
    per_tres(q->grp_tres_run_mins, nullptr);
    if (q->grp_wall) take(*q->grp_wall);
  }
  Tres max_mins;  // MaxTRESMins: the nearest level's for each TRES
  for (const Association* a : jl.chain) {
    per_tres(a->limits.grp_tres_mins, q ? &q->grp_tres_mins : nullptr);
    per_tres(a->limits.grp_tres_run_mins, q ? &q->grp_tres_run_mins : nullptr);
    if (a->limits.grp_wall && !(q && q->grp_wall)) take(*a->limits.grp_wall);
    for (const auto& [name, limit] : a->limits.max_tres_mins_per_job) max_mins.emplace(name, limit);
  }
  per_tres(max_mins, q ? &q->max_tres_mins_per_job : nullptr);
  return out;
}

}  // namespace stint::sched
