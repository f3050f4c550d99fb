#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-store-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Job sample_job(stint::JobId id) {
  stint::Job job;
  job.id = id;
  job.spec.name = "train";
  job.spec.script_args = {"a", "b c"};
  job.spec.environment = {{"SECRET", "x"}};
  job.spec.script = "#!/bin/sh\necho hi\n";
  job.spec.time_limit = 600;
  job.user_name = "alice";
  job.partition = "gpu";
  job.account = "lab";
  job.state = stint::JobState::running;
  job.submit_time = 1000;
  job.start_time = 1010;
  job.req.cpus_per_node = 4;
  job.req.gpus_per_node = 2;
  stint::NodeAlloc a;
  a.node = "node-1";
  a.cpus = 4;
  a.cpu_ids = {0, 1, 2, 3};
  a.gpu_ids = {0, 1};
  a.mem_mb = 2048;
  a.stepd_pid = 4242;
  job.alloc.push_back(a);
  return job;
}

}  // namespace

TEST_CASE("a new database is created at the current schema version", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  CHECK(store->job_count() == 0);
}

TEST_CASE("job ids are allocated in order and survive reopening", "[store]") {
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    stint::Store::Transaction tx(*store);
    CHECK(store->allocate_job_id() == 1);
    CHECK(store->allocate_job_id() == 2);
    tx.commit();
  }
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->allocate_job_id() == 3);
}

TEST_CASE("a job round-trips without its environment and script", "[store]") {
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  auto writer = stint::Store::open(db, stint::Store::Mode::read_write);
  writer->insert_job(sample_job(7));

  auto reader = stint::Store::open(db, stint::Store::Mode::read_only);
  auto job = reader->job(7);
  REQUIRE(job);
  CHECK(job->spec.name == "train");
  CHECK(job->spec.script_args == std::vector<std::string>{"a", "b c"});
  CHECK(job->spec.time_limit == 600);
  CHECK(job->spec.environment.empty());
  CHECK(job->spec.script.empty());
  CHECK(job->state == stint::JobState::running);
  CHECK(job->req.gpus_per_node == 2);
  REQUIRE(job->alloc.size() == 1);
  CHECK(job->alloc[0].gpu_ids == std::vector<std::uint32_t>{0, 1});
  CHECK(job->alloc[0].stepd_pid == 4242);
  CHECK_FALSE(reader->job(8));
}

TEST_CASE("updates replace the row and filters select jobs", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (stint::JobId id = 1; id <= 4; ++id) store->insert_job(sample_job(id));
  auto job = sample_job(2);
  job.state = stint::JobState::completed;
  job.end_time = 2000;
  job.state_desc = "Could not open stdout file /x/y: No such file or directory";
  store->update_job(job);
  CHECK(store->job(2)->state_desc == job.state_desc);
  CHECK(store->job(1)->state_desc.empty());

  stint::JobFilter active;
  active.active_only = true;
  CHECK(store->jobs(active).size() == 3);

  stint::JobFilter by_id;
  by_id.ids = {2, 4};
  auto two = store->jobs(by_id);
  REQUIRE(two.size() == 2);
  CHECK(two[0].state == stint::JobState::completed);

  stint::JobFilter by_user;
  by_user.users = {"bob"};
  CHECK(store->jobs(by_user).empty());
  CHECK(store->job_count() == 4);
}

TEST_CASE("an uncommitted transaction leaves nothing behind", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  {
    stint::Store::Transaction tx(*store);
    store->insert_job(sample_job(1));
  }
  CHECK(store->job_count() == 0);
}

TEST_CASE("a durable transaction commits and rolls back like any other", "[store]") {
  // SQLite refuses a change of synchronous inside a transaction: the durable
  // one sets it before BEGIN and puts NORMAL back after, committed or not.
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    {
      stint::Store::Transaction tx(*store, stint::Store::Sync::durable);
      store->insert_job(sample_job(1));
    }
    CHECK(store->job_count() == 0);
    {
      stint::Store::Transaction tx(*store, stint::Store::Sync::durable);
      store->insert_job(sample_job(2));
      tx.commit();
    }
    stint::Store::Transaction tx(*store);
    store->insert_job(sample_job(3));
    tx.commit();
  }
  auto store = stint::Store::open(db, stint::Store::Mode::read_only);
  CHECK(store->job_count() == 2);
}

