// The controller's side of a scheduling pass: which pending jobs may be
// considered (dependencies, deadlines), then the pure pass, then the starts.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <deque>
#include <optional>
#include <set>

#include <stint/parse.hpp>

#include "daemon/controller.hpp"
#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "sched/deadline.hpp"
#include "sched/limits.hpp"
#include "sched/preempt.hpp"
#include "sched/priority_state.hpp"
#include "sched/reservation.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {
namespace {

bool kill_invalid_depend(const Config& config, const Job& job) {
  if (job.spec.kill_on_invalid_dep) return *job.spec.kill_on_invalid_dep;
  auto params = config.conf("SchedulerParameters");
  return params && params->find("kill_invalid_depend") != std::string::npos;
}

Seconds meta_time(Store& store, const std::string& key) {
  auto text = store.meta(key);
  Seconds t = k_no_time;
  if (text) std::from_chars(text->data(), text->data() + text->size(), t);
  return t;
}

}  // namespace

sched::DependencyStatus Controller::gather_aftercorr_tasks(const Job& record,
                                                           const sched::DependencyLookup& lookup,
                                                           bool singleton_blocked, Seconds t,
                                                           std::vector<std::uint32_t>& never) {
  using S = sched::DependencyStatus;
  // As many tasks as the whole cluster could start at once, plus one for the
  // plan, from a walk of the record's first tasks only (twice as many; each
  // looks through the views of the array it pairs with): a deep record costs
  // the pass no more than a shallow one. A later task whose counterpart
  // ended early waits until the walk reaches it.
  if (m_aftercorr_most == 0) {
    for (const NodeDef& node : m_config.nodes()) m_aftercorr_most += node.cpus;
    ++m_aftercorr_most;
  }
  const std::size_t walk_limit = std::max<std::size_t>(16, 2 * m_aftercorr_most);
  std::vector<std::uint32_t>& ready = m_aftercorr_ready[record.id];
  // One copy of the record, its task id changed for each task.
  Job probe = array_task_of(record, record.array_pending.first());
  bool all_never = true;
  std::size_t walked = 0;
  for (const TaskSet::Run& run : record.array_pending.runs()) {
    for (std::uint64_t task = run.first; task <= run.last; ++task) {
      if (walked++ == walk_limit || ready.size() == m_aftercorr_most) {
        return ready.empty() ? S::waiting : S::satisfied;
      }
      probe.array_task_id = static_cast<std::uint32_t>(task);
      const S status = sched::evaluate_dependency(probe, lookup, singleton_blocked, t);
      if (status == S::satisfied) ready.push_back(probe.array_task_id);
      if (status == S::never) never.push_back(probe.array_task_id);
      all_never = all_never && status == S::never;
    }
  }
  if (!ready.empty()) return S::satisfied;
  return all_never ? S::never : S::waiting;
}

