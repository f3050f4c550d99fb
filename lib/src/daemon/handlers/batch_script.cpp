// scontrol write batch_script: a job's script, for its owner and operators
// only (DESIGN.md "Security"). The script is read here, by stintd, so that
// an operator who is not root can read it too.

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"

namespace stint::daemon {
namespace {

// Slurm's default max_script_size: a larger file is not a script sbatch took
// (its owner may have written to it since).
constexpr off_t k_max_script_size = off_t{4} * 1024 * 1024;

std::optional<std::string> read_script(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::string text;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= k_max_script_size;
  if (ok) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < text.size()) {
      ssize_t n = ::read(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    text.resize(done);
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  return text;
}

}  // namespace

// {"op": "batch_script", "job_id": 12 | "12_3"} -> {"script": "..."}
Json handle_batch_script(Controller& c, const Json& req, const Caller& caller) {
  const JobRef ref = job_ref(req.at("job_id"));
  std::optional<Job> job;
  if (std::vector<Job*> live = c.live_jobs(ref.id, ref.array_task); !live.empty()) {
    job = *live.front();
  } else if (std::vector<Job> ended = c.ended_jobs(ref.id, ref.array_task); !ended.empty()) {
    job = ended.front();
  }
  if (!job)
    throw Error(Errc::invalid_job_id, std::string(errc_slurm_message(Errc::invalid_job_id)));
  if (!c.may_act_for(caller, job->user_id))
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  if (job->spec.run)
    throw Error(Errc::invalid_argument,
                fmt::format("Job {} is a run: it has no batch script", job->display_id()));
  const JobId spool_id = job->is_array_task() ? job->array_job_id : job->id;
  std::optional<std::string> script = read_script(c.paths().spool(spool_id) + "/script");
  if (!script) throw Error(Errc::invalid_job_id, "No job script found");
  return {{"job_id", job->id}, {"script", *script}};
}

}  // namespace stint::daemon
