// An array's record: the tasks that have not started are one job
// (Job::array_pending), as slurmctld keeps them in the array's meta record.
// A pass offers the scheduler a few of its tasks, as many as could start or
// be planned; a task becomes a job of its own when it starts or is acted on
// alone (split_task), taking the next job id, the last one the record's.

#include <algorithm>
#include <tuple>

#include <stint/error.hpp>

#include "daemon/controller.hpp"
#include "daemon/job_env.hpp"
#include "daemon/log.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {
namespace {

// The ids the pass knows an array's offered tasks by, above every real job
// id (MaxJobId is at most 0x03ff0000 in Slurm; --test-only's id is higher).
constexpr JobId k_first_offer_id = 0xe0000000;

}  // namespace

Job& Controller::split_task(Job& record, std::uint32_t task) {
  if (!record.is_array_record() || !record.array_pending.contains(task))
    throw Error(Errc::internal, "split_task: the task is not in the record");
  // The last task takes the record's own id, as in slurmctld.
  if (record.array_pending.size() == 1) {
    TaskSet before = record.array_pending;
    const std::string out = record.stdout_path, err = record.stderr_path;
    record.array_pending = TaskSet();
    record.array_task_id = task;
    record.array_split = true;
    std::tie(record.stdout_path, record.stderr_path) = output_paths(record);
    try {
      m_store->update_job(record);
    } catch (...) {
      record.array_pending = std::move(before);
      record.array_task_id = k_no_array_task;
      record.array_split = false;
      record.stdout_path = out;
      record.stderr_path = err;
      throw;
    }
    m_dirty = true;
    return record;
  }
  Job split = record;
  split.array_pending = TaskSet();
  split.array_task_id = task;
  split.array_split = true;
  record.array_pending.erase(task);
  try {
    // The id, the task's row and the record's, in one commit: a crash
    // leaves the task in the record or in its own row, never in both.
    Store::Transaction tx(*m_store);
    split.id = job_ids(1);
    // Its files' names: %j is its own id now, %a its task.
    std::tie(split.stdout_path, split.stderr_path) = output_paths(split);
    m_store->update_job(split);
    m_store->update_job(record);
    tx.commit();
  } catch (...) {
    record.array_pending.insert(task);
    throw;
  }
  m_dirty = true;
  const JobId id = split.id;
  count_array_live(split, true);
  return m_live.emplace(id, std::move(split)).first->second;
}

std::vector<const Job*> Controller::offer_array_tasks(const std::vector<const Job*>& pending,
                                                      std::uint32_t free_cpus,
                                                      ArrayOffers& offers) {
  std::vector<const Job*> out;
  out.reserve(pending.size());
  JobId next = k_first_offer_id;
  for (const Job* job : pending) {
    if (!job->is_array_record()) {
      out.push_back(job);
      continue;
    }
    // As many tasks as could start on the CPUs free now, one more for the
    // plan (the reason and the expected start of the rest), and no more
    // than the throttle leaves room for (one, to be told JobArrayTaskLimit).
    const std::uint32_t cpus = std::max<std::uint32_t>(1, job->req.cpus_per_node * job->req.nodes);
    std::uint64_t count = free_cpus / cpus + 1;
    if (job->array_throttle > 0) count = std::min<std::uint64_t>(count, job->array_throttle + 1);
    // aftercorr pairs each task with its own: those whose terms are met.
    std::vector<std::uint32_t> tasks;
    if (auto ready = m_aftercorr_ready.find(job->id); ready != m_aftercorr_ready.end()) {
      tasks.assign(ready->second.begin(),
                   ready->second.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(
                                               count, ready->second.size())));
    } else {
      tasks = job->array_pending.first_ids(static_cast<std::size_t>(count));
    }
    if (tasks.empty()) continue;
    // The record without its set, copied once per offer.
    const Job base = array_task_of(*job, tasks.front());
    for (std::uint32_t task : tasks) {
      Job& offer = offers.tasks.emplace_back(base);
      offer.array_task_id = task;
      offer.id = next++;
      offers.of[offer.id] = {job->id, task};
      out.push_back(&offer);
    }
  }
  return out;
}

void Controller::settle_array_offers(sched::Decision& d, const ArrayOffers& offers) {
  if (offers.of.empty()) return;
  const auto offered = [&offers](JobId id) { return offers.of.find(id); };
  // A record waits as its first task offered waits, for the same reason
  // and until the same planned start.
  std::map<JobId, std::pair<Reason, Seconds>> record_waits;
  for (const auto& [id, reason] : d.reasons) {
    auto it = offered(id);
    if (it == offers.of.end()) continue;
    auto [at, added] = record_waits.try_emplace(it->second.record, reason, k_no_time);
    if (!added) continue;
    if (auto planned = d.planned_starts.find(id); planned != d.planned_starts.end())
      at->second.second = planned->second.start;
  }
  for (const auto& [record, wait] : record_waits) {
    d.reasons.add(record, wait.first);
    if (wait.second != k_no_time) d.planned_starts[record] = {wait.second, {}};
  }
  // The tasks that start, and those that preempt, become jobs of their own.
  // One that cannot (no job id left below MaxJobId, a failed write) stays in
  // its record and is not started: 0 marks it.
  std::map<JobId, JobId> real;
  const auto split = [&](JobId id) -> JobId {
    auto it = offered(id);
    if (it == offers.of.end()) return id;
    if (auto done = real.find(id); done != real.end()) return done->second;
    JobId task_id = 0;
    try {
      task_id = split_task(m_live.at(it->second.record), it->second.task).id;
    } catch (const Error& e) {
      log_error("task {} of array {} not started: {}; it stays in the array's record",
                it->second.task, m_live.at(it->second.record).array_job_id, e.what());
    }
    real[id] = task_id;
    return task_id;
  };
  for (auto& start : d.starts) start.first = split(start.first);
  std::erase_if(d.starts, [](const auto& start) { return start.first == 0; });
  for (auto& p : d.preemptions) p.preemptor = split(p.preemptor);
  std::erase_if(d.preemptions, [](const sched::Preemption& p) { return p.preemptor == 0; });
  std::map<JobId, Seconds> limits;
  for (const auto& [id, limit] : d.time_limits) {
    if (const JobId task = split(id); task != 0) limits[task] = limit;
  }
  d.time_limits = std::move(limits);
}

}  // namespace stint::daemon
