#include "sched/reservation.hpp"

#include <algorithm>
#include <ctime>
#include <set>

#include <fmt/core.h>

#include "sched/plan.hpp"

namespace stint::sched {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool share_a_node(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& n) { return contains(b, n); });
}

/// slurmctld's _advance_time: the same local time `days` days (or `hours`
/// hours) later, through the calendar (a day across a DST change is 23 or
/// 25 hours).
Seconds advance(Seconds t, int days, int hours) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  tm.tm_isdst = -1;
  tm.tm_mday += days;
  tm.tm_hour += hours;
  const std::time_t out = std::mktime(&tm);
  if (out == static_cast<std::time_t>(-1)) return t + Seconds{days} * 86400 + Seconds{hours} * 3600;
  return static_cast<Seconds>(out);
}

/// A job's end as the reservation checks count it: its start plus its time
/// limit; one without a limit runs for ever.
Seconds expected_end(const Job& job) {
  if (job.time_limit == k_infinite) return k_plan_forever;
  return job.start_time + job.time_limit;
}

std::vector<std::string> job_nodes(const Job& job) {
  std::vector<std::string> out;
  for (const NodeAlloc& a : job.alloc) out.push_back(a.node);
  return out;
}

/// The blocks that hold for a job in `in`: not its own; a MAINT reservation's
/// jobs see none; an OVERLAP reservation's jobs see only MAINT ones
/// (slurmctld's job_test_resv).
bool lifted_for(const Reservation& in, const Reservation& other) {
  if (&in == &other) return true;
  if (in.flags.has(ResvFlag::maint)) return true;
  return in.flags.has(ResvFlag::overlap) && !other.flags.has(ResvFlag::maint);
}

/// A reservation that takes every node a job could use, as slurmctld counts
/// it: Nodes=ALL, all of the job's partition, or a maintenance covering it.
bool takes_whole_partition(const Reservation& r, const Job& job,
                           const std::vector<std::string>& partition_nodes) {
  if (r.flags.has(ResvFlag::all_nodes)) return true;
  if (r.flags.has(ResvFlag::part_nodes) && r.partition == job.partition) return true;
  return r.flags.has(ResvFlag::maint) && !partition_nodes.empty() &&
         std::all_of(partition_nodes.begin(), partition_nodes.end(),
                     [&](const std::string& n) { return contains(r.nodes, n); });
}

/// Whether a node offers the features a reservation asks for ("a", "a&b",
/// "a|b"; an empty list asks for none).
bool offers(const NodeDef& n, const std::string& features) {
  if (features.empty()) return true;
  const bool any = features.find('|') != std::string::npos;
  std::size_t start = 0;
  bool all_found = true;
  while (start <= features.size()) {
    std::size_t end = features.find_first_of("&|", start);
    if (end == std::string::npos) end = features.size();
    const std::string f = features.substr(start, end - start);
    start = end + 1;
    const bool has = contains(n.features, f);
    if (any && has) return true;
    all_found = all_found && has;
  }
  return !any && all_found;
}

}  // namespace

std::vector<std::string> account_chain(const Accounting& data, const std::string& account) {
  std::vector<std::string> chain;
  std::string name = account;
  // The account tree has no cycles, but a damaged database must not hang.
  while (!name.empty() && chain.size() < 64) {
    chain.push_back(name);
    const Account* a = data.find_account(name);
    if (!a) break;
    name = a->parent;
  }
  return chain;
}

bool may_use(const Reservation& r, const std::string& user, std::uint32_t uid,
             const std::vector<std::string>& accounts) {
  NameList users;
  NameList accts;
  try {
    users = name_list(r.users);
    accts = name_list(r.accounts);
  } catch (const Error&) {
    return false;  // a record stintd never writes
  }
  bool user_good = users.names.empty() || users.denied;
  if (contains(users.names, user) || contains(users.names, std::to_string(uid)))
    user_good = !users.denied;
  if (!user_good) return false;
  if (!users.names.empty() && accts.names.empty()) return true;
  bool account_good = accts.names.empty() || accts.denied;
  for (const std::string& a : accounts) {
    if (contains(accts.names, a)) {
      account_good = !accts.denied;
      break;
    }
  }
  return account_good;
}

