// Runs on a real Slurm cluster (the slurm run backend): stintd
// submits them with sbatch as the run's user, keeps them in the registry
// (cluster_runs) and follows them by asking the cluster every poll period
// while they live, and at once when a tool asks (run_refresh).

#include <map>
#include <tuple>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "backend/slurm.hpp"
#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "run/name_rule.hpp"
#include "store/scripts.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

// What the submitting user's environment gives sbatch, less what a Slurm job
// sets (run-create inside an allocation must not submit into it).
std::vector<std::string> sbatch_environment(const JobSpec& spec) {
  std::vector<std::string> env;
  for (const auto& [name, value] : spec.environment) {
    if (name.rfind("SLURM_", 0) == 0 && name != "SLURM_CONF") continue;
    env.push_back(name + "=" + value);
  }
  return env;
}

std::optional<ClusterRun> find_cluster_run(Store& store, const RunName& name) {
  for (auto& r : store.cluster_runs(name.project)) {
    if (r.number == name.number) return r;
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json Controller::submit_cluster_run(JobSpec spec, const Caller& caller,
                                              const std::string& token) {
  RunInfo& info = *spec.run;
  if (!run::valid_project_name(info.project))
    throw Error(Errc::invalid_argument, fmt::format("Invalid project name: {} (a name is {})",
                                                    info.project, run::k_name_rule));
  if (info.command.empty()) throw Error(Errc::invalid_argument, "A run needs a command");
  if (info.ports_per_node > 64)
    throw Error(Errc::invalid_argument, "At most 64 ports per node may be reserved");
  if (!info.image.empty() || !info.storages.empty())
    throw Error(Errc::invalid_argument,
                "slurm: images and storages are not supported by the slurm run backend");
  const SlurmBackendConfig& config = m_config.slurm_for(info.project);

  ClusterRun run;
  run.project = info.project;
  run.number = next_run_number(info.project);
  info.number = run.number;
  info.stopped = false;
  info.backend = "slurm";
  if (spec.name.empty()) spec.name = RunName{info.project, info.number}.text();
  run.login = config.login;
  run.conf = config.conf;
  run.user_id = caller.uid;
  run.group_id = caller.gid;
  run.user_name = proc::user_name(caller.uid);
  run.submit_time = now();
  run.partition = backend::slurm_partition(config, spec.partition.value_or(""));
  // Ports: the registry's, free of every live cluster run's (the compute
  // nodes cannot be probed from here).
  std::set<std::uint16_t> taken;
  for (const auto& other : m_store->live_cluster_runs()) {
    for (const auto& node : other.ports) taken.insert(node.begin(), node.end());
  }
  run.ports =
      run::reserve_ports(run_ports(), spec.nodes.value_or(1), info.ports_per_node, taken, nullptr);
  backend::CommandTarget target = backend::target_of(run, config);
  target.environment = sbatch_environment(spec);
  spec.environment.clear();  // scripts.db keeps a local job's; a cluster run's is the cluster's
  run.spec = std::move(spec);
  run.cluster_job_id =
      backend::submit(target, backend::slurm_submission(run, config, target.bin_dir));
  run.cluster_state = "PENDING";
  // The values of the run's variables for its owner's tools: stint.db, which
  // every user reads, keeps their names only.
  if (!run.spec.run->env.empty()) {
    nlohmann::json env = nlohmann::json::array();
    for (const auto& [name, value] : run.spec.run->env) env.push_back({name, value});
    scripts().put_run_env(RunName{run.project, run.number}.text(), env.dump());
  }
  {
    Store::Transaction tx(*m_store);
    m_store->add_project({run.project, run.user_id, run.user_name, "", run.submit_time});
    m_store->save_cluster_run(run);
    if (!token.empty())
      m_store->add_submission(run.user_id, token,
                              {run.cluster_job_id, RunName{run.project, run.number}.text()},
                              run.submit_time);
    tx.commit();
  }
  ++m_live_cluster_runs;
  const std::string name = RunName{run.project, run.number}.text();
  log_info("run {} submitted to slurm as job {} ({})", name, run.cluster_job_id,
           run.login.empty() ? "local commands" : run.login);
  return {{"job_id", run.cluster_job_id}, {"run", name}};
}

nlohmann::json Controller::stop_cluster_run(const RunName& name, const Caller& caller) {
  auto run = find_cluster_run(*m_store, name);
  if (!run || is_terminal(run->state))
    return {{"run", name.text()},
            {"error", "not_running"},
            {"message", fmt::format("Run {} is not running", name.text())}};
  if (!may_act_for(caller, run->user_id))
    return {{"run", name.text()},
            {"error", "access_denied"},
            {"message", std::string(errc_slurm_message(Errc::access_denied))}};
  try {
    backend::cancel(backend::target_of(*run, m_config.slurm_for(run->project)),
                    run->cluster_job_id);
  } catch (const Error& e) {
    return {
        {"run", name.text()}, {"error", std::string(errc_name(e.code()))}, {"message", e.what()}};
  }
  run->spec.run->stopped = true;
  m_store->save_cluster_run(*run);
  log_info("run {} stopped: scancel {}", name.text(), run->cluster_job_id);
  return {{"run", name.text()}};
}

void Controller::poll_cluster_runs(bool force, const std::string& project) {
  if (m_live_cluster_runs == 0 && !force) return;
  std::vector<ClusterRun> live = m_store->live_cluster_runs();
  m_live_cluster_runs = live.size();
  // One sacct per place and user: (login, conf, uid).
  std::map<std::tuple<std::string, std::string, std::uint32_t>, std::vector<ClusterRun*>> groups;
  const Seconds t = now();
  for (auto& r : live) {
    if (!project.empty() && r.project != project) continue;
    const SlurmBackendConfig& config = m_config.slurm_for(r.project);
    // Asked on demand, an answer of this second is fresh enough.
    const Seconds fresh = force ? 1 : config.poll_interval;
    if (r.polled != k_no_time && t - r.polled < fresh) continue;
    groups[{r.login, r.conf, r.user_id}].push_back(&r);
  }
  std::string failure;
  for (auto& [key, runs] : groups) {
    try {
      backend::refresh(backend::target_of(*runs.front(), m_config.slurm_for(runs.front()->project)),
                       runs, t);
    } catch (const Error& e) {
      log_error("{}", e.what());
      failure = e.what();
      for (ClusterRun* r : runs) r->polled = t;  // try again after a period, not at once
    }
    for (ClusterRun* r : runs) {
      m_store->save_cluster_run(*r);
      if (!r->live()) {
        if (m_live_cluster_runs > 0) --m_live_cluster_runs;
        log_info("run {}/{} (slurm job {}) ended: {}", r->project, r->number, r->cluster_job_id,
                 r->spec.run->lost.empty() ? r->cluster_state : r->spec.run->lost);
      }
    }
  }
  if (force && !failure.empty()) throw Error(Errc::daemon_unavailable, failure);
}

}  // namespace stint::daemon
