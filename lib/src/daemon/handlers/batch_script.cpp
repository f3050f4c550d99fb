// scontrol write batch_script: a job's script, for its owner and operators
// only (DESIGN.md "Security"). The script is read here, by stintd, so that
// an operator who is not root can read it too.

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/spool.hpp"
#include "store/scripts.hpp"

namespace stint::daemon {

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
  // As submitted (scripts.db), not the spool copy its owner may have written to since.
  std::optional<SubmittedScript> submitted =
      submitted_script(c.scripts(), c.paths(), Controller::script_id(*job));
  if (!submitted) throw Error(Errc::invalid_job_id, "No job script found");
  // [[name, value], ...], in the order the job had them (sacct --env-vars).
  Json environment = Json::array();
  if (!submitted->environment.empty()) {
    environment = Json::parse(submitted->environment, nullptr, false);
    if (!environment.is_array()) environment = Json::array();
  }
  return {{"job_id", job->id}, {"script", submitted->script}, {"environment", environment}};
}

}  // namespace stint::daemon
