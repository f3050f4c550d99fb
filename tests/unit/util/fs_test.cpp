// SyncedWrites: files written in place and synced together (a new job's spool).

#include "util/fs.hpp"

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <stint/error.hpp>

namespace fs = stint::fs;

namespace {

std::string temp_dir() {
  std::string pattern = "/tmp/stint-fs-test-XXXXXX";
  REQUIRE(::mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("SyncedWrites writes each file with its mode, and syncs it with its folders") {
  const std::string dir = temp_dir();
  fs::make_dirs(dir + "/12", 0700);
  {
    fs::SyncedWrites files;
    files.write(dir + "/12/script", "#!/bin/sh\ntrue\n", 0700);
    files.write(dir + "/12/environment.json", "[]", 0600);
    files.add_dir(dir + "/12");
    files.add_dir(dir);
    files.sync();
  }
  CHECK(fs::read_file(dir + "/12/script") == "#!/bin/sh\ntrue\n");
  CHECK(fs::read_file(dir + "/12/environment.json") == "[]");
  CHECK((mode_of(dir + "/12/script") & 0700) == 0700);
  CHECK((mode_of(dir + "/12/environment.json") & 0077) == 0);

  SECTION("a file left by an earlier attempt is replaced whole") {
    fs::SyncedWrites files;
    files.write(dir + "/12/script", "#!/bin/sh\n", 0700);
    files.sync();
    CHECK(fs::read_file(dir + "/12/script") == "#!/bin/sh\n");
  }
  SECTION("a folder that cannot be synced is an error naming it") {
    fs::SyncedWrites files;
    files.add_dir(dir + "/nosuch");
    CHECK_THROWS_WITH(files.sync(), Catch::Contains(dir + "/nosuch"));
  }
  std::system(("rm -rf '" + dir + "'").c_str());
}
