#include "stepd/scripts.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stint::stepd {
namespace {

// Enough for a site script's messages; more is cut so a chatty script cannot
// fill stintd's log or memory.
constexpr std::size_t k_max_output = std::size_t{64} * 1024;

struct One {
  bool ok = false;
  std::string failure;
};

One run_one(const std::vector<std::string>& argv,
            const std::vector<std::pair<std::string, std::string>>& env, Seconds timeout,
            std::string& output) {
  if (argv.empty() || argv[0].empty()) return {false, "empty command"};
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return {false, std::strerror(errno)};
  std::vector<std::string> env_text;
  for (const auto& [k, v] : env) env_text.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);

  // stepd is small, so fork is cheap here; everything the child needs is
  // prepared above.
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int saved = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return {false, std::strerror(saved)};
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    std::signal(SIGPIPE, SIG_DFL);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::execve(argp[0], argp.data(), envp.data());
    const std::string msg = fmt::format("{}: {}\n", argv[0], std::strerror(errno));
    [[maybe_unused]] auto n = ::write(2, msg.data(), msg.size());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(pipe_fds[1]);

  using Clock = std::chrono::steady_clock;
  const bool limited = timeout >= 0;  // k_infinite (-1) is not
  const auto deadline = Clock::now() + std::chrono::seconds(limited ? timeout : 0);
  bool timed_out = false;
  bool reaped = false;
  int status = 0;
  char buf[4096];
  auto keep = [&](ssize_t got) {
    if (got > 0 && output.size() < k_max_output)
      output.append(
          buf, std::min<std::size_t>(static_cast<std::size_t>(got), k_max_output - output.size()));
  };
  bool open = true;
  while (!reaped) {
    // A script that leaves a process behind keeps the pipe open, so its end
    // is its exit, looked at every 100 ms, not the end of its output.
    int wait_ms = 100;
    if (limited) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<std::int64_t>(left.count(), wait_ms));
    }
    if (open) {
      pollfd p{pipe_fds[0], POLLIN, 0};
      if (::poll(&p, 1, wait_ms) > 0) {
        const ssize_t got = ::read(pipe_fds[0], buf, sizeof buf);
        if (got == 0) open = false;
        keep(got);
      }
    } else {
      ::poll(nullptr, 0, wait_ms);
    }
    reaped = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  if (timed_out) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // What it printed last, then what it started in the background goes too.
  ::fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  for (ssize_t got = 0; open && (got = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) keep(got);
  ::close(pipe_fds[0]);
  ::kill(-pid, SIGKILL);
  if (timed_out) return {false, fmt::format("{} timed out after {} s", argv[0], timeout)};
  if (WIFSIGNALED(status))
    return {false, fmt::format("{} killed by signal {}", argv[0], WTERMSIG(status))};
  if (WEXITSTATUS(status) != 0)
    return {false, fmt::format("{} exited with status {}", argv[0], WEXITSTATUS(status))};
  return {true, {}};
}

}  // namespace

ScriptsOutcome run_scripts(const std::vector<std::vector<std::string>>& scripts,
                           const std::vector<std::pair<std::string, std::string>>& env,
                           Seconds timeout) {
  ScriptsOutcome out;
  for (const auto& argv : scripts) {
    One r = run_one(argv, env, timeout, out.output);
    if (!r.ok) {
      out.ok = false;
      out.failure = std::move(r.failure);
      break;
    }
  }
  return out;
}

}  // namespace stint::stepd
