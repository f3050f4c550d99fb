// Advance reservations, the controller's side: creating, changing and
// deleting them as slurmctld's reservation.c does (the pure checks are in
// sched/reservation.cpp), and what happens at their start and end.

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/core.h>
#include <pwd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "daemon/spool.hpp"
#include "sched/limits.hpp"
#include "sched/reservation.hpp"

namespace stint::daemon {
namespace {

// slurmctld's limits: a start or end more than this far in the past is
// refused (MAX_RESV_DELAY), and UNLIMITED is a year (YEAR_SECONDS).
constexpr Seconds k_max_resv_delay = 600;
constexpr Seconds k_year = Seconds{365} * 24 * 60 * 60;

Error refusal(Errc code) { return Error(code, std::string(errc_slurm_message(code))); }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// Slurm's uid_from_string: a user name, or a uid that exists.
bool user_exists(const std::string& name) {
  if (::getpwnam(name.c_str()) != nullptr) return true;
  std::uint32_t uid = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), uid);
  return ec == std::errc() && end == name.data() + name.size() && ::getpwuid(uid) != nullptr;
}

/// Users=: every name a user (refused as slurmctld does: "Invalid user id").
void check_users(const std::string& users) {
  if (users.empty()) return;
  NameList list;
  try {
    list = name_list(users);
  } catch (const Error&) {
    throw refusal(Errc::invalid_user);
  }
  for (const std::string& u : list.names) {
    if (!user_exists(u)) throw refusal(Errc::invalid_user);
  }
}

/// Accounts=: when associations are enforced, each must exist.
void check_accounts(const std::string& accounts, const Config& config, const Accounting& data) {
  if (accounts.empty()) return;
  NameList list;
  try {
    list = name_list(accounts);
  } catch (const Error&) {
    throw refusal(Errc::invalid_account);
  }
  if (!sched::enforcement(config).associations) return;
  for (const std::string& a : list.names) {
    if (!data.find_account(a)) throw refusal(Errc::invalid_account);
  }
}

/// The first name of Accounts= (else Users=), without a leading '-': the
/// prefix slurmctld gives a generated name.
std::string name_key(const Reservation& r) {
  std::string key = !r.accounts.empty() ? r.accounts : !r.users.empty() ? r.users : "resv";
  if (!key.empty() && key.front() == '-') key.erase(0, 1);
  return key.substr(0, key.find(','));
}

bool names(const Job& job, const Reservation& r) {
  return job.spec.options().reservation == r.name;
}

}  // namespace

void Controller::load_reservations() { m_reservations = m_store->reservations(); }

std::uint32_t Controller::next_reservation_id() {
  std::uint32_t id = 1;
  if (auto text = m_store->meta("next_resv_id"))
    std::from_chars(text->data(), text->data() + text->size(), id);
  // Slurm's top_suffix wraps at MAX_RESV_COUNT and skips ids in use.
  for (int tries = 0; tries < 10000; ++tries) {
    if (id == 0 || id > 9999) id = 1;
    const bool used = std::any_of(m_reservations.begin(), m_reservations.end(),
                                  [&](const Reservation& r) { return r.id == id; });
    if (!used) return id;
    ++id;
  }
  throw refusal(Errc::reservation_invalid);
}

void Controller::save_reservation(const Reservation& r, std::uint32_t next_id) {
  Store::Transaction tx(*m_store);
  m_store->put_reservation(r);
  m_store->set_meta("next_resv_id", std::to_string(next_id));
  tx.commit();
  auto it = std::find_if(m_reservations.begin(), m_reservations.end(),
                         [&](const Reservation& x) { return x.name == r.name; });
  if (it != m_reservations.end())
    *it = r;
  else
    m_reservations.insert(std::upper_bound(m_reservations.begin(), m_reservations.end(), r,
                                           [](const Reservation& a, const Reservation& b) {
                                             return a.name < b.name;
                                           }),
                          r);
  m_dirty = true;
}

