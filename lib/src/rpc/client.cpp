#include "rpc/client.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <fmt/core.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/tools.hpp>

#include "util/fs.hpp"

extern char** environ;

namespace stint::rpc {
namespace {

// The connection was reset before stintd read the whole request: a Unix
// socket closed with data unread (or never accepted) resets its peer, so the
// request was not handled and may be sent again.
struct NotDelivered : Error {
  using Error::Error;
};

[[noreturn]] void throw_io(const char* what, int err) {
  // SO_RCVTIMEO or SO_SNDTIMEO ran out (MessageTimeout): Slurm's words.
  if (err == EAGAIN || err == EWOULDBLOCK)
    throw Error(Errc::timed_out, std::string(errc_slurm_message(Errc::timed_out)));
  std::string message = fmt::format("{}: {}", what, std::strerror(err));
  if (err == ECONNRESET || err == EPIPE) throw NotDelivered(Errc::io, message);
  throw Error(Errc::io, message);
}

// MessageTimeout (slurm.conf; 10 s, Slurm's default): how long a tool waits
// for stintd to take a request and answer it, as Slurm's clients wait for
// slurmctld. A stintd that is stopped or stuck then costs a user that long,
// and an error, never a hang. Read from the slurm.conf stintd writes of the
// configuration it runs (a tool never parses stint.yaml for this).
int message_timeout_s(const Paths& paths) {
  constexpr int k_default = 10;
  std::string text;
  try {
    text = fs::read_file(paths.state_dir + "/slurm.conf");
  } catch (const Error&) {
    return k_default;
  }
  constexpr std::string_view k_key = "\nMessageTimeout=";
  const auto at = text.find(k_key);
  if (at == std::string::npos) return k_default;
  int value = 0;
  const char* begin = text.data() + at + k_key.size();
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || value < 1 || value > 65533) return k_default;
  return value;
}

void set_message_timeout(int fd, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("Unable to send to stintd", errno);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// Reads exactly `size` bytes; returns the number read before end of input.
std::size_t read_all(int fd, char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("Unable to read from stintd", errno);
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) ::close(m_fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return m_fd; }

 private:
  int m_fd;
};

// Connects to the socket, its send and receive bounded by `timeout_s`
// (connect() too: it waits while stintd's backlog is full); -1 with errno set
// when nobody listens.
int try_connect(const std::string& socket_path, int timeout_s) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path)
    throw Error(Errc::io, fmt::format("socket path too long: {}", socket_path));
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw Error(Errc::io, fmt::format("socket: {}", std::strerror(errno)));
  set_message_timeout(fd, timeout_s);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    int saved = errno;
    ::close(fd);
    if (saved == EAGAIN || saved == EINPROGRESS) throw_io("connect", EAGAIN);
    errno = saved;
    return -1;
  }
  return fd;
}

// The last line stintd wrote to its log, to explain why it did not start.
std::string last_log_error(const Paths& paths) {
  std::string last;
  try {
    std::string text = fs::read_file(paths.log_dir() + "/stintd.log");
    std::size_t end = text.size();
    while (end > 0) {
      std::size_t start = text.rfind('\n', end - 1);
      start = start == std::string::npos ? 0 : start + 1;
      std::string line = text.substr(start, end - start);
      if (auto pos = line.find("stintd: error: "); pos != std::string::npos)
        return line.substr(pos + 15);
      if (start == 0) break;
      end = start - 1;
    }
  } catch (const Error&) {
  }
  return last;
}

pid_t start_daemon(const Paths& paths) {
  ensure_state_dir(paths);
  std::string exe = find_helper("stintd");
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own session: stintd must outlive the tool that started it and must not
  // receive the terminal's signals (posix_spawn, not process::run, which
  // waits for its program's end; and every tool's cold start pays this).
  // A stepd starts it too, with its supervisor's signals blocked and its
  // descriptors open: stintd starts with neither.
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::string log = paths.log_dir() + "/stintd.log";
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<std::string> args = {exe, "--detached", "--state-dir", paths.state_dir};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, exe.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0)
    throw Error(Errc::daemon_unavailable,
                fmt::format("Unable to start stintd ({}): {}", exe, std::strerror(rc)));
  return pid;
}