TEST_CASE("a reader waits for the schema of a database being created", "[store]") {
  // A tool started with stintd may open the file before stintd has committed
  // its schema (version 0): it waits, rather than failing on "version 0".
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  std::ofstream(db).flush();  // created, empty: as stintd's open leaves it
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stint::Store::open(db, stint::Store::Mode::read_write);
  });
  std::unique_ptr<stint::Store> reader;
  CHECK_NOTHROW(reader = stint::Store::open(db, stint::Store::Mode::read_only));
  writer.join();
  CHECK(reader->schema_version() == stint::Store::current_schema_version());
}

TEST_CASE("opening a missing database read-only is an error", "[store]") {
  TempDir dir;
  CHECK_THROWS_AS(stint::Store::open(dir.path + "/none.db", stint::Store::Mode::read_only),
                  stint::Error);
}

TEST_CASE("a thread's reader is one connection that sees each new commit", "[store]") {
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  CHECK_THROWS_AS(stint::Store::reader(db), stint::Error);  // no database yet
  auto writer = stint::Store::open(db, stint::Store::Mode::read_write);
  writer->insert_job(sample_job(1));

  auto first = stint::Store::reader(db);
  CHECK(first->job_count() == 1);
  // Kept between queries, and a commit made since is read, not a snapshot.
  writer->insert_job(sample_job(2));
  auto again = stint::Store::reader(db);
  CHECK(again.get() == first.get());
  CHECK(again->job_count() == 2);
  CHECK(again->job(2));

  // Another thread has its own.
  stint::Store* other = nullptr;
  std::thread([&] { other = stint::Store::reader(db).get(); }).join();
  CHECK(other != first.get());

  // A database created anew at the path is opened anew, not read through the
  // connection to the file that was there.
  writer.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) ::unlink((db + suffix).c_str());
  auto fresh = stint::Store::open(db, stint::Store::Mode::read_write);
  fresh->insert_job(sample_job(5));
  auto renewed = stint::Store::reader(db);
  CHECK(renewed.get() != first.get());
  CHECK(renewed->job_count() == 1);
  CHECK(renewed->job(5));
  CHECK(first->job_count() == 2);  // the caller's old one stays usable while held

  // Another path: the thread's one connection moves to it.
  TempDir dir2;
  stint::Store::open(dir2.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(stint::Store::reader(dir2.path + "/stint.db")->job_count() == 0);
  CHECK(stint::Store::reader(db)->job_count() == 1);
}

TEST_CASE("a schema version 1 database migrates forward and keeps its jobs", "[store]") {
  TempDir dir;
  std::string db = dir.path + "/stint.db";
  std::string cmd =
      "sqlite3 '" + db + "' < '" STINT_SOURCE_DIR "/tests/unit/store/fixtures/schema-v1.sql'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  auto job = store->job(1);
  REQUIRE(job);
  CHECK(job->spec.name == "old");
  CHECK(job->state == stint::JobState::completed);
  CHECK(job->array_job_id == 0);
  CHECK(job->array_task_id == stint::k_no_array_task);
  CHECK(job->requeue);
  CHECK(store->allocate_job_id() == 2);
}

TEST_CASE("requeued attempts are kept and listed oldest first", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  auto job = sample_job(3);
  job.state = stint::JobState::requeued;
  job.end_time = 1500;
  store->insert_job(job);
  store->insert_attempt(job);
  job.restart_count = 1;
  job.state = stint::JobState::completed;
  job.start_time = 1600;
  job.end_time = 1700;
  job.dependency.terms.push_back({stint::DependencyType::afterok, 2, stint::k_no_array_task, 0});
  store->update_job(job);
  auto all = store->attempts(3);
  REQUIRE(all.size() == 2);
  CHECK(all[0].state == stint::JobState::requeued);
  CHECK(all[0].restart_count == 0);
  CHECK(all[0].end_time == 1500);
  CHECK(all[1].state == stint::JobState::completed);
  CHECK(all[1].restart_count == 1);
  CHECK(all[1].dependency.terms.size() == 1);
  CHECK(store->attempts(99).empty());
}

