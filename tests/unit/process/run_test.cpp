// process::run: output, input, exit codes, the deadline and the group it
// kills, the output bound, start failures, the environment, the folder and
// what the child does not inherit (a blocked or ignored signal).

#include "process/run.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <stint/error.hpp>

using stint::process::End;
using stint::process::Output;
using stint::process::Result;
using stint::process::run;
using stint::process::Spec;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

Spec shell(const std::string& text) {
  Spec spec;
  spec.argv = {"/bin/sh", "-c", text};
  return spec;
}

// A process that no longer runs: gone, or a zombie waiting for its parent.
bool process_gone(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto paren = line.rfind(')');
  return paren != std::string::npos && line.compare(paren + 2, 1, "Z") == 0;
}

// Polls `done` until it holds or the deadline passes.
template <class Condition>
bool within(std::chrono::milliseconds deadline, Condition done) {
  const auto end = Clock::now() + deadline;
  while (!done()) {
    if (Clock::now() >= end) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The message run() throws for `spec`, "" when it does not throw.
std::string start_failure(const Spec& spec) {
  try {
    run(spec);
  } catch (const stint::Error& e) {
    CHECK(e.code() == stint::Errc::io);
    return e.what();
  }
  return {};
}

// Points this process's stdout at a file while it lives.
class StdoutToFile {
 public:
  explicit StdoutToFile(const std::string& path) : m_saved(::dup(STDOUT_FILENO)) {
    std::fflush(stdout);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
  }
  ~StdoutToFile() {
    ::dup2(m_saved, STDOUT_FILENO);
    ::close(m_saved);
  }
  StdoutToFile(const StdoutToFile&) = delete;
  StdoutToFile& operator=(const StdoutToFile&) = delete;

 private:
  int m_saved;
};

}  // namespace

TEST_CASE("stdout and stderr are captured apart, or together") {
  Spec spec = shell("printf 'one\\ntwo'; echo problem >&2");
  Result r = run(spec);
  CHECK(r.out == "one\ntwo");
  CHECK(r.err == "problem\n");
  CHECK(r.exit_code == 0);
  CHECK(r.term_signal == 0);
  CHECK_FALSE(r.timed_out);

  spec = shell("echo out; echo err >&2; echo out again");
  spec.stderr_to = Output::with_stdout;
  r = run(spec);
  CHECK(r.out == "out\nerr\nout again\n");
  CHECK(r.err.empty());

  spec.stderr_to = Output::discarded;
  r = run(spec);
  CHECK(r.out == "out\nout again\n");
  CHECK(r.err.empty());
}

TEST_CASE("streams not captured go to this process's own, or nowhere") {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("stint-run-" + std::to_string(::getpid())))
          .string();
  Result r;
  {
    StdoutToFile redirected(path);
    Spec spec = shell("echo inherited; echo merged >&2");
    spec.stdout_to = Output::inherited;
    spec.stderr_to = Output::with_stdout;
    r = run(spec);
    spec = shell("echo dropped");
    spec.stdout_to = Output::discarded;
    run(spec);
  }
  std::ifstream file(path);
  const std::string written((std::istreambuf_iterator<char>(file)), {});
  std::filesystem::remove(path);
  CHECK(written == "inherited\nmerged\n");
  CHECK(r.out.empty());
}

TEST_CASE("an input larger than a pipe holds goes through whole") {
  std::string input;
  for (int i = 0; input.size() < (std::size_t{1} << 20); ++i) input += std::to_string(i) + '\n';
  Spec spec;
  spec.argv = {"cat"};
  spec.input = input;
  const Result r = run(spec);
  CHECK(r.exit_code == 0);
  CHECK(r.out.size() == input.size());
  CHECK(r.out == input);
}

TEST_CASE("a program that does not read its input is not an error, nor a SIGPIPE here") {
  Spec spec;
  spec.argv = {"true"};
  spec.input = std::string(std::size_t{1} << 20, 'x');
  const Result r = run(spec);
  CHECK(r.exit_code == 0);
}

TEST_CASE("exit statuses, and 128+N for a program killed by signal N") {
  CHECK(run(shell("exit 7")).exit_code == 7);
  const Result killed = run(shell("kill -KILL $$"));
  CHECK(killed.exit_code == 128 + SIGKILL);
  CHECK(killed.term_signal == SIGKILL);
  CHECK_FALSE(killed.timed_out);
}

