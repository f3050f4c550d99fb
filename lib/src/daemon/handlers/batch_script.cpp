// scontrol write batch_script, sacct -B and --env-vars, and the values of a
// run's variables: what a job was submitted with, for its owner and operators
// only (DESIGN.md "Security"). They are read here, by stintd, so that an
// operator who is not root, and in system mode the owner, can read them too.

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/spool.hpp"
#include "run/secret_env.hpp"
#include "store/scripts.hpp"

namespace stint::daemon {
namespace {

std::optional<Job> find_job(Controller& c, const JobRef& ref) {
  if (std::vector<Job*> live = c.live_jobs(ref.id, ref.array_task, false); !live.empty())
    return *live.front();
  if (std::vector<Job> ended = c.ended_jobs(ref.id, ref.array_task); !ended.empty())
    return ended.front();
  return std::nullopt;
}

// [[name, value], ...], in the order the job had them; empty when none is kept.
Json environment_of(const std::optional<SubmittedScript>& submitted) {
  Json environment = Json::array();
  if (submitted && !submitted->environment.empty()) {
    environment = Json::parse(submitted->environment, nullptr, false);
    if (!environment.is_array()) environment = Json::array();
  }
  return environment;
}

// What someone other than the owner (or an operator) sees: the names.
void mask_values(Json& environment) {
  for (auto& pair : environment) {
    if (pair.is_array() && pair.size() == 2) pair[1] = run::k_masked_value;
  }
}

}  // namespace

// {"op": "batch_script", "job_id": 12 | "12_3"} -> {"script": "..."}
Json handle_batch_script(Controller& c, const Json& req, const Caller& caller) {
  const JobRef ref = job_ref(req.at("job_id"));
  std::optional<Job> job = find_job(c, ref);
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
  return {{"job_id", job->id},
          {"script", submitted->script},
          {"environment", environment_of(submitted)}};
}

// {"op": "job_env", "job_ids": [12, "12_3", ...], "runs": ["p/1", ...]} ->
//   {"jobs": [{"job_id": <as asked>, "environment": [[name, value], ...], "masked": bool}],
//    "runs": [{"run": "p/1", "environment": [...], "masked": bool}]}
// ("runs": cluster runs, whose variables alone are kept).
// Batch jobs and runs alike; a job that does not exist is left out. Another
// user's job (but for an operator) comes with its names and "***" for every
// value: which variables a job sets is no secret, what they hold may be.
Json handle_job_env(Controller& c, const Json& req, const Caller& caller) {
  Json jobs = Json::array();
  for (const JobRef& ref : requested_refs(req)) {
    const std::optional<Job> job = find_job(c, ref);
    if (!job) continue;
    Json environment =
        environment_of(submitted_script(c.scripts(), c.paths(), Controller::script_id(*job)));
    const bool masked = !c.may_act_for(caller, job->user_id);
    if (masked) mask_values(environment);
    jobs.push_back(
        {{"job_id", ref.as_given}, {"environment", std::move(environment)}, {"masked", masked}});
  }
  // Cluster runs by name: their variables alone, which stintd keeps for them.
  Json runs = Json::array();
  if (const auto names = req.find("runs"); names != req.end()) {
    if (!names->is_array()) throw Error(Errc::protocol, "runs must be an array");
    for (const auto& name : *names) {
      const RunName rn = run::parse_run_name(name.get<std::string>());
      std::optional<std::uint32_t> owner;
      for (const auto& r : c.store().cluster_runs(rn.project)) {
        if (r.number == rn.number) owner = r.user_id;
      }
      const std::optional<std::string> kept = owner ? c.scripts().run_env(rn.text()) : std::nullopt;
      if (!kept) continue;
      Json env = Json::parse(*kept, nullptr, false);
      if (!env.is_array()) continue;
      const bool masked = !c.may_act_for(caller, *owner);
      if (masked) mask_values(env);
      runs.push_back({{"run", rn.text()}, {"environment", std::move(env)}, {"masked", masked}});
    }
  }
  return {{"jobs", std::move(jobs)}, {"runs", std::move(runs)}};
}

}  // namespace stint::daemon
