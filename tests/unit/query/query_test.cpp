#include <cstdlib>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>

namespace {

using stint::query::NodeState;

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-query-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Config four_nodes() {
  stint::Config c;
  stint::NodePool pool;
  pool.id = "n";
  pool.count = 4;
  pool.cpus = 2;
  pool.memory_mb = 23849;
  pool.gpus = 4;
  pool.gpu_type = "a100";
  c.node_pools = {pool};
  stint::PartitionConfig cpu;
  cpu.id = "cpu";
  cpu.node_pool_ids = {"n"};
  stint::PartitionConfig high = cpu;
  high.id = "high";
  high.priority_tier = 10;
  high.max_time = 3600;
  c.partitions = {cpu, high};
  c.default_partition_id = "high";
  return c;
}

stint::Job job_on(stint::JobId id, stint::JobState state, const std::string& node,
                  std::uint32_t cpus, std::vector<std::uint32_t> gpus = {}) {
  stint::Job j;
  j.id = id;
  j.state = state;
  j.user_name = "alice";
  j.partition = "cpu";
  j.start_time = 1000 + id;
  stint::NodeAlloc a;
  a.node = node;
  a.cpus = cpus;
  a.mem_mb = 1024 * cpus;
  a.gpu_ids = std::move(gpus);
  j.alloc = {a};
  return j;
}

}  // namespace

TEST_CASE("the node view adds the active jobs' allocations to the configured nodes") {
  const stint::Config c = four_nodes();
  std::vector<stint::Job> jobs = {
      job_on(1, stint::JobState::running, "n-2", 1, {1, 0}),
      job_on(2, stint::JobState::running, "n-3", 2),
      job_on(3, stint::JobState::completed, "n-1", 2),  // ended: holds nothing
      job_on(4, stint::JobState::completing, "n-4", 1),
      job_on(5, stint::JobState::running, "gone-1", 1),  // node no longer configured
  };
  stint::Job waiting;
  waiting.id = 6;
  waiting.state = stint::JobState::pending;
  jobs.push_back(waiting);

  const auto nodes = stint::query::nodes(c, jobs);
  REQUIRE(nodes.size() == 4);
  CHECK(nodes[0].name == "n-1");
  CHECK(nodes[0].state == NodeState::idle);
  CHECK(nodes[0].cpus_alloc == 0);
  CHECK(nodes[0].partitions == std::vector<std::string>{"cpu", "high"});

  CHECK(nodes[1].state == NodeState::mixed);
  CHECK(nodes[1].cpus_alloc == 1);
  CHECK(nodes[1].memory_alloc_mb == 1024);
  CHECK(nodes[1].gpu_ids_alloc == std::vector<std::uint32_t>{0, 1});
  CHECK(nodes[1].jobs == std::vector<stint::JobId>{1});
  CHECK(nodes[1].last_busy == 1001);
  CHECK(nodes[1].gpus == 4);
  CHECK(nodes[1].gpu_type == "a100");

  CHECK(nodes[2].state == NodeState::allocated);
  CHECK(nodes[3].state == NodeState::completing);
}

TEST_CASE("partitions carry their totals and the default") {
  const auto parts = stint::query::partitions(four_nodes());
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].name == "cpu");
  CHECK_FALSE(parts[0].is_default);
  CHECK(parts[1].is_default);
  CHECK(parts[1].priority_tier == 10);
  CHECK(parts[1].max_time == 3600);
  CHECK(parts[0].nodes == std::vector<std::string>{"n-1", "n-2", "n-3", "n-4"});
  CHECK(parts[0].total_cpus == 8);
  CHECK(parts[0].total_memory_mb == 4 * 23849);
  CHECK(parts[0].total_gpus == 16);
}

TEST_CASE("reading before stintd ever ran shows an empty queue") {
  TempDir dir;
  stint::Paths paths{dir.path};
  CHECK(stint::query::read_jobs(paths, stint::JobFilter{}).empty());
  CHECK_FALSE(stint::query::job_exists(paths, 1));
}

