// Keeping the state directory bounded: slurmdbd's PurgeJobAfter and
// PurgeStepAfter carried out by stintd (stint.db stands in for slurmdbd's
// database), and `stint db compact`.

#include <sys/stat.h>

#include <stint/error.hpp>

#include "config/purge_age.hpp"
#include "daemon/controller.hpp"
#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "daemon/stepd_forks.hpp"
#include "store/scripts.hpp"
#include "util/fs.hpp"

namespace stint::daemon {
namespace {

// Rows removed per transaction: each batch holds the write lock for tens of
// milliseconds at most, so requests in between are not kept waiting; a
// backlog (purging switched on over years of jobs) goes a batch a pass.
constexpr std::size_t k_purge_batch = 2000;

// How long a submission's token is kept: a client asks again within seconds
// of losing its answer (a stintd restarting); a day covers a system stintd
// that an administrator brings back by hand.
constexpr Seconds k_submission_token_age = Seconds{24} * 3600;

}  // namespace

bool Controller::purge_records() {
  {
    Store::Transaction tx(*m_store);
    m_store->purge_submissions(now() - k_submission_token_age);
    tx.commit();
  }
  const auto job_age = config::purge_age(m_config.conf("PurgeJobAfter").value_or(""));
  const auto step_age = config::purge_age(m_config.conf("PurgeStepAfter").value_or(""));
  if (!job_age && !step_age) return false;
  const Seconds t = now();
  Store::PurgedJobs purged;
  std::size_t steps = 0;
  {
    Store::Transaction tx(*m_store);
    if (job_age) purged = m_store->purge_jobs(config::purge_cutoff(*job_age, t), k_purge_batch);
    if (step_age) steps = m_store->purge_steps(config::purge_cutoff(*step_age, t), k_purge_batch);
    tx.commit();
  }
  // After the commit: a crash in between leaves a script or a folder no job
  // names (harmless, and gone with the next purge of its id's range), never
  // a job without its script.
  if (!purged.scripts.empty()) {
    try {
      scripts().remove(purged.scripts);
    } catch (const Error& e) {
      log_error("purge: scripts.db: {}", e.what());
    }
  }
  for (JobId id : purged.jobs) fs::remove_tree(m_paths.spool(id));
  if (!purged.jobs.empty() || steps > 0)
    log_info("purge: {} jobs (PurgeJobAfter {}), {} steps (PurgeStepAfter {})", purged.jobs.size(),
             config::purge_age_text(job_age), steps, config::purge_age_text(step_age));
  return purged.jobs.size() == k_purge_batch || steps == k_purge_batch;
}

void Controller::rotate_stepd_log() {
  const std::uint64_t limit = log_limit();
  if (limit == 0) return;
  const std::string path = m_paths.log_dir() + "/stepd.log";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || static_cast<std::uint64_t>(st.st_size) < limit) return;
  if (::rename(path.c_str(), (path + ".1").c_str()) != 0) return;
  // The fork server and the stepds it forked write to the file they were
  // given; a new server, started with the next task, opens the new one.
  if (m_stepd_forks) m_stepd_forks->renew();
  log_info("log/stepd.log rotated past {} MiB", limit / (1024ULL * 1024));
}

void Controller::compact_store() {
  log_info("compacting {} and scripts.db", m_paths.db());
  m_store->compact();
  scripts().compact();
}

void Controller::empty_wals_when_quiet(std::chrono::milliseconds quiet) {
  // A failure (a reader in the way, an I/O error) leaves the WAL as it is,
  // for the next attempt.
  m_store->empty_wal_when_quiet(quiet);
  if (m_scripts) m_scripts->empty_wal_when_quiet(quiet);
}

// `stint db compact`: SlurmUser's (the state directory's owner's) or root's.
Json handle_db_compact(Controller& c, const Json&, const Caller& caller) {
  if (!c.is_superuser(caller))
    throw Error(Errc::access_denied,
                "Access/permission denied: only the state directory's owner or root compacts it");
  c.compact_store();
  return Json::object();
}

}  // namespace stint::daemon
