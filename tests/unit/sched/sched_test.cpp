#include "sched/sched.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint;

namespace {

Config two_node_config() {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = 2;
  pool.cpus = 4;
  pool.memory_mb = 4096;
  pool.gpus = 2;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n"};
  p.max_time = 3600;
  c.partitions.push_back(p);
  return c;
}

Job pending_job(JobId id, const Config& c, JobSpec spec, Seconds submit = 100) {
  Job j;
  j.id = id;
  j.spec = std::move(spec);
  j.partition = "debug";
  j.time_limit = 60;
  j.submit_time = submit;
  j.req = sched::make_request(j.spec, c.partition_nodes(c.partitions[0]), c);
  j.priority = sched::job_priority(j);
  return j;
}

JobSpec cpus(std::uint32_t n) {
  JobSpec s;
  s.cpus_per_task = n;
  return s;
}

}  // namespace

TEST_CASE("a request follows nodes, tasks and cpus per task", "[sched]") {
  Config c = two_node_config();
  auto nodes = c.partition_nodes(c.partitions[0]);
  JobSpec s;
  s.ntasks = 4;
  s.cpus_per_task = 2;
  auto r = sched::make_request(s, nodes, c);
  CHECK(r.nodes == 2);  // 8 CPUs do not fit one 4-CPU node
  CHECK(r.tasks_per_node == 2);
  CHECK(r.cpus_per_node == 4);

  JobSpec t;
  t.nodes = 2;
  t.gpus = 3;
  r = sched::make_request(t, nodes, c);
  CHECK(r.gpus_per_node == 2);
  CHECK(r.tasks == 2);

  JobSpec bad;
  bad.nodes = 3;
  bad.ntasks = 2;
  CHECK_THROWS_AS(sched::make_request(bad, nodes, c), Error);
}

TEST_CASE("memory: explicit, per cpu, whole node, or a share by CPUs", "[sched]") {
  Config c = two_node_config();
  auto nodes = c.partition_nodes(c.partitions[0]);
  JobSpec s;
  s.mem_per_node_mb = 100;
  CHECK(sched::make_request(s, nodes, c).mem_per_node_mb == 100);
  JobSpec pc;
  pc.mem_per_cpu_mb = 100;
  pc.cpus_per_task = 3;
  CHECK(sched::make_request(pc, nodes, c).mem_per_node_mb == 300);
  JobSpec whole;
  whole.mem_per_node_mb = 0;
  CHECK(sched::make_request(whole, nodes, c).whole_node_mem);
  CHECK(sched::make_request(cpus(1), nodes, c).mem_per_node_mb == 1024);
}

TEST_CASE("memory per CPU, asked or DefMemPerCPU, stays per CPU", "[sched]") {
  Config c = two_node_config();
  auto nodes = c.partition_nodes(c.partitions[0]);
  JobSpec pc;
  pc.mem_per_cpu_mb = 100;
  pc.cpus_per_task = 3;
  CHECK(sched::make_request(pc, nodes, c).mem_per_cpu_mb == 100);
  JobSpec per_node;
  per_node.mem_per_node_mb = 100;
  CHECK(sched::make_request(per_node, nodes, c).mem_per_cpu_mb == 0);
  c.slurm_conf["DefMemPerCPU"] = "256";
  const ResourceRequest r = sched::make_request(cpus(2), nodes, c);
  CHECK(r.mem_per_cpu_mb == 256);
  CHECK(r.mem_per_node_mb == 512);
  // A job of its own memory is not given the default.
  CHECK(sched::make_request(per_node, nodes, c).mem_per_cpu_mb == 0);
  Job job;
  job.req = r;
  CHECK(job.mem_per_cpu_mb() == 256U);
  c.slurm_conf.erase("DefMemPerCPU");
  c.slurm_conf["DefMemPerNode"] = "300";
  job.req = sched::make_request(cpus(2), nodes, c);
  CHECK(job.req.mem_per_node_mb == 300);
  CHECK_FALSE(job.mem_per_cpu_mb());
}

