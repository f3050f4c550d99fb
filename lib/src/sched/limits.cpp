// Association and QOS limits: which apply to a job (the hierarchy in
// limits.hpp), and the counting that tells whether one more job may be
// submitted or started.

#include "sched/limits.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace stint::sched {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The reasons a limit on one TRES gives, by where the limit is set.
struct TresReasons {
  std::string_view tres;
  Reason assoc_grp;
  Reason assoc_per_job;
  Reason assoc_per_node;
  Reason qos_grp;
  Reason qos_per_job;
  Reason qos_per_node;
  Reason qos_per_user;
};

constexpr std::array k_tres_reasons = {
    TresReasons{"cpu", Reason::assoc_grp_cpu_limit, Reason::assoc_max_cpu_per_job_limit,
                Reason::assoc_max_cpu_per_node, Reason::qos_grp_cpu_limit,
                Reason::qos_max_cpu_per_job_limit, Reason::qos_max_cpu_per_node,
                Reason::qos_max_cpu_per_user_limit},
    TresReasons{"mem", Reason::assoc_grp_mem_limit, Reason::assoc_max_mem_per_job,
                Reason::assoc_max_mem_per_node, Reason::qos_grp_mem_limit,
                Reason::qos_max_memory_per_job, Reason::qos_max_memory_per_node,
                Reason::qos_max_memory_per_user},
    TresReasons{"node", Reason::assoc_grp_node_limit, Reason::assoc_max_node_per_job_limit,
                Reason::none, Reason::qos_grp_node_limit, Reason::qos_max_node_per_job_limit,
                Reason::none, Reason::qos_max_node_per_user_limit},
    TresReasons{"gres/gpu", Reason::assoc_grp_gres, Reason::assoc_max_gres_per_job,
                Reason::assoc_max_gres_per_node, Reason::qos_grp_gres, Reason::qos_max_gres_per_job,
                Reason::qos_max_gres_per_node, Reason::qos_max_gres_per_user},
    TresReasons{"billing", Reason::assoc_grp_billing, Reason::assoc_max_billing_per_job,
                Reason::assoc_max_billing_per_node, Reason::qos_grp_billing,
                Reason::qos_max_billing_per_job, Reason::qos_max_billing_per_node,
                Reason::qos_max_billing_per_user},
};

std::int64_t amount(const Tres& t, std::string_view name) {
  auto it = t.find(std::string(name));
  return it == t.end() ? 0 : it->second;
}

bool has(const Tres& t, std::string_view name) { return t.count(std::string(name)) != 0; }

// The TRES of one node of a job's request (MaxTRESPerNode).
Tres per_node_tres(const Job& job, std::uint64_t node_mem_mb) {
  const ResourceRequest& r = job.req;
  const std::uint64_t mem = r.whole_node_mem ? node_mem_mb : r.mem_per_node_mb;
  return {{"cpu", r.cpus_per_node},
          {"mem", static_cast<std::int64_t>(mem)},
          {"gres/gpu", r.gpus_per_node},
          {"billing", r.cpus_per_node}};
}

// A per-job limit that `tres` exceeds: QOS first, then the association chain
// (the nearest level that sets a TRES decides it).
std::optional<Reason> over_per_job(const JobLimits& jl, const Tres& tres, bool per_node) {
  for (const auto& row : k_tres_reasons) {
    const std::int64_t want = amount(tres, row.tres);
    if (jl.qos) {
      const Tres& lim =
          per_node ? jl.qos->limits.max_tres_per_node : jl.qos->limits.max_tres_per_job;
      if (has(lim, row.tres)) {
        if (want > amount(lim, row.tres)) return per_node ? row.qos_per_node : row.qos_per_job;
        continue;
      }
    }
    for (const Association* a : jl.chain) {
      const Tres& lim = per_node ? a->limits.max_tres_per_node : a->limits.max_tres_per_job;
      if (has(lim, row.tres)) {
        if (want > amount(lim, row.tres)) return per_node ? row.assoc_per_node : row.assoc_per_job;
        break;
      }
    }
  }
  return std::nullopt;
}

// The first value a chain sets for a Max* limit.
template <typename Get>
auto first_set(const std::vector<const Association*>& chain, Get get)
    -> std::remove_cvref_t<decltype(get(*chain.front()))> {
  for (const Association* a : chain) {
    if (auto v = get(*a)) return v;
  }
  return std::nullopt;
}

bool over_wall(const Job& job, Seconds max_wall) {
  return job.time_limit == k_infinite || job.time_limit > max_wall;
}

}  // namespace

