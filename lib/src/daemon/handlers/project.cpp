// run-project create and run-delete: the records around runs.

#include <algorithm>
#include <set>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "run/name_rule.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

Json run_error(const RunName& name, std::string_view code, const std::string& message) {
  return {{"run", name.text()}, {"error", code}, {"message", message}};
}

// Deletes one run when it has ended and the caller may; the result as
// run-stop's are.
Json delete_one(Controller& c, const RunName& name, const Caller& caller) {
  for (const auto& [id, job] : c.live()) {
    if (job.spec.run && job.spec.run->project == name.project &&
        job.spec.run->number == name.number)
      return run_error(name, "not_finished",
                       fmt::format("Run {} has not ended: stop it first (run-stop)", name.text()));
  }
  std::optional<std::uint32_t> owner;
  for (const auto& job : c.store().run_jobs(name.project)) {
    if (job.spec.run->number == name.number) owner = job.user_id;
  }
  if (!owner) {
    for (const auto& run : c.store().cluster_runs(name.project)) {
      if (run.number != name.number) continue;
      if (!is_terminal(run.state))
        return run_error(
            name, "not_finished",
            fmt::format("Run {} has not ended: stop it first (run-stop)", name.text()));
      owner = run.user_id;
    }
  }
  if (!owner) return run_error(name, "invalid_argument", fmt::format("No run {}", name.text()));
  if (!c.may_act_for(caller, *owner))
    return run_error(name, "access_denied", std::string(errc_slurm_message(Errc::access_denied)));
  Store::Transaction tx(c.store());
  c.store().delete_run(name.project, name.number, caller.uid, c.now());
  tx.commit();
  log_info("run {} deleted by uid {}", name.text(), caller.uid);
  return {{"run", name.text()}};
}

}  // namespace

// {"op": "project_create", "name": "p", "description": "..."}: a project
// owned by the caller. A project also comes into being with its first run.
Json handle_project_create(Controller& c, const Json& req, const Caller& caller) {
  const std::string name = req.at("name").get<std::string>();
  if (!run::valid_project_name(name))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid project name: {} (a name is {})", name, run::k_name_rule));
  Project project{name, caller.uid, proc::user_name(caller.uid),
                  req.value("description", std::string()), c.now()};
  Store::Transaction tx(c.store());
  if (!c.store().add_project(project))
    throw Error(Errc::invalid_argument, fmt::format("Project {} already exists", name));
  tx.commit();
  log_info("project {} created by uid {}", name, caller.uid);
  return {{"project", name}};
}

// {"op": "project_delete", "name": "p"}: the project and its runs leave the
// run tools, as run-delete of each would; refused while a run of it is live.
// Its jobs stay in accounting, and run numbers go on from the last one if a
// project of that name comes again, so no two runs ever share a name.
Json handle_project_delete(Controller& c, const Json& req, const Caller& caller) {
  const std::string name = req.at("name").get<std::string>();
  std::vector<std::string> live;
  for (const auto& [id, job] : c.live()) {
    if (job.spec.run && job.spec.run->project == name)
      live.push_back(RunName{name, job.spec.run->number}.text());
  }
  std::set<std::uint32_t> numbers;
  std::set<std::uint32_t> owners;
  for (const auto& job : c.store().run_jobs(name)) {
    numbers.insert(job.spec.run->number);
    owners.insert(job.user_id);
  }
  for (const auto& run : c.store().cluster_runs(name)) {
    if (!is_terminal(run.state)) live.push_back(RunName{name, run.number}.text());
    numbers.insert(run.number);
    owners.insert(run.user_id);
  }
  const std::optional<Project> project = c.store().project(name);
  if (!project && numbers.empty())
    throw Error(Errc::invalid_argument,
                fmt::format("No project {} (run-project list shows them)", name));
  if (project) owners.insert(project->owner_id);
  for (std::uint32_t owner : owners) {
    if (!c.may_act_for(caller, owner))
      throw Error(Errc::access_denied,
                  fmt::format("Project {} is not yours alone (it or some of its runs belong "
                              "to other users): only an operator may delete it",
                              name));
  }
  if (!live.empty()) {
    std::sort(live.begin(), live.end());
    live.erase(std::unique(live.begin(), live.end()), live.end());
    throw Error(Errc::invalid_argument,
                fmt::format("Project {} has runs that have not ended ({}): stop them first "
                            "(run-stop)",
                            name, fmt::join(live, ", ")));
  }
  Store::Transaction tx(c.store());
  for (std::uint32_t number : numbers) c.store().delete_run(name, number, caller.uid, c.now());
  c.store().delete_project(name);
  tx.commit();
  log_info("project {} ({} runs) deleted by uid {}", name, numbers.size(), caller.uid);
  Json runs = Json::array();
  for (std::uint32_t number : numbers) runs.push_back(RunName{name, number}.text());
  return {{"project", name}, {"runs", runs}};
}

// {"op": "run_delete", "runs": ["p/1", ...]}: each ended run the caller owns
// (or an operator) leaves the run tools; its job stays in accounting.
Json handle_run_delete(Controller& c, const Json& req, const Caller& caller) {
  Json results = Json::array();
  for (const auto& text : req.value("runs", Json::array()))
    results.push_back(delete_one(c, run::parse_run_name(text.get<std::string>()), caller));
  return {{"results", results}};
}

}  // namespace stint::daemon
