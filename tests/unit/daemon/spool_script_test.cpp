// A job's script as submitted (scripts.db, or the spool files of a job from
// before it), and the spool's copy that a task runs.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/spool.hpp"
#include "store/scripts.hpp"
#include "util/fs.hpp"

using namespace stint;

namespace {

struct StateDir {
  Paths paths;
  StateDir() {
    char tmpl[] = "/tmp/stint-spool-XXXXXX";
    paths.state_dir = ::mkdtemp(tmpl);
  }
  ~StateDir() { std::system(("rm -rf '" + paths.state_dir + "'").c_str()); }
};

}  // namespace

TEST_CASE("a job's script is read from scripts.db, else from the spool of a job from before") {
  StateDir dir;
  auto scripts = ScriptStore::open(dir.paths.scripts_db());
  CHECK_FALSE(daemon::submitted_script(*scripts, dir.paths, 3));

  // A job submitted by a stint that kept them in its spool folder.
  fs::make_dirs(dir.paths.spool(3), 0700);
  fs::write_file_atomic(dir.paths.spool(3) + "/script", "#!/bin/sh\necho old\n", 0700);
  SECTION("a script without its environment is not taken") {
    CHECK_FALSE(daemon::submitted_script(*scripts, dir.paths, 3));
  }
  fs::write_file_atomic(dir.paths.spool(3) + "/environment.json", R"({"A":"1"})", 0600);
  auto old = daemon::submitted_script(*scripts, dir.paths, 3);
  REQUIRE(old);
  CHECK(old->script == "#!/bin/sh\necho old\n");
  CHECK(old->environment == R"({"A":"1"})");

  SECTION("scripts.db comes first") {
    scripts->put(3, "#!/bin/sh\necho new\n", "{}");
    CHECK(daemon::submitted_script(*scripts, dir.paths, 3)->script == "#!/bin/sh\necho new\n");
  }
}

TEST_CASE("the copy a task runs is written when it is missing, cut short or changed") {
  StateDir dir;
  Job owner;
  owner.user_id = ::geteuid();
  owner.group_id = ::getegid();
  const std::string script = "#!/bin/sh\necho kept\n";
  const std::string path = daemon::place_script(dir.paths, 9, script, owner);
  CHECK(path == dir.paths.spool(9) + "/script");
  CHECK(fs::read_file(path) == script);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);

  SECTION("one that holds the script is left as it is") {
    const ino_t before = st.st_ino;
    daemon::place_script(dir.paths, 9, script, owner);
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK(st.st_ino == before);
  }
  SECTION("cut short (a power cut after a write not synced)") {
    REQUIRE(::truncate(path.c_str(), 5) == 0);
    daemon::place_script(dir.paths, 9, script, owner);
    CHECK(fs::read_file(path) == script);
  }
  SECTION("the same length, other bytes") {
    std::string other = script;
    other[12] = 'X';
    fs::write_file_atomic(path, other, 0700);
    daemon::place_script(dir.paths, 9, script, owner);
    CHECK(fs::read_file(path) == script);
  }
  SECTION("gone") {
    REQUIRE(::unlink(path.c_str()) == 0);
    daemon::place_script(dir.paths, 9, script, owner);
    CHECK(fs::read_file(path) == script);
  }
}