TEST_CASE("reading jobs, a job's existence and the cluster view from a state directory") {
  TempDir dir;
  stint::Paths paths{dir.path};
  {
    std::ofstream(paths.config()) << stint::config_to_yaml(four_nodes());
    auto store = stint::Store::open(paths.db(), stint::Store::Mode::read_write);
    store->insert_job(job_on(1, stint::JobState::running, "n-1", 2));
    store->insert_job(job_on(2, stint::JobState::completed, "n-2", 1));
  }
  stint::JobFilter active;
  active.active_only = true;
  const auto jobs = stint::query::read_jobs(paths, active);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].id == 1);
  CHECK(stint::query::job_exists(paths, 2));
  CHECK_FALSE(stint::query::job_exists(paths, 3));

  const auto view = stint::query::read_cluster(paths);
  CHECK(view.active_jobs.size() == 1);
  REQUIRE(view.nodes.size() == 4);
  CHECK(view.nodes[0].state == NodeState::allocated);
  CHECK(view.nodes[1].state == NodeState::idle);
  CHECK(view.partitions.size() == 2);
}

namespace {

stint::Job task(stint::JobId id, stint::JobId array, std::uint32_t t, stint::JobState state) {
  stint::Job j = job_on(id, state, "n-1", 1);
  j.array_job_id = array;
  j.array_task_id = t;
  return j;
}

}  // namespace

TEST_CASE("job references: a job, a whole array, one task") {
  using stint::query::JobRef;
  using stint::query::matches;
  const stint::Job plain = job_on(5, stint::JobState::running, "n-1", 1);
  const stint::Job first = task(10, 10, 0, stint::JobState::running);
  const stint::Job third = task(12, 10, 2, stint::JobState::pending);
  CHECK(matches(JobRef{5}, plain));
  CHECK_FALSE(matches(JobRef{10}, plain));
  CHECK(matches(JobRef{10}, first));
  CHECK(matches(JobRef{10}, third));
  // A task is also named by its own job id.
  CHECK(matches(JobRef{12}, third));
  CHECK_FALSE(matches(JobRef{12}, first));
  CHECK(matches(JobRef{10, 2}, third));
  CHECK_FALSE(matches(JobRef{10, 2}, first));
  CHECK_FALSE(matches(JobRef{5, 0}, plain));
  CHECK(stint::query::job_ref_text(JobRef{10, 2}) == "10_2");
  CHECK(stint::query::job_ref_text(JobRef{5}) == "5");
}

TEST_CASE("reading by job references, attempts and dependency arrays") {
  TempDir dir;
  stint::Paths paths{dir.path};
  {
    std::ofstream(paths.config()) << stint::config_to_yaml(four_nodes());
    auto store = stint::Store::open(paths.db(), stint::Store::Mode::read_write);
    store->insert_job(job_on(1, stint::JobState::completed, "n-1", 1));
    store->insert_job(task(2, 2, 0, stint::JobState::completed));
    store->insert_job(task(3, 2, 1, stint::JobState::running));
    store->insert_job(task(4, 2, 2, stint::JobState::pending));

    // Job 5 ran twice before: preempted, then stopped by scontrol requeue.
    stint::Job requeued = job_on(5, stint::JobState::preempted, "n-2", 1);
    requeued.restart_count = 0;
    store->insert_attempt(requeued);
    requeued.state = stint::JobState::running;
    requeued.restart_count = 1;
    store->insert_attempt(requeued);
    requeued.state = stint::JobState::completed;
    requeued.restart_count = 2;
    store->insert_job(requeued);

    stint::Job dep = job_on(6, stint::JobState::pending, "n-1", 1);
    stint::DependencyTerm on_array;
    on_array.job_id = 2;
    stint::DependencyTerm on_job;
    on_job.job_id = 1;
    stint::DependencyTerm on_task;
    on_task.job_id = 3;
    on_task.array_task = 1;
    dep.dependency.terms = {on_array, on_job, on_task};
    store->insert_job(dep);
  }
  using stint::query::JobRef;
  auto ids = [](const std::vector<stint::Job>& jobs) {
    std::vector<stint::JobId> out;
    for (const auto& j : jobs) out.push_back(j.id);
    return out;
  };
  using Ids = std::vector<stint::JobId>;
  CHECK(ids(stint::query::read_jobs(paths, stint::JobFilter{}, {JobRef{2}})) == Ids{2, 3, 4});
  CHECK(ids(stint::query::read_jobs(paths, stint::JobFilter{}, {JobRef{2, 1}, JobRef{1}})) ==
        Ids{1, 3});
  CHECK(ids(stint::query::read_jobs(paths, stint::JobFilter{}, {})).size() == 6);
  stint::JobFilter active;
  active.active_only = true;
  active.ids = {1};  // not used with references
  CHECK(ids(stint::query::read_jobs(paths, active, {JobRef{2}})) == Ids{3, 4});
  CHECK(stint::query::job_exists(paths, JobRef{2, 2}));
  CHECK_FALSE(stint::query::job_exists(paths, JobRef{2, 7}));
  CHECK_FALSE(stint::query::job_exists(paths, JobRef{99}));

  auto all = stint::query::read_jobs(paths, stint::JobFilter{}, {JobRef{5}, JobRef{1}});
  auto attempts = stint::query::with_attempts(paths, all);
  REQUIRE(attempts.size() == 4);
  CHECK(attempts[0].id == 1);
  CHECK(attempts[1].state == stint::JobState::preempted);
  CHECK(attempts[1].restart_count == 0);
  // Stopped while it ran: REQUEUED.
  CHECK(attempts[2].state == stint::JobState::requeued);
  CHECK(attempts[3].state == stint::JobState::completed);
  CHECK(attempts[3].restart_count == 2);

  const auto deps = stint::query::read_jobs(paths, stint::JobFilter{}, {JobRef{6}});
  CHECK(stint::query::dependency_arrays(paths, deps) == std::set<stint::JobId>{2});
}

