// proc::find_process: how stintd finds a stepd it spawned but died before
// recording (its program and its one argument, never a zombie).

#include "util/proc.hpp"

#include <algorithm>
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
  CHECK(eventually([&] { return stint::proc::find_process("sleep", arg, "/bin/sleep") == child; }));
  CHECK_FALSE(stint::proc::find_process("/bin/sleep", arg, "/bin/sleep"));
  CHECK_FALSE(stint::proc::find_process("sleep", arg + "1", "/bin/sleep"));
  CHECK_FALSE(stint::proc::find_process("sleep", arg.substr(0, arg.size() - 1), "/bin/sleep"));
  CHECK_FALSE(stint::proc::find_process("cat", arg, "/bin/sleep"));

  // A zombie (killed, not yet reaped) is not a live process.
  ::kill(child, SIGKILL);
  CHECK(eventually([&] { return !stint::proc::find_process("sleep", arg, "/bin/sleep"); }));
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
  CHECK_FALSE(stint::proc::find_process("sleep", arg, "/bin/sleep"));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
}

TEST_CASE("descendants walks children and theirs, zombies aside", "[proc]") {
  const std::string arg = unique_seconds();
  // sh -> sleep (the grandchild), and sh waits for it.
  const pid_t child = spawn("/bin/sh", {"sh", "-c", "/bin/sleep " + arg + "; :"});
  REQUIRE(child > 0);
  std::optional<std::int64_t> grandchild;
  CHECK(eventually([&] {
    return (grandchild = stint::proc::find_process("sleep", arg, "/bin/sleep")).has_value();
  }));
  REQUIRE(grandchild);
  CHECK(stint::proc::descendants(child) == std::vector<std::int64_t>{*grandchild});
  CHECK(stint::proc::descendants(*grandchild).empty());
  // A process is not its own descendant, and this test's child is its own.
  const auto mine = stint::proc::descendants(::getpid());
  CHECK(std::find(mine.begin(), mine.end(), child) != mine.end());
  CHECK(std::find(mine.begin(), mine.end(), *grandchild) != mine.end());
  CHECK(std::find(mine.begin(), mine.end(), ::getpid()) == mine.end());

  // Killed and not yet reaped by sh (stopped), the grandchild is a zombie.
  ::kill(child, SIGSTOP);
  ::kill(static_cast<pid_t>(*grandchild), SIGKILL);
  CHECK(eventually([&] { return stint::proc::descendants(child).empty(); }));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(stint::proc::descendants(child).empty());
}

TEST_CASE("find_processes_mentioning matches the program and a text in its line", "[proc]") {
  const std::string arg = unique_seconds();
  const pid_t child = spawn("/bin/sleep", {"/bin/sleep", arg});
  REQUIRE(child > 0);
  using stint::proc::find_processes_mentioning;
  CHECK(eventually(
      [&] { return find_processes_mentioning("sleep", arg) == std::vector<std::int64_t>{child}; }));
  // A text across arguments, as a retitled process shows them.
  CHECK(find_processes_mentioning("sleep", "sleep " + arg) == std::vector<std::int64_t>{child});
  CHECK(find_processes_mentioning("sleep", arg + "9").empty());
  CHECK(find_processes_mentioning("slee", arg).empty());
  CHECK(find_processes_mentioning("cat", arg).empty());
  CHECK(stint::proc::real_uid(child) == ::getuid());
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(find_processes_mentioning("sleep", arg).empty());
  CHECK_FALSE(stint::proc::real_uid(child));
}

TEST_CASE("login_groups lists the login group and the groups that name the user", "[proc]") {
  const std::string me = stint::proc::user_name(::getuid());
  const std::vector<gid_t> got = stint::proc::login_groups(me, ::getgid());
  CHECK(std::find(got.begin(), got.end(), ::getgid()) != got.end());
  // Every group /etc/group lists the user in is among them.
  std::ifstream groups_file("/etc/group");
  for (std::string line; std::getline(groups_file, line);) {
    // name:password:gid:member,member
    const auto c1 = line.find(':'), c2 = line.find(':', c1 + 1), c3 = line.find(':', c2 + 1);
    if (c3 == std::string::npos) continue;
    const std::string members = "," + line.substr(c3 + 1) + ",";
    if (members.find("," + me + ",") == std::string::npos) continue;
    const auto gid = static_cast<gid_t>(std::stoul(line.substr(c2 + 1, c3 - c2 - 1)));
    INFO(line);
    CHECK(std::find(got.begin(), got.end(), gid) != got.end());
  }
  // A user the system does not know still gets the group asked for, and only it.
  CHECK(stint::proc::login_groups("stint-no-such-user", 4242) == std::vector<gid_t>{4242});
}

TEST_CASE("find_process takes only a process running the named file", "[proc]") {
  const std::string arg = unique_seconds();
  // Anyone may start a process whose command line looks like a stepd's.
  const pid_t child = spawn("/bin/sleep", {"stint-stepd", arg});
  REQUIRE(child > 0);
  // The file it does run, by any path to it (/bin may be a link to /usr/bin).
  CHECK(eventually(
      [&] { return stint::proc::find_process("stint-stepd", arg, "/bin/sleep") == child; }));
  // It runs sleep, not the stepd named: not ours.
  CHECK_FALSE(stint::proc::find_process("stint-stepd", arg, "/bin/true"));
  CHECK_FALSE(stint::proc::find_process("stint-stepd", arg, "/nonexistent/stint-stepd"));
  CHECK_FALSE(stint::proc::executable_of(child).empty());
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(stint::proc::executable_of(child).empty());
}