TEST_CASE("never_fits refuses what no node can hold, with the reason", "[sched]") {
  Config c = two_node_config();
  auto nodes = c.partition_nodes(c.partitions[0]);
  CHECK_FALSE(sched::never_fits(sched::make_request(cpus(4), nodes, c), nodes));
  auto e = sched::never_fits(sched::make_request(cpus(5), nodes, c), nodes);
  REQUIRE(e);
  CHECK(e->code() == Errc::node_config_unavailable);
  JobSpec mem;
  mem.mem_per_node_mb = 5000;
  e = sched::never_fits(sched::make_request(mem, nodes, c), nodes);
  REQUIRE(e);
  CHECK(std::string(e->what()) == "Memory specification can not be satisfied");
  JobSpec gpus;
  gpus.gpus_per_node = 3;
  e = sched::never_fits(sched::make_request(gpus, nodes, c), nodes);
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_gres);
  JobSpec three;
  three.nodes = 3;
  three.gpus_per_node = 1;
  e = sched::never_fits(sched::make_request(three, nodes, c), nodes);
  REQUIRE(e);
  // The node count is what is wrong, not the GPUs each node would need.
  CHECK(e->code() == Errc::node_config_unavailable);
  CHECK(std::string(e->what()).empty());
}

TEST_CASE("a --gpus total without --nodes takes as many nodes as the GPUs need", "[sched]") {
  Config c = two_node_config();  // 2 nodes of 2 GPUs
  auto nodes = c.partition_nodes(c.partitions[0]);
  JobSpec three;
  three.gpus = 3;
  auto r = sched::make_request(three, nodes, c);
  CHECK(r.nodes == 2);
  CHECK(r.tasks == 2);
  CHECK(r.gpus_per_node == 2);
  CHECK_FALSE(sched::never_fits(r, nodes));
  JobSpec two = three;
  two.gpus = 2;
  r = sched::make_request(two, nodes, c);
  CHECK(r.nodes == 1);
  CHECK(r.gpus_per_node == 2);
  // With tasks, the nodes the GPUs need, never more than the tasks.
  JobSpec tasks = three;
  tasks.ntasks = 4;
  r = sched::make_request(tasks, nodes, c);
  CHECK(r.nodes == 2);
  tasks.ntasks = 1;
  r = sched::make_request(tasks, nodes, c);
  CHECK(r.nodes == 1);
  // --nodes given: the user's count stands (and five GPUs cannot fit).
  JobSpec pinned = three;
  pinned.nodes = 1;
  r = sched::make_request(pinned, nodes, c);
  CHECK(r.nodes == 1);
  CHECK(r.gpus_per_node == 3);
  JobSpec five;
  five.gpus = 5;
  r = sched::make_request(five, nodes, c);
  CHECK(r.nodes == 3);
  CHECK(sched::never_fits(r, nodes));
  // A type no node has: no spreading, refused as before.
  JobSpec typed = three;
  typed.gpu_type = "h100";
  r = sched::make_request(typed, nodes, c);
  CHECK(r.nodes == 1);
}

TEST_CASE("fit packs jobs onto nodes with the lowest free CPUs and GPUs", "[sched]") {
  Config c = two_node_config();
  sched::Cluster cluster(c.nodes());
  std::vector<std::string> allowed = {"n-1", "n-2"};
  ResourceRequest r;
  r.cpus_per_node = 2;
  r.mem_per_node_mb = 100;
  r.gpus_per_node = 1;
  auto a = sched::fit(r, cluster, allowed);
  REQUIRE(a);
  REQUIRE(a->size() == 1);
  CHECK((*a)[0].node == "n-1");
  CHECK((*a)[0].cpu_ids == std::vector<std::uint32_t>{0, 1});
  CHECK((*a)[0].gpu_ids == std::vector<std::uint32_t>{0});
  cluster.find("n-1")->take((*a)[0]);
  auto b = sched::fit(r, cluster, allowed);
  REQUIRE(b);
  CHECK((*b)[0].node == "n-1");
  CHECK((*b)[0].cpu_ids == std::vector<std::uint32_t>{2, 3});
  CHECK((*b)[0].gpu_ids == std::vector<std::uint32_t>{1});
  cluster.find("n-1")->take((*b)[0]);
  auto d = sched::fit(r, cluster, allowed);
  REQUIRE(d);
  CHECK((*d)[0].node == "n-2");

  ResourceRequest two_nodes = r;
  two_nodes.nodes = 2;
  CHECK_FALSE(sched::fit(two_nodes, cluster, allowed));
  CHECK_FALSE(sched::fit(r, cluster, {"n-1"}));
}