TEST_CASE("the associations jobs name are kept as jobs are written", "[store]") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  auto job_of = [](stint::JobId id, const char* user, const char* account) {
    stint::Job job;
    job.id = id;
    job.user_name = user;
    job.account = account;
    job.partition = "batch";
    return job;
  };
  store->insert_job(job_of(1, "bob", "physics"));
  store->insert_jobs({job_of(2, "alice", "chem"), job_of(3, "bob", "physics")});
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(store->job_associations() == Pairs{{"alice", "chem"}, {"bob", "physics"}});
  // scontrol update Account= rewrites the job with another association.
  store->update_job(job_of(1, "bob", "bio"));
  CHECK(store->job_associations() == Pairs{{"alice", "chem"}, {"bob", "bio"}, {"bob", "physics"}});
  // One written in a transaction that rolls back is gone, and written again
  // by the next job that names it.
  {
    stint::Store::Transaction tx(*store);
    store->insert_job(job_of(4, "carol", "chem"));
  }
  CHECK(store->job_associations().size() == 3);
  store->insert_job(job_of(5, "carol", "chem"));
  CHECK(store->job_associations().size() == 4);
  // A reader sees them, and a database of an older schema gets those of its
  // jobs when it is migrated.
  auto reader = stint::Store::open(db, stint::Store::Mode::read_only);
  CHECK(reader->job_associations().size() == 4);
  reader.reset();
  store.reset();
  const std::string downgrade =
      "sqlite3 '" + db +
      "' 'DROP TABLE job_associations; DROP TABLE array_texts; DROP TABLE reservations; "
      "ALTER TABLE jobs DROP COLUMN het_job_id; ALTER TABLE jobs DROP COLUMN het_job_offset; "
      "ALTER TABLE jobs DROP COLUMN het_job_size; ALTER TABLE steps DROP COLUMN time_limit; "
      "ALTER TABLE jobs DROP COLUMN array_split; DROP TABLE node_features; "
      "DROP TABLE submissions; ALTER TABLE jobs DROP COLUMN array_tasks; ALTER TABLE jobs DROP "
      "COLUMN state_desc; "
      "PRAGMA user_version = 7;'";
  REQUIRE(std::system(downgrade.c_str()) == 0);
  store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->job_associations() ==
        Pairs{{"alice", "chem"}, {"bob", "bio"}, {"bob", "physics"}, {"carol", "chem"}});
}

TEST_CASE("an array's tasks keep their request and spec once, unless one is changed", "[store]") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  std::vector<stint::Job> tasks;
  for (std::uint32_t t = 0; t < 3; ++t) {
    stint::Job job = sample_job(10 + t);
    job.array_job_id = 10;
    job.array_task_id = t;
    job.state = stint::JobState::pending;
    job.alloc.clear();
    tasks.push_back(job);
  }
  stint::Job single = sample_job(13);  // not a task: keeps its own texts
  tasks.push_back(single);
  store->insert_jobs(tasks);
  const auto column = [&](const char* sql) {
    const std::string cmd = "sqlite3 '" + db + "' \"" + sql + "\" > '" + dir.path + "/out'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream in(dir.path + "/out");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(column("SELECT request || spec FROM jobs WHERE id < 13 GROUP BY 1") == "{}{}\n");
  CHECK(column("SELECT count(*) FROM array_texts") == "1\n");
  CHECK(column("SELECT spec = '{}' FROM jobs WHERE id = 13") == "0\n");

  // Read back whole (squeue -j, sacct) and in listings, each as submitted.
  auto reader = stint::Store::open(db, stint::Store::Mode::read_only);
  const auto check_task = [](const stint::Job& job) {
    CHECK(job.spec.name == "train");
    CHECK(job.spec.script_args == std::vector<std::string>{"a", "b c"});
    CHECK(job.spec.time_limit == 600);
    CHECK(job.req.cpus_per_node == 4);
    CHECK(job.req.gpus_per_node == 2);
  };
  for (stint::JobId id = 10; id <= 13; ++id) {
    auto job = reader->job(id);
    REQUIRE(job);
    check_task(*job);
  }
  stint::JobFilter pending;
  pending.states = {stint::JobState::pending};
  const auto listed = reader->jobs(pending);
  REQUIRE(listed.size() == 3);
  for (const auto& job : listed) check_task(job);
  CHECK(reader->array_tasks(10).size() == 3);

  // A task rewritten as it was (a pass giving it a reason) stays short; one
  // changed alone (scontrol update) keeps its own, and the others do not follow.
  stint::Job same = store->job(11).value();
  same.reason = stint::Reason::resources;
  store->update_job(same);
  stint::Job changed = store->job(12).value();
  changed.spec.script_args = {"z"};
  changed.req.cpus_per_node = 8;
  store->update_job(changed);
  CHECK(column("SELECT id FROM jobs WHERE spec = '{}' AND request = '{}'") == "10\n11\n");
  auto reread = stint::Store::open(db, stint::Store::Mode::read_only);
  CHECK(reread->job(11)->reason == stint::Reason::resources);
  check_task(*reread->job(11));
  CHECK(reread->job(12)->spec.script_args == std::vector<std::string>{"z"});
  CHECK(reread->job(12)->req.cpus_per_node == 8);
  check_task(*reread->job(10));

  // An array's texts written in a transaction that rolls back are gone with
  // its tasks; the next array with that id writes its own.
  {
    stint::Store::Transaction tx(*store);
    stint::Job task = sample_job(20);
    task.array_job_id = 20;
    task.array_task_id = 0;
    store->insert_jobs({task});
    store->update_job(task);
  }
  CHECK(column("SELECT count(*) FROM array_texts") == "1\n");
  stint::Job task = sample_job(20);
  task.array_job_id = 20;
  task.array_task_id = 0;
  task.spec.name = "second";
  task.spec.script_args = {"q"};
  store->insert_jobs({task});
  store->update_job(task);
  CHECK(store->job(20)->spec.script_args == std::vector<std::string>{"q"});
  CHECK(column("SELECT spec FROM jobs WHERE id = 20") == "{}\n");
}

