// The runs fair share charges usage for: jobs that started, their earlier
// attempts, their allocation's TRES.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/store.hpp>

namespace {

struct UsageDir {
  std::string path;
  UsageDir() {
    char tmpl[] = "/tmp/stint-usage-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~UsageDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Job ran(stint::JobId id, std::string user, stint::Seconds start, stint::Seconds end) {
  stint::Job job;
  job.id = id;
  job.spec.name = "j";
  job.user_name = std::move(user);
  job.account = "lab";
  job.partition = "cpu";
  job.state = end ? stint::JobState::completed : stint::JobState::running;
  job.submit_time = start;
  job.start_time = start;
  job.end_time = end;
  for (int n = 0; n < 2; ++n) {
    stint::NodeAlloc a;
    a.node = "n-" + std::to_string(n + 1);
    a.cpus = 2;
    a.mem_mb = 512;
    a.gpu_ids = n == 0 ? std::vector<std::uint32_t>{0, 1} : std::vector<std::uint32_t>{};
    job.alloc.push_back(a);
  }
  return job;
}

}  // namespace

TEST_CASE("job runs: started jobs and earlier attempts, with their TRES", "[store][usage]") {
  UsageDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->insert_job(ran(1, "alice", 100, 200));
  store->insert_job(ran(2, "bob", 150, 0));  // still running
  stint::Job pending = ran(3, "carol", 0, 0);
  pending.state = stint::JobState::pending;
  pending.alloc.clear();
  store->insert_job(pending);
  // Job 4 ran once, was requeued, and runs again.
  stint::Job first = ran(4, "alice", 300, 400);
  first.state = stint::JobState::requeued;
  store->insert_attempt(first);
  stint::Job again = ran(4, "alice", 500, 0);
  again.restart_count = 1;
  store->insert_job(again);

  auto runs = store->job_runs(0);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].job_id == 1);
  CHECK(runs[0].user == "alice");
  CHECK(runs[0].account == "lab");
  CHECK(runs[0].cpus == 4);
  CHECK(runs[0].mem_mb == 1024);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].gpus == 2);
  CHECK(runs[0].start == 100);
  CHECK(runs[0].end == 200);
  CHECK(runs[1].job_id == 2);
  CHECK(runs[1].end == stint::k_no_time);
  CHECK(runs[2].job_id == 4);
  CHECK(runs[2].attempt == 0);
  CHECK(runs[2].end == 400);
  CHECK(runs[3].job_id == 4);
  CHECK(runs[3].attempt == 1);

  // Runs that ended before the cut-off are left out; running ones stay.
  runs = store->job_runs(250);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].job_id == 2);
  // Only the jobs asked for.
  runs = store->job_runs(0, {4});
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].attempt == 1);

  auto assocs = store->job_associations();
  CHECK(assocs == std::vector<std::pair<std::string, std::string>>{
                      {"alice", "lab"}, {"bob", "lab"}, {"carol", "lab"}});
}

TEST_CASE("a job's priority and eligible time alone", "[store][usage]") {
  UsageDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  stint::Job job = ran(1, "alice", 100, 0);
  job.priority = 10000;
  store->insert_job(job);
  store->update_job_priority(1, 4242, 150);
  auto back = store->job(1);
  REQUIRE(back);
  CHECK(back->priority == 4242);
  CHECK(back->eligible_time == 150);
  CHECK(back->alloc.size() == 2);  // the rest as it was
}
