#include "daemon/server.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "config/warnings.hpp"
#include "daemon/connections.hpp"
#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "util/node_view.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : m_fd(fd) {}
  ~UniqueFd() {
    if (m_fd >= 0) ::close(m_fd);
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return m_fd; }

 private:
  int m_fd;
};

// Holds <state>/stintd.lock for the life of the process: one stintd per state
// directory. The lock goes with the process, however it ends.
//
// Tools ask whether a stintd holds it by taking a shared lock for an instant
// (lock_held in rpc/client.cpp; flock(1) in a script). A stintd starting in
// that instant must not take the probe for another stintd and leave the
// directory unserved (under systemd, a restart that exits 0 is not retried):
// while the shared lock can be had too, nobody holds the exclusive one, and
// the probe is waited out. Another stintd's lock makes it leave at once.
int take_lock(const Paths& paths) {
  int fd = ::open(paths.lock().c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    throw Error(Errc::io, fmt::format("Unable to open {}: {}", paths.lock(), std::strerror(errno)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  auto pause = std::chrono::milliseconds(1);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const bool only_probes = ::flock(fd, LOCK_SH | LOCK_NB) == 0;
    if (only_probes) ::flock(fd, LOCK_UN);
    if (!only_probes || std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      return -1;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] auto n = ::write(fd, pid.data(), pid.size());
  }
  return fd;
}

int listen_on(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) throw Error(Errc::io, fmt::format("socket: {}", std::strerror(errno)));
  // The socket is made under a name of its own and renamed over the path, so
  // the path never goes missing while a stintd restarts (a tool that may not
  // read the lock waits for a restart while the path is there) and never
  // holds a socket of the wrong mode. We hold the lock: a socket left at
  // either name belongs to a dead stintd.
  const std::string fresh = path + ".new";
  if (fresh.size() >= sizeof addr.sun_path) {
    ::close(fd);
    throw Error(Errc::io, "socket path too long: " + path);
  }
  std::memcpy(addr.sun_path, fresh.c_str(), fresh.size() + 1);
  ::unlink(fresh.c_str());
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 128) != 0 ||
      // A system stintd serves every user (each request is authorised by its
      // peer's uid); a personal one only its owner.
      ::chmod(fresh.c_str(), system_mode() ? 0666 : 0600) != 0 ||
      ::rename(fresh.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::close(fd);
    ::unlink(fresh.c_str());
    throw Error(Errc::io, fmt::format("Unable to listen on {}: {}", path, std::strerror(saved)));
  }
  return fd;
}

// In system mode every user reads stint.db (read-only, as the tools do). A
// reader that may not write the -shm file builds its WAL index in its own
// memory (SQLite 3.22+), so these are readable by all and writable by stintd
// only: no user can corrupt the index stintd relies on.
void share_database(const Paths& paths) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string file = paths.db() + suffix;
    if (::chmod(file.c_str(), 0644) != 0 && errno != ENOENT)
      log_error("Unable to make {} readable: {}", file, std::strerror(errno));
  }
}

void reap_children(Controller& controller) {
  for (;;) {
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    controller.stepd_exited(pid, status);
  }
}

}  // namespace

