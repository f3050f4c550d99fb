#include "daemon/job_env.hpp"

#include <algorithm>

#include <fmt/core.h>

#include <stint/parse.hpp>
#include <stint/run.hpp>

#include "daemon/slurm_conf_file.hpp"
#include "run/metrics.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

void set(Environment& env, const std::string& key, std::string value) {
  for (auto& [k, v] : env) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  env.emplace_back(key, std::move(value));
}

std::string join_ids(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (auto id : ids) {
    if (!out.empty()) out += ',';
    out += std::to_string(id);
  }
  return out;
}

std::string absolute_in(const std::string& dir, const std::string& path) {
  if (!path.empty() && path.front() == '/') return path;
  return dir + "/" + path;
}

// Whether sbatch was given a task count, when it passes SLURM_NTASKS on:
// -n, or --ntasks-per-node with a fixed node count (sbatch/opt.c makes that
// the count, nodes times tasks per node).
bool task_count_given(const JobSpec& spec) {
  if (spec.ntasks) return true;
  if (!spec.ntasks_per_node || *spec.ntasks_per_node == 0) return false;
  const auto& max_nodes = spec.options().max_nodes;
  return !max_nodes || *max_nodes == spec.nodes.value_or(1);
}

}  // namespace

std::string working_cluster(const Config& config) {
  // cluster:controller address:port:protocol version:select plugin id, as
  // env.c writes it. stintd answers on its socket, on this machine: the
  // address is the loopback one and the port Slurm's default SlurmctldPort
  // (slurm.conf in the state directory says the same); 9728 is 22.05's
  // protocol version, 109 select/cons_tres's id.
  return fmt::format("{}:127.0.0.1:{}:9728:109", config.cluster_name, k_slurmctld_port);
}

std::string work_dir(const Job& job) {
  if (!job.spec.work_dir.empty()) return absolute_in(job.spec.submit_dir, job.spec.work_dir);
  return job.spec.submit_dir.empty() ? "/" : job.spec.submit_dir;
}

namespace {

// SLURM_ARRAY_TASK_COUNT, _MIN, _MAX and _STEP of an array. The tasks of an
// array start one after another, a million of them at times: the spec is
// read once, not once per task (a vector of every id each time).
struct ArrayShape {
  std::size_t count = 0;
  std::uint32_t min = 0, max = 0, step = 1;
};

const ArrayShape& array_shape(const std::string& array_spec) {
  thread_local std::string last_spec;
  thread_local ArrayShape last;
  if (array_spec == last_spec && last.count > 0) return last;
  last = ArrayShape{};
  last_spec = array_spec;
  try {
    const TaskSet tasks = parse::array_spec(array_spec, 0xfffffffe).tasks;
    if (!tasks.empty()) {
      // Slurm's STEP is the stride when the tasks are evenly spaced, else 1:
      // single ids, each the same distance from the one before.
      const auto& runs = tasks.runs();
      std::uint32_t step = runs.size() > 1 ? runs[1].first - runs[0].first : 1;
      for (std::size_t i = 0; i < runs.size() && step != 1; ++i) {
        if (runs[i].first != runs[i].last || (i > 0 && runs[i].first - runs[i - 1].first != step))
          step = 1;
      }
      last = ArrayShape{static_cast<std::size_t>(tasks.size()), tasks.first(), tasks.last(), step};
    }
  } catch (const std::exception&) {
    // The spec was checked at submit; an unreadable one only loses these four.
  }
  return last;
}

}  // namespace

std::pair<std::string, std::string> output_paths(const Job& job, std::uint32_t node_index) {
  parse::PatternValues v;
  v.job_id = job.id;
  v.array_job_id = job.is_array_task() ? job.array_job_id : job.id;
  v.array_task_id = job.array_task_id;
  v.job_name = job.spec.name;
  v.user = job.user_name;
  v.node = job.alloc.empty() ? std::string() : job.alloc.front().node;
  v.node_index = node_index;
  std::string dir = work_dir(job);
  std::string out_pattern =
      job.spec.stdout_pattern.empty() ? std::string("slurm-%j.out") : job.spec.stdout_pattern;
  std::string out = absolute_in(dir, parse::expand_pattern(out_pattern, v));
  std::string err = job.spec.stderr_pattern.empty()
                        ? out
                        : absolute_in(dir, parse::expand_pattern(job.spec.stderr_pattern, v));
  return {out, err};
}

std::string input_path(const Job& job) {
  const std::string& pattern = job.spec.options().stdin_pattern;
  if (pattern.empty()) return {};
  parse::PatternValues v;
  v.job_id = job.id;
  v.array_job_id = job.is_array_task() ? job.array_job_id : job.id;
  v.array_task_id = job.array_task_id;
  v.job_name = job.spec.name;
  v.user = job.user_name;
  v.node = job.alloc.empty() ? std::string() : job.alloc.front().node;
  return absolute_in(work_dir(job), parse::expand_pattern(pattern, v));
}

