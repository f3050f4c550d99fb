// The runs of both backends, as the run tools read them: stintd's own jobs,
// and the registry's cluster runs seen as jobs (backend::job_view).

#include <algorithm>
#include <tuple>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/store.hpp>

#include "backend/slurm.hpp"
#include "cli/run_common.hpp"
#include "rpc/client.hpp"

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
