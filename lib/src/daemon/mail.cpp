// When job mail goes out, as slurmctld decides it: BEGIN at the start
// (node_scheduler.c), TIME_LIMIT_* while running (job_mgr.c's time-limit
// check), END/FAIL/REQUEUE at the end (job_completion_logger), INVALID_DEPEND
// when a dependency can never be met. An array without ARRAY_TASKS mails as
// one job: BEGIN when its first task starts, one summary when its last ends.

#include <algorithm>
#include <array>
#include <utility>

#include "daemon/controller.hpp"
#include "daemon/mailer.hpp"

namespace stint::daemon {
namespace {

constexpr std::uint16_t k_time_types = static_cast<std::uint16_t>(
    bit(MailType::time100) | bit(MailType::time90) | bit(MailType::time80) | bit(MailType::time50));

// slurmctld's order of the time-limit checks: the limit itself first.
constexpr std::array<std::pair<MailType, int>, 4> k_time_marks = {{
    {MailType::time100, 100},
    {MailType::time90, 90},
    {MailType::time80, 80},
    {MailType::time50, 50},
}};

// Mailed per task: not an array, or an array that asked for ARRAY_TASKS.
bool per_task(const Job& job, std::uint16_t types) {
  return !job.is_array_task() || has(types, MailType::array_tasks);
}

// slurmctld's test for FAIL: a base state from FAILED on (TIMEOUT,
// NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, DEADLINE).
bool failed_state(JobState s) {
  switch (s) {
    case JobState::failed:
    case JobState::timeout:
    case JobState::node_fail:
    case JobState::preempted:
    case JobState::out_of_memory:
    case JobState::deadline:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Controller::idle() const {
  return m_live.empty() && m_live_cluster_runs == 0 && m_reservations.empty() &&
         !(m_mailer && m_mailer->busy()) && m_storage_removals.empty();
}

std::optional<Job> Controller::array_meta(const Job& job) {
  if (job.id == job.array_job_id) return job;
  return find_any(job.array_job_id);
}

void Controller::send_mail(const Job& job, MailType type, const ArrayOutcome* array) {
  if (!m_mailer) m_mailer = std::make_unique<Mailer>();
  m_mailer->send(job_mail(job, type, m_config, now(), array), m_config);
}

void Controller::mail_began(const Job& job) {
  const std::uint16_t types = mail_types(job);
  if (types == 0) return;
  if ((types & k_time_types) != 0 && job.time_limit != k_infinite && job.time_limit > 0)
    m_mail_time_sent.try_emplace(job.id, 0);
  if (!has(types, MailType::begin)) return;
  if (per_task(job, types)) {
    send_mail(job, MailType::begin);
    return;
  }
  // The array's first task to start, while none has ended (slurmctld's
  // _first_array_task): known from the store once per array, then here.
  if (!m_mail_arrays_begun.insert(job.array_job_id).second) return;
  for (const Job& task : m_store->array_tasks(job.array_job_id)) {
    if (task.id != job.id && task.state != JobState::pending) return;
  }
  const std::optional<Job> meta = array_meta(job);
  const ArrayOutcome none;
  send_mail(meta ? *meta : job, MailType::begin, &none);
}

void Controller::mail_tick() {
  if (m_mailer) m_mailer->expire();
  if (!m_mail_time_loaded) {
    // After a restart: the running jobs' fractions already passed count as
    // told (their mail went out before, or is late by now).
    m_mail_time_loaded = true;
    const Seconds t = now();
    for (const auto& [id, job] : m_live) {
      const std::uint16_t types = mail_types(job) & k_time_types;
      if (types == 0 || job.state != JobState::running || job.time_limit == k_infinite ||
          job.time_limit <= 0)
        continue;
      std::uint16_t told = 0;
      const Seconds ran = t - job.start_time;
      for (auto [type, percent] : k_time_marks) {
        if (ran * 100 >= job.time_limit * percent) told |= bit(type);
      }
      m_mail_time_sent.emplace(id, told);
    }
  }
  if (m_mail_time_sent.empty()) return;
  const Seconds t = now();
  for (auto& [id, told] : m_mail_time_sent) {
    const Job* job = find_live(id);
    if (!job || job->state != JobState::running || job->start_time == k_no_time) continue;
    const std::uint16_t types = mail_types(*job);
    const Seconds ran = t - job->start_time;
    for (auto [type, percent] : k_time_marks) {
      if (!has(types, type) || (told & bit(type)) != 0) continue;
      if (ran * 100 < job->time_limit * percent) continue;
      told |= bit(type);
      if (per_task(*job, types)) {
        send_mail(*job, type);
      } else {
        const std::optional<Job> meta = array_meta(*job);
        const ArrayOutcome none;
        send_mail(meta ? *meta : *job, type, &none);
      }
    }
  }
}

void Controller::mail_ended(const Job& job) {
  const std::uint16_t types = mail_types(job);
  if (types == 0) return;
  std::uint16_t told = 0;
  if (auto it = m_mail_time_sent.find(job.id); it != m_mail_time_sent.end()) {
    told = it->second;
    m_mail_time_sent.erase(it);
  }
  const bool tasks = per_task(job, types);
  // slurmctld sends TIME_LIMIT as it ends the job for its limit; here stepd
  // ends it, and the mail goes out with its end.
  if (job.state == JobState::timeout && has(types, MailType::time100) &&
      (told & bit(MailType::time100)) == 0) {
    if (tasks) {
      send_mail(job, MailType::time100);
    } else {
      const std::optional<Job> meta = array_meta(job);
      const ArrayOutcome none;
      send_mail(meta ? *meta : job, MailType::time100, &none);
    }
  }
  if (tasks) {
    if (has(types, MailType::fail) && failed_state(job.state)) send_mail(job, MailType::fail);
    if (has(types, MailType::end) &&
        (job.state == JobState::completed || job.state == JobState::cancelled))
      send_mail(job, MailType::end);
    return;
  }
  // An array without ARRAY_TASKS: once its last job (record or task) has
  // ended; `job` is still live.
  if (auto it = m_array_live.find(job.array_job_id); it != m_array_live.end() && it->second > 1)
    return;
  if (!has(types, MailType::requeue) && !has(types, MailType::fail) && !has(types, MailType::end))
    return;
  ArrayOutcome outcome;
  bool first = true;
  for (const Job& task : m_store->array_tasks(job.array_job_id)) {
    const Job& t = task.id == job.id ? job : task;
    const int status = wait_status(t);
    outcome.min_status = first ? status : std::min(outcome.min_status, status);
    outcome.max_status = first ? status : std::max(outcome.max_status, status);
    outcome.requeued = outcome.requeued || t.restart_count > 0;
    first = false;
  }
  std::optional<Job> meta = array_meta(job);
  const Job& summary = meta ? *meta : job;
  if (outcome.requeued && has(types, MailType::requeue))
    send_mail(summary, MailType::requeue, &outcome);
  const bool task_failed = (outcome.max_status & 0x7f) == 0 && (outcome.max_status >> 8) != 0;
  if (task_failed && has(types, MailType::fail))
    send_mail(summary, MailType::fail, &outcome);
  else if (has(types, MailType::end))
    send_mail(summary, MailType::end, &outcome);
}

void Controller::mail_requeued(const Job& job, const Job& attempt) {
  const std::uint16_t types = mail_types(job);
  // An array without ARRAY_TASKS is not over: its summary tells of requeues.
  if (types == 0 || !per_task(job, types)) return;
  if (has(types, MailType::fail) && failed_state(attempt.state) &&
      attempt.state != JobState::preempted)
    send_mail(attempt, MailType::fail);
  if (has(types, MailType::requeue)) send_mail(attempt, MailType::requeue);
}

void Controller::mail_invalid_dependency(const Job& job) {
  const std::uint16_t types = mail_types(job);
  if (!has(types, MailType::invalid_depend)) return;
  if (per_task(job, types)) {
    send_mail(job, MailType::invalid_depend);
    return;
  }
  // The pending tasks of an array are one job to slurmctld.
  if (!m_mail_arrays_invalid.insert(job.array_job_id).second) return;
  const std::optional<Job> meta = array_meta(job);
  const ArrayOutcome none;
  send_mail(meta ? *meta : job, MailType::invalid_depend, &none);
}

}  // namespace stint::daemon