bool windows_overlap(const Reservation& a, const Reservation& b) {
  // A week ahead: each repetition of one against each of the other, in
  // hours for an hourly one, in days otherwise (slurmctld's loop).
  const int a_steps = a.flags.has(ResvFlag::hourly) ? 7 * 24 : 7;
  const int b_steps = b.flags.has(ResvFlag::hourly) ? 7 * 24 : 7;
  auto moves = [](const Reservation& r) {
    return r.flags.has(ResvFlag::hourly) || r.flags.has(ResvFlag::daily);
  };
  for (int i = 0; i < a_steps; ++i) {
    const Seconds s1 = a_steps == 7 ? advance(a.start_time, i, 0) : advance(a.start_time, 0, i);
    const Seconds e1 = a_steps == 7 ? advance(a.end_time, i, 0) : advance(a.end_time, 0, i);
    for (int j = 0; j < b_steps; ++j) {
      const Seconds s2 = b_steps == 7 ? advance(b.start_time, j, 0) : advance(b.start_time, 0, j);
      const Seconds e2 = b_steps == 7 ? advance(b.end_time, j, 0) : advance(b.end_time, 0, j);
      if (s1 < e2 && e1 > s2) return true;
      if (!moves(b)) break;
    }
    if (!moves(a)) break;
    // Two that move at the same pace and have not met never will.
    if (a_steps == b_steps) break;
  }
  return false;
}

std::optional<Reservation> next_occurrence(const Reservation& r, Seconds now) {
  int days = 0;
  int hours = 0;
  std::time_t tt = static_cast<std::time_t>(now);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  if (r.flags.has(ResvFlag::hourly)) {
    hours = 1;
  } else if (r.flags.has(ResvFlag::daily)) {
    days = 1;
  } else if (r.flags.has(ResvFlag::weekday)) {
    days = tm.tm_wday == 5 ? 3 : tm.tm_wday == 6 ? 2 : 1;  // Friday, Saturday
  } else if (r.flags.has(ResvFlag::weekend)) {
    days = tm.tm_wday == 0 ? 6 : tm.tm_wday == 6 ? 1 : 6 - tm.tm_wday;  // Sunday, Saturday
  } else if (r.flags.has(ResvFlag::weekly)) {
    days = 7;
  } else {
    return std::nullopt;
  }
  Reservation next = r;
  next.start_time = advance(r.start_time, days, hours);
  next.end_time = advance(r.end_time, days, hours);
  next.idle_since = k_no_time;
  return next;
}

ReservationRules::ReservationRules(const std::vector<Reservation>& reservations,
                                   std::map<std::string, std::string> account_parents, Seconds now)
    : m_reservations(reservations), m_account_parents(std::move(account_parents)), m_now(now) {
  for (const Reservation& r : reservations) {
    if (r.end_time <= now) continue;
    m_windows.push_back({&r, std::max(r.start_time, now), r.end_time});
  }
}

