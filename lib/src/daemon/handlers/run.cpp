// run-stop: every node of the named runs stops; the run shows STOPPED.

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "daemon/handlers/handlers.hpp"

namespace stint::daemon {
namespace {

bool is_run(const Job& job, const RunName& name) {
  return job.spec.run && job.spec.run->project == name.project &&
         job.spec.run->number == name.number;
}

}  // namespace

// {"op": "run_stop", "runs": ["p/1", ...]} or {"op": "run_stop", "project": "p",
// "all": true}: each run's result is in "results", as scancel's are.
Json handle_run_stop(Controller& c, const Json& req, const Caller& caller) {
  std::vector<Job*> targets;
  Json results = Json::array();
  if (req.value("all", false)) {
    const std::string project = req.value("project", std::string());
    for (const auto& [id, job] : c.live()) {
      if (job.spec.run && job.spec.run->project == project && c.may_act_for(caller, job.user_id))
        targets.push_back(c.find_live(id));
    }
    for (const auto& run : c.store().cluster_runs(project)) {
      if (!is_terminal(run.state) && c.may_act_for(caller, run.user_id))
        results.push_back(c.stop_cluster_run(RunName{run.project, run.number}, caller));
    }
  }
  for (const auto& text : req.value("runs", Json::array())) {
    const RunName name = run::parse_run_name(text.get<std::string>());
    Job* found = nullptr;
    for (const auto& [id, job] : c.live()) {
      if (is_run(job, name)) found = c.find_live(id);
    }
    if (!found && c.config().run_backend_for(name.project) == "slurm") {
      results.push_back(c.stop_cluster_run(name, caller));
      continue;
    }
    if (!found) {
      results.push_back({{"run", name.text()},
                         {"error", "not_running"},
                         {"message", fmt::format("Run {} is not running", name.text())}});
      continue;
    }
    if (!c.may_act_for(caller, found->user_id)) {
      results.push_back({{"run", name.text()},
                         {"error", "access_denied"},
                         {"message", std::string(errc_slurm_message(Errc::access_denied))}});
      continue;
    }
    targets.push_back(found);
  }
  for (Job* job : targets) {
    const std::string name = RunName{job->spec.run->project, job->spec.run->number}.text();
    job->spec.run->stopped = true;
    job->cancelled_by = caller.uid;
    if (job->state == JobState::pending) {
      c.finish(*job, JobState::cancelled);
    } else {
      c.save(*job);
      c.cancel_running(*job, true);
    }
    results.push_back({{"run", name}});
  }
  return {{"results", results}};
}

// {"op": "run_refresh", "project": "p"}: asks the cluster about the live
// cluster runs of a project (every project when empty) now, so that run-list
// and run-show read what it says; "warning" says why it could not.
Json handle_run_refresh(Controller& c, const Json& req, const Caller&) {
  try {
    c.poll_cluster_runs(true, req.value("project", std::string()));
  } catch (const Error& e) {
    return {{"warning", e.what()}};
  }
  return Json::object();
}

}  // namespace stint::daemon