Enforcement enforcement(const Config& config) {
  Enforcement e;
  const std::string words = lower(config.conf("AccountingStorageEnforce").value_or(""));
  std::size_t start = 0;
  while (start <= words.size()) {
    std::size_t end = words.find(',', start);
    if (end == std::string::npos) end = words.size();
    const std::string w = words.substr(start, end - start);
    if (w == "associations") e.associations = true;
    if (w == "limits") e.associations = e.limits = true;
    if (w == "qos") e.associations = e.qos = true;
    if (w == "safe") e.associations = e.limits = e.safe = true;
    if (w == "all") e.associations = e.limits = e.qos = e.safe = true;
    start = end + 1;
  }
  return e;
}

Tres job_tres(const Job& job, std::uint64_t node_mem_mb) {
  std::int64_t cpus = 0;
  std::int64_t mem = 0;
  std::int64_t gpus = 0;
  std::int64_t nodes = 0;
  if (!job.alloc.empty()) {
    for (const auto& a : job.alloc) {
      cpus += a.cpus;
      mem += static_cast<std::int64_t>(a.mem_mb);
      gpus += static_cast<std::int64_t>(a.gpu_ids.size());
    }
    nodes = static_cast<std::int64_t>(job.alloc.size());
  } else {
    const ResourceRequest& r = job.req;
    nodes = r.nodes;
    cpus = static_cast<std::int64_t>(r.cpus_per_node) * nodes;
    mem = static_cast<std::int64_t>(r.whole_node_mem ? node_mem_mb : r.mem_per_node_mb) * nodes;
    gpus = static_cast<std::int64_t>(r.gpus_per_node) * nodes;
  }
  return {{"cpu", cpus}, {"mem", mem}, {"node", nodes}, {"gres/gpu", gpus}, {"billing", cpus}};
}

JobLimits job_limits(const Accounting& data, const Job& job) {
  JobLimits jl;
  jl.assoc = job_association(data, job.account, job.user_name, job.partition);
  if (jl.assoc) jl.chain = association_chain(data, *jl.assoc);
  jl.qos = data.find_qos(job.qos);
  if (jl.qos && jl.qos->limits.max_wall) {
    jl.max_wall = jl.qos->limits.max_wall;
    jl.max_wall_reason = Reason::qos_max_wall_duration_per_job_limit;
  } else if (!jl.chain.empty()) {
    jl.max_wall = first_set(jl.chain, [](const Association& a) { return a.limits.max_wall; });
    if (jl.max_wall) jl.max_wall_reason = Reason::assoc_max_wall_duration_per_job_limit;
  }
  return jl;
}

std::optional<Reason> job_size_blocker(const Accounting& data, const Job& job,
                                       std::uint64_t node_mem_mb) {
  const JobLimits jl = job_limits(data, job);
  if (jl.max_wall && over_wall(job, *jl.max_wall)) return jl.max_wall_reason;
  if (auto r = over_per_job(jl, job_tres(job, node_mem_mb), false)) return r;
  return over_per_job(jl, per_node_tres(job, node_mem_mb), true);
}

LimitTracker::LimitTracker(const Accounting& data, std::uint64_t node_mem_mb)
    : m_data(data), m_node_mem_mb(node_mem_mb) {}

const JobLimits& LimitTracker::limits_of(const Job& job) const {
  auto key = std::make_tuple(job.account, job.user_name, job.partition, job.qos);
  auto it = m_cache.find(key);
  if (it == m_cache.end()) it = m_cache.emplace(std::move(key), job_limits(m_data, job)).first;
  return it->second;
}

void LimitTracker::count(const Job& job, bool running, bool submitted) {
  const JobLimits& jl = limits_of(job);
  const Tres tres = running ? job_tres(job, m_node_mem_mb) : Tres{};
  // An array's record stands for each task it holds, as slurmctld counts
  // them against MaxSubmitJobs.
  const auto jobs = static_cast<std::int64_t>(job.is_array_record() ? job.array_pending.size() : 1);
  auto add_to = [&](Usage& u) {
    if (running) ++u.running;
    if (submitted) u.submitted += jobs;
    for (const auto& [name, value] : tres) u.tres[name] += value;
  };
  if (jl.assoc) {
    add_to(m_own[jl.assoc->id]);
    for (const Association* a : jl.chain) add_to(m_grp[a->id]);
  }
  add_to(m_qos[job.qos]);
  add_to(m_qos_user[{job.qos, job.user_name}]);
  if (running && m_clock) {
    const auto [used, left] = running_time(job, *m_clock);
    count_time(jl, job.qos, tres, used, left);
  }
}