int serve(const Paths& paths, const ServerOptions& options) {
  // A system stintd's files are read by every user (stint.yaml, stint.db):
  // their modes must not depend on the umask it was started with.
  if (system_mode()) ::umask(022);
  ensure_state_dir(paths);
  UniqueFd lock(take_lock(paths));
  if (lock.get() < 0) {
    log_info("another stintd serves {}", paths.state_dir);
    return 0;
  }

  Config config;
  try {
    config = load_or_init_config(paths.state_dir);
  } catch (const Error& e) {
    log_error("{}", e.what());
    fmt::print(stderr, "stintd: error: {}\n", e.what());
    return 1;
  }
  SystemClock clock;
  std::unique_ptr<Store> store = Store::open(paths.db(), Store::Mode::read_write);
  if (system_mode()) share_database(paths);
  Controller controller(paths, std::move(config), std::move(store), clock);
  remember_log_path();
  set_log_limit(controller.log_limit());
  controller.recover();

  sigset_t mask;
  sigemptyset(&mask);
  for (int s : {SIGTERM, SIGINT, SIGCHLD, SIGHUP, SIGUSR2}) sigaddset(&mask, s);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);
  UniqueFd signals(::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
  std::signal(SIGPIPE, SIG_IGN);

  UniqueFd listener(listen_on(paths.socket()));
  log_info("stintd {} serving {}", ::getpid(), paths.state_dir);
  for (const std::string& w : config_warnings(controller.config())) log_error("{}", w);
  if (controller.config().has_virtual_nodes(proc::short_hostname())) {
    if (const std::string why = node_view::unavailable_reason(); !why.empty())
      log_error("node names and hosts: {}", why);
  }
  controller.schedule();

  using SteadyClock = std::chrono::steady_clock;
  auto last_pass = SteadyClock::now();
  // A pass after every request would make each client that comes during one
  // wait for all of it, and a deep queue makes a pass take many milliseconds
  // to decide: a pass that a request asks for waits until as long as the last
  // one took to decide has gone by since it ended (never longer than
  // k_max_pass_gap). Then at most about half of stintd's time goes to
  // deciding, the requests in between are answered at once, and one pass
  // covers them all. A shallow queue leaves no gap worth the name: a job
  // submitted to an idle cluster starts at once. Starting jobs (spawning,
  // syncing launch files) is not counted: it does not grow with the queue.
  constexpr auto k_max_pass_gap = std::chrono::milliseconds(500);
  constexpr int k_checkpoint_pages = 1000;
  constexpr auto k_wal_quiet = std::chrono::seconds(2);
  auto last_pass_end = SteadyClock::now();
  SteadyClock::duration last_pass_cost{};
  SteadyClock::duration last_pass_length{};  // all of it, the walks of the live jobs included
  auto idle_since = SteadyClock::now();
  auto next_purge = SteadyClock::now();
  bool purge_more = false;
  Connections clients(controller);
  std::vector<pollfd> fds;
  bool stop = false;
  while (!stop && !controller.shutdown_requested()) {
    fds = {{listener.get(), POLLIN, 0}, {signals.get(), POLLIN, 0}};
    clients.add_poll_fds(fds);
    const std::size_t forks_index = fds.size();
    if (controller.stepd_forks_fd() >= 0) fds.push_back({controller.stepd_forks_fd(), POLLIN, 0});
    const auto pass_due =
        last_pass_end + std::min<SteadyClock::duration>(last_pass_cost, k_max_pass_gap);
    // A purge with more batches due goes on after whatever is ready now.
    int timeout_ms = purge_more ? 0 : clients.poll_timeout_ms(1000);
    if (controller.dirty()) {
      const auto wait = std::chrono::ceil<std::chrono::milliseconds>(pass_due - SteadyClock::now());
      timeout_ms = std::clamp(static_cast<int>(wait.count()), 0, timeout_ms);
    }
    int n = ::poll(fds.data(), fds.size(), timeout_ms);
    if (n < 0 && errno != EINTR) {
      log_error("poll: {}", std::strerror(errno));
      break;
    }
    if (fds[1].revents & POLLIN) {
      signalfd_siginfo info{};
      while (::read(signals.get(), &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGCHLD) {
          reap_children(controller);
        } else if (info.ssi_signo == SIGHUP) {
          // As slurmctld: SIGHUP reads the config again, like scontrol reconfigure.
          try {
            controller.reconfigure(fmt::format("SIGHUP from {}({}) pid {}",
                                               proc::user_name(info.ssi_uid), info.ssi_uid,
                                               info.ssi_pid));
          } catch (const Error&) {
            // Refused and logged; the running config stays.
          }
        } else if (info.ssi_signo == SIGUSR2) {
          // As slurmctld: the log file is opened again (after logrotate).
          reopen_log();
          log_info("SIGUSR2: log file reopened");
        } else if (info.ssi_signo == SIGTERM || info.ssi_signo == SIGINT) {
          log_info("signal {}: stopping; running jobs keep running", info.ssi_signo);
          stop = true;
        }
      }
    }
    if (forks_index < fds.size() && fds[forks_index].revents != 0) controller.read_stepd_exits();
    // Each client is read and answered as far as it goes without waiting;
    // what it has not sent yet is waited for by the next poll.
    clients.on_ready(fds, 2);
    if (fds[0].revents & POLLIN) clients.accept_all(listener.get());
    if (clients.take_activity()) idle_since = SteadyClock::now();
    auto now = SteadyClock::now();
    // The pass nothing asked for (begin times, deadlines, grace times, the
    // age factor) is spaced by what a pass costs: a second apart on a
    // shallow queue, up to 10 s on a deep one: with 100,000 pending, passes
    // of 0.1-0.2 s each second kept a fifth of a core busy while nothing
    // changed (Slurm's backfill runs every 30 s by default). Time limits do
    // not wait for it (stepd enforces them), nor does the end of a stepd
    // this stintd started (SIGCHLD asks for a pass); one it adopted after a
    // restart that vanishes is noticed by this pass.
    const auto periodic_gap = std::clamp<SteadyClock::duration>(
        last_pass_length * 20, std::chrono::seconds(1), std::chrono::seconds(10));
    bool periodic = now - last_pass >= periodic_gap;
    if ((controller.dirty() && now >= pass_due) || periodic) {
      // A failure here is a bug or a full disk; it must not take the daemon
      // (and with it every later request) down. The next pass tries again.
      try {
        controller.collect();
        controller.schedule();
        controller.poll_cluster_runs(false);
      } catch (const std::exception& e) {
        log_error("scheduling pass failed: {}", e.what());
      }
      last_pass = now;
      last_pass_end = SteadyClock::now();
      last_pass_length = last_pass_end - now;
      last_pass_cost = controller.last_decision_cost();
    }
    // After the replies and the pass, so no request waits for it: the WAL's
    // pages go into the database once there are as many as SQLite's own
    // checkpoint would wait for.
    controller.store().checkpoint_if_due(k_checkpoint_pages);
    // Between bursts the state directory holds its databases alone: each WAL
    // (up to journal_size_limit, kept at its largest otherwise) is emptied
    // once writes to it have stopped for a while.
    controller.empty_wals_when_quiet(k_wal_quiet);
    // slurmdbd purges at the start of each purge period; an hour apart (and
    // as stintd starts) is as often as the shortest unit asks for. A full
    // batch is followed by the next at once, between requests.
    if (purge_more || now >= next_purge) {
      try {
        purge_more = controller.purge_records();
      } catch (const std::exception& e) {
        log_error("purge failed: {}", e.what());
        purge_more = false;
      }
      if (!purge_more) next_purge = now + std::chrono::hours(1);
    }
    if (periodic) controller.rotate_stepd_log();
    if (!controller.idle()) idle_since = now;
    // A reconfigure may change StintIdleExit.
    const Seconds idle_exit = options.idle_exit.value_or(controller.config().daemon_idle_exit());
    if (idle_exit > 0 && now - idle_since >= std::chrono::seconds(idle_exit)) {
      log_info("idle for {} s: exiting", idle_exit);
      break;
    }
  }
  ::unlink(paths.socket().c_str());
  log_info("stintd {} stopped", ::getpid());
  return 0;
}

}  // namespace stint::daemon