std::string Controller::create_reservation(const ReservationRequest& req) {
  const Seconds t = now();
  Reservation r;
  r.flags = req.flags_set;
  r.start_time = req.start_time.value_or(t);
  if (r.start_time < t - k_max_resv_delay) throw refusal(Errc::invalid_time_value);
  if (req.end_time) {
    if (*req.end_time < t - k_max_resv_delay) throw refusal(Errc::invalid_time_value);
    r.end_time = *req.end_time;
    // Both given (scontrol checked they agree): the duration is kept too.
    if (req.duration && *req.duration != k_infinite) r.duration = *req.duration;
  } else if (req.duration && *req.duration != k_infinite && *req.duration > 0) {
    r.end_time = r.start_time + *req.duration;
    r.duration = *req.duration;
  } else {
    // UNLIMITED (and a zero duration, which Slurm leaves without an end): a year.
    r.end_time = r.start_time + k_year;
    r.duration = k_year;
  }
  const PartitionConfig* part = nullptr;
  if (req.partition) {
    part = m_config.find_partition(*req.partition);
    if (!part) throw refusal(Errc::invalid_partition);
    r.partition = part->id;
  } else if (r.flags.has(ResvFlag::part_nodes)) {
    throw refusal(Errc::invalid_partition);
  }
  const bool all = req.nodes && iequals(*req.nodes, "ALL");
  if (r.flags.has(ResvFlag::part_nodes) && !all) throw refusal(Errc::invalid_node_name);
  r.users = req.users.value_or("");
  r.accounts = req.accounts.value_or("");
  if (r.users.empty() && r.accounts.empty()) throw refusal(Errc::reservation_empty);
  check_accounts(r.accounts, m_config, accounting());
  check_users(r.users);
  r.features = req.features.value_or("");
  if (req.purge_comp_time) r.purge_comp_time = *req.purge_comp_time;

  std::vector<const Job*> running;
  for (const auto& [id, job] : m_live) {
    if (is_active(job.state)) running.push_back(&job);
  }
  if (req.nodes) {
    r.flags.set(ResvFlag::spec_nodes);
    if (all) {
      if (part && r.flags.has(ResvFlag::part_nodes)) {
        for (const NodeDef& n : m_config.partition_nodes(*part)) r.nodes.push_back(n.name);
      } else {
        r.flags.clear(ResvFlag::part_nodes);
        r.flags.set(ResvFlag::all_nodes);
        for (const NodeDef& n : m_config.nodes()) r.nodes.push_back(n.name);
      }
    } else {
      std::vector<std::string> named;
      try {
        named = parse::expand_hostlist(*req.nodes);
      } catch (const Error&) {
        throw refusal(Errc::invalid_node_name);
      }
      // In config order, once each, as a node bitmap lists them.
      for (const NodeDef& n : m_config.nodes()) {
        if (std::find(named.begin(), named.end(), n.name) != named.end()) r.nodes.push_back(n.name);
      }
      for (const std::string& n : named) {
        if (std::find(r.nodes.begin(), r.nodes.end(), n) == r.nodes.end())
          throw refusal(Errc::invalid_node_name);
      }
    }
    if (r.nodes.empty()) throw refusal(Errc::invalid_node_name);
    if (auto conflict = sched::reservation_conflict(r, m_reservations, running)) throw *conflict;
  } else {
    if (!req.node_count || *req.node_count == 0) throw refusal(Errc::invalid_node_name);
    if (!part) {
      part = m_config.default_partition();
      if (!part)
        throw Error(Errc::invalid_partition, "No partition specified or system default partition");
      r.partition = part->id;
    }
    std::vector<std::string> unavailable;
    for (const auto& [name, status] : m_node_states) unavailable.push_back(name);
    r.nodes = sched::pick_reservation_nodes(r, *req.node_count, m_config.partition_nodes(*part),
                                            unavailable, m_reservations, running);
  }

  std::uint32_t id = next_reservation_id();
  if (req.name && !req.name->empty()) {
    r.name = *req.name;
    const bool taken = std::any_of(m_reservations.begin(), m_reservations.end(),
                                   [&](const Reservation& x) { return x.name == r.name; });
    if (taken) throw refusal(Errc::reservation_name_dup);
  } else {
    // <first account or user>_<id>, the id moving on past names in use.
    for (;;) {
      r.name = fmt::format("{}_{}", name_key(r), id);
      const bool taken = std::any_of(m_reservations.begin(), m_reservations.end(),
                                     [&](const Reservation& x) { return x.name == r.name; });
      if (!taken) break;
      ++id;
    }
  }
  r.id = id;
  save_reservation(r, id + 1);
  log_info("reservation {} created: nodes {} from {} to {} users {} accounts {} flags {}", r.name,
           parse::compress_hostlist(r.nodes), r.start_time, r.end_time, r.users, r.accounts,
           reservation_flags_text(r));
  return r.name;
}

