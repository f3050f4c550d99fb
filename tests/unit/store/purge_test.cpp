// Purging old jobs and steps (PurgeJobAfter, PurgeStepAfter) and finding free
// job ids once the sequence wraps at MaxJobId.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-purge-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Job ended(stint::JobId id, stint::Seconds submitted, stint::JobState state) {
  stint::Job job;
  job.id = id;
  job.spec.name = "j" + std::to_string(id);
  job.user_name = "alice";
  job.partition = "p";
  job.account = "lab";
  job.state = state;
  job.submit_time = submitted;
  job.start_time = submitted + 10;
  job.end_time = state == stint::JobState::completed || state == stint::JobState::failed
                     ? submitted + 20
                     : stint::k_no_time;
  return job;
}

stint::JobStep step(stint::JobId job, std::uint32_t id, stint::Seconds start, bool done) {
  stint::JobStep s;
  s.job_id = job;
  s.step_id = id;
  s.name = "step";
  s.nodes = "n1";
  s.node_count = 1;
  s.tasks = 1;
  s.state = done ? stint::JobState::completed : stint::JobState::running;
  s.start_time = start;
  s.end_time = done ? start + 5 : stint::k_no_time;
  return s;
}

}  // namespace

TEST_CASE("purge_jobs removes ended jobs submitted by the cutoff, with their steps", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->insert_job(ended(1, 100, stint::JobState::completed));
  store->insert_job(ended(2, 200, stint::JobState::failed));
  store->insert_job(ended(3, 150, stint::JobState::running));    // old, but still running
  store->insert_job(ended(4, 900, stint::JobState::completed));  // too new
  auto run = ended(5, 100, stint::JobState::completed);
  stint::RunInfo info;
  info.project = "proj";
  info.number = 1;
  run.spec.run = info;
  store->insert_job(run);  // a run: kept
  store->put_step(step(1, 0, 110, true));
  store->put_step(step(4, 0, 910, true));

  stint::Store::PurgedJobs purged;
  {
    stint::Store::Transaction tx(*store);
    purged = store->purge_jobs(500, 100);
    tx.commit();
  }
  CHECK(purged.jobs == std::vector<stint::JobId>{1, 2});
  CHECK(purged.scripts == std::vector<stint::JobId>{1, 2});
  CHECK_FALSE(store->job(1));
  CHECK_FALSE(store->job(2));
  CHECK(store->job(3));
  CHECK(store->job(4));
  CHECK(store->job(5));
  CHECK(store->steps({1}).empty());
  CHECK(store->steps({4}).size() == 1);
}

TEST_CASE("purge_jobs goes a batch at a time", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (stint::JobId id = 1; id <= 5; ++id)
    store->insert_job(ended(id, 100, stint::JobState::completed));
  CHECK(store->purge_jobs(500, 2).jobs == std::vector<stint::JobId>{1, 2});
  CHECK(store->purge_jobs(500, 2).jobs == std::vector<stint::JobId>{3, 4});
  CHECK(store->purge_jobs(500, 2).jobs == std::vector<stint::JobId>{5});
  CHECK(store->purge_jobs(500, 2).jobs.empty());
  CHECK(store->job_count() == 0);
}

TEST_CASE("an array's script goes with its last task", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  std::vector<stint::Job> tasks;
  for (stint::JobId id = 10; id <= 12; ++id) {
    auto job = ended(id, 100, id == 12 ? stint::JobState::running : stint::JobState::completed);
    job.spec.name = "array";
    job.array_job_id = 10;
    job.array_task_id = id - 10;
    tasks.push_back(job);
  }
  store->insert_jobs(tasks);
  auto first = store->purge_jobs(500, 100);
  CHECK(first.jobs == std::vector<stint::JobId>{10, 11});
  CHECK(first.scripts.empty());  // task 12 still runs the script
  auto last = tasks[2];
  last.state = stint::JobState::completed;
  last.end_time = 130;
  store->update_job(last);
  auto second = store->purge_jobs(500, 100);
  CHECK(second.jobs == std::vector<stint::JobId>{12});
  CHECK(second.scripts == std::vector<stint::JobId>{10});
}

TEST_CASE("purge_steps removes ended steps started by the cutoff", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->insert_job(ended(1, 100, stint::JobState::running));
  store->put_step(step(1, 0, 110, true));
  store->put_step(step(1, 1, 120, false));  // still running
  store->put_step(step(1, 2, 900, true));   // too new
  CHECK(store->purge_steps(500, 100) == 1);
  auto left = store->steps({1});
  REQUIRE(left.size() == 2);
  CHECK(left[0].step_id == 1);
  CHECK(left[1].step_id == 2);
  CHECK(store->job(1));
}

TEST_CASE("free_job_ids finds the lowest gap of the size asked for", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (stint::JobId id : {1U, 2U, 4U, 5U, 9U})
    store->insert_job(ended(id, 100, stint::JobState::completed));
  CHECK(store->free_job_ids(1, 20, 1) == 3U);
  CHECK(store->free_job_ids(1, 20, 2) == 6U);
  CHECK(store->free_job_ids(1, 20, 3) == 6U);
  CHECK(store->free_job_ids(1, 20, 4) == 10U);
  CHECK(store->free_job_ids(6, 9, 3) == 6U);
  CHECK_FALSE(store->free_job_ids(6, 9, 4));
  CHECK_FALSE(store->free_job_ids(1, 10, 5));
  CHECK(store->free_job_ids(10, 20, 10) == 10U);
  CHECK_FALSE(store->free_job_ids(10, 20, 11));
}

TEST_CASE("compact leaves the jobs as they were", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (stint::JobId id = 1; id <= 50; ++id)
    store->insert_job(ended(id, 100, stint::JobState::completed));
  store->purge_jobs(500, 40);
  store->compact();
  CHECK(store->job_count() == 10);
  CHECK(store->job(41));
}
