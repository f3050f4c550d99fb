// ScriptStore: the scripts and environments of submitted jobs, stintd's alone.

#include "store/scripts.hpp"

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct ScriptDir {
  std::string path;
  ScriptDir() {
    char tmpl[] = "/tmp/stint-scripts-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~ScriptDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

off_t size_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_size;
}

}  // namespace

TEST_CASE("a job's script and environment are kept whole, in a file only its writer reads") {
  ScriptDir dir;
  const std::string db = dir.path + "/scripts.db";
  // A system stintd's umask leaves files readable by all unless made otherwise.
  const mode_t old_umask = ::umask(022);
  auto scripts = stint::ScriptStore::open(db);
  ::umask(old_umask);
  // Bytes a shell script may hold, a NUL among them.
  const std::string script = std::string("#!/bin/sh\necho 'h\xc3\xa9'\n") + '\0' + "tail\n";
  scripts->put(7, script, R"({"HOME":"/home/a","TOKEN":"s3cret"})");

  auto kept = scripts->get(7);
  REQUIRE(kept);
  CHECK(kept->script == script);
  CHECK(kept->environment == R"({"HOME":"/home/a","TOKEN":"s3cret"})");
  CHECK_FALSE(scripts->get(8));
  CHECK(mode_of(db) == 0600);
  CHECK(mode_of(db + "-wal") == 0600);

  SECTION("an id left by a submission that failed is taken over by the next") {
    scripts->put(7, "#!/bin/sh\ntrue\n", "{}");
    CHECK(scripts->get(7)->script == "#!/bin/sh\ntrue\n");
    CHECK(scripts->get(7)->environment == "{}");
  }
  SECTION("the same script and environment again, a failed submission's retry, write nothing") {
    const off_t wal = size_of(db + "-wal");
    scripts->put(7, script, R"({"HOME":"/home/a","TOKEN":"s3cret"})");
    CHECK(size_of(db + "-wal") == wal);
    // Another environment is written, though the script is the same.
    scripts->put(7, script, R"({"HOME":"/home/b"})");
    CHECK(size_of(db + "-wal") > wal);
    CHECK(scripts->get(7)->environment == R"({"HOME":"/home/b"})");
  }
  SECTION("sync flushes what the puts wrote, from whichever thread") {
    // Nothing to observe short of a power cut but that it succeeds, here
    // and on another thread (it touches no connection), and that the puts
    // around it are undisturbed.
    CHECK_NOTHROW(scripts->sync());
    std::thread other([&] { scripts->sync(); });
    scripts->put(9, "#!/bin/sh\necho 9\n", "{}");
    other.join();
    CHECK(scripts->get(9)->script == "#!/bin/sh\necho 9\n");
    // With no WAL at all (the last connection closed removed it) there is
    // nothing to flush.
    scripts.reset();
    REQUIRE(::access((db + "-wal").c_str(), F_OK) != 0);
    auto reopened = stint::ScriptStore::open(db);
    CHECK_NOTHROW(reopened->sync());
  }
  SECTION("what is put is there for the next stintd") {
    scripts.reset();
    auto reopened = stint::ScriptStore::open(db);
    REQUIRE(reopened->get(7));
    CHECK(reopened->get(7)->script == script);
  }
  SECTION("a database left readable by others is made private again when opened") {
    scripts.reset();
    REQUIRE(::chmod(db.c_str(), 0644) == 0);
    auto reopened = stint::ScriptStore::open(db);
    CHECK(mode_of(db) == 0600);
    CHECK(reopened->get(7));
  }
}

TEST_CASE("the scripts' WAL file is emptied once writes have stopped") {
  ScriptDir dir;
  const std::string db = dir.path + "/scripts.db";
  auto scripts = stint::ScriptStore::open(db);
  CHECK_FALSE(scripts->empty_wal_when_quiet(std::chrono::milliseconds(0)));  // nothing put yet
  scripts->put(7, "#!/bin/sh\ntrue\n", "A=1");
  REQUIRE(size_of(db + "-wal") > 0);
  CHECK_FALSE(scripts->empty_wal_when_quiet(std::chrono::hours(1)));
  CHECK(scripts->empty_wal_when_quiet(std::chrono::milliseconds(0)));
  CHECK(size_of(db + "-wal") == 0);
  CHECK(scripts->get(7)->script == "#!/bin/sh\ntrue\n");
}
