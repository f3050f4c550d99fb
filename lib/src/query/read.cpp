// Reading for the tools: stint.yaml and the database, never through stintd.

#include <stint/query.hpp>

namespace stint::query {

Config read_config(const Paths& paths) { return load_or_init_config(paths.state_dir); }

std::vector<Job> read_jobs(const Paths& paths, const JobFilter& filter) {
  // Before stintd's first start there is no database: an empty queue, as a
  // fresh Slurm cluster shows, rather than an error.
  if (!Store::exists(paths.db())) return {};
  auto store = Store::open(paths.db(), Store::Mode::read_only);
  return store->jobs(filter);
}

bool job_exists(const Paths& paths, JobId id) {
  if (!Store::exists(paths.db())) return false;
  auto store = Store::open(paths.db(), Store::Mode::read_only);
  return store->job(id).has_value();
}

ClusterView read_cluster(const Paths& paths) {
  ClusterView view;
  view.config = read_config(paths);
  JobFilter active;
  active.active_only = true;
  view.active_jobs = read_jobs(paths, active);
  view.nodes = nodes(view.config, view.active_jobs);
  view.partitions = partitions(view.config);
  return view;
}

}  // namespace stint::query