void Controller::update_reservation(const ReservationRequest& req) {
  const Seconds t = now();
  auto it = std::find_if(m_reservations.begin(), m_reservations.end(),
                         [&](const Reservation& x) { return req.name && x.name == *req.name; });
  if (it == m_reservations.end()) throw refusal(Errc::reservation_invalid);
  Reservation r = *it;  // changed as a copy: a refusal leaves the original

  // Flags: those update_resv sets and clears.
  for (ResvFlag f : {ResvFlag::flex, ResvFlag::maint, ResvFlag::overlap, ResvFlag::ignore_jobs,
                     ResvFlag::hourly, ResvFlag::daily, ResvFlag::weekday, ResvFlag::weekend,
                     ResvFlag::weekly, ResvFlag::purge_comp, ResvFlag::no_hold_jobs}) {
    if (req.flags_set.has(f)) r.flags.set(f);
    if (req.flags_clear.has(f) && f != ResvFlag::overlap && f != ResvFlag::no_hold_jobs)
      r.flags.clear(f);
  }
  if (req.flags_clear.has(ResvFlag::purge_comp) && !req.purge_comp_time) r.purge_comp_time = 300;
  if (req.flags_set.has(ResvFlag::part_nodes)) {
    if (r.partition.empty() && (!req.partition || req.partition->empty()))
      throw refusal(Errc::invalid_partition);
    if (!req.nodes || !iequals(*req.nodes, "ALL")) throw refusal(Errc::invalid_node_name);
    r.flags.set(ResvFlag::part_nodes);
  }
  if (req.flags_clear.has(ResvFlag::part_nodes)) r.flags.clear(ResvFlag::part_nodes);
  if (req.skip && !r.flags.repeats()) throw refusal(Errc::reservation_no_skip);
  if (req.purge_comp_time) r.purge_comp_time = *req.purge_comp_time;
  if (req.partition) {
    if (req.partition->empty()) {
      r.partition.clear();
    } else {
      const PartitionConfig* p = m_config.find_partition(*req.partition);
      if (!p) throw refusal(Errc::invalid_partition);
      r.partition = p->id;
    }
  }
  if (req.accounts) {
    try {
      r.accounts = update_name_list(r.accounts, *req.accounts, false);
    } catch (const Error&) {
      throw refusal(Errc::invalid_account);
    }
    check_accounts(r.accounts, m_config, accounting());
  }
  if (req.features) {
    // As slurmctld: the nodes would have to be chosen again.
    if (!req.features->empty())
      throw Error(Errc::invalid_argument, "Requested operation not supported on this system");
    r.features.clear();
  }
  if (req.users) {
    try {
      r.users = update_name_list(r.users, *req.users, true);
    } catch (const Error&) {
      throw refusal(Errc::invalid_user);
    }
    check_users(r.users);
  }
  if (r.users.empty() && r.accounts.empty()) throw refusal(Errc::reservation_empty);
  if (req.start_time) {
    if (r.start_time <= t) throw refusal(Errc::reservation_started);
    if (*req.start_time < t - 60) throw refusal(Errc::invalid_time_value);
    r.start_time = *req.start_time;
    if (r.duration) r.end_time = r.start_time + *r.duration;
  }
  if (req.end_time) {
    if (*req.end_time < t - 60) throw refusal(Errc::invalid_time_value);
    r.end_time = *req.end_time;
    r.duration.reset();
  }
  if (req.duration) {
    Seconds d = *req.duration;
    if (d == k_infinite) {
      d = k_year;
    } else if (req.duration_sign) {
      const Seconds current = r.duration.value_or(r.end_time - r.start_time);
      d = req.duration_sign == '+' ? current + d : std::max<Seconds>(0, current - d);
    }
    r.duration = d;
    // A duration cut below what has run ends it now, not in the past.
    r.end_time = std::max(r.start_time + d, t);
  }
  if (r.start_time >= r.end_time) throw refusal(Errc::invalid_time_value);

  std::vector<const Job*> running;
  for (const auto& [id, job] : m_live) {
    if (is_active(job.state)) running.push_back(&job);
  }
  if (req.nodes) {
    r.nodes.clear();
    r.flags.set(ResvFlag::spec_nodes);
    if (iequals(*req.nodes, "ALL")) {
      const PartitionConfig* p =
          r.partition.empty() ? nullptr : m_config.find_partition(r.partition);
      if (p && r.flags.has(ResvFlag::part_nodes)) {
        for (const NodeDef& n : m_config.partition_nodes(*p)) r.nodes.push_back(n.name);
      } else {
        r.flags.set(ResvFlag::all_nodes);
        r.flags.clear(ResvFlag::part_nodes);
        for (const NodeDef& n : m_config.nodes()) r.nodes.push_back(n.name);
      }
    } else {
      r.flags.clear(ResvFlag::part_nodes);
      r.flags.clear(ResvFlag::all_nodes);
      std::vector<std::string> named;
      try {
        named = parse::expand_hostlist(*req.nodes);
      } catch (const Error&) {
        throw refusal(Errc::invalid_node_name);
      }
      for (const NodeDef& n : m_config.nodes()) {
        if (std::find(named.begin(), named.end(), n.name) != named.end()) r.nodes.push_back(n.name);
      }
      if (r.nodes.size() != named.size() || r.nodes.empty()) throw refusal(Errc::invalid_node_name);
    }
  }
  if (req.node_count) {
    // A new size: the nodes it has first (as many as fit), then more.
    r.flags.clear(ResvFlag::part_nodes);
    r.flags.clear(ResvFlag::all_nodes);
    const std::uint32_t want = *req.node_count;
    if (want == 0) throw refusal(Errc::invalid_node_count);
    if (r.nodes.size() > want) {
      r.nodes.resize(want);
    } else if (r.nodes.size() < want) {
      const PartitionConfig* p =
          r.partition.empty() ? m_config.default_partition() : m_config.find_partition(r.partition);
      if (!p) throw refusal(Errc::invalid_partition);
      std::vector<NodeDef> candidates;
      for (const NodeDef& n : m_config.partition_nodes(*p)) {
        if (std::find(r.nodes.begin(), r.nodes.end(), n.name) == r.nodes.end())
          candidates.push_back(n);
      }
      std::vector<std::string> unavailable;
      for (const auto& [name, status] : m_node_states) unavailable.push_back(name);
      for (std::string& n :
           sched::pick_reservation_nodes(r, want - static_cast<std::uint32_t>(r.nodes.size()),
                                         candidates, unavailable, m_reservations, running))
        r.nodes.push_back(std::move(n));
      std::vector<std::string> ordered;
      for (const NodeDef& n : m_config.nodes()) {
        if (std::find(r.nodes.begin(), r.nodes.end(), n.name) != r.nodes.end())
          ordered.push_back(n.name);
      }
      r.nodes = std::move(ordered);
    }
  }
  if (auto conflict = sched::reservation_conflict(r, m_reservations, running)) throw *conflict;

  std::uint32_t next_id = next_reservation_id();
  if (req.skip) {
    // Skip: on to the next occurrence, under a new id (as a repetition).
    if (auto next = sched::next_occurrence(r, t)) {
      r = *next;
      r.id = next_id++;
    }
  }
  save_reservation(r, std::max<std::uint32_t>(next_id, r.id + 1));
  log_info("reservation {} updated: nodes {} from {} to {} users {} accounts {} flags {}", r.name,
           parse::compress_hostlist(r.nodes), r.start_time, r.end_time, r.users, r.accounts,
           reservation_flags_text(r));
}