TEST_CASE("whole-node memory needs a node nobody else holds memory on", "[sched]") {
  Config c = two_node_config();
  sched::Cluster cluster(c.nodes());
  ResourceRequest small;
  small.mem_per_node_mb = 1;
  cluster.find("n-1")->take(*sched::fit(small, cluster, {"n-1"})->begin());
  ResourceRequest whole;
  whole.whole_node_mem = true;
  CHECK_FALSE(sched::fit(whole, cluster, {"n-1"}));
  auto a = sched::fit(whole, cluster, {"n-1", "n-2"});
  REQUIRE(a);
  CHECK((*a)[0].node == "n-2");
  CHECK((*a)[0].mem_mb == 4096);
}

TEST_CASE("the queue order: tier, priority, submit time, id", "[sched]") {
  CHECK(sched::goes_before({2, 1, 50, 9}, {1, 100, 10, 1}));
  CHECK(sched::goes_before({1, 100, 50, 9}, {1, 99, 10, 1}));
  CHECK(sched::goes_before({1, 100, 10, 9}, {1, 100, 50, 1}));
  CHECK(sched::goes_before({1, 100, 10, 1}, {1, 100, 10, 9}));
  CHECK_FALSE(sched::goes_before({1, 100, 10, 9}, {1, 100, 10, 9}));
}

TEST_CASE("a pass starts what fits in order and blocks behind the first that does not", "[sched]") {
  Config c = two_node_config();
  Job big1 = pending_job(1, c, cpus(4), 100);
  Job big2 = pending_job(2, c, cpus(4), 101);
  Job big3 = pending_job(3, c, cpus(4), 102);
  Job small = pending_job(4, c, cpus(1), 103);
  sched::Cluster cluster(c.nodes());
  auto d = sched::schedule({&small, &big3, &big2, &big1}, cluster, c, 1000);
  REQUIRE(d.starts.size() == 2);
  CHECK(d.starts[0].first == 1);
  CHECK(d.starts[1].first == 2);
  CHECK(d.reasons.at(3) == Reason::resources);
  CHECK(d.reasons.at(4) == Reason::priority);
}

TEST_CASE("small jobs share a node", "[sched]") {
  Config c = two_node_config();
  std::vector<Job> jobs;
  for (JobId id = 1; id <= 8; ++id) jobs.push_back(pending_job(id, c, cpus(1), 100));
  std::vector<const Job*> pending;
  for (const auto& j : jobs) pending.push_back(&j);
  sched::Cluster cluster(c.nodes());
  auto d = sched::schedule(pending, cluster, c, 1000);
  CHECK(d.starts.size() == 8);
  CHECK(d.starts[3].second[0].node == "n-1");
  CHECK(d.starts[4].second[0].node == "n-2");
}

TEST_CASE("held, future, over-limit and down-partition jobs are skipped with a reason", "[sched]") {
  Config c = two_node_config();
  Job held = pending_job(1, c, cpus(1));
  held.hold_reason = Reason::job_held_user;
  Job later = pending_job(2, c, cpus(1));
  later.eligible_time = 5000;
  Job too_long = pending_job(3, c, cpus(1));
  too_long.time_limit = 7200;
  Job unlimited = pending_job(4, c, cpus(1));
  unlimited.time_limit = k_infinite;
  Job ok = pending_job(5, c, cpus(1));
  sched::Cluster cluster(c.nodes());
  auto d = sched::schedule({&held, &later, &too_long, &unlimited, &ok}, cluster, c, 1000);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts[0].first == 5);
  CHECK(d.reasons.at(1) == Reason::job_held_user);
  CHECK(d.reasons.at(2) == Reason::begin_time);
  CHECK(d.reasons.at(3) == Reason::partition_time_limit);
  CHECK(d.reasons.at(4) == Reason::partition_time_limit);

  c.partitions[0].state = PartitionState::down;
  sched::Cluster again(c.nodes());
  auto down = sched::schedule({&ok}, again, c, 1000);
  CHECK(down.starts.empty());
  CHECK(down.reasons.at(5) == Reason::partition_down);
}