TEST_CASE("a drained node is draining while jobs run on it, a down node is down") {
  const stint::Config c = four_nodes();
  std::vector<stint::Job> jobs = {job_on(1, stint::JobState::running, "n-2", 2)};
  stint::NodeStatus drained{"n-1", stint::NodeAdminState::drain, "disk", 1000, "alice", 77};
  stint::NodeStatus draining{"n-2", stint::NodeAdminState::drain, "fan", 1000, "alice", 78};
  stint::NodeStatus down{"n-3", stint::NodeAdminState::down, "dead", 0, "root", 79};
  stint::NodeStatus unknown{"x-9", stint::NodeAdminState::down, "gone", 0, "root", 80};
  const auto nodes = stint::query::nodes(c, jobs, {drained, draining, down, unknown});
  REQUIRE(nodes.size() == 4);
  CHECK(nodes[0].state == NodeState::drained);
  CHECK(nodes[0].alloc_state == NodeState::idle);
  CHECK(nodes[0].reason == "disk");
  CHECK(nodes[0].reason_user == "alice");
  CHECK(nodes[0].reason_uid == 1000);
  CHECK(nodes[0].reason_time == 77);
  CHECK(nodes[1].state == NodeState::draining);
  CHECK(nodes[1].alloc_state == NodeState::allocated);
  CHECK(nodes[2].state == NodeState::down);
  CHECK(nodes[3].state == NodeState::idle);
  CHECK(nodes[3].admin == stint::NodeAdminState::up);
}

TEST_CASE("node states and partition overrides are kept in the store") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    store->put_node_state({"n-1", stint::NodeAdminState::drain, "why", 5, "bob", 99});
    store->put_node_state({"n-2", stint::NodeAdminState::down, "dead", 0, "root", 100});
    store->put_node_state({"n-2", stint::NodeAdminState::up, "", 0, "", 0});  // resumed
    store->put_partition_override("cpu", R"({"state":"DOWN"})");
    store->put_partition_override("high", R"({"max_time":60})");
    store->put_partition_override("high", "");
  }
  auto store = stint::Store::open(db, stint::Store::Mode::read_only);
  auto states = store->node_states();
  REQUIRE(states.size() == 1);
  CHECK(states[0] == stint::NodeStatus{"n-1", stint::NodeAdminState::drain, "why", 5, "bob", 99});
  auto overrides = store->partition_overrides();
  REQUIRE(overrides.size() == 1);
  CHECK(overrides[0].first == "cpu");
  stint::Config c = four_nodes();
  stint::apply_partition_override(c, "cpu",
                                  stint::partition_override_from_json(overrides[0].second));
  CHECK(c.find_partition("cpu")->state == stint::PartitionState::down);
}
