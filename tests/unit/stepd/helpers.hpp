#pragma once
// Shared by the stepd tests: a temporary folder, a launch to start from, and
// waiting on conditions with deadlines (never a bare sleep).

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/launch.hpp"
#include "stepd/stepd.hpp"
#include "util/fs.hpp"

namespace stint::test {

/// A fresh folder under /tmp, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/stint-stepd-test-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    m_path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return m_path; }
  std::string operator/(const std::string& name) const { return m_path + "/" + name; }

 private:
  std::string m_path;
};

/// A launch of `sh -c script` in `dir`, output to dir/out, no time limit.
inline TaskLaunch shell_launch(const TempDir& dir, const std::string& script) {
  TaskLaunch l;
  l.job_id = 7;
  l.node_index = 0;
  l.node_name = "n1";
  l.argv = {"/bin/sh", "-c", script};
  l.env = {{"PATH", "/usr/bin:/bin"}};
  l.work_dir = dir.path();
  l.stdout_path = dir / "out";
  l.stderr_path = dir / "out";
  l.kill_wait = 1;
  return l;
}

inline std::string read_text(const std::string& path) { return fs::read_file(path); }

inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

/// Polls `condition` until it holds or `timeout_s` passes; returns whether it held.
inline bool wait_until(const std::function<bool()>& condition, double timeout_s) {
  auto start = std::chrono::steady_clock::now();
  while (!condition()) {
    if (seconds_since(start) > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

/// Runs run_task(launch) in a forked child, as stint-stepd would; the child
/// exits 0 once the result file is written.
inline pid_t fork_stepd(const TaskLaunch& launch) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int rc = 0;
    try {
      stepd::run_task(launch);
    } catch (...) {
      rc = 1;
    }
    ::_exit(rc);
  }
  return pid;
}

/// Waits for a child with a deadline; kills it (and returns -1) when it is late.
inline int wait_child(pid_t pid, double timeout_s) {
  int status = 0;
  bool ended = wait_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, timeout_s);
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
  }
  return status;
}

}  // namespace stint::test