TEST_CASE("running jobs' allocations are taken before the pass", "[sched]") {
  Config c = two_node_config();
  Job running = pending_job(1, c, cpus(4));
  sched::Cluster first(c.nodes());
  running.alloc = *sched::fit(running.req, first, {"n-1", "n-2"});
  running.state = JobState::running;
  Job two = pending_job(2, c, cpus(4));
  two.spec.nodes = 2;
  two.req = sched::make_request(two.spec, c.partition_nodes(c.partitions[0]), c);
  sched::Cluster cluster(c.nodes());
  cluster.take_jobs({&running});
  auto d = sched::schedule({&two}, cluster, c, 1000);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(2) == Reason::resources);
}

TEST_CASE("requests shaped by GPUs: per task, tasks per GPU, CPUs and memory per GPU",
          "[sched][gpus]") {
  Config c = two_node_config();
  auto nodes = c.partition_nodes(c.partitions[0]);
  JobSpec per_task;
  per_task.ntasks = 2;
  per_task.options_to_set().gpus_per_task = 1;
  auto r = sched::make_request(per_task, nodes, c);
  CHECK(r.nodes == 1);
  CHECK(r.gpus_per_node == 2);

  // --ntasks-per-gpu with GPUs and no -n: the task count follows the GPUs.
  JobSpec tasks_from_gpus;
  tasks_from_gpus.gpus = 2;
  tasks_from_gpus.options_to_set().ntasks_per_gpu = 2;
  r = sched::make_request(tasks_from_gpus, nodes, c);
  CHECK(r.tasks == 4);
  CHECK(r.gpus_per_node == 2);
  // ... and with -n and no GPUs, the GPUs follow the tasks.
  JobSpec gpus_from_tasks;
  gpus_from_tasks.ntasks = 4;
  gpus_from_tasks.options_to_set().ntasks_per_gpu = 2;
  CHECK(sched::make_request(gpus_from_tasks, nodes, c).gpus_per_node == 2);

  JobSpec cpus_per_gpu;
  cpus_per_gpu.gpus_per_node = 2;
  cpus_per_gpu.options_to_set().cpus_per_gpu = 2;
  cpus_per_gpu.options_to_set().mem_per_gpu_mb = 1000;
  r = sched::make_request(cpus_per_gpu, nodes, c);
  CHECK(r.cpus_per_node == 4);
  CHECK(r.mem_per_node_mb == 2000);
  // A GPU shape no node has is refused with the GRES error, as Slurm refuses it.
  cpus_per_gpu.options_to_set().cpus_per_gpu = 3;
  CHECK(sched::never_fits(sched::make_request(cpus_per_gpu, nodes, c), nodes));

  // select/cons_tres's consistency rules, with slurmctld's reasons.
  JobSpec alone;
  alone.options_to_set().gpus_per_task = 1;
  try {
    (void)sched::make_request(alone, nodes, c);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_gres);
    CHECK(std::string(e.what()) ==
          "Failed to validate job spec. --gpus-per-task used without either --gpus or "
          "-n/--ntasks is not allowed.");
  }
  JobSpec from_gpus;
  from_gpus.gpus = 4;
  from_gpus.options_to_set().gpus_per_task = 2;
  CHECK(sched::make_request(from_gpus, nodes, c).tasks == 2);
  from_gpus.gpus = 3;
  CHECK_THROWS_AS(sched::make_request(from_gpus, nodes, c), Error);
  JobSpec uneven;
  uneven.ntasks = 3;
  uneven.options_to_set().ntasks_per_gpu = 2;
  uneven.ntasks = 4;
  CHECK(sched::make_request(uneven, nodes, c).gpus_per_node == 2);
  uneven.ntasks = 3;
  CHECK_THROWS_AS(sched::make_request(uneven, nodes, c), Error);

  // -O: eight tasks on a 4-CPU node, one task's CPUs allocated.
  JobSpec over;
  over.ntasks = 8;
  over.nodes = 1;
  over.options_to_set().overcommit = true;
  r = sched::make_request(over, nodes, c);
  CHECK(r.tasks_per_node == 8);
  CHECK(r.cpus_per_node == 1);
  CHECK_FALSE(sched::never_fits(r, nodes));
}