void Controller::delete_reservation(const std::string& name) {
  auto it = std::find_if(m_reservations.begin(), m_reservations.end(),
                         [&](const Reservation& x) { return x.name == name; });
  if (it == m_reservations.end()) throw refusal(Errc::reservation_invalid);
  // Pending jobs count too: slurmctld refuses while any job not over names it.
  for (const auto& [id, job] : m_live) {
    if (names(job, *it)) throw refusal(Errc::reservation_busy);
  }
  m_store->delete_reservation(name);
  log_info("reservation {} deleted", name);
  m_reservations.erase(it);
  m_dirty = true;
}

sched::ReservationRules Controller::reservation_rules() {
  std::map<std::string, std::string> parents;
  for (const Account& a : accounting().accounts) parents.emplace(a.name, a.parent);
  return sched::ReservationRules(m_reservations, std::move(parents), now());
}

void Controller::check_reservation_use(const Job& job) {
  const std::string& name = job.spec.options().reservation;
  if (name.empty()) return;
  if (name.find(',') != std::string::npos)
    throw Error(Errc::reservation_invalid,
                fmt::format("One reservation per job is supported here, not a list: {}", name));
  auto it = std::find_if(m_reservations.begin(), m_reservations.end(),
                         [&](const Reservation& r) { return r.name == name; });
  if (it == m_reservations.end()) throw refusal(Errc::reservation_invalid);
  if (!sched::may_use(*it, job.user_name, job.user_id,
                      sched::account_chain(accounting(), job.account)))
    throw refusal(Errc::reservation_access);
  if (it->flags.has(ResvFlag::flex)) return;
  const PartitionConfig* part = m_config.find_partition(job.partition);
  bool overlap = false;
  if (part) {
    for (const NodeDef& n : m_config.partition_nodes(*part))
      overlap = overlap || std::find(it->nodes.begin(), it->nodes.end(), n.name) != it->nodes.end();
  }
  if (!overlap) throw refusal(Errc::node_config_unavailable);
}