std::vector<const Job*> Controller::eligible_pending() {
  Seconds t = now();
  m_aftercorr_ready.clear();
  m_aftercorr_most = 0;
  // The jobs a dependency names, looked up once per pass.
  std::map<JobId, std::vector<sched::DependencyView>> seen;
  // Ended jobs read from the store, kept while their views point into them
  // (an ended record's tasks).
  std::deque<Job> ended;
  auto view_of = [](const Job& j) {
    return sched::DependencyView{j.id, j.array_task_id, j.state, j.start_time,
                                 j.is_array_record() ? &j.array_pending : nullptr};
  };
  sched::DependencyLookup lookup = [&](JobId id) {
    auto it = seen.find(id);
    if (it != seen.end()) return it->second;
    std::vector<sched::DependencyView> views;
    std::set<JobId> have;
    for (const auto& [jid, j] : m_live) {
      if (jid == id || j.array_job_id == id) {
        views.push_back(view_of(j));
        have.insert(jid);
      }
    }
    auto plain = m_store->job(id);
    if (plain && !plain->is_array_task() && !have.count(plain->id))
      views.push_back(view_of(ended.emplace_back(std::move(*plain))));
    for (auto& task : m_store->array_tasks(id)) {
      if (!have.count(task.id)) views.push_back(view_of(ended.emplace_back(std::move(task))));
    }
    seen.emplace(id, views);
    return views;
  };

  std::vector<const Job*> eligible;
  std::vector<JobId> to_end;
  std::vector<std::pair<JobId, std::vector<std::uint32_t>>> partner_failed;
  for (auto& [id, job] : m_live) {
    if (job.state != JobState::pending) continue;
    if (!job.dependency.empty() && job.hold_reason == Reason::none) {
      // Only a singleton term asks: the walk over every live job is for it alone.
      const bool singleton = std::any_of(
          job.dependency.terms.begin(), job.dependency.terms.end(),
          [](const DependencyTerm& term) { return term.type == DependencyType::singleton; });
      bool singleton_blocked = false;
      for (auto it = singleton ? m_live.begin() : m_live.end(); it != m_live.end(); ++it) {
        const auto& [oid, other] = *it;
        if (oid != id && other.user_id == job.user_id && other.spec.name == job.spec.name &&
            (is_active(other.state) || (other.state == JobState::pending && oid < id))) {
          singleton_blocked = true;
          break;
        }
      }
      // An array's record with an aftercorr term: each task pairs with its
      // own, so the term stays for the tasks still in the record.
      const bool per_task = job.is_array_record() && sched::has_aftercorr(job.dependency);
      std::vector<std::uint32_t> never;
      auto status = per_task ? gather_aftercorr_tasks(job, lookup, singleton_blocked, t, never)
                             : sched::evaluate_dependency(job, lookup, singleton_blocked, t);
      if (status != sched::DependencyStatus::never && !never.empty())
        partner_failed.emplace_back(id, std::move(never));
      // Met terms are dropped, as Slurm does (scontrol shows what is left).
      Dependency left =
          per_task ? job.dependency : sched::prune_satisfied(job, lookup, singleton_blocked, t);
      if (left != job.dependency) {
        job.dependency = std::move(left);
        m_store->update_job(job);
      }
      if (status != sched::DependencyStatus::satisfied) {
        Reason r = status == sched::DependencyStatus::never ? Reason::dependency_never_satisfied
                                                            : Reason::dependency;
        if (r == Reason::dependency_never_satisfied && job.reason != r)
          mail_invalid_dependency(job);
        if (r == Reason::dependency_never_satisfied && kill_invalid_depend(m_config, job)) {
          job.reason = r;
          to_end.push_back(id);
          continue;
        }
        if (job.reason != r) {
          job.reason = r;
          m_store->update_job(job);
        }
        continue;
      }
    }
    // --deadline: a job the pass could start now ends DEADLINE once its
    // --time-min (else its time limit) no longer fits before the deadline
    // (slurmctld's deadline_ok); a held one, one before its begin time or
    // waiting on a dependency is not considered yet.
    if (job.hold_reason == Reason::none && job.eligible_time <= t &&
        sched::deadline_missed(job, t)) {
      to_end.push_back(id);
      continue;
    }
    eligible.push_back(&job);
  }
  // The tasks of an aftercorr record whose partners failed leave it, as
  // slurmctld splits such tasks off, and wait (or end) on their own, never
  // to start. A record keeps a task still to be offered, so none of the
  // jobs `eligible` points to is moved.
  for (const auto& [record, tasks] : partner_failed) {
    for (std::uint32_t task : tasks) {
      Job* split = nullptr;
      try {
        split = &split_task(m_live.at(record), task);
      } catch (const Error& e) {
        log_error("task {} of array {} stays in its record: {}", task, record, e.what());
        continue;
      }
      split->reason = Reason::dependency_never_satisfied;
      mail_invalid_dependency(*split);
      if (kill_invalid_depend(m_config, *split)) {
        to_end.push_back(split->id);
        continue;
      }
      m_store->update_job(*split);
    }
  }
  for (JobId id : to_end) {
    Job& job = m_live.at(id);
    if (job.reason == Reason::dependency_never_satisfied) {
      finish(job, JobState::cancelled);
      continue;
    }
    // Slurm's exit code of a job past its deadline: 0:1. Its reason,
    // DeadLine, goes with the state (format/common.cpp).
    log_info("JobId={} exceeded its deadline and ended", job.display_id());
    job.exit_status = 0;
    job.exit_signal = 1;
    finish(job, JobState::deadline);
  }
  return eligible;
}

