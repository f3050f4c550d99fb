// The store's paths for many jobs at once: an array inserted with one
// serialised spec, rows decoded with a cache of the last JSON texts, update_job
// reusing the texts it wrote last, and the rows of the state index put in id
// order. Each must give the same jobs as the one-at-a-time path.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-bulk-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Job task(stint::JobId id, stint::JobId array, std::uint32_t index) {
  stint::Job job;
  job.id = id;
  job.array_job_id = array;
  job.array_task_id = index;
  job.spec.name = "sweep";
  job.spec.array_spec = "0-2";
  job.spec.comment = "shared";
  job.spec.cpus_per_task = 2;
  job.req.cpus_per_node = 2;
  job.user_name = "alice";
  job.partition = "batch";
  job.state = stint::JobState::pending;
  return job;
}

stint::Job plain(stint::JobId id, const std::string& comment, stint::JobState state) {
  stint::Job job;
  job.id = id;
  job.spec.name = "plain";
  job.spec.comment = comment;
  job.req.cpus_per_node = id;
  job.user_name = "bob";
  job.partition = "batch";
  job.state = state;
  return job;
}

}  // namespace

TEST_CASE("ids allocated in a block follow one another", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->allocate_job_ids(3) == 1);
  CHECK(store->allocate_job_id() == 4);
  CHECK(store->allocate_job_ids(10000) == 5);
  CHECK(store->allocate_job_id() == 10005);
}

TEST_CASE("an array inserted at once reads back as its tasks, between other jobs", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->insert_job(plain(1, "before", stint::JobState::pending));
  std::vector<stint::Job> tasks = {task(2, 2, 0), task(3, 2, 1), task(4, 2, 2)};
  tasks[0].spec.environment = {{"ONLY", "first"}};  // never stored
  store->insert_jobs(tasks);
  store->insert_jobs({plain(5, "after", stint::JobState::pending)});

  auto jobs = store->jobs(stint::JobFilter{});
  REQUIRE(jobs.size() == 5);
  CHECK(jobs[0].spec.comment == "before");
  CHECK(jobs[0].req.cpus_per_node == 1);
  for (int i = 1; i <= 3; ++i) {
    CHECK(jobs[i].id == static_cast<stint::JobId>(i + 1));
    CHECK(jobs[i].array_task_id == static_cast<std::uint32_t>(i - 1));
    CHECK(jobs[i].spec.comment == "shared");
    CHECK(jobs[i].spec.cpus_per_task == 2u);
    CHECK(jobs[i].spec.environment.empty());
    CHECK(jobs[i].req.cpus_per_node == 2);
  }
  // A row after a run of equal texts is decoded afresh, not taken from the cache.
  CHECK(jobs[4].spec.comment == "after");
  CHECK(jobs[4].req.cpus_per_node == 5);
  CHECK(store->array_tasks(2).size() == 3);
}

TEST_CASE("update_job writes each job's own texts, alternating or repeated", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (stint::JobId id = 1; id <= 4; ++id)
    store->insert_job(plain(id, "c" + std::to_string(id), stint::JobState::pending));
  for (stint::JobId id : {1u, 2u, 2u, 1u, 3u, 4u}) {
    stint::Job job = plain(id, "new" + std::to_string(id), stint::JobState::pending);
    job.reason = stint::Reason::priority;
    store->update_job(job);
  }
  // Same spec and request, another dependency: the dependency is its own.
  stint::Job dep = plain(4, "new4", stint::JobState::pending);
  dep.reason = stint::Reason::priority;
  dep.dependency.terms.push_back({stint::DependencyType::afterok, 1});
  store->update_job(dep);
  for (stint::JobId id = 1; id <= 4; ++id) {
    auto job = store->job(id);
    REQUIRE(job);
    CHECK(job->spec.comment == "new" + std::to_string(id));
    CHECK(job->req.cpus_per_node == id);
    CHECK(job->reason == stint::Reason::priority);
  }
  CHECK(store->job(4)->dependency.terms.size() == 1);
  CHECK(store->job(3)->dependency.empty());
}

TEST_CASE("active jobs come in id order whatever their states", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  const stint::JobState states[] = {stint::JobState::running,   stint::JobState::pending,
                                    stint::JobState::completed, stint::JobState::suspended,
                                    stint::JobState::pending,   stint::JobState::running,
                                    stint::JobState::completing};
  stint::JobId id = 0;
  for (stint::JobState s : states) store->insert_job(plain(++id, "x", s));
  stint::JobFilter active;
  active.active_only = true;
  auto jobs = store->jobs(active);
  std::vector<stint::JobId> ids;
  for (const auto& j : jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<stint::JobId>{1, 2, 4, 5, 6, 7});
  CHECK(jobs[0].req.cpus_per_node == 1);
  CHECK(jobs[5].req.cpus_per_node == 7);
}

