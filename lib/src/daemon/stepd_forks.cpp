// stintd's end of stint-stepd --fork-server.

#include "daemon/stepd_forks.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/log.hpp"
#include "stepd/fork_server.hpp"

extern char** environ;

namespace stint::daemon {
namespace {

// A fork answers in well under a millisecond; a server silent this long is
// stuck, and is replaced.
constexpr auto k_reply_timeout = std::chrono::seconds(10);

}  // namespace

// posix_spawn, not process::run: stepd outlives this call (and stintd), in a
// session of its own, reaped by stintd's loop; and it is a job's start.
std::pair<pid_t, int> spawn_stepd(std::vector<std::string> args, const std::string& log_path,
                                  int server_socket) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own session: the job outlives stintd, and stintd's signals are not its.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
  // It starts with the signals it reads through its signalfd already blocked:
  // a cancel sent before its main() blocked them would kill it without a
  // result, and the job would be taken for a lost node and requeued. Pending,
  // the SIGTERM reaches its supervision loop instead. (stepd unblocks them
  // for the task.) The fork server's children inherit the mask.
  sigset_t supervised;
  sigemptyset(&supervised);
  for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGUSR1}) sigaddset(&supervised, s);
  posix_spawnattr_setsigmask(&attr, &supervised);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  if (server_socket >= 0)
    posix_spawn_file_actions_adddup2(&actions, server_socket, stepd::k_fork_server_fd);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return {pid, rc};
}

StepdForks::StepdForks(std::string log_path, std::size_t longest_path)
    : m_log_path(std::move(log_path)), m_padding(longest_path + 1, ' ') {}

StepdForks::~StepdForks() {
  if (m_fd >= 0) ::close(m_fd);
}

void StepdForks::stop(bool stuck) {
  if (m_fd >= 0) ::close(m_fd);
  // Only a stuck one is surely not reaped yet (its pid not reused): one that
  // has gone closed its end. Its stepds are in sessions of their own and do
  // not go with it; stintd's SIGCHLD reaps it.
  if (stuck && m_pid > 0) ::kill(m_pid, SIGKILL);
  m_fd = -1;
  m_pid = 0;
  m_exe.clear();
}

bool StepdForks::launch_server(const std::string& exe) {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    log_error("stint-stepd {}: socketpair: {}", stepd::k_fork_server_flag, std::strerror(errno));
    return false;
  }
  auto [pid, rc] =
      spawn_stepd({exe, std::string(stepd::k_fork_server_flag), m_padding}, m_log_path, pair[1]);
  ::close(pair[1]);
  if (rc != 0) {
    ::close(pair[0]);
    log_error("cannot start stint-stepd {}: {}", stepd::k_fork_server_flag, std::strerror(rc));
    return false;
  }
  m_fd = pair[0];
  m_pid = pid;
  m_exe = exe;
  return true;
}

StepdForks::Start StepdForks::start(const std::string& exe, const std::string& launch_path,
                                    const std::function<void(std::int64_t)>& exited) {
  Start result;
  // The child writes the path and its NUL over argv[1] and the padding.
  if (launch_path.size() + 1 > m_padding.size()) return result;
  if (m_fd >= 0 && m_exe != exe) stop(false);
  if (m_fd < 0 && !launch_server(exe)) return result;
  if (::send(m_fd, launch_path.data(), launch_path.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(launch_path.size())) {
    // Not taken: no stepd runs this launch file.
    log_error("stint-stepd {} has gone: {}", stepd::k_fork_server_flag, std::strerror(errno));
    stop(false);
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + k_reply_timeout;
  result.outcome = Outcome::unknown;
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{m_fd, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      log_error("stint-stepd {} did not answer: replaced", stepd::k_fork_server_flag);
      stop(true);
      return result;
    }
    stepd::ForkReply reply;
    const ssize_t got = ::recv(m_fd, &reply, sizeof reply, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got != static_cast<ssize_t>(sizeof reply)) {
      log_error("stint-stepd {} has gone before it answered", stepd::k_fork_server_flag);
      stop(false);
      return result;
    }
    if (reply.kind == stepd::ForkReply::exited) {
      exited(reply.pid);
      continue;
    }
    if (reply.kind == stepd::ForkReply::started) {
      result.outcome = Outcome::started;
      result.pid = reply.pid;
      result.start_ticks = reply.start_ticks;
    } else {
      result.outcome = Outcome::failed;
      result.error = reply.error;
    }
    return result;
  }
}

void StepdForks::read_exits(const std::function<void(std::int64_t)>& exited) {
  while (m_fd >= 0) {
    stepd::ForkReply reply;
    const ssize_t got = ::recv(m_fd, &reply, sizeof reply, MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (got != static_cast<ssize_t>(sizeof reply)) {
      log_error("stint-stepd {} has gone; the next start starts another",
                stepd::k_fork_server_flag);
      stop(false);
      return;
    }
    if (reply.kind == stepd::ForkReply::exited) exited(reply.pid);
  }
}

}  // namespace stint::daemon
