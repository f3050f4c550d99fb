// Reading for the tools: stint.yaml and the database, never through stintd.

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

#include <fmt/core.h>
#include <sys/stat.h>

#include <stint/error.hpp>
#include <stint/query.hpp>

#include "util/clock.hpp"

namespace stint::query {

namespace {

// Whether the stintd that holds the state directory's lock is alive: the lock
// file holds its pid. Taking the lock to find out would race a starting stintd.
bool stintd_alive(const Paths& paths) {
  std::ifstream lock(paths.lock());
  if (!lock) {
    // Another user's lock (the system stintd's is root's alone): its socket
    // says, which a stintd that stopped removed.
    struct stat st {};
    return ::lstat(paths.socket().c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
  }
  long pid = 0;
  if (!(lock >> pid) || pid <= 0) return false;
  std::ifstream comm(fmt::format("/proc/{}/comm", pid));
  std::string name;
  if (!(comm >> name) || name != "stintd") return false;
  // A stintd that exited but was not reaped (a container whose first process
  // reaps nothing) keeps its name: its state, after "pid (comm) ", says so.
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string line;
  std::getline(stat, line);
  const std::size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

}  // namespace

bool state_may_be_stale(const Paths& paths) noexcept {
  try {
    // The lock file first: while stintd runs (the usual case) the database
    // is not opened for this.
    if (stintd_alive(paths) || !Store::exists(paths.db())) return false;
    return Store::reader(paths.db())->has_unfinished_jobs();
  } catch (...) {
    // A warning that cannot be worked out is not worth failing a read for.
    return false;
  }
}

Config read_config(const Paths& paths) {
  if (!Store::exists(paths.db())) return load_or_init_config(paths.state_dir);
  auto store = Store::reader(paths.db());
  // The configuration stintd runs, as it stored it: stint.yaml may have been
  // edited since (or broken: stintd refused it and runs on), and a reader
  // shows the cluster as it is. With no stintd up, the file, which the next
  // start loads; a file that does not load then still leaves the stored copy.
  const auto stored = [&]() -> std::optional<Config> {
    auto text = store->meta("config_text");
    auto name = store->meta("config_name");
    if (!text || !name) return std::nullopt;
    try {
      Config c = parse_config(*text, *name);
      c.source_path = *name;
      return c;
    } catch (const Error&) {
      return std::nullopt;  // a copy this build cannot read (a newer stint's)
    }
  };
  std::optional<Config> config;
  if (stintd_alive(paths)) config = stored();
  if (!config) {
    try {
      config = load_or_init_config(paths.state_dir);
    } catch (const Error& e) {
      if (e.code() != Errc::config_invalid) throw;
      config = stored();
      if (!config) throw;
    }
  }
  for (const auto& [name, settings] : store->partition_overrides())
    apply_partition_override(*config, name, partition_override_from_json(settings));
  config->node_features = store->node_features();
  return *config;
}

std::vector<NodeStatus> read_node_states(const Paths& paths) {
  if (!Store::exists(paths.db())) return {};
  auto store = Store::reader(paths.db());
  return store->node_states();
}

std::vector<Job> read_jobs(const Paths& paths, const JobFilter& filter) {
  // Before stintd's first start there is no database: an empty queue, as a
  // fresh Slurm cluster shows, rather than an error.
  if (!Store::exists(paths.db())) return {};
  auto store = Store::reader(paths.db());
  return store->jobs(filter);
}

void each_job(const Paths& paths, const JobFilter& filter,
              const std::function<void(const Job&)>& visit, JobPart part) {
  if (!Store::exists(paths.db())) return;
  auto store = Store::reader(paths.db());
  store->each_job(filter, visit, part);
}

bool job_exists(const Paths& paths, JobId id) {
  if (!Store::exists(paths.db())) return false;
  auto store = Store::reader(paths.db());
  return store->job(id).has_value();
}

std::string job_ref_text(const JobRef& ref) {
  if (ref.array_task == k_no_array_task) return std::to_string(ref.id);
  return fmt::format("{}_{}", ref.id, ref.array_task);
}

bool matches(const JobRef& ref, const Job& job) {
  const bool in_array = job.is_array_task() && job.array_job_id == ref.id;
  // A het job's leader names the whole job.
  if (ref.array_task == k_no_array_task)
    return job.id == ref.id || in_array || (ref.whole_het && job.het_job_id == ref.id);
  return in_array && (job.array_task_id == ref.array_task ||
                      (job.is_array_record() && job.array_pending.contains(ref.array_task)));
}

std::vector<Job> named_jobs(std::vector<Job> jobs, const std::vector<JobRef>& refs) {
  if (refs.empty()) return jobs;
  std::vector<Job> named;
  named.reserve(jobs.size());
  for (Job& j : jobs) {
    const auto names = [&](const JobRef& r) { return matches(r, j); };
    if (!j.is_array_record()) {
      if (std::any_of(refs.begin(), refs.end(), names)) named.push_back(std::move(j));
      continue;
    }
    // An array's record named whole stays one; its tasks named one by one
    // ("12_3") are shown as those tasks.
    std::set<std::uint32_t> tasks;
    bool whole = false;
    for (const JobRef& r : refs) {
      if (!names(r)) continue;
      if (r.array_task == k_no_array_task)
        whole = true;
      else
        tasks.insert(r.array_task);
    }
    if (whole) {
      named.push_back(std::move(j));
      continue;
    }
    j.array_pending = TaskSet();  // not copied into each task named
    for (std::uint32_t task : tasks) named.push_back(array_task_of(j, task));
  }
  return named;
}

std::vector<Job> read_jobs(const Paths& paths, JobFilter filter, const std::vector<JobRef>& refs) {
  filter.ids.clear();
  std::vector<Job> jobs;
  if (refs.empty()) {
    jobs = read_jobs(paths, filter);
  } else {
    // Only the rows the refs can name are read: each ref's own id and the
    // tasks of the array it may name, by the primary key and the array
    // index. Reading and decoding every job instead cost about 0.2 s for one
    // job among 20,000 (bench/RESULTS.md: sacct -j, scontrol show job).
    if (!Store::exists(paths.db())) return {};
    auto store = Store::reader(paths.db());
    std::set<JobId> ids;
    for (const JobRef& r : refs) {
      ids.insert(r.id);
      for (const Job& task : store->array_tasks(r.id)) ids.insert(task.id);
      // A het job's components follow its leader's id.
      if (r.array_task != k_no_array_task || !r.whole_het) continue;
      for (JobId next = r.id + 1;; ++next) {
        auto component = next != 0 ? store->job(next) : std::nullopt;
        if (!component || component->het_job_id != r.id) break;
        ids.insert(next);
      }
    }
    filter.ids.assign(ids.begin(), ids.end());
    jobs = store->jobs(filter);
  }
  return named_jobs(std::move(jobs), refs);
}

bool job_exists(const Paths& paths, const JobRef& ref) {
  if (ref.array_task == k_no_array_task && job_exists(paths, ref.id)) return true;
  return !read_jobs(paths, JobFilter{}, {ref}).empty();
}

std::vector<JobStep> job_steps(const Paths& paths, const std::vector<Job>& jobs) {
  std::vector<JobId> ids;
  for (const Job& job : jobs) {
    if (job.start_time != k_no_time && !job.alloc.empty()) ids.push_back(job.id);
  }
  if (ids.empty() || !Store::exists(paths.db())) return {};
  auto store = Store::reader(paths.db());
  // Many jobs: one scan of the steps table is cheaper than a lookup each.
  constexpr std::size_t k_lookups = 256;
  std::vector<JobStep> steps = store->steps(ids.size() > k_lookups ? std::vector<JobId>{} : ids);
  if (ids.size() > k_lookups) {
    std::sort(ids.begin(), ids.end());
    std::erase_if(steps, [&](const JobStep& s) {
      return !std::binary_search(ids.begin(), ids.end(), s.job_id);
    });
  }
  return steps;
}

std::vector<Job> with_attempts(const Paths& paths, const std::vector<Job>& jobs) {
  if (jobs.empty() || !Store::exists(paths.db())) return jobs;
  auto store = Store::reader(paths.db());
  std::vector<Job> out;
  for (const Job& job : jobs) {
    if (job.restart_count == 0) {
      out.push_back(job);
      continue;
    }
    std::vector<Job> attempts = store->attempts(job.id);
    if (attempts.empty()) attempts.push_back(job);
    for (std::size_t i = 0; i + 1 < attempts.size(); ++i) {
      // An attempt kept while it still ran was stopped by the requeue.
      if (!is_terminal(attempts[i].state)) attempts[i].state = JobState::requeued;
    }
    // The job as the caller read it is the current attempt.
    attempts.back() = job;
    for (Job& a : attempts) out.push_back(std::move(a));
  }
  return out;
}

std::set<JobId> dependency_arrays(const Paths& paths, const std::vector<Job>& jobs) {
  std::set<JobId> wanted;
  for (const Job& job : jobs) {
    for (const DependencyTerm& t : job.dependency.terms) {
      if (t.job_id != 0 && t.array_task == k_no_array_task) wanted.insert(t.job_id);
    }
  }
  std::set<JobId> arrays;
  if (wanted.empty() || !Store::exists(paths.db())) return arrays;
  auto store = Store::reader(paths.db());
  for (JobId id : wanted) {
    // An array's job id is the id of its first task.
    auto j = store->job(id);
    if (j && j->is_array_task() && j->array_job_id == id) arrays.insert(id);
  }
  return arrays;
}

ClusterView read_cluster(const Paths& paths) {
  ClusterView view;
  view.config = read_config(paths);
  JobFilter active;
  active.active_only = true;
  view.active_jobs = read_jobs(paths, active);
  view.node_states = read_node_states(paths);
  view.reservations = read_reservations(paths);
  view.nodes = nodes(view.config, view.active_jobs, view.node_states);
  mark_reserved(view.nodes, view.reservations, wall_now());
  view.partitions = partitions(view.config);
  return view;
}

std::vector<Reservation> read_reservations(const Paths& paths) {
  if (!Store::exists(paths.db())) return {};
  std::vector<Reservation> out = Store::reader(paths.db())->reservations();
  // slurmctld lists them in the order they were made: their ids' order.
  std::stable_sort(out.begin(), out.end(),
                   [](const Reservation& a, const Reservation& b) { return a.id < b.id; });
  return out;
}

}  // namespace stint::query