Environment job_environment(const Job& job, const Config& config, std::uint32_t node_index,
                            const std::string& submit_host, const std::string& state_dir) {
  Environment env = job.spec.environment;
  const NodeAlloc& here = job.alloc.at(node_index);
  std::string nodelist = parse::compress_hostlist(job.node_names());
  std::vector<std::uint32_t> cpus, tasks;
  for (const auto& a : job.alloc) {
    cpus.push_back(a.cpus);
    tasks.push_back(a.tasks);
  }
  std::string id = std::to_string(job.id);

  set(env, "SLURM_JOB_ID", id);
  set(env, "SLURM_JOBID", id);
  set(env, "SLURM_JOB_NAME", job.spec.name);
  set(env, "SLURM_JOB_USER", job.user_name);
  set(env, "SLURM_JOB_UID", std::to_string(job.user_id));
  set(env, "SLURM_JOB_GID", std::to_string(job.group_id));
  set(env, "SLURM_JOB_PARTITION", job.partition);
  set(env, "SLURM_JOB_ACCOUNT", job.account);
  set(env, "SLURM_JOB_QOS", job.qos);
  set(env, "SLURM_CLUSTER_NAME", config.cluster_name);
  set(env, "SLURM_JOB_NODELIST", nodelist);
  set(env, "SLURM_NODELIST", nodelist);
  set(env, "SLURM_JOB_NUM_NODES", std::to_string(job.alloc.size()));
  set(env, "SLURM_NNODES", std::to_string(job.alloc.size()));
  set(env, "SLURM_JOB_CPUS_PER_NODE", parse::compress_counts(cpus));
  set(env, "SLURM_TASKS_PER_NODE", parse::compress_counts(tasks));
  if (task_count_given(job.spec)) {
    set(env, "SLURM_NTASKS", std::to_string(job.req.tasks));
    set(env, "SLURM_NPROCS", std::to_string(job.req.tasks));
  }
  if (job.spec.cpus_per_task)
    set(env, "SLURM_CPUS_PER_TASK", std::to_string(job.req.cpus_per_task));
  if (job.spec.ntasks_per_node)
    set(env, "SLURM_NTASKS_PER_NODE", std::to_string(*job.spec.ntasks_per_node));
  // slurmstepd's for a batch script of an -O job; srun reads it back as -O.
  if (job.spec.options().overcommit) set(env, "SLURM_OVERCOMMIT", "1");
  set(env, "SLURM_CPUS_ON_NODE", std::to_string(here.cpus));
  if (auto per_cpu = job.mem_per_cpu_mb()) {
    set(env, "SLURM_MEM_PER_CPU", std::to_string(*per_cpu));
  } else {
    set(env, "SLURM_MEM_PER_NODE", std::to_string(here.mem_mb));
  }
  set(env, "SLURM_SUBMIT_DIR", job.spec.submit_dir);
  set(env, "SLURM_SUBMIT_HOST", job.spec.submit_host.empty() ? submit_host : job.spec.submit_host);
  set(env, "SLURM_PROCID", "0");
  set(env, "SLURM_NODEID", std::to_string(node_index));
  set(env, "SLURM_LOCALID", "0");
  set(env, "SLURM_GTIDS", "0");
  set(env, "SLURMD_NODENAME", here.node);
  set(env, "SLURM_TOPOLOGY_ADDR", here.node);
  set(env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
  set(env, "SLURM_PRIO_PROCESS", "0");
  // No node of a stint cluster has an alias (NodeAddr other than its name
  // on a cloud node): slurmd writes the empty list as "(null)".
  set(env, "SLURM_NODE_ALIASES", "(null)");
  if (!state_dir.empty()) set(env, "SLURM_CONF", slurm_conf_path(state_dir));
  set(env, "SLURM_WORKING_CLUSTER", working_cluster(config));
  set(env, "ENVIRONMENT", "BATCH");
  if (job.restart_count > 0) set(env, "SLURM_RESTART_COUNT", std::to_string(job.restart_count));
  if (job.is_array_task()) {
    set(env, "SLURM_ARRAY_JOB_ID", std::to_string(job.array_job_id));
    set(env, "SLURM_ARRAY_TASK_ID", std::to_string(job.array_task_id));
    if (const ArrayShape& shape = array_shape(job.spec.array_spec); shape.count > 0) {
      set(env, "SLURM_ARRAY_TASK_COUNT", std::to_string(shape.count));
      set(env, "SLURM_ARRAY_TASK_MIN", std::to_string(shape.min));
      set(env, "SLURM_ARRAY_TASK_MAX", std::to_string(shape.max));
      set(env, "SLURM_ARRAY_TASK_STEP", std::to_string(shape.step));
    }
  }
  if (!here.gpu_ids.empty()) {
    std::string ids = join_ids(here.gpu_ids);
    set(env, "SLURM_GPUS_ON_NODE", std::to_string(here.gpu_ids.size()));
    set(env, "SLURM_JOB_GPUS", ids);
    set(env, "GPU_DEVICE_ORDINAL", ids);
    set(env, "CUDA_VISIBLE_DEVICES", ids);
  } else {
    // A job without GPUs must not see the submitter's GPUs either.
    env.erase(std::remove_if(env.begin(), env.end(),
                             [](const auto& kv) { return kv.first == "CUDA_VISIBLE_DEVICES"; }),
              env.end());
  }
  if (job.spec.run) {
    // A run starts its command on every node: node i is rank i, one task each.
    const RunInfo& r = *job.spec.run;
    set(env, "SLURM_PROCID", std::to_string(node_index));
    set(env, "SLURM_GTIDS", std::to_string(node_index));
    set(env, "SLURM_NTASKS", std::to_string(job.alloc.size()));
    set(env, "SLURM_NPROCS", std::to_string(job.alloc.size()));
    for (const auto& [k, v] : r.env) set(env, k, v);
    // A storage is where the command finds it: its mount in an image, else
    // its folder on this machine.
    for (const auto& [name, mount] : r.storages) {
      set(env, run::storage_env_name(name),
          r.image.empty() ? run::storage_path(state_dir, name)
                          : run::storage_mount(StorageMount{name, mount}));
    }
    std::vector<std::vector<std::uint16_t>> ports;
    for (const auto& a : job.alloc) ports.push_back(a.ports);
    // The first node's address, where its name resolves to it too; the
    // machine's loopback for the machine itself.
    std::string master_addr = "127.0.0.1";
    if (config.has_virtual_nodes(proc::short_hostname())) {
      for (const NodeDef& n : config.nodes()) {
        if (n.name == job.alloc.front().node) master_addr = n.addr;
      }
    }
    const auto node_env =
        run::rank_environment(RunName{r.project, r.number}, node_index,
                              static_cast<std::uint32_t>(job.alloc.size()), master_addr, ports);
    for (const auto& [k, v] : node_env) set(env, k, v);
    set(env, "STINT_METRICS", run::metrics_file(work_dir(job), job.id, node_index));
    set(env, "ENVIRONMENT", "STINT_RUN");
  }
  return env;
}

void add_het_environment(Environment& env, const std::vector<const Job*>& components) {
  std::uint32_t offset = 0;
  for (const Job* job : components) {
    auto both = [&](std::string_view name, const std::string& value) {
      set(env, fmt::format("{}_PACK_GROUP_{}", name, offset), value);
      set(env, fmt::format("{}_HET_GROUP_{}", name, offset), value);
    };
    std::vector<std::uint32_t> cpus, tasks;
    for (const auto& a : job->alloc) {
      cpus.push_back(a.cpus);
      tasks.push_back(a.tasks);
    }
    both("SLURM_JOB_ACCOUNT", job->account);
    both("SLURM_JOB_CPUS_PER_NODE", parse::compress_counts(cpus));
    both("SLURM_JOB_ID", std::to_string(job->id));
    both("SLURM_JOB_NAME", job->spec.name);
    both("SLURM_JOB_NODELIST", parse::compress_hostlist(job->node_names()));
    both("SLURM_JOB_NUM_NODES", std::to_string(job->alloc.size()));
    both("SLURM_JOB_PARTITION", job->partition);
    both("SLURM_JOB_QOS", job->qos);
    if (const std::string& resv = job->spec.options().reservation; !resv.empty())
      both("SLURM_JOB_RESERVATION", resv);
    if (auto per_cpu = job->mem_per_cpu_mb())
      both("SLURM_MEM_PER_CPU", std::to_string(*per_cpu));
    else if (!job->alloc.empty())
      both("SLURM_MEM_PER_NODE", std::to_string(job->alloc.front().mem_mb));
    both("SLURM_TASKS_PER_NODE", parse::compress_counts(tasks));
    // What sbatch passes on from each component's options (Slurm 22.05 on
    // a het job: per group, and no plain SLURM_CPUS_PER_TASK).
    if (job->spec.cpus_per_task)
      both("SLURM_CPUS_PER_TASK", std::to_string(job->req.cpus_per_task));
    if (task_count_given(job->spec)) {
      both("SLURM_NPROCS", std::to_string(job->req.tasks));
      both("SLURM_NTASKS", std::to_string(job->req.tasks));
    }
    ++offset;
  }
  env.erase(std::remove_if(env.begin(), env.end(),
                           [](const auto& kv) { return kv.first == "SLURM_CPUS_PER_TASK"; }),
            env.end());
  set(env, "SLURM_PACK_SIZE", std::to_string(offset));
  set(env, "SLURM_HET_SIZE", std::to_string(offset));
}

}  // namespace stint::daemon
