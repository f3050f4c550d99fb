// Accepting jobs: the spool folder first, then the database, in one transaction.

#include <cerrno>
#include <cstring>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "daemon/controller.hpp"
#include "daemon/job_env.hpp"
#include "model/json.hpp"
#include "util/fs.hpp"

namespace stint::daemon {

std::string Controller::script_spool(const Job& job) const {
  // The tasks of an array share the script and environment of the first task.
  return m_paths.spool(job.is_array_task() ? job.array_job_id : job.id);
}

namespace {

// In system mode the job runs as its owner, who must be able to execute the
// script: spool/<id>/ stays root's (the launch and result files in it are
// what stepd trusts, so no user may write there) but is searchable (0711),
// and the script is its owner's (0700). The environment stays root's: the
// launcher reads it and hands it to the job.
void share_script(const std::string& spool, const Job& owner) {
  const std::string script = spool + "/script";
  if (::chmod(spool.c_str(), 0711) != 0 ||
      ::chown(script.c_str(), owner.user_id, owner.group_id) != 0)
    throw Error(Errc::io, fmt::format("Unable to give {} to uid {}: {}", script, owner.user_id,
                                      std::strerror(errno)));
}

}  // namespace

JobId Controller::add_jobs(std::vector<Job> jobs) {
  if (jobs.empty()) throw Error(Errc::internal, "no jobs to add");
  // The ids come from the store inside the transaction that also inserts the
  // jobs, so a refused or failed submission burns no id. The commit is
  // durable: an id sbatch printed survives a power cut, as its spool files,
  // synced before it, do.
  Store::Transaction tx(*m_store, Store::Sync::durable);
  const JobId first = m_store->allocate_job_ids(static_cast<std::uint32_t>(jobs.size()));
  JobId next = first;
  for (auto& job : jobs) {
    job.id = next++;
    if (job.array_task_id != k_no_array_task) job.array_job_id = first;
  }
  std::string spool = m_paths.spool(first);
  fs::make_dirs(spool, 0700);
  try {
    const JobSpec& spec = jobs.front().spec;
    // Written in place: nothing reads the folder before the commit (a crash
    // before it leaves a folder the id's next owner overwrites). Synced all
    // at once, before the commit: the files (with the script's owner), their
    // names in the job's folder, and the folder's own name in spool/.
    fs::SyncedWrites files;
    files.write(spool + "/script", spec.script, 0700);
    files.write(spool + "/environment.json", to_json(spec).at("environment").dump(), 0600);
    if (system_mode()) share_script(spool, jobs.front());
    files.add_dir(spool);
    files.add_dir(m_paths.spool_root());
    files.sync();
    // A run's project exists from its first run on (run-project list).
    if (const auto& run = jobs.front().spec.run)
      m_store->add_project({run->project, jobs.front().user_id, jobs.front().user_name, "", now()});
    for (auto& job : jobs) {
      auto [out, err] = output_paths(job);
      job.stdout_path = std::move(out);
      job.stderr_path = std::move(err);
    }
    m_store->insert_jobs(jobs);
    tx.commit();
  } catch (...) {
    fs::remove_tree(spool);
    throw;
  }
  for (auto& job : jobs) {
    // The live copy needs neither: the launcher reads them from the spool
    // folder. Freed, not cleared: clear() would keep their buffers.
    job.spec.environment = {};
    job.spec.script = std::string();
    JobId id = job.id;
    m_live.emplace(id, std::move(job));
  }
  m_dirty = true;
  return first;
}

}  // namespace stint::daemon
