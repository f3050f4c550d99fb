// An array's record in stint.db: its pending tasks in one row (array_tasks),
// and migration 17, which folds an older database's pending task rows into
// their array's record.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-arrays-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

constexpr stint::JobId k_array = 10;

// A task of array 10 as an older stint wrote it: a row of its own, its id
// the array's plus its index.
stint::Job task(std::uint32_t index, stint::JobState state) {
  stint::Job job;
  job.id = k_array + index;
  job.spec.name = "sweep";
  job.spec.array_spec = "0-9";
  job.user_name = "alice";
  job.partition = "p";
  job.account = "lab";
  job.array_job_id = k_array;
  job.array_task_id = index;
  job.state = state;
  job.submit_time = 100;
  if (state != stint::JobState::pending) job.start_time = 110;
  if (stint::is_terminal(state)) job.end_time = 120;
  return job;
}

}  // namespace

TEST_CASE("an array's record keeps its pending tasks in one row", "[store][arrays]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  stint::Job record = task(0, stint::JobState::pending);
  record.array_task_id = stint::k_no_array_task;
  record.array_pending = stint::TaskSet();
  record.array_pending.insert(0, 999999);
  record.array_pending.erase(7);
  store->insert_jobs({record});
  CHECK(store->job_count() == 1);
  auto back = store->job(k_array);
  REQUIRE(back.has_value());
  CHECK(back->is_array_record());
  CHECK(back->array_pending == record.array_pending);
  CHECK(back->array_task_id == stint::k_no_array_task);
  CHECK(back->display_id() == "10_[0-6,8-999999]");
  // The task split off: a row of its own; the record without it.
  stint::Job split = stint::array_task_of(*back, 7);
  split.id = 11;
  store->update_job(split);
  CHECK(store->array_tasks(k_array).size() == 2);
  CHECK_FALSE(store->job(11)->is_array_record());
  CHECK(store->job(11)->array_task_id == 7);
}

TEST_CASE("migration 17 folds an older database's pending tasks into their record",
          "[store][arrays]") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    std::vector<stint::Job> tasks;
    tasks.push_back(task(0, stint::JobState::completed));  // started, ended
    tasks.push_back(task(1, stint::JobState::running));    // started
    for (std::uint32_t i = 2; i < 10; ++i) tasks.push_back(task(i, stint::JobState::pending));
    tasks[4].hold_reason = stint::Reason::job_held_user;  // held alone: stays a row
    tasks[5].restart_count = 1;                           // requeued: stays a row
    tasks[6].array_split = true;                          // updated alone: stays a row
    store->insert_jobs(tasks);
    stint::Job plain = task(0, stint::JobState::pending);
    plain.id = 30;
    plain.array_job_id = 0;
    plain.array_task_id = stint::k_no_array_task;
    store->insert_job(plain);
  }
  // Back to schema 16, as the older stint left it.
  const std::string downgrade = "sqlite3 '" + db +
                                "' 'ALTER TABLE jobs DROP COLUMN array_tasks; ALTER TABLE jobs "
                                "DROP COLUMN state_desc; PRAGMA user_version = 16;'";
  REQUIRE(std::system(downgrade.c_str()) == 0);

  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  // The lowest pending task's row is the record, holding 2, 3, 7, 8, 9.
  auto record = store->job(k_array + 2);
  REQUIRE(record.has_value());
  CHECK(record->is_array_record());
  CHECK(record->array_task_id == stint::k_no_array_task);
  CHECK(record->array_pending.store_text() == "2-3,7-9");
  CHECK(record->array_job_id == k_array);
  // The others folded into it are gone; the rest stay as they were.
  for (stint::JobId gone : {13U, 17U, 18U, 19U}) CHECK_FALSE(store->job(gone).has_value());
  CHECK(store->job(10)->state == stint::JobState::completed);
  CHECK(store->job(11)->state == stint::JobState::running);
  for (stint::JobId kept : {14U, 15U, 16U}) {
    auto job = store->job(kept);
    REQUIRE(job.has_value());
    CHECK(job->state == stint::JobState::pending);
    CHECK_FALSE(job->is_array_record());
    CHECK(job->array_split);
  }
  CHECK(store->job(14)->hold_reason == stint::Reason::job_held_user);
  CHECK(store->job(30).has_value());
  CHECK_FALSE(store->job(30)->is_array_record());
  CHECK(store->array_tasks(k_array).size() == 6);
}
