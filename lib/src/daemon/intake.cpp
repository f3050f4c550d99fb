// Accepting jobs: the script and environment first (scripts.db), then the
// jobs' rows, in one transaction; the two files' syncs overlap.

#include <algorithm>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "daemon/controller.hpp"
#include "daemon/job_env.hpp"
#include "daemon/log.hpp"
#include "model/json.hpp"
#include "store/scripts.hpp"
#include "util/background.hpp"

namespace stint::daemon {

JobId Controller::script_id(const Job& job) {
  if (job.is_het_component()) return job.het_job_id;
  return job.is_array_task() ? job.array_job_id : job.id;
}

// Ids run from FirstJobId (raised later, the sequence moves up to it) to
// below MaxJobId, then start again at FirstJobId, as slurmctld's
// get_next_job_id. Past the wrap an id is given only if no job on record
// has it (slurmctld looks only at the jobs it holds; stint.db keeps every
// job until it is purged, and an id names one job there).
JobId Controller::job_ids(std::uint32_t count) {
  const auto floor = static_cast<JobId>(m_config.conf_int("FirstJobId"));
  const auto limit = static_cast<JobId>(m_config.conf_int("MaxJobId"));
  JobId first = std::max(m_store->allocate_job_ids(count), floor);
  const bool over = static_cast<std::uint64_t>(first) + count > limit;
  if (!over && !m_store->meta("job_ids_wrapped")) {
    if (first == floor) m_store->set_meta("next_job_id", std::to_string(first + count));
    return first;
  }
  std::optional<JobId> free = over ? std::nullopt : m_store->free_job_ids(first, limit, count);
  if (!free) free = m_store->free_job_ids(floor, limit, count);
  if (!free) {
    log_error("We have exhausted our supply of valid job id values. FirstJobId={} MaxJobId={}",
              floor, limit);
    throw Error(Errc::try_again, std::string(errc_slurm_message(Errc::try_again)));
  }
  if (*free < first) m_store->set_meta("job_ids_wrapped", "1");
  m_store->set_meta("next_job_id", std::to_string(*free + count));
  return *free;
}

JobId Controller::add_jobs(std::vector<Job> jobs, const std::string& token) {
  if (jobs.empty()) throw Error(Errc::internal, "no jobs to add");
  // The ids come from the store inside the transaction that also inserts the
  // jobs, so a refused or failed submission burns no id. The commit is
  // durable: an id sbatch printed survives a power cut, as the script and
  // environment do. Those are written first (a stintd killed in between
  // leaves a script under an id no job has, which the id's next owner
  // replaces) and synced on another thread while stint.db's commit syncs:
  // the two flushes overlap instead of following each other.
  Store::Transaction tx(*m_store, Store::Sync::durable);
  const auto count = static_cast<std::uint32_t>(jobs.size());
  const JobId first = job_ids(count);
  JobId next = first;
  for (auto& job : jobs) {
    job.id = next++;
    if (job.is_array_record() || job.array_task_id != k_no_array_task) job.array_job_id = first;
    // A het job's components (marked by any het_job_id) are the leader's.
    if (job.het_job_id != 0) {
      job.het_job_id = first;
      job.het_job_size = static_cast<std::uint32_t>(jobs.size());
    }
  }
  // The tasks of an array share the first task's script and environment.
  const JobSpec& spec = jobs.front().spec;
  ScriptStore* kept = &scripts();
  kept->put(first, spec.script, to_json(spec).at("environment").dump());
  if (!m_script_sync) m_script_sync = std::make_unique<Background>();
  m_script_sync->start([kept] { kept->sync(); });
  try {
    // A run's project exists from its first run on (run-project list).
    if (const auto& run = jobs.front().spec.run)
      m_store->add_project({run->project, jobs.front().user_id, jobs.front().user_name, "", now()});
    for (auto& job : jobs) {
      auto [out, err] = output_paths(job);
      job.stdout_path = std::move(out);
      job.stderr_path = std::move(err);
    }
    m_store->insert_jobs(jobs);
    if (!token.empty()) {
      const auto& run = jobs.front().spec.run;
      m_store->add_submission(jobs.front().user_id, token,
                              {first, run ? RunName{run->project, run->number}.text() : ""}, now());
    }
    tx.commit();
  } catch (...) {
    // The submission fails for its own reason; the sync is waited for all
    // the same, as the next submission's start needs.
    try {
      m_script_sync->wait();
    } catch (...) {
    }
    throw;
  }
  try {
    m_script_sync->wait();
  } catch (const Error&) {
    // Committed, but the script may not be on disk: the submission is undone
    // (its ids stay used) and refused, as when its put failed.
    Store::Transaction undo(*m_store);
    m_store->remove_jobs(first, static_cast<std::uint32_t>(jobs.size()));
    if (!token.empty()) m_store->remove_submission(jobs.front().user_id, token);
    undo.commit();
    throw;
  }
  for (auto& job : jobs) {
    // The live copy needs neither: the launcher reads them from scripts.db.
    // Freed, not cleared: clear() would keep their buffers.
    job.spec.environment = {};
    job.spec.script = std::string();
    JobId id = job.id;
    count_array_live(job, true);
    m_live.emplace(id, std::move(job));
  }
  m_dirty = true;
  return first;
}

}  // namespace stint::daemon
