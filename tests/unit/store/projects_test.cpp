// Projects and deleted runs (migration 7).

#include <cstdlib>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/store.hpp>

#include "store/job_rows.hpp"

namespace {

struct ProjectDir {
  std::string path;
  ProjectDir() {
    char tmpl[] = "/tmp/stint-projects-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~ProjectDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::Job run_job(stint::JobId id, const std::string& project, std::uint32_t number,
                   std::uint32_t uid, const std::string& user, stint::Seconds submitted) {
  stint::Job job;
  job.id = id;
  job.user_id = uid;
  job.user_name = user;
  job.partition = "main";
  job.state = stint::JobState::completed;
  job.submit_time = submitted;
  stint::RunInfo run;
  run.project = project;
  run.number = number;
  run.command = {"true"};
  job.spec.run = run;
  job.spec.name = project + "/" + std::to_string(number);
  return job;
}

}  // namespace

TEST_CASE("a project is added once and listed by name", "[store][projects]") {
  ProjectDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->projects().empty());
  CHECK(store->add_project({"zeta", 1000, "alice", "z", 50}));
  CHECK(store->add_project({"alpha", 1001, "bob", "", 60}));
  CHECK_FALSE(store->add_project({"zeta", 1001, "bob", "other", 70}));
  const auto all = store->projects();
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "alpha");
  CHECK(all[1] == stint::Project{"zeta", 1000, "alice", "z", 50});
  CHECK(store->project("alpha")->owner_name == "bob");
  CHECK_FALSE(store->project("nope"));
}

TEST_CASE("a project's record is deleted once", "[store][projects]") {
  ProjectDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->add_project({"zeta", 1000, "alice", "z", 50}));
  CHECK(store->delete_project("zeta"));
  CHECK_FALSE(store->delete_project("zeta"));
  CHECK_FALSE(store->project("zeta"));
  CHECK(store->add_project({"zeta", 1001, "bob", "again", 60}));
}

TEST_CASE("the longest run name squeue lists: live runs, and those ended since",
          "[store][projects]") {
  ProjectDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->longest_run_name(0) == 0);
  auto ended = run_job(1, "a-long-project-name", 1, 1000, "alice", 10);
  ended.end_time = 100;
  store->insert_job(ended);
  auto live = run_job(2, "short", 12, 1000, "alice", 20);
  live.state = stint::JobState::running;
  store->insert_job(live);
  stint::Job plain;  // a batch job named with a '/': not a run
  plain.id = 3;
  plain.user_name = "alice";
  plain.partition = "main";
  plain.spec.name = "a/batch/job/with/a/longer/name";
  store->insert_job(plain);
  CHECK(store->longest_run_name(200) == std::string("short/12").size());
  CHECK(store->longest_run_name(100) == std::string("a-long-project-name/1").size());
}

TEST_CASE("a deleted run leaves the run listings, not the jobs or the numbering",
          "[store][projects]") {
  ProjectDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->insert_job(run_job(1, "p", 1, 1000, "alice", 10));
  store->insert_job(run_job(2, "p", 2, 1000, "alice", 20));
  store->insert_job(run_job(3, "q", 1, 1000, "alice", 30));
  store->delete_run("p", 2, 1000, 40);
  const auto p = store->run_jobs("p");
  REQUIRE(p.size() == 1);
  CHECK(p[0].id == 1);
  CHECK(store->run_jobs("").size() == 2);
  CHECK(store->job(2));  // accounting keeps it
  CHECK(store->max_run_number("p") == 2);
  // A cluster run is hidden the same way.
  stint::ClusterRun cr;
  cr.project = "q";
  cr.number = 2;
  cr.state = stint::JobState::completed;
  cr.settled = true;
  stint::RunInfo info;
  info.project = "q";
  info.number = 2;
  cr.spec.run = info;
  store->save_cluster_run(cr);
  CHECK(store->cluster_runs("q").size() == 1);
  store->delete_run("q", 2, 0, 50);
  CHECK(store->cluster_runs("q").empty());
  CHECK(store->max_run_number("q") == 2);
}

TEST_CASE("migration 7 makes a project for each project runs already name", "[store][projects]") {
  ProjectDir dir;
  const std::string db = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    store->insert_job(run_job(1, "p", 1, 1001, "bob", 20));
    store->insert_job(run_job(2, "p", 2, 1000, "alice", 10));
    store->insert_job(run_job(3, "q", 1, 1000, "alice", 30));
    stint::ClusterRun cr;
    cr.project = "slurmy";
    cr.number = 1;
    cr.user_id = 1002;
    cr.user_name = "carol";
    cr.submit_time = 5;
    stint::RunInfo info;
    info.project = "slurmy";
    info.number = 1;
    cr.spec.run = info;
    store->save_cluster_run(cr);
  }
  // Back to schema 6 as an older stint left it: no projects, no deletions.
  const std::string downgrade =
      "sqlite3 '" + db +
      "' 'DROP TABLE projects; DROP TABLE deleted_runs; "
      "DROP TABLE job_associations; DROP TABLE array_texts; DROP TABLE reservations; "
      "ALTER TABLE jobs DROP COLUMN het_job_id; ALTER TABLE jobs DROP COLUMN het_job_offset; "
      "ALTER TABLE jobs DROP COLUMN het_job_size; ALTER TABLE steps DROP COLUMN time_limit; "
      "ALTER TABLE jobs DROP COLUMN array_split; DROP TABLE node_features; "
      "DROP TABLE submissions; ALTER TABLE jobs DROP COLUMN array_tasks; ALTER TABLE jobs DROP "
      "COLUMN state_desc; "
      "PRAGMA user_version = 6;'";
  REQUIRE(std::system(downgrade.c_str()) == 0);
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  const auto all = store->projects();
  REQUIRE(all.size() == 3);
  // The owner is the user of the project's first run.
  CHECK(all[0] == stint::Project{"p", 1000, "alice", "", 10});
  CHECK(all[1] == stint::Project{"q", 1000, "alice", "", 30});
  CHECK(all[2] == stint::Project{"slurmy", 1002, "carol", "", 5});
  CHECK(store->run_jobs("p").size() == 2);
}