// Whether a stintd holds the state directory's lock: one that is stopping
// holds it after its socket is gone, until it has closed everything.
bool lock_held(const Paths& paths) {
  int fd = ::open(paths.lock().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0;
  ::close(fd);
  return held;
}

// Whether a system stintd may answer soon. Its lock is root's alone (a user
// holding it shared would keep stintd from starting), so a user goes by the
// socket: one that stopped removed it; one killed left it, and a stintd
// restarting replaces it in one rename.
bool system_stintd_may_come(const Paths& paths) {
  if (::access(paths.lock().c_str(), R_OK) == 0) return lock_held(paths);
  struct stat st {};
  return ::lstat(paths.socket().c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

// A state directory that belongs to another user (a system one, root's) is
// served by that user's stintd: a tool never starts one there for itself.
bool owned_by_someone_else(const std::string& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && st.st_uid != ::geteuid();
}

int connect_or_start(const Paths& paths, AutoStart autostart, int timeout_s) {
  int fd = try_connect(paths.socket(), timeout_s);
  if (fd >= 0) return fd;
  const int connect_errno = errno;
  if (autostart == AutoStart::no)
    throw Error(Errc::daemon_unavailable,
                fmt::format("Unable to contact stintd at {}: {}", paths.socket(),
                            std::strerror(connect_errno)));
  if (owned_by_someone_else(paths.state_dir)) {
    // A system stintd that does not answer yet is loading its jobs after a
    // restart: waited for, as Slurm's clients wait for a slurmctld coming
    // back (MessageTimeout, 10 s by default).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    auto pause = std::chrono::milliseconds(1);
    while (system_stintd_may_come(paths) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::milliseconds(100));
      fd = try_connect(paths.socket(), timeout_s);
      if (fd >= 0) return fd;
    }
    throw Error(Errc::daemon_unavailable,
                fmt::format("Unable to contact stintd at {}: {} (the system stintd is not "
                            "running; an administrator starts it: systemctl start stintd)",
                            paths.socket(), std::strerror(connect_errno)));
  }
  pid_t pid = start_daemon(paths);
  // stintd binds its socket once its state is loaded; wait for that, bounded.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  auto pause = std::chrono::milliseconds(1);
  bool exited = false;
  while (std::chrono::steady_clock::now() < deadline) {
    fd = try_connect(paths.socket(), timeout_s);
    if (fd >= 0) return fd;
    int status = 0;
    if (exited && !lock_held(paths)) {
      // The stintd that held the lock was stopping, not starting: start ours again.
      pid = start_daemon(paths);
      exited = false;
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
      // SIGKILLed while it started (by an operator, the OOM killer): started
      // again, as a stintd killed later would be by the next tool.
      if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        pid = start_daemon(paths);
        continue;
      }
      exited = true;
      // Exit 0 means another stintd won the race to the lock: keep waiting for it.
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string why = last_log_error(paths);
        throw Error(Errc::daemon_unavailable,
                    why.empty()
                        ? fmt::format("stintd did not start; see {}/stintd.log", paths.log_dir())
                        : why);
      }
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
  throw Error(Errc::daemon_unavailable,
              fmt::format("stintd did not start; see {}/stintd.log", paths.log_dir()));
}

// A submission's token: 128 random bits, so that the submission, sent again
// after its answer was lost, is made once (stintd keeps the token with the
// jobs it made, under the user's uid).
std::string new_submission_token() {
  std::array<unsigned char, 16> bytes{};
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(Errc::io, fmt::format("getrandom: {}", std::strerror(errno)));
    }
    got += static_cast<std::size_t>(n);
  }
  std::string token;
  token.reserve(2 * bytes.size());
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  return token;
}

bool is_submission(const nlohmann::json& request) {
  return request.is_object() && request.value("op", std::string()) == "submit" &&
         !request.value("test_only", false);
}

}  // namespace

void write_frame(int fd, const std::string& payload) {
  const std::string frame = encode_frame(payload);
  write_all(fd, frame.data(), frame.size());
}

std::optional<std::string> read_frame(int fd, std::size_t max) {
  unsigned char header[4];
  std::size_t got = read_all(fd, reinterpret_cast<char*>(header), 4);
  if (got == 0) return std::nullopt;
  if (got < 4) throw Error(Errc::protocol, "short frame header");
  std::size_t n = (std::size_t{header[0]} << 24) | (std::size_t{header[1]} << 16) |
                  (std::size_t{header[2]} << 8) | std::size_t{header[3]};
  if (n > max) throw Error(Errc::protocol, fmt::format("frame of {} bytes is too large", n));
  std::string payload(n, '\0');
  if (read_all(fd, payload.data(), n) != n) throw Error(Errc::protocol, "short frame");
  return payload;
}

nlohmann::json call(const Paths& paths, const nlohmann::json& request, AutoStart autostart) {
  // A stintd killed before it read the request (the connection is reset) did
  // not handle it: send it again, to the stintd the next connect finds or
  // starts. One that closes the connection after reading it may have handled
  // it. A submission carries a token, and stintd answers the same token with
  // the jobs it made for it: it is sent again then too, and its one job id
  // reported, never a failure for a job that runs. Anything else is reported
  // as it failed (sent again, a requeue or an update could act twice). A
  // request that timed out is not sent again: stintd drops a request whose
  // sender has gone, and one that answers in no MessageTimeout is stuck.
  const bool submission = is_submission(request);
  std::string text;
  if (submission && !request.contains("token")) {
    nlohmann::json with_token = request;
    with_token["token"] = new_submission_token();
    text = with_token.dump();
  } else {
    text = request.dump();
  }
  constexpr int k_attempts = 10;
  std::optional<std::string> reply_text;
  const int timeout_s = message_timeout_s(paths);
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) {
      // A stintd being killed may still accept for an instant: the next
      // attempt leaves it time to go.
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * attempt));
    }
    Fd fd(connect_or_start(paths, autostart, timeout_s));
    try {
      write_frame(fd.get(), text);
      reply_text = read_frame(fd.get());
      if (reply_text || !submission || attempt == k_attempts) break;
    } catch (const NotDelivered&) {
      if (attempt == k_attempts) throw;
    } catch (const Error& e) {
      if (!submission || e.code() == Errc::timed_out || attempt == k_attempts) throw;
    }
  }
  if (!reply_text) throw Error(Errc::daemon_unavailable, "stintd closed the connection");
  nlohmann::json reply;
  try {
    reply = nlohmann::json::parse(*reply_text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(Errc::protocol, fmt::format("malformed reply from stintd: {}", e.what()));
  }
  if (!reply.is_object()) throw Error(Errc::protocol, "malformed reply from stintd");
  if (!reply.value("ok", false)) {
    throw Error(errc_from_name(reply.value("error", std::string("internal"))),
                reply.value("message", std::string("request failed")));
  }
  return reply;
}

bool daemon_holds_lock(const Paths& paths) { return lock_held(paths); }

bool daemon_running(const Paths& paths) {
  try {
    call(paths, {{"op", "ping"}}, AutoStart::no);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace stint::rpc
