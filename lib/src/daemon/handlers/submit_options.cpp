// What stintd decides at submission about the rarer sbatch options
// (JobSpec::options()): who the job runs as (--uid, --gid), and the
// refusals slurmctld gives where this machine has nothing to honour an
// option with.

#include <pwd.h>
#include <unistd.h>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "util/proc.hpp"

namespace stint::daemon {

void apply_job_options(Controller& /*c*/, Job& job, const Caller& caller) {
  if (!job.spec.more) return;
  const JobOptions& o = *job.spec.more;
  // Slurm's default MCSPlugin, mcs/none, refuses any label.
  if (o.recorded.count("mcs-label") && !o.recorded.at("mcs-label").empty()) {
    throw Error(Errc::invalid_mcs_label, "");
  }
  if (o.uid || o.gid) {
    // sbatch lets only root ask; stintd checks the caller, not the request.
    if (caller.uid != 0) {
      throw Error(Errc::access_denied, "");
    }
    if (::geteuid() != 0) {
      throw Error(Errc::access_denied,
                  fmt::format("--uid/--gid: this stintd runs as {} and can start jobs only as "
                              "that user; a system stintd (root) can start them as others",
                              proc::user_name(static_cast<std::uint32_t>(::geteuid()))));
    }
    if (o.uid) {
      const passwd* pw = ::getpwuid(*o.uid);
      if (pw == nullptr) throw Error(Errc::invalid_argument, "Invalid user id");
      job.user_id = *o.uid;
      job.group_id = pw->pw_gid;
      job.user_name = pw->pw_name;
    }
    if (o.gid) job.group_id = *o.gid;
  }
}

}  // namespace stint::daemon