void LimitTracker::add(const Job& job) {
  if (is_terminal(job.state)) return;
  count(job, is_active(job.state), true);
}

void LimitTracker::started(const Job& job) { count(job, true, false); }

std::optional<Reason> LimitTracker::run_blocker(const Job& job) const {
  const JobLimits& jl = limits_of(job);
  const QosLimits* q = jl.qos ? &jl.qos->limits : nullptr;
  static const Usage k_none;
  auto usage = [](const auto& map, const auto& key) -> const Usage& {
    auto it = map.find(key);
    return it == map.end() ? k_none : it->second;
  };
  const Usage& qos_all = usage(m_qos, job.qos);
  const Usage& qos_user = usage(m_qos_user, std::make_pair(job.qos, job.user_name));

  // Job counts and wall time: the QOS, then the association chain.
  if (q && q->grp_jobs && qos_all.running + 1 > *q->grp_jobs) return Reason::qos_grp_jobs_limit;
  if (q && q->max_jobs_per_user && qos_user.running + 1 > *q->max_jobs_per_user)
    return Reason::qos_max_jobs_per_user_limit;
  if (jl.max_wall && over_wall(job, *jl.max_wall)) return jl.max_wall_reason;
  if (jl.assoc) {
    if (!(q && q->grp_jobs)) {
      for (const Association* a : jl.chain) {
        if (a->limits.grp_jobs && usage(m_grp, a->id).running + 1 > *a->limits.grp_jobs)
          return Reason::assoc_grp_jobs_limit;
      }
    }
    if (!(q && q->max_jobs_per_user)) {
      auto max_jobs = first_set(jl.chain, [](const Association& a) { return a.limits.max_jobs; });
      if (max_jobs && usage(m_own, jl.assoc->id).running + 1 > *max_jobs)
        return Reason::assoc_max_jobs_limit;
    }
  }

  // TRES: the QOS's aggregate and per-user limits, then the chain's Grp
  // limits (each level over the jobs beneath it), then the per-job ones.
  const Tres want = job_tres(job, m_node_mem_mb);
  for (const auto& row : k_tres_reasons) {
    const std::int64_t n = amount(want, row.tres);
    if (q && has(q->grp_tres, row.tres)) {
      if (amount(qos_all.tres, row.tres) + n > amount(q->grp_tres, row.tres)) return row.qos_grp;
    } else if (jl.assoc) {
      for (const Association* a : jl.chain) {
        if (has(a->limits.grp_tres, row.tres) &&
            amount(usage(m_grp, a->id).tres, row.tres) + n > amount(a->limits.grp_tres, row.tres))
          return row.assoc_grp;
      }
    }
    if (q && has(q->max_tres_per_user, row.tres) &&
        amount(qos_user.tres, row.tres) + n > amount(q->max_tres_per_user, row.tres))
      return row.qos_per_user;
  }
  if (auto r = time_blocker(job)) return r;
  if (auto r = over_per_job(jl, want, false)) return r;
  return over_per_job(jl, per_node_tres(job, m_node_mem_mb), true);
}

std::optional<Reason> LimitTracker::submit_blocker(const Job& job, std::uint32_t n) const {
  const JobLimits& jl = limits_of(job);
  const QosLimits* q = jl.qos ? &jl.qos->limits : nullptr;
  auto submitted = [](const auto& map, const auto& key) -> std::int64_t {
    auto it = map.find(key);
    return it == map.end() ? 0 : it->second.submitted;
  };
  if (q && q->grp_submit_jobs && submitted(m_qos, job.qos) + n > *q->grp_submit_jobs)
    return Reason::qos_grp_submit_jobs_limit;
  if (q && q->max_submit_jobs_per_user &&
      submitted(m_qos_user, std::make_pair(job.qos, job.user_name)) + n >
          *q->max_submit_jobs_per_user)
    return Reason::qos_max_submit_job_per_user_limit;
  if (!jl.assoc) return std::nullopt;
  if (!(q && q->grp_submit_jobs)) {
    for (const Association* a : jl.chain) {
      if (a->limits.grp_submit_jobs && submitted(m_grp, a->id) + n > *a->limits.grp_submit_jobs)
        return Reason::assoc_grp_submit_jobs_limit;
    }
  }
  if (!(q && q->max_submit_jobs_per_user)) {
    auto max_submit =
        first_set(jl.chain, [](const Association& a) { return a.limits.max_submit_jobs; });
    if (max_submit && submitted(m_own, jl.assoc->id) + n > *max_submit)
      return Reason::assoc_max_submit_job_limit;
  }
  return std::nullopt;
}

}  // namespace stint::sched