TEST_CASE("each_job visits the jobs jobs() returns, one reused job at a time", "[store]") {
  // Few active among many ended jobs: read through the state index, one
  // statement per state merged; many active: the table read through.
  for (int ended : {40, 2}) {
    TempDir dir;
    auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
    const stint::JobState states[] = {stint::JobState::running, stint::JobState::pending,
                                      stint::JobState::suspended, stint::JobState::pending,
                                      stint::JobState::completing};
    stint::JobId id = 0;
    for (int i = 0; i < ended; ++i)
      store->insert_job(plain(++id, "old", stint::JobState::completed));
    for (int round = 0; round < 3; ++round) {
      for (stint::JobState s : states) {
        // Every other job has an allocation, a dependency and longer paths:
        // what one row sets must not stay for the next. Runs of rows share
        // their spec or their request (an array's tasks), ending at
        // different rows: a reused job keeps those without copying them.
        ++id;
        stint::Job job = plain(id, "c" + std::to_string(id / 3), s);
        job.req.cpus_per_node = static_cast<std::uint32_t>(id / 2);
        if (id % 2 == 0) {
          stint::NodeAlloc node;
          node.node = "n1";
          node.cpus = 2;
          job.alloc.push_back(node);
          job.dependency.terms.push_back(
              {stint::DependencyType::afterok, static_cast<stint::JobId>(id % 4 == 0 ? 1 : 2)});
          job.stdout_path = "/a/long/path/that/is/not/inline/" + std::to_string(id) + ".out";
        }
        store->insert_job(job);
      }
      store->insert_job(plain(++id, "done", stint::JobState::failed));
    }
    stint::JobFilter active;
    active.active_only = true;
    const std::vector<stint::Job> jobs = store->jobs(active);
    REQUIRE(jobs.size() == 15);
    std::size_t i = 0;
    store->each_job(active, [&](const stint::Job& j) {
      REQUIRE(i < jobs.size());
      const stint::Job& want = jobs[i++];
      CHECK(j.id == want.id);
      CHECK(j.state == want.state);
      CHECK(j.spec == want.spec);
      CHECK(j.req == want.req);
      CHECK(j.alloc.size() == want.alloc.size());
      CHECK(j.dependency == want.dependency);
      CHECK(j.stdout_path == want.stdout_path);
      CHECK(j.alloc.size() == (j.id % 2 == 0 ? 1U : 0U));
    });
    CHECK(i == jobs.size());
    for (std::size_t k = 1; k < jobs.size(); ++k) CHECK(jobs[k - 1].id < jobs[k].id);
  }
}

TEST_CASE("each_job's listing part leaves out the spec, the paths and the usage only", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  stint::Job job = plain(7, "a comment", stint::JobState::pending);
  job.spec.work_dir = "/w";
  job.spec.nice = 5;
  job.user_id = 1000;
  job.group_id = 100;
  job.account = "acct";
  job.qos = "high";
  job.reason = stint::Reason::priority;
  job.priority = 42;
  job.submit_time = 10;
  job.eligible_time = 11;
  job.start_time = 12;
  job.time_limit = 60;
  job.exit_status = 3;
  job.exit_signal = 9;
  job.restart_count = 2;
  job.user_cpu_us = 1;
  job.sys_cpu_us = 2;
  job.max_rss_kb = 3;
  job.cancelled_by = 1000;
  job.stdout_path = "/o";
  job.stderr_path = "/e";
  job.array_job_id = 5;
  job.array_task_id = 2;
  job.array_throttle = 4;
  job.requeue = false;
  job.dependency.terms.push_back({stint::DependencyType::afterany, 3});
  store->insert_job(job);

  std::vector<stint::Job> whole, listing;
  store->each_job({}, [&](const stint::Job& j) { whole.push_back(j); });
  store->each_job(
      {}, [&](const stint::Job& j) { listing.push_back(j); }, stint::JobPart::listing);
  REQUIRE(whole.size() == 1);
  REQUIRE(listing.size() == 1);
  CHECK(whole[0].spec == job.spec);
  CHECK(whole[0].stdout_path == "/o");
  CHECK(whole[0].cancelled_by == 1000);
  CHECK(whole[0].max_rss_kb == 3);

  stint::Job expected = whole[0];
  expected.spec = stint::JobSpec{};
  expected.spec.name = job.spec.name;
  expected.stdout_path.clear();
  expected.stderr_path.clear();
  expected.user_cpu_us = expected.sys_cpu_us = expected.max_rss_kb = 0;
  expected.cancelled_by = 0;
  const stint::Job& got = listing[0];
  CHECK(got.spec == expected.spec);
  CHECK(got.stdout_path.empty());
  CHECK(got.stderr_path.empty());
  CHECK(got.user_cpu_us == 0);
  CHECK(got.sys_cpu_us == 0);
  CHECK(got.max_rss_kb == 0);
  CHECK(got.cancelled_by == 0);
  // Everything else as whole.
  CHECK(got.id == expected.id);
  CHECK(got.user_id == expected.user_id);
  CHECK(got.group_id == expected.group_id);
  CHECK(got.user_name == expected.user_name);
  CHECK(got.partition == expected.partition);
  CHECK(got.account == expected.account);
  CHECK(got.qos == expected.qos);
  CHECK(got.state == expected.state);
  CHECK(got.reason == expected.reason);
  CHECK(got.priority == expected.priority);
  CHECK(got.submit_time == expected.submit_time);
  CHECK(got.eligible_time == expected.eligible_time);
  CHECK(got.start_time == expected.start_time);
  CHECK(got.time_limit == expected.time_limit);
  CHECK(got.exit_status == expected.exit_status);
  CHECK(got.exit_signal == expected.exit_signal);
  CHECK(got.restart_count == expected.restart_count);
  CHECK(got.req == expected.req);
  CHECK(got.array_job_id == expected.array_job_id);
  CHECK(got.array_task_id == expected.array_task_id);
  CHECK(got.array_throttle == expected.array_throttle);
  CHECK(got.dependency == expected.dependency);
  CHECK(got.requeue == expected.requeue);
}