TEST_CASE("a heterogeneous job starts whole or not at all", "[sched][het]") {
  Config c = two_node_config();
  // Component 0 (2 CPUs) fits beside the running job; component 1 (a whole
  // node's 4 CPUs, twice) does not.
  Job running = pending_job(1, c, cpus(2));
  running.state = JobState::running;
  sched::Cluster cluster(c.nodes());
  auto first = sched::fit(running.req, cluster, {"n-1", "n-2"});
  REQUIRE(first);
  running.alloc = *first;
  cluster.take_jobs({&running});

  JobSpec wide;
  wide.nodes = 2;
  wide.cpus_per_task = 4;
  Job leader = pending_job(10, c, cpus(2));
  Job component = pending_job(11, c, wide);
  for (Job* j : {&leader, &component}) j->het_job_id = 10;
  component.het_job_offset = 1;
  sched::PassContext ctx;
  ctx.het_pending[10] = 2;
  auto d = sched::schedule({&leader, &component}, cluster, c, 1000, ctx);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(10) == Reason::resources);
  CHECK(d.reasons.at(11) == Reason::resources);

  // Without the running job both fit: both start in the same pass.
  sched::Cluster free_cluster(c.nodes());
  Job small_component = pending_job(11, c, cpus(1));
  small_component.het_job_id = 10;
  small_component.het_job_offset = 1;
  d = sched::schedule({&leader, &small_component}, free_cluster, c, 1000, ctx);
  CHECK(d.starts.size() == 2);

  // A component held (not among the pending passed in, or ineligible) keeps
  // the others from starting.
  sched::Cluster again(c.nodes());
  d = sched::schedule({&leader}, again, c, 1000, ctx);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(10) == Reason::resources);
}

TEST_CASE("keep_whole_het_jobs leaves other jobs' starts alone", "[sched][het]") {
  Config c = two_node_config();
  Job plain = pending_job(5, c, cpus(1));
  Job leader = pending_job(6, c, cpus(1));
  leader.het_job_id = 6;
  sched::Decision d;
  d.starts.emplace_back(5, std::vector<NodeAlloc>{});
  d.starts.emplace_back(6, std::vector<NodeAlloc>{});
  d.time_limits[6] = 30;
  sched::keep_whole_het_jobs(d, {&plain, &leader}, {{6, 2}});
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts.front().first == 5);
  CHECK(d.time_limits.count(6) == 0);
  CHECK(d.reasons.at(6) == Reason::resources);
  // A het job the counts do not name is not held back (sbatch --test-only).
  sched::Decision alone;
  alone.starts.emplace_back(6, std::vector<NodeAlloc>{});
  sched::keep_whole_het_jobs(alone, {&leader}, {{99, 2}});
  CHECK(alone.starts.size() == 1);
}

TEST_CASE("a partition's account and QOS lists admit or refuse a job", "[sched]") {
  PartitionConfig p;
  p.id = "debug";
  CHECK_FALSE(sched::partition_access(p, "physics", "normal"));

  p.allow_accounts = {"physics", "chem"};
  CHECK_FALSE(sched::partition_access(p, "chem", "normal"));
  auto refused = sched::partition_access(p, "bio", "normal");
  REQUIRE(refused);
  CHECK(refused->code() == Errc::invalid_account);
  CHECK(std::string(refused->what()) ==
        "Invalid account or account/partition combination specified");
  // With an allow list, the deny list does not count (slurmctld ignores it).
  p.deny_accounts = {"chem"};
  CHECK_FALSE(sched::partition_access(p, "chem", "normal"));
  p.allow_accounts.clear();
  CHECK(sched::partition_access(p, "chem", "normal"));
  CHECK_FALSE(sched::partition_access(p, "bio", "normal"));

  p.deny_accounts.clear();
  p.allow_qos = {"high"};
  refused = sched::partition_access(p, "bio", "normal");
  REQUIRE(refused);
  CHECK(refused->code() == Errc::invalid_qos);
  CHECK_FALSE(sched::partition_access(p, "bio", "high"));
  p.allow_qos.clear();
  p.deny_qos = {"normal"};
  CHECK(sched::partition_access(p, "bio", "normal"));
  CHECK_FALSE(sched::partition_access(p, "bio", "high"));
}