void Controller::schedule() {
  const auto pass_began = std::chrono::steady_clock::now();
  m_dirty = false;
  end_grace_times();
  end_idle_kept_alive();
  mail_tick();
  check_reservations();  // started, ended, repeated (daemon/reservations.cpp)
  // A suspended job holds no resources (its preemptor has them) until it resumes.
  // A deep queue makes every walk of the live jobs cost (each is a cache
  // miss or two): the pass takes what it needs of them in few walks.
  std::vector<const Job*> active;
  std::vector<Job*> suspended;
  std::map<JobId, std::uint32_t> array_running;
  std::map<JobId, std::uint32_t> het_pending;
  for (auto& [id, job] : m_live) {
    if (job.is_het_component() && job.state == JobState::pending) ++het_pending[job.het_job_id];
    if (is_active(job.state)) {
      if (job.state != JobState::suspended)
        active.push_back(&job);
      else
        suspended.push_back(&job);
      if (job.is_array_task()) ++array_running[job.array_job_id];
    }
  }
  std::vector<const Job*> pending = eligible_pending();

  // Multifactor priority (sched/priority_state.hpp): every job's priority is
  // set before the pass orders the queue by it. The usage fair share charges
  // is read from the store once, then as jobs stop running; the time of each
  // calculation is kept in the store for sprio and sshare, which compute the
  // same snapshot at that time.
  const Seconds t = now();
  if (!m_priority.loaded()) {
    Seconds reset = meta_time(*m_store, "priority_usage_reset");
    std::string period = m_config.conf("PriorityUsageResetPeriod").value_or("");
    for (char& c : period) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (period == "NOW") {
      // As slurmctld: usage is reset when the controller starts.
      reset = t;
      m_store->set_meta("priority_usage_reset", std::to_string(t));
    }
    std::vector<sched::AssocKey> assocs;
    for (auto& [user, account] : m_store->job_associations()) assocs.push_back({user, account});
    m_priority.load(sched::usage_records(m_store->job_runs(0)), assocs, reset);
  }
  const std::vector<JobId> stopped = m_priority.stopped_running(m_live);
  if (!stopped.empty())
    m_priority.add_ended(stopped, sched::usage_records(m_store->job_runs(0, stopped)));
  const bool due = m_priority.due(m_live, m_config, accounting(), t, !stopped.empty());
  if (due) {
    m_priority.recompute(m_live, m_config, accounting(), t);
    m_store->set_meta("priority_calc_time", std::to_string(t));
  }
  std::vector<JobId> eligible;  // by id, as `pending` is
  eligible.reserve(pending.size());
  for (const Job* job : pending) eligible.push_back(job->id);
  if (auto changed = m_priority.assign(m_live, eligible, t, due); !changed.empty()) {
    Store::Transaction tx(*m_store);
    for (JobId id : changed) {
      const Job& job = m_live.at(id);
      m_store->update_job_priority(id, job.priority, job.eligible_time);
    }
    tx.commit();
  }

  sched::Cluster cluster(m_config.nodes());
  cluster.take_jobs(active);
  mark_unavailable(cluster);  // nodes down or drained (daemon/nodes.cpp)
  resume_suspended(cluster, std::move(suspended));
  if (pending.empty()) {
    m_decision_cost = std::chrono::steady_clock::now() - pass_began;
    return;
  }
  // Association and QOS run limits, when AccountingStorageEnforce
  // has "limits": counted over the live jobs, consulted by the pass.
  std::optional<sched::LimitTracker> limits;
  if (sched::enforcement(m_config).limits) {
    limits.emplace(accounting(), largest_node_mem(m_config));
    limits->track_usage(sched::usage_clock(m_config, t, m_priority.reset_now()),
                        m_priority.ended_runs());
    for (const auto& [id, job] : m_live) limits->add(job);
  }
  sched::PassContext ctx;
  ctx.array_running = std::move(array_running);
  ctx.het_pending = std::move(het_pending);
  ctx.limits = limits ? &*limits : nullptr;
  const sched::PreemptRules rules = sched::preempt_rules(m_config, accounting());
  if (rules.enabled()) ctx.preempt = &rules;
  for (const auto& [id, kill_at] : m_preempting) ctx.preempting.push_back(id);
  std::optional<sched::ReservationRules> reservations;
  if (!m_reservations.empty()) {
    reservations.emplace(reservation_rules());
    ctx.reservations = &*reservations;
  }
  // An array's record is offered as a few of its tasks, not all of them.
  std::uint32_t free_cpus = 0;
  for (const sched::NodeUsage& node : cluster.nodes())
    if (node.available) free_cpus += node.free_cpus();
  ArrayOffers offers;
  const std::vector<const Job*> offered = offer_array_tasks(pending, free_cpus, offers);
  sched::Decision d = sched::schedule(offered, cluster, m_config, now(), std::move(ctx));
  settle_array_offers(d, offers);
  save_reasons_and_planned_starts(d);
  m_decision_cost = std::chrono::steady_clock::now() - pass_began;
  for (const auto& p : d.preemptions) preempt(m_live.at(p.victim), p);
  // A het job's other components take their nodes before its leader starts:
  // the leader's batch script is told where they are (SLURM_*_HET_GROUP_<n>).
  std::stable_partition(d.starts.begin(), d.starts.end(), [this](const auto& start) {
    const Job& job = m_live.at(start.first);
    return job.is_het_component() && !job.is_het_leader();
  });
  for (auto& [id, alloc] : d.starts) {
    Job& job = m_live.at(id);
    if (job.is_het_component() && !job.is_het_leader()) {
      start_het_component(job, std::move(alloc));
      continue;
    }
    const Job before = job;
    // --time-min: it starts with the limit the backfill plan left it.
    if (auto it = d.time_limits.find(id); it != d.time_limits.end()) {
      log_info("JobId={} time limit changed from {} to {}", id,
               job.time_limit == k_infinite ? std::string("UNLIMITED")
                                            : std::to_string(job.time_limit / 60),
               it->second / 60);
      job.time_limit = it->second;
    }
    // --deadline: it starts with no more than the whole minutes left before it.
    if (const Seconds cut = sched::deadline_time_limit(job, now()); cut != job.time_limit) {
      log_info("JobId={} time limit cut from {} to {} by its deadline", id,
               job.time_limit == k_infinite ? std::string("UNLIMITED")
                                            : std::to_string(job.time_limit / 60),
               cut / 60);
      job.time_limit = cut;
    }
    bool recorded = false;
    try {
      launch(job, std::move(alloc), recorded);
      mail_began(job);
    } catch (const Error& e) {
      // Nothing started (a full disk: no room for a launch file or for the
      // job's row): the job stays pending, in memory as in the database, and
      // a later pass tries again. One with a stepd up is that stepd's now.
      const auto started = [](const NodeAlloc& a) { return a.stepd_pid != 0; };
      if (std::any_of(job.alloc.begin(), job.alloc.end(), started)) throw;
      log_error("job {} not started: {}; it stays pending", job.display_id(), e.what());
      job = before;
      if (job.is_het_leader()) withdraw_het_components(job.id);
      if (recorded) {
        try {
          m_store->update_job(job);
        } catch (const Error&) {
          // The next successful write fixes it.
        }
      }
    }
  }
}