TEST_CASE("no value of a run's variables is written to stint.db; migration 14 scrubs old ones",
          "[store][projects]") {
  ProjectDir dir;
  const std::string db = dir.path + "/stint.db";
  auto grep_db = [&] { return std::system(("grep -rqa hunter2 '" + dir.path + "'").c_str()) == 0; };
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    stint::Job job = run_job(1, "p", 1, 1000, "alice", 10);
    job.spec.run->env = {{"SECRET_TOKEN", "hunter2"}, {"LR", "0.1"}};
    store->insert_job(job);
    job.state = stint::JobState::running;
    store->update_job(job);
    stint::ClusterRun cr;
    cr.project = "slurmy";
    cr.number = 1;
    cr.spec.run = job.spec.run;
    store->save_cluster_run(cr);
    const auto runs = store->run_jobs("p");
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].spec.run->env ==
          std::vector<std::pair<std::string, std::string>>{{"SECRET_TOKEN", ""}, {"LR", ""}});
  }
  CHECK_FALSE(grep_db());
  // As an older stint wrote them: the values in the spec and the record, a
  // long one (overflow pages, which an update frees without clearing).
  {
    std::ofstream sql(dir.path + "/old.sql");
    sql << R"sql(
UPDATE jobs SET spec = json_set(spec, '$.run.env', json_array(
  json_array('SECRET_TOKEN', 'hunter2' || hex(zeroblob(3000))), json_array('LR', '0.1')));
UPDATE cluster_runs SET record = json_set(record, '$.spec.run.env',
  json_array(json_array('SECRET_TOKEN', 'hunter2' || hex(zeroblob(3000)))));
DROP TABLE submissions;
ALTER TABLE jobs DROP COLUMN array_tasks; ALTER TABLE jobs DROP COLUMN state_desc;
PRAGMA user_version = 13;
)sql";
  }
  const std::string old =
      "sqlite3 '" + db + "' < '" + dir.path + "/old.sql' && rm '" + dir.path + "/old.sql'";
  REQUIRE(std::system(old.c_str()) == 0);
  REQUIRE(grep_db());
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  const auto runs = store->run_jobs("p");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].spec.run->env ==
        std::vector<std::pair<std::string, std::string>>{{"SECRET_TOKEN", ""}, {"LR", ""}});
  REQUIRE(store->cluster_runs("slurmy").size() == 1);
  CHECK(store->cluster_runs("slurmy")[0].spec.run->env ==
        std::vector<std::pair<std::string, std::string>>{{"SECRET_TOKEN", ""}});
  // Neither the file nor its WAL holds the old text, in free space either
  // (Debian's SQLite clears what it frees itself; the VACUUM is for others).
  CHECK_FALSE(grep_db());
}

TEST_CASE("no value of --export is written to stint.db; migration 16 scrubs old ones",
          "[store][projects]") {
  ProjectDir dir;
  const std::string db = dir.path + "/stint.db";
  auto grep_db = [&] { return std::system(("grep -rqa hunter2 '" + dir.path + "'").c_str()) == 0; };
  {
    auto store = stint::Store::open(db, stint::Store::Mode::read_write);
    stint::Job job = run_job(1, "p", 1, 1000, "alice", 10);
    job.spec.run.reset();
    job.spec.export_spec = "ALL,API_KEY=hunter2,HOME,EMPTY=";
    store->insert_job(job);
    REQUIRE(store->job(1).has_value());
    CHECK(store->job(1)->spec.export_spec == "ALL,API_KEY=***,HOME,EMPTY=***");
  }
  CHECK_FALSE(grep_db());
  // As an older stint wrote it.
  {
    std::ofstream sql(dir.path + "/old.sql");
    sql << R"sql(
UPDATE jobs SET spec = json_set(spec, '$.export_spec',
  'NONE,API_KEY=hunter2' || hex(zeroblob(3000)) || ',LR=0.1');
ALTER TABLE jobs DROP COLUMN array_tasks; ALTER TABLE jobs DROP COLUMN state_desc;
PRAGMA user_version = 15;
)sql";
  }
  const std::string old =
      "sqlite3 '" + db + "' < '" + dir.path + "/old.sql' && rm '" + dir.path + "/old.sql'";
  REQUIRE(std::system(old.c_str()) == 0);
  REQUIRE(grep_db());
  auto store = stint::Store::open(db, stint::Store::Mode::read_write);
  CHECK(store->schema_version() == stint::Store::current_schema_version());
  CHECK(store->job(1)->spec.export_spec == "NONE,API_KEY=***,LR=***");
  CHECK_FALSE(grep_db());
}

TEST_CASE("export_spec_names keeps names and keywords, masks every value", "[store]") {
  using stint::export_spec_names;
  CHECK(export_spec_names("") == "");
  CHECK(export_spec_names("ALL") == "ALL");
  CHECK(export_spec_names("NONE") == "NONE");
  CHECK(export_spec_names("A=1") == "A=***");
  CHECK(export_spec_names("ALL,A=1,B,C=x=y") == "ALL,A=***,B,C=***");
  CHECK(export_spec_names("A=") == "A=***");
  CHECK(export_spec_names("=v") == "=***");
  CHECK(export_spec_names(",,A=1,") == ",,A=***,");
  CHECK(export_spec_names("A='a b'") == "A=***");
}
