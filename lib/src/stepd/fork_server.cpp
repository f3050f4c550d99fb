// stint-stepd --fork-server: forks a stepd per task for stintd.

#include "stepd/fork_server.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <fmt/core.h>
#include <limits.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/spawn.hpp"
#include "util/proc.hpp"

namespace stint::stepd {
namespace {

// Where a child may write its own command line: from argv[1] to the end of
// the last argument, which the kernel laid out one after the other.
struct TitleRoom {
  char* start = nullptr;
  std::size_t size = 0;
};

TitleRoom title_room(int argc, char** argv) {
  if (argc < 2) return {};
  char* end = argv[argc - 1] + std::strlen(argv[argc - 1]) + 1;
  return {argv[1], static_cast<std::size_t>(end - argv[1])};
}

// The command line becomes `<argv[0]> NUL <path> NUL NUL...`: the last byte
// stays NUL, so /proc/<pid>/cmdline shows the whole area (trailing NULs
// included) rather than taking it for a setproctitle string.
bool retitle(const TitleRoom& room, const char* path) {
  const std::size_t n = std::strlen(path) + 1;
  if (room.start == nullptr || n > room.size) return false;
  std::memcpy(room.start, path, n);
  std::memset(room.start + n, 0, room.size - n);
  return true;
}

void send_reply(int sock, const ForkReply& reply, int flags) {
  // The only reader is stintd: when it has gone there is nobody to tell.
  [[maybe_unused]] ssize_t n = ::send(sock, &reply, sizeof reply, flags | MSG_NOSIGNAL);
}

void reap_children(int sock) {
  for (;;) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    ForkReply exited;
    exited.kind = ForkReply::exited;
    exited.pid = pid;
    // Best effort: a notice that does not fit is made up for by stintd's
    // periodic pass, which sees the stepd gone.
    send_reply(sock, exited, MSG_DONTWAIT);
  }
}

[[noreturn]] void run_child(int sock, int signals, const TitleRoom& room, const char* path,
                            int (*run_launch)(const char*)) {
  ::close(sock);
  ::close(signals);
  // What posix_spawn's POSIX_SPAWN_SETSID gives a spawned stepd.
  ::setsid();
  int rc = 0;
  if (!retitle(room, path)) {
    // Without its launch file on the command line a successor of stintd could
    // not find this stepd; stintd checks the length before asking.
    std::fprintf(stderr, "stint-stepd: error: no room for the command line %s\n", path);
    rc = 1;
  } else {
    rc = run_launch(path);
  }
  std::fflush(nullptr);
  // Not exit(): the server's static objects are not this child's to destroy.
  ::_exit(rc);
}

}  // namespace

int serve_forks(int argc, char** argv, int (*run_launch)(const char*)) {
  const int sock = k_fork_server_fd;
  int type = 0;
  socklen_t type_len = sizeof type;
  if (::getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_SEQPACKET) {
    std::fprintf(stderr,
                 "stint-stepd: error: %s is started by stintd, with its socket on "
                 "descriptor %d\n",
                 k_fork_server_flag.data(), sock);
    return errc_exit_status(Errc::usage);
  }
  const TitleRoom room = title_room(argc, argv);
  // The supervised signals are blocked (stintd spawns it so, entry() again);
  // the children keep them blocked until their supervision loop reads them.
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGCHLD, SIGTERM, SIGINT}) sigaddset(&set, s);
  ::sigprocmask(SIG_BLOCK, &set, nullptr);
  detail::Fd signals(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
  if (!signals) {
    std::fprintf(stderr, "stint-stepd: error: signalfd: %s\n", std::strerror(errno));
    return 1;
  }
  // Read once here rather than by every child at its first log line.
  ::tzset();
  for (;;) {
    pollfd fds[2] = {{sock, POLLIN, 0}, {signals.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      std::fprintf(stderr, "stint-stepd: error: poll: %s\n", std::strerror(errno));
      return 1;
    }
    if (fds[1].revents & POLLIN) {
      bool stop = false;
      signalfd_siginfo info{};
      while (::read(signals.get(), &info, sizeof info) == sizeof info)
        stop = stop || info.ssi_signo != SIGCHLD;
      reap_children(sock);
      if (stop) return 0;
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char path[PATH_MAX + 1];
    const ssize_t n = ::recv(sock, path, sizeof path, MSG_TRUNC);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return 0;  // stintd has gone; the stepds run on
    ForkReply reply;
    if (static_cast<std::size_t>(n) >= sizeof path) {
      reply.kind = ForkReply::failed;
      reply.error = ENAMETOOLONG;
      send_reply(sock, reply, 0);
      continue;
    }
    path[n] = '\0';
    std::fflush(nullptr);  // nothing buffered is written twice
    // A fork without exec: the child is a stepd whose program has already
    // started, which is what the server is for.
    const pid_t pid = ::fork();
    if (pid == 0) run_child(sock, signals.get(), room, path, run_launch);
    if (pid < 0) {
      reply.kind = ForkReply::failed;
      reply.error = errno;
    } else {
      reply.kind = ForkReply::started;
      reply.pid = pid;
      // Unreaped until the next loop, the child is still there to read.
      reply.start_ticks = proc::start_ticks(pid).value_or(0);
    }
    send_reply(sock, reply, 0);
  }
}

}  // namespace stint::stepd