TEST_CASE("the WAL is copied into the database when stintd asks, not by the commit", "[store]") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  const auto size_of = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_size : off_t{-1};
  };
  store->checkpoint_if_due(1);               // the schema's commit
  CHECK_FALSE(store->checkpoint_if_due(1));  // nothing committed since
  const off_t db_before = size_of(db);
  // About 1,500 pages of rows: SQLite's own checkpoint would have run in the commit.
  std::vector<stint::Job> jobs;
  for (stint::JobId id = 1; id <= 10000; ++id) jobs.push_back(sample_job(id));
  {
    stint::Store::Transaction tx(*store);
    store->insert_jobs(jobs);
    tx.commit();
  }
  CHECK(size_of(db) == db_before);
  CHECK(size_of(db + "-wal") > 4 * 1024 * 1024);
  CHECK_FALSE(store->checkpoint_if_due(1'000'000));  // not due yet
  CHECK(size_of(db) == db_before);
  CHECK(store->checkpoint_if_due(1000));
  CHECK(size_of(db) > 4 * 1024 * 1024);
  CHECK_FALSE(store->checkpoint_if_due(1));  // counted again from the next commit
  // What a reader sees does not depend on it.
  auto reader = stint::Store::open(db, stint::Store::Mode::read_only);
  CHECK(reader->job_count() == 10000);
}

TEST_CASE("the WAL file is emptied once writes have stopped, never under a reader", "[store]") {
  TempDir dir;
  const std::string db = dir.path + "/stint.db";
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  const auto wal_size = [&db] {
    struct stat st {};
    return ::stat((db + "-wal").c_str(), &st) == 0 ? st.st_size : off_t{-1};
  };
  using std::chrono::hours;
  using std::chrono::milliseconds;
  store->insert_jobs({sample_job(1)});
  REQUIRE(wal_size() > 0);
  CHECK_FALSE(store->empty_wal_when_quiet(hours(1)));  // written just now
  CHECK(wal_size() > 0);
  // A tool in the middle of a read keeps the snapshot the WAL holds: the
  // attempt gives up at once rather than wait for it.
  sqlite3* tool = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &tool, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_exec(tool, "BEGIN; SELECT count(*) FROM jobs;", nullptr, nullptr, nullptr) ==
          SQLITE_OK);
  store->insert_jobs({sample_job(2)});
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(store->empty_wal_when_quiet(milliseconds(0)));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  CHECK(wal_size() > 0);
  sqlite3_exec(tool, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(tool);
  CHECK(store->empty_wal_when_quiet(milliseconds(0)));
  CHECK(wal_size() == 0);  // emptied, the file kept (tools open it read-only)
  CHECK_FALSE(store->empty_wal_when_quiet(milliseconds(0)));  // nothing written since
  auto reader = stint::Store::open(db, stint::Store::Mode::read_only);
  CHECK(reader->job_count() == 2);
}
