// The controller's side of a scheduling pass: which pending jobs may be
// considered (dependencies, deadlines), then the pure pass, then the starts.

#include <stint/parse.hpp>

#include <set>

#include "daemon/controller.hpp"
#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "sched/limits.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {
namespace {

bool kill_invalid_depend(const Config& config, const Job& job) {
  if (job.spec.kill_on_invalid_dep) return *job.spec.kill_on_invalid_dep;
  auto params = config.conf("SchedulerParameters");
  return params && params->find("kill_invalid_depend") != std::string::npos;
}

}  // namespace

std::vector<const Job*> Controller::eligible_pending() {
  Seconds t = now();
  // The jobs a dependency names, looked up once per pass.
  std::map<JobId, std::vector<sched::DependencyView>> seen;
  auto view_of = [](const Job& j) {
    return sched::DependencyView{j.id, j.array_task_id, j.state, j.start_time};
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
    if (plain && !plain->is_array_task() && !have.count(plain->id)) views.push_back(view_of(*plain));
    for (const auto& task : m_store->array_tasks(id)) {
      if (!have.count(task.id)) views.push_back(view_of(task));
    }
    seen.emplace(id, views);
    return views;
  };

  std::vector<const Job*> eligible;
  std::vector<JobId> to_end;
  for (auto& [id, job] : m_live) {
    if (job.state != JobState::pending) continue;
    if (job.spec.deadline &&
        (t >= *job.spec.deadline ||
         (job.time_limit != k_infinite && t + job.time_limit > *job.spec.deadline &&
          job.hold_reason == Reason::none && job.eligible_time <= t))) {
      to_end.push_back(id);
      continue;
    }
    if (!job.dependency.empty() && job.hold_reason == Reason::none) {
      bool singleton_blocked = false;
      for (const auto& [oid, other] : m_live) {
        if (oid != id && other.user_id == job.user_id && other.spec.name == job.spec.name &&
            (is_active(other.state) || (other.state == JobState::pending && oid < id))) {
          singleton_blocked = true;
          break;
        }
      }
      auto status = sched::evaluate_dependency(job, lookup, singleton_blocked, t);
      // Met terms are dropped, as Slurm does (scontrol shows what is left).
      Dependency left = sched::prune_satisfied(job, lookup, singleton_blocked, t);
      if (left != job.dependency) {
        job.dependency = std::move(left);
        m_store->update_job(job);
      }
      if (status != sched::DependencyStatus::satisfied) {
        Reason r = status == sched::DependencyStatus::never ? Reason::dependency_never_satisfied
                                                            : Reason::dependency;
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
    eligible.push_back(&job);
  }
  for (JobId id : to_end) {
    Job& job = m_live.at(id);
    finish(job, job.reason == Reason::dependency_never_satisfied ? JobState::cancelled
                                                                 : JobState::deadline);
  }
  return eligible;
}

void Controller::schedule() {
  m_dirty = false;
  std::vector<const Job*> active;
  std::map<JobId, std::uint32_t> array_running;
  for (const auto& [id, job] : m_live) {
    if (is_active(job.state)) {
      active.push_back(&job);
      if (job.is_array_task()) ++array_running[job.array_job_id];
    }
  }
  std::vector<const Job*> pending = eligible_pending();
  if (pending.empty()) return;
  sched::Cluster cluster(m_config.nodes());
  cluster.take_jobs(active);
  // Association and QOS run limits (issue 4), when AccountingStorageEnforce
  // has "limits": counted over the live jobs, consulted by the pass.
  std::optional<sched::LimitTracker> limits;
  if (sched::enforcement(m_config).limits) {
    limits.emplace(accounting(), largest_node_mem(m_config));
    for (const auto& [id, job] : m_live) limits->add(job);
  }
  sched::Decision d = sched::schedule(pending, cluster, m_config, now(), std::move(array_running),
                                      limits ? &*limits : nullptr);
  for (auto& [id, reason] : d.reasons) {
    Job& job = m_live.at(id);
    if (job.reason != reason) {
      job.reason = reason;
      m_store->update_job(job);
    }
  }
  for (auto& [id, alloc] : d.starts) launch(m_live.at(id), std::move(alloc));
}

}  // namespace stint::daemon
