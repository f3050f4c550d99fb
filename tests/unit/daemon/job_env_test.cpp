// A batch job's environment as slurmd gives it (Slurm 22.05's, in
// slurm-reference/transcripts/02-env.txt), and the slurm.conf its
// SLURM_CONF names.

#include "daemon/job_env.hpp"

#include <optional>
#include <string>

#include <catch2/catch.hpp>

#include "daemon/slurm_conf_file.hpp"
#include "sched/sched.hpp"

using namespace stint;

namespace {

Config one_node() {
  Config c;
  c.cluster_name = "oracle";
  NodePool pool;
  pool.id = "vm";
  pool.count = 1;
  pool.cpus = 2;
  pool.memory_mb = 23849;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "cpu";
  p.node_pool_ids = {"vm"};
  c.partitions.push_back(p);
  return c;
}

// `spec` submitted and started on the first node.
Job started(const Config& c, JobSpec spec) {
  Job j;
  j.id = 221;
  j.spec = std::move(spec);
  j.partition = "cpu";
  j.req = sched::make_request(j.spec, c.partition_nodes(c.partitions[0]), c);
  NodeAlloc a;
  a.node = "vm-1";
  a.cpus = j.req.cpus_per_node;
  a.mem_mb = j.req.mem_per_node_mb;
  a.tasks = j.req.tasks_per_node;
  j.alloc.push_back(a);
  return j;
}

std::optional<std::string> value(const daemon::Environment& env, const std::string& name) {
  for (const auto& [k, v] : env) {
    if (k == name) return v;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("a plain job's environment: no task count, the default memory per CPU", "[job_env]") {
  Config c = one_node();
  c.slurm_conf["DefMemPerCPU"] = "256";
  const auto env = daemon::job_environment(started(c, JobSpec{}), c, 0, "vm", "/state");
  CHECK_FALSE(value(env, "SLURM_NTASKS"));
  CHECK_FALSE(value(env, "SLURM_NPROCS"));
  CHECK(value(env, "SLURM_MEM_PER_CPU") == "256");
  CHECK_FALSE(value(env, "SLURM_MEM_PER_NODE"));
  CHECK(value(env, "SLURM_NODE_ALIASES") == "(null)");
  CHECK(value(env, "SLURM_CONF") == "/state/slurm.conf");
  CHECK(value(env, "SLURM_WORKING_CLUSTER") == "oracle:127.0.0.1:6817:9728:109");
}

TEST_CASE("SLURM_NTASKS comes with a task count only", "[job_env]") {
  const Config c = one_node();
  JobSpec n;
  n.ntasks = 2;
  auto env = daemon::job_environment(started(c, n), c, 0, "vm", "/state");
  CHECK(value(env, "SLURM_NTASKS") == "2");
  CHECK(value(env, "SLURM_NPROCS") == "2");
  CHECK(value(env, "SLURM_MEM_PER_NODE"));  // no default per CPU here
  CHECK_FALSE(value(env, "SLURM_MEM_PER_CPU"));

  // --ntasks-per-node with a fixed node count is a task count (sbatch/opt.c).
  JobSpec per_node;
  per_node.ntasks_per_node = 2;
  env = daemon::job_environment(started(c, per_node), c, 0, "vm", "/state");
  CHECK(value(env, "SLURM_NTASKS") == "2");
  // With a range of nodes it is not.
  per_node.options_to_set().max_nodes = 3;
  env = daemon::job_environment(started(c, per_node), c, 0, "vm", "/state");
  CHECK_FALSE(value(env, "SLURM_NTASKS"));
}

TEST_CASE("slurm.conf says what stintd runs with", "[job_env]") {
  Config c = one_node();
  c.source_path = "/state/stint.yaml";
  c.slurm_conf["DefMemPerCPU"] = "256";
  c.slurm_conf["StintRequeueDelay"] = "1";
  c.node_pools[0].gpus = 2;
  c.node_pools[0].gpu_type = "a100";
  PartitionConfig high;
  high.id = "high";
  high.node_pool_ids = {"vm"};
  high.priority_tier = 10;
  high.max_time = 3600;
  high.state = PartitionState::down;
  c.partitions.push_back(high);
  const std::string text = daemon::slurm_conf_text(c, "box");
  CHECK(text.find("ClusterName=oracle\n") != std::string::npos);
  CHECK(text.find("SlurmctldHost=box(127.0.0.1)\nSlurmctldPort=6817\n") != std::string::npos);
  CHECK(text.find("DefMemPerCPU=256\n") != std::string::npos);
  CHECK(text.find("StintRequeueDelay") == std::string::npos);
  CHECK(text.find("GresTypes=gpu\n") != std::string::npos);
  CHECK(text.find("NodeName=vm-1 CPUs=2 RealMemory=23849 Gres=gpu:a100:2 State=UNKNOWN\n") !=
        std::string::npos);
  CHECK(text.find("PartitionName=cpu Nodes=vm-1 Default=YES MaxTime=UNLIMITED PriorityTier=1 "
                  "State=UP\n") != std::string::npos);
  CHECK(text.find("PartitionName=high Nodes=vm-1 MaxTime=01:00:00 PriorityTier=10 State=DOWN\n") !=
        std::string::npos);
}
