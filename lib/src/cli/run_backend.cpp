// The runs of both backends, as the run tools read them: stintd's own jobs,
// and the registry's cluster runs seen as jobs (backend::job_view).

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/store.hpp>

#include "backend/slurm.hpp"
#include "cli/run_common.hpp"
#include "rpc/client.hpp"
#include "run/secret_env.hpp"
#include "util/proc.hpp"

namespace stint::cli {

std::vector<Job> all_run_jobs(Store& store, const std::string& project) {
  std::vector<Job> jobs = store.run_jobs(project);
  for (const auto& run : store.cluster_runs(project)) jobs.push_back(backend::job_view(run));
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return std::tie(a.spec.run->project, a.spec.run->number) <
           std::tie(b.spec.run->project, b.spec.run->number);
  });
  return jobs;
}

bool may_read_any_run(Store& store) {
  const uid_t me = ::getuid();
  if (me == 0) return true;
  struct stat st {};
  if (::stat(default_paths().state_dir.c_str(), &st) == 0 && st.st_uid == me) return true;
  const Accounting accounting = store.accounting();
  const User* u = accounting.find_user(proc::user_name(me));
  return u && u->admin_level != AdminLevel::none;
}

std::vector<bool> reveal_run_env(Store& store, std::vector<Job>& jobs, std::string_view tool) {
  std::vector<bool> shown(jobs.size(), false);
  const uid_t me = ::getuid();
  std::optional<bool> privileged;
  nlohmann::json ids = nlohmann::json::array();
  nlohmann::json names = nlohmann::json::array();
  std::map<JobId, std::size_t> index;
  std::map<std::string, std::size_t> cluster_index;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    if (!job.spec.run || job.spec.run->env.empty()) {
      shown[i] = true;
      continue;
    }
    if (job.user_id != me) {
      if (!privileged) privileged = may_read_any_run(store);
      if (!*privileged) continue;
    }
    if (job.spec.run->backend.empty()) {
      index.emplace(job.id, i);
      ids.push_back(job.id);
    } else {
      const std::string name = RunName{job.spec.run->project, job.spec.run->number}.text();
      cluster_index.emplace(name, i);
      names.push_back(name);
    }
  }
  // Each entry of the reply: the index of its job, and the values.
  auto fill = [&](const nlohmann::json& entries, auto index_of) {
    if (!entries.is_array()) return;
    for (const auto& entry : entries) {
      if (!entry.is_object() || entry.value("masked", true)) continue;
      const std::optional<std::size_t> i = index_of(entry);
      const auto kept = entry.find("environment");
      if (!i || kept == entry.end() || !kept->is_array()) continue;
      run::EnvPairs environment;
      for (const auto& kv : *kept) {
        if (kv.is_array() && kv.size() == 2 && kv[0].is_string() && kv[1].is_string())
          environment.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
      }
      run::fill_env_values(jobs[*i].spec.run->env, environment);
      shown[*i] = true;
    }
  };
  if (!ids.empty() || !names.empty()) {
    try {
      const nlohmann::json reply =
          rpc::call(default_paths(),
                    {{"op", "job_env"}, {"job_ids", std::move(ids)}, {"runs", std::move(names)}});
      fill(reply.value("jobs", nlohmann::json::array()),
           [&](const nlohmann::json& entry) -> std::optional<std::size_t> {
             const auto id = entry.find("job_id");
             if (id == entry.end() || !id->is_number_unsigned()) return std::nullopt;
             const auto it = index.find(id->get<JobId>());
             return it == index.end() ? std::nullopt : std::optional(it->second);
           });
      fill(reply.value("runs", nlohmann::json::array()),
           [&](const nlohmann::json& entry) -> std::optional<std::size_t> {
             const auto it = cluster_index.find(entry.value("run", std::string()));
             return it == cluster_index.end() ? std::nullopt : std::optional(it->second);
           });
    } catch (const Error& e) {
      fmt::print(stderr, "{}: warning: the values of the runs' variables are not shown: {}\n", tool,
                 e.what());
    }
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!shown[i]) jobs[i].spec.run->env = run::masked_env(std::move(jobs[i].spec.run->env));
  }
  return shown;
}

void refresh_cluster_runs(Store& store, const std::string& project, std::string_view tool) {
  const auto live = store.live_cluster_runs();
  if (std::none_of(live.begin(), live.end(),
                   [&](const ClusterRun& r) { return project.empty() || r.project == project; }))
    return;
  try {
    const auto reply = rpc::call(default_paths(), {{"op", "run_refresh"}, {"project", project}});
    if (reply.contains("warning"))
      fmt::print(stderr, "{}: warning: {} (showing what it said last)\n", tool,
                 reply.value("warning", std::string()));
  } catch (const Error& e) {
    fmt::print(stderr, "{}: warning: {} (showing what the cluster said last)\n", tool, e.what());
  }
}

std::optional<ClusterRun> find_cluster_run(Store& store, const RunName& name) {
  for (auto& r : store.cluster_runs(name.project)) {
    if (r.number == name.number) return r;
  }
  return std::nullopt;
}

std::optional<std::string> read_cluster_output(const ClusterRun& run, std::uint32_t rank,
                                               std::size_t offset) {
  const std::string path = backend::rank_output_path(run, rank);
  backend::CommandTarget target;
  target.login = run.login;
  target.timeout_s = 60;
  const auto r = backend::run_command(target, {"tail", "-c", fmt::format("+{}", offset + 1), path});
  if (r.timed_out || r.exit_code == 255)
    throw Error(Errc::io, fmt::format("cannot read {} on {}: {}", path, run.login, r.err));
  if (r.exit_code != 0) return std::nullopt;
  return r.out;
}

}  // namespace stint::cli
