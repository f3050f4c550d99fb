// write_file_atomic: a whole file or none, with its mode and owner.

#include "util/fs.hpp"

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

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

TEST_CASE("write_file_atomic replaces a file whole, with its mode and owner") {
  const std::string dir = temp_dir();
  const std::string path = dir + "/script";
  fs::write_file_atomic(path, "#!/bin/sh\ntrue\n", 0700);
  CHECK(fs::read_file(path) == "#!/bin/sh\ntrue\n");
  CHECK(mode_of(path) == 0700);

  SECTION("unsynced, and given to an owner before it takes the name") {
    fs::write_file_atomic(path, "#!/bin/sh\n", 0700, fs::Sync::no,
                          fs::Owner{::geteuid(), ::getegid()});
    CHECK(fs::read_file(path) == "#!/bin/sh\n");
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK(st.st_uid == ::geteuid());
  }
  SECTION("a folder that is not there is an error naming the file") {
    CHECK_THROWS_WITH(fs::write_file_atomic(dir + "/nosuch/script", "x", 0600),
                      Catch::Contains(dir + "/nosuch/script"));
  }
  if (::geteuid() != 0) {
    SECTION("an owner it may not give the file to is an error, and no file is left") {
      CHECK_THROWS_WITH(
          fs::write_file_atomic(dir + "/given", "x", 0600, fs::Sync::no, fs::Owner{0, 0}),
          Catch::Contains("Unable to change the owner"));
      CHECK_FALSE(fs::exists(dir + "/given"));
    }
  }
  std::system(("rm -rf '" + dir + "'").c_str());
}