void Controller::save_reasons_and_planned_starts(const sched::Decision& d) {
  // One walk of the live jobs beside the decision's reasons and expected
  // starts, all by id; a job whose reason or expected start (squeue --start;
  // none when the plan has none) changed is written once.
  std::vector<sched::JobReasons::Item> reasons(d.reasons.begin(), d.reasons.end());
  std::sort(reasons.begin(), reasons.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  auto reason = reasons.cbegin();
  auto planned = d.planned_starts.cbegin();
  // Begun at the first change: most passes change nothing, and a transaction
  // takes the write lock and releases it again (six lock calls).
  std::optional<Store::Transaction> tx;
  for (auto& [id, job] : m_live) {
    if (job.state != JobState::pending) continue;
    bool changed = false;
    while (reason != reasons.cend() && reason->first < id) ++reason;
    if (reason != reasons.cend() && reason->first == id) {
      const Reason r = unavailable_reason(job, reason->second);
      if (job.reason != r) {
        job.reason = r;
        changed = true;
      }
    }
    while (planned != d.planned_starts.cend() && planned->first < id) ++planned;
    const Seconds start = planned != d.planned_starts.cend() && planned->first == id
                              ? planned->second.start
                              : k_no_time;
    if (job.start_time != start) {
      job.start_time = start;
      changed = true;
    }
    if (!changed) continue;
    if (!tx) tx.emplace(*m_store);
    m_store->update_job(job);
  }
  if (tx) tx->commit();
}

}  // namespace stint::daemon