void Controller::check_reservations() {
  std::erase_if(m_reservation_kills, [&](JobId id) { return !find_live(id); });
  if (m_reservations.empty()) return;
  const Seconds t = now();
  // Which reservations have pending and running jobs: one walk of the jobs.
  std::map<std::string, std::pair<bool, bool>> in_use;  // name -> (pending, running)
  for (const auto& [id, job] : m_live) {
    const std::string& name = job.spec.options().reservation;
    if (name.empty()) continue;
    auto& [pending, running] = in_use[name];
    pending = pending || job.state == JobState::pending;
    running = running || (job.state != JobState::pending && is_active(job.state));
  }
  std::vector<Reservation> changed;
  std::vector<std::string> gone;
  std::uint32_t next_id = 0;
  for (const Reservation& current : m_reservations) {
    Reservation r = current;
    const auto use = in_use.find(r.name);
    const bool pending = use != in_use.end() && use->second.first;
    const bool running = use != in_use.end() && use->second.second;
    // PURGE_COMP: the time since it last had a job.
    if (r.start_time <= t) {
      if (running || pending)
        r.idle_since = k_no_time;
      else if (r.idle_since == k_no_time)
        r.idle_since = t;
    }
    bool purge = r.flags.has(ResvFlag::purge_comp) && r.idle_since != k_no_time && r.end_time > t &&
                 t - r.idle_since >= r.purge_comp_time;
    if (purge)
      log_info("reservation {} has had no job for {} s: it ends", r.name, t - r.idle_since);
    if (!purge && r.end_time > t) {
      if (r != current) changed.push_back(r);
      continue;
    }
    // Over: its running jobs end (a FLEX reservation's run on), as
    // slurmctld's time limit check ends them (ResvOverRun 0), TIMEOUT.
    bool holding = false;
    if (!r.flags.has(ResvFlag::flex)) {
      for (auto& [id, job] : m_live) {
        if (!names(job, r) || !is_active(job.state)) continue;
        holding = true;
        if (m_reservation_kills.insert(id).second) {
          log_info("job {}: reservation {} ended", job.display_id(), r.name);
          RequeueMarker marker;
          marker.requeue = false;
          marker.reservation_ended = true;
          write_requeue_marker(m_paths, id, marker);
          cancel_running(job);
        }
      }
    }
    if (r.flags.repeats()) {
      // On to the next occurrence that is not over, under a new id.
      Seconds guard = 0;
      while ((r.end_time <= t || purge) && guard++ < 10000) {
        auto next = sched::next_occurrence(r, t);
        if (!next) break;
        r = *next;
        purge = false;
      }
      if (next_id == 0) next_id = next_reservation_id();
      r.id = next_id++;
      log_info("reservation {} moves on: {} to {}", r.name, r.start_time, r.end_time);
      changed.push_back(r);
      continue;
    }
    if (holding) continue;  // it stays until its jobs are over
    gone.push_back(r.name);
    // Its pending jobs are held (ReservationDeleted), or, with
    // NO_HOLD_JOBS_AFTER_END, may run anywhere from now on.
    for (auto& [id, job] : m_live) {
      if (!names(job, r) || job.state != JobState::pending) continue;
      if (r.flags.has(ResvFlag::no_hold_jobs)) {
        job.spec.options_to_set().reservation.clear();
      } else if (job.hold_reason == Reason::none) {
        job.hold_reason = Reason::reservation_deleted;
        job.reason = Reason::reservation_deleted;
        job.priority = 0;
      }
      save(job);
    }
  }
  if (changed.empty() && gone.empty()) return;
  Store::Transaction tx(*m_store);
  for (const Reservation& r : changed) m_store->put_reservation(r);
  for (const std::string& name : gone) m_store->delete_reservation(name);
  if (next_id != 0) m_store->set_meta("next_resv_id", std::to_string(next_id));
  tx.commit();
  for (const Reservation& r : changed) {
    auto it = std::find_if(m_reservations.begin(), m_reservations.end(),
                           [&](const Reservation& x) { return x.name == r.name; });
    if (it != m_reservations.end()) *it = r;
  }
  std::erase_if(m_reservations, [&](const Reservation& r) {
    return std::find(gone.begin(), gone.end(), r.name) != gone.end();
  });
  for (const std::string& name : gone) log_info("reservation {} is over: removed", name);
  m_dirty = true;
}

}  // namespace stint::daemon
