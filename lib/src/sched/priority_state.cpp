#include "sched/priority_state.hpp"

#include <limits>
#include <optional>

#include "sched/sched.hpp"

namespace stint::sched {

UsageRecord running_record(const Job& job) {
  UsageRecord r;
  r.job_id = job.id;
  r.attempt = job.restart_count;
  r.user = job.user_name;
  r.account = job.account;
  r.qos = job.qos;
  r.partition = job.partition;
  r.start = job.start_time;
  r.end = k_no_time;
  r.tres = job_tres_counts(job);
  return r;
}

void PriorityState::load(std::vector<UsageRecord> ended, const std::vector<AssocKey>& job_assocs,
                         Seconds reset_now) {
  m_ended.clear();
  m_ended_list_stale = true;
  for (auto& r : ended) {
    if (r.end == k_no_time) continue;  // a live job: counted from the live set
    m_ended[{r.job_id, r.attempt}] = std::move(r);
  }
  m_assocs.insert(job_assocs.begin(), job_assocs.end());
  m_reset_now = reset_now;
  m_loaded = true;
}

std::vector<JobId> PriorityState::stopped_running(const std::map<JobId, Job>& live) const {
  std::vector<JobId> out;
  for (JobId id : m_running) {
    auto it = live.find(id);
    if (it == live.end() || !is_active(it->second.state)) out.push_back(id);
  }
  return out;
}

void PriorityState::add_ended(const std::vector<JobId>& jobs, std::vector<UsageRecord> ended) {
  for (JobId id : jobs) {
    auto from = m_ended.lower_bound({id, 0});
    auto to = m_ended.upper_bound({id, std::numeric_limits<std::uint32_t>::max()});
    m_ended.erase(from, to);
  }
  m_ended_list_stale = true;
  for (auto& r : ended) {
    if (r.end == k_no_time) continue;
    m_ended[{r.job_id, r.attempt}] = std::move(r);
  }
}

const std::vector<UsageRecord>& PriorityState::ended_runs() const {
  if (m_ended_list_stale) {
    m_ended_list.clear();
    m_ended_list.reserve(m_ended.size());
    for (const auto& [key, r] : m_ended) m_ended_list.push_back(r);
    m_ended_list_stale = false;
  }
  return m_ended_list;
}

bool PriorityState::due(const std::map<JobId, Job>& live, const Config& config,
                        const Accounting& accounting, Seconds now, bool stopped) const {
  if (!m_computed) return true;
  const PriorityParams params = priority_params(config);
  if (params != m_params || accounting != m_accounting) return true;
  if (now - m_calc_time >= params.calc_period) return true;
  if (params.weight_fairshare == 0) return false;
  if (stopped) return true;
  // Every pass asks this over every live job: jobs in a row mostly share
  // their association, which is then looked up once.
  const Job* last = nullptr;
  for (const auto& [id, job] : live) {
    if (last && job.user_name == last->user_name && job.account == last->account) continue;
    if (!m_assocs.count({job.user_name, job.account})) return true;
    last = &job;
  }
  return false;
}

void PriorityState::recompute(const std::map<JobId, Job>& live, const Config& config,
                              const Accounting& accounting, Seconds now) {
  std::vector<UsageRecord> records;
  records.reserve(m_ended.size() + live.size());
  for (const auto& [key, r] : m_ended) records.push_back(r);
  const Job* last = nullptr;
  for (const auto& [id, job] : live) {
    if (!last || job.user_name != last->user_name || job.account != last->account) {
      m_assocs.insert({job.user_name, job.account});
      last = &job;
    }
    if (is_active(job.state) && job.start_time != k_no_time) records.push_back(running_record(job));
  }
  m_ctx =
      priority_snapshot(config, accounting, std::vector<AssocKey>(m_assocs.begin(), m_assocs.end()),
                        std::move(records), now, m_reset_now);
  m_params = m_ctx.params;
  m_accounting = accounting;
  m_calc_time = now;
  m_computed = true;
}

std::uint32_t PriorityState::fresh_priority(const Job& job) const {
  if (!m_computed) return job_priority(job);
  return priority_factors(job, m_ctx, m_calc_time, Accruing::yes).priority;
}

namespace {

// Moves `it` to the first element of a sorted range not below `id`, and
// says whether it is `id`: for walking a sorted container beside the live
// jobs, which come in id order.
template <typename It, typename Key>
bool advance_to(It& it, It end, JobId id, Key key) {
  while (it != end && key(*it) < id) ++it;
  return it != end && key(*it) == id;
}

}  // namespace

std::vector<JobId> PriorityState::assign(std::map<JobId, Job>& live,
                                         const std::set<JobId>& eligible, Seconds now,
                                         bool recomputed) {
  return assign(live, std::vector<JobId>(eligible.begin(), eligible.end()), now, recomputed);
}

std::vector<JobId> PriorityState::assign(std::map<JobId, Job>& live,
                                         const std::vector<JobId>& eligible, Seconds now,
                                         bool recomputed) {
  std::vector<JobId> changed;
  std::vector<JobId> running;
  std::vector<JobId> waiting;
  std::vector<std::pair<JobId, std::uint32_t>> assigned;
  assigned.reserve(m_assigned.size());
  auto next_eligible = eligible.begin();
  auto next_waited = m_waiting.cbegin();
  auto next_known = m_assigned.cbegin();
  const auto self = [](JobId id) { return id; };
  for (auto& [id, job] : live) {
    const bool is_known =
        advance_to(next_known, m_assigned.cend(), id, [](const auto& e) { return e.first; });
    const std::optional<std::uint32_t> known =
        is_known ? std::optional(next_known->second) : std::nullopt;
    const bool active = is_active(job.state);
    if (active) running.push_back(id);
    const bool pending = job.state == JobState::pending;
    if (!pending && !(job.state == JobState::running && m_params.flags.calculate_running)) {
      if (known) assigned.emplace_back(id, *known);
      continue;
    }
    bool touched = false;
    const bool held = pending && job.hold_reason != Reason::none;
    const bool waits = pending && (held || !advance_to(next_eligible, eligible.end(), id, self));
    const bool waited = advance_to(next_waited, m_waiting.cend(), id, self);
    if (waits) waiting.push_back(id);
    if (waited && !waits && job.eligible_time < now) {
      // Its wait counts from now on (Slurm's accrue time).
      job.eligible_time = now;
      touched = true;
    }
    std::optional<std::uint32_t> given = known;
    if (!held && job.spec.fixed_priority) {
      if (job.priority != *job.spec.fixed_priority) {
        job.priority = *job.spec.fixed_priority;
        touched = true;
      }
    } else if (!held && (recomputed || !known || job.priority != *known || waited != waits)) {
      const std::uint32_t p =
          priority_factors(job, m_ctx, m_calc_time, waits ? Accruing::no : Accruing::yes).priority;
      given = p;
      if (job.priority != p) {
        job.priority = p;
        touched = true;
      }
    }
    if (given) assigned.emplace_back(id, *given);
    if (touched) changed.push_back(id);
  }
  // Built in the live jobs' order: sorted, and without the jobs no longer live.
  m_running = std::move(running);
  m_waiting = std::move(waiting);
  m_assigned = std::move(assigned);
  return changed;
}

}  // namespace stint::sched