const Reservation* ReservationRules::find(const std::string& name) const {
  for (const Reservation& r : m_reservations) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

void ReservationRules::add_blocks(Plan& plan, const Cluster& cluster, const ResvWindow& w,
                                  bool remove) const {
  for (const std::string& name : w.reservation->nodes) {
    const NodeUsage* n = cluster.find(name);
    if (!n) continue;
    ResourceRequest whole;
    whole.cpus_per_node = n->def.cpus;
    whole.gpus_per_node = n->def.gpus;
    whole.whole_node_mem = true;
    if (remove)
      plan.remove(whole, {name}, w.from, w.to - w.from);
    else
      plan.add(whole, {name}, w.from, w.to - w.from);
  }
}

void ReservationRules::block(Plan& plan, const Cluster& cluster) const {
  for (const ResvWindow& w : m_windows) add_blocks(plan, cluster, w, false);
}

void ReservationRules::lift(Plan& plan, const Cluster& cluster, const JobView& v) const {
  for (const ResvWindow& w : m_windows) {
    if (std::find(v.lifted.begin(), v.lifted.end(), w.reservation) != v.lifted.end())
      add_blocks(plan, cluster, w, true);
  }
}

void ReservationRules::restore(Plan& plan, const Cluster& cluster, const JobView& v) const {
  for (const ResvWindow& w : m_windows) {
    if (std::find(v.lifted.begin(), v.lifted.end(), w.reservation) != v.lifted.end())
      add_blocks(plan, cluster, w, false);
  }
}

ReservationRules::JobView ReservationRules::view(const Job& job,
                                                 const std::vector<std::string>& partition_nodes,
                                                 Seconds duration) const {
  JobView v;
  const Seconds end = duration >= k_plan_forever - m_now ? k_plan_forever : m_now + duration;
  const std::string& name = job.spec.options().reservation;
  if (name.empty()) {
    for (const ResvWindow& w : m_windows) {
      if (w.from < end && w.to > m_now &&
          takes_whole_partition(*w.reservation, job, partition_nodes)) {
        v.wait = Reason::reserved_for_maintenance;
        break;
      }
    }
    return v;
  }
  const Reservation* r = find(name);
  std::vector<std::string> accounts{job.account};
  for (auto it = m_account_parents.find(job.account);
       it != m_account_parents.end() && !it->second.empty() && accounts.size() < 64;
       it = m_account_parents.find(it->second))
    accounts.push_back(it->second);
  if (!r || !may_use(*r, job.user_name, job.user_id, accounts)) {
    v.wait = Reason::reservation;
    return v;
  }
  v.in = r;
  for (const ResvWindow& w : m_windows) {
    if (lifted_for(*r, *w.reservation)) v.lifted.push_back(w.reservation);
  }
  // FLEX: not bound to its nodes or its window.
  if (r->flags.has(ResvFlag::flex)) return v;
  if (m_now < r->start_time || m_now >= r->end_time) {
    v.wait = Reason::reservation;
    return v;
  }
  std::vector<std::string> nodes;
  for (const std::string& n : partition_nodes) {
    if (contains(r->nodes, n)) nodes.push_back(n);
  }
  if (nodes.empty()) {
    v.wait = Reason::reservation;
    return v;
  }
  v.nodes = std::move(nodes);
  v.latest = r->end_time - 1;
  return v;
}

std::vector<std::string> ReservationRules::blocked(const JobView& v, Seconds duration) const {
  const Seconds end = duration >= k_plan_forever - m_now ? k_plan_forever : m_now + duration;
  std::vector<std::string> out;
  for (const ResvWindow& w : m_windows) {
    if (std::find(v.lifted.begin(), v.lifted.end(), w.reservation) != v.lifted.end()) continue;
    if (w.from >= end || w.to <= m_now) continue;
    for (const std::string& n : w.reservation->nodes) {
      if (!contains(out, n)) out.push_back(n);
    }
  }
  return out;
}

std::optional<Error> reservation_conflict(const Reservation& r,
                                          const std::vector<Reservation>& others,
                                          const std::vector<const Job*>& running) {
  const bool shares = r.flags.has(ResvFlag::maint) || r.flags.has(ResvFlag::overlap);
  if (!shares) {
    for (const Reservation& o : others) {
      if (o.name == r.name) continue;
      if (o.flags.has(ResvFlag::maint) || o.flags.has(ResvFlag::overlap)) continue;
      if (!share_a_node(r.nodes, o.nodes)) continue;
      if (windows_overlap(r, o))
        return Error(Errc::reservation_overlap,
                     std::string(errc_slurm_message(Errc::reservation_overlap)));
    }
  }
  if (!r.flags.has(ResvFlag::ignore_jobs)) {
    for (const Job* job : running) {
      if (job->spec.options().reservation == r.name) continue;
      if (expected_end(*job) <= r.start_time) continue;
      if (share_a_node(job_nodes(*job), r.nodes))
        return Error(Errc::nodes_busy, std::string(errc_slurm_message(Errc::nodes_busy)));
    }
  }
  return std::nullopt;
}

std::vector<std::string> pick_reservation_nodes(const Reservation& r, std::uint32_t count,
                                                const std::vector<NodeDef>& candidates,
                                                const std::vector<std::string>& unavailable,
                                                const std::vector<Reservation>& others,
                                                const std::vector<const Job*>& running) {
  if (!r.features.empty()) {
    const bool known = std::any_of(candidates.begin(), candidates.end(),
                                   [&](const NodeDef& n) { return offers(n, r.features); });
    if (!known)
      throw Error(Errc::invalid_feature, std::string(errc_slurm_message(Errc::invalid_feature)));
  }
  std::vector<const NodeDef*> able;
  for (const NodeDef& n : candidates) {
    if (offers(n, r.features)) able.push_back(&n);
  }
  if (able.size() < count)
    throw Error(Errc::node_config_unavailable,
                std::string(errc_slurm_message(Errc::node_config_unavailable)));
  const bool shares = r.flags.has(ResvFlag::maint) || r.flags.has(ResvFlag::overlap);
  std::set<std::string> taken;
  for (const Reservation& o : others) {
    if (shares || o.name == r.name || o.flags.has(ResvFlag::maint) ||
        o.flags.has(ResvFlag::overlap) || !windows_overlap(r, o))
      continue;
    taken.insert(o.nodes.begin(), o.nodes.end());
  }
  if (!r.flags.has(ResvFlag::ignore_jobs)) {
    for (const Job* job : running) {
      if (expected_end(*job) <= r.start_time) continue;
      for (const std::string& n : job_nodes(*job)) taken.insert(n);
    }
  }
  std::vector<std::string> out;
  for (const NodeDef* n : able) {
    if (out.size() == count) break;
    if (taken.count(n->name) || contains(unavailable, n->name)) continue;
    out.push_back(n->name);
  }
  if (out.size() < count)
    throw Error(Errc::nodes_busy, std::string(errc_slurm_message(Errc::nodes_busy)));
  return out;
}

}  // namespace stint::sched