TEST_CASE("at the deadline the whole process group is killed") {
  Spec spec = shell("sleep 30 & echo $!; sleep 30");
  spec.timeout = 300ms;
  const auto start = Clock::now();
  const Result r = run(spec);
  CHECK(Clock::now() - start < 5s);
  CHECK(r.timed_out);
  CHECK(r.exit_code == 128 + SIGKILL);
  CHECK(r.term_signal == SIGKILL);
  const std::string background = first_line(r.out);
  REQUIRE_FALSE(background.empty());
  CHECK(within(5s, [&] { return process_gone(background); }));
}

TEST_CASE("a program that closes its output and stays is still held to the deadline") {
  Spec spec = shell("exec >/dev/null 2>&1; sleep 30");
  spec.timeout = 300ms;
  const auto start = Clock::now();
  const Result r = run(spec);
  CHECK(Clock::now() - start < 5s);
  CHECK(r.timed_out);
}

TEST_CASE("ended at its exit, what it left running goes with its group") {
  Spec spec = shell("sleep 30 & echo $!");
  spec.end = End::exit;
  spec.kill_group_at_end = true;
  const auto start = Clock::now();
  const Result r = run(spec);
  CHECK(Clock::now() - start < 5s);
  CHECK(r.exit_code == 0);
  const std::string background = first_line(r.out);
  REQUIRE_FALSE(background.empty());
  CHECK(within(5s, [&] { return process_gone(background); }));
}

TEST_CASE("output past the limit is read and dropped") {
  Spec spec = shell("head -c 100000 /dev/zero; head -c 50 /dev/zero >&2");
  spec.output_limit = 1000;
  const Result r = run(spec);
  CHECK(r.exit_code == 0);  // its writer was not cut off
  CHECK(r.out.size() == 1000);
  CHECK(r.err.size() == 50);
}

TEST_CASE("a program that cannot start throws Errc::io saying why") {
  Spec spec;
  spec.argv = {"no-such-program-for-stint"};
  CHECK(start_failure(spec) == "no-such-program-for-stint: command not found");
  spec.argv = {"/no/such/program"};
  CHECK(start_failure(spec) == "/no/such/program: No such file or directory");
  spec.argv = {"/dev/null"};
  CHECK(start_failure(spec) == "/dev/null: Permission denied");
  spec = shell("true");
  spec.working_dir = "/no/such/folder";
  CHECK(start_failure(spec) == "/bin/sh: /no/such/folder: No such file or directory");
}

TEST_CASE("the environment given replaces this process's, and PATH comes from it") {
  Spec spec;
  spec.argv = {"env"};
  spec.environment = {"PATH=/usr/bin:/bin", "ONE=1", "TWO=a b"};
  CHECK(run(spec).out == "PATH=/usr/bin:/bin\nONE=1\nTWO=a b\n");
  spec.environment = {"PATH=/no/such/folder"};
  CHECK(start_failure(spec) == "env: command not found");
}

TEST_CASE("the working folder") {
  Spec spec;
  spec.argv = {"/bin/pwd", "-P"};
  spec.working_dir = "/";
  CHECK(run(spec).out == "/\n");
}

TEST_CASE("a signal this process blocks or ignores is the program's to receive") {
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigset_t before;
  ::pthread_sigmask(SIG_BLOCK, &term, &before);
  const Result blocked = run(shell("kill -TERM $$; sleep 5"));
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  CHECK(blocked.exit_code == 128 + SIGTERM);

  auto* previous = std::signal(SIGPIPE, SIG_IGN);
  const Result piped = run(shell("kill -PIPE $$; sleep 5"));
  std::signal(SIGPIPE, previous);
  CHECK(piped.exit_code == 128 + SIGPIPE);
}

TEST_CASE("its own process group, or this one's") {
  // Field 5 of /proc/PID/stat: the process group.
  Spec spec = shell("cut -d' ' -f5 /proc/$$/stat");
  const std::string own = run(spec).out;
  spec.new_process_group = false;
  const std::string shared = run(spec).out;
  CHECK(std::stol(shared) == ::getpgrp());
  CHECK(std::stol(own) != ::getpgrp());
}

TEST_CASE("as another user, when this process is root") {
  if (::geteuid() != 0) {
    WARN("not root: the user switch is not tried");
    return;
  }
  Spec spec;
  spec.argv = {"sh", "-c", "id -u; id -g; id -G"};
  spec.user = stint::process::Credentials{65534, 65534, {65534}};
  CHECK(run(spec).out == "65534\n65534\n65534\n");
}
