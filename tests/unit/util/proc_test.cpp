// proc::find_process: how stintd finds a stepd it spawned but died before
// recording (its program and its one argument, never a zombie).

#include "util/proc.hpp"

#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

namespace {

pid_t spawn(const char* path, const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(path, argv.data());
    ::_exit(127);
  }
  return pid;
}

// Until `probe` gives what is wanted, or 10 s: a child's exec is not instant.
template <typename Probe>
bool eventually(Probe probe) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (probe()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// An argument no other process on the machine has: sleep's seconds with this
// process's pid in the fraction.
std::string unique_seconds() { return "987." + std::to_string(::getpid()); }

}  // namespace

TEST_CASE("find_process finds a live process by program and its one argument", "[proc]") {
  const std::string arg = unique_seconds();
  const pid_t child = spawn("/bin/sleep", {"/bin/sleep", arg});
  REQUIRE(child > 0);
  // By the last path component of argv[0].
  CHECK(eventually([&] { return stint::proc::find_process("sleep", arg) == child; }));
  CHECK_FALSE(stint::proc::find_process("/bin/sleep", arg));
  CHECK_FALSE(stint::proc::find_process("sleep", arg + "1"));
  CHECK_FALSE(stint::proc::find_process("sleep", arg.substr(0, arg.size() - 1)));
  CHECK_FALSE(stint::proc::find_process("cat", arg));

  // A zombie (killed, not yet reaped) is not a live process.
  ::kill(child, SIGKILL);
  CHECK(eventually([&] { return !stint::proc::find_process("sleep", arg); }));
  int status = 0;
  CHECK(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
}

TEST_CASE("find_process wants exactly one argument after the program", "[proc]") {
  const std::string arg = unique_seconds();
  const pid_t child = spawn("/bin/sleep", {"sleep", arg, "0"});
  REQUIRE(child > 0);
  // Only once the child runs sleep does the check below mean anything.
  const std::string cmdline_path = "/proc/" + std::to_string(child) + "/cmdline";
  CHECK(eventually([&] {
    std::ifstream in(cmdline_path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text ==
           "sleep" + std::string(1, '\0') + arg + std::string(1, '\0') + "0" + std::string(1, '\0');
  }));
  CHECK_FALSE(stint::proc::find_process("sleep", arg));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
}
