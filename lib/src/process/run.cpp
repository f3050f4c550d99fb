// process::run on Boost.Process v1 (Debian's 1.74) and Boost.Asio: Boost
// forks and execs and reports a failed exec through its own pipe; the child's
// setup between the two (group, signals, streams, user, folder) is ChildSetup,
// which reports its own failure through a pipe of run()'s (1.74's set_error
// writes its report from the child in pieces that its reader may take apart);
// the pipes, the deadline and the child's exit are waited on in one
// io_context per run.
//
// Nothing here touches SIGCHLD: stintd and stepd read it through a signalfd
// and reap with waitpid(-1), so a run learns of its child's exit from a pidfd
// and reaps it by pid (bp::child::wait) once it is done with it: until then
// the pid, and the process group named after it, cannot be another's. Left
// out of Boost for that reason: bp::on_exit and async_system (an asio
// signal_set on SIGCHLD), and 1.74's child::wait_for (sigtimedwait on
// SIGCHLD, which can miss the exit and wait out its whole timeout).

#include "process/run.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/error.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <fcntl.h>
#include <fmt/core.h>
#include <grp.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "util/path_search.hpp"

namespace stint::process {
namespace {

namespace asio = boost::asio;
namespace bp = boost::process;
using Descriptor = asio::posix::stream_descriptor;

// A failed chdir is reported as its errno so tagged, told from the others.
constexpr int k_chdir_failed = 1 << 16;
// What is read of a stream after the program's end (End::exit, a timeout),
// while something it left behind may still be writing.
constexpr std::size_t k_drain_limit = std::size_t{1} << 20;

class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : m_fd(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return m_fd; }
  int release() { return std::exchange(m_fd, -1); }
  void reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

 private:
  int m_fd;
};

// Whether `pid` has exited, leaving it unreaped (WNOWAIT); `options` 0 waits
// until it has.
bool has_exited(pid_t pid, int options) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | options) != 0) {
    if (errno != EINTR) return true;  // not a child of ours any more: nothing to wait for
  }
  return info.si_pid != 0;
}

[[noreturn]] void throw_errno(const std::string& what) {
  throw Error(Errc::io, fmt::format("{}: {}", what, std::strerror(errno)));
}

// `fd`, renumbered above 2 if it is not: the child's dup2s onto 0, 1 and 2
// then cannot overwrite one another's source.
UniqueFd above_stdio(int fd) {
  if (fd > STDERR_FILENO) return UniqueFd(fd);
  UniqueFd low(fd);
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) throw_errno("fcntl");
  return UniqueFd(moved);
}

// Not bp::async_pipe: its pipe(2) leaves both ends inheritable until a later
// fcntl, and a program another thread starts meanwhile would hold them open.
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe");
  UniqueFd read_end(fds[0]);
  UniqueFd write_end(fds[1]);
  return {above_stdio(read_end.release()), above_stdio(write_end.release())};
}

std::string path_of(const Spec& spec) {
  if (spec.environment) {
    for (const std::string& e : *spec.environment) {
      if (e.rfind("PATH=", 0) == 0) return e.substr(5);
    }
  }
  const char* own = std::getenv("PATH");
  return own != nullptr ? own : "/usr/local/bin:/usr/bin:/bin";
}

std::string program_of(const Spec& spec) {
  const std::string& name = spec.argv.front();
  if (name.find('/') != std::string::npos) return name;
  std::string found = proc::find_in_path(name, path_of(spec));
  if (found.empty()) throw Error(Errc::io, fmt::format("{}: command not found", name));
  return found;
}

// The child's side of stdin, stdout and stderr: -1 leaves this process's.
struct ChildStreams {
  int in = -1;
  int out = -1;
  int err = -1;
};

// What the child does between Boost's fork and its exec: async-signal-safe
// calls only, on what run() prepared. A failure is written to `report` as an
// errno, and the child exits; run() throws it.
struct ChildSetup : bp::extend::handler {
  const Spec* spec = nullptr;
  ChildStreams streams;
  char** environment = nullptr;   // nullptr: this process's
  int report = -1;                // closed on exec
  pid_t* failed_child = nullptr;  // set when Boost reports a failed exec: to reap

  template <class Executor>
  void on_setup(Executor& exec) const {
    if (environment != nullptr) exec.env = environment;
  }

  template <class Executor>
  void on_error(Executor& exec, const std::error_code&) const {
    if (exec.pid > 0) *failed_child = exec.pid;
  }

  template <class Executor>
  void on_exec_setup(Executor&) const {
    if (spec->new_process_group) ::setpgid(0, 0);
    // stintd and stepd block the signals their signalfd reads, and ignore
    // SIGPIPE: a program must not start with either.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction by_default {};
    by_default.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &by_default, nullptr);
    if ((streams.in >= 0 && ::dup2(streams.in, STDIN_FILENO) < 0) ||
        (streams.out >= 0 && ::dup2(streams.out, STDOUT_FILENO) < 0) ||
        (streams.err >= 0 && ::dup2(streams.err, STDERR_FILENO) < 0))
      fail(errno);
    if (const auto& user = spec->user) {
      if (::setgroups(user->groups.size(), user->groups.data()) != 0 || ::setgid(user->gid) != 0 ||
          ::setuid(user->uid) != 0)
        fail(errno);
    }
    // As the user: a folder it may not enter is refused.
    if (!spec->working_dir.empty() && ::chdir(spec->working_dir.c_str()) != 0)
      fail(errno | k_chdir_failed);
    // Only 0, 1 and 2 go to the program, not a descriptor this process left
    // inheritable (a job's PMI socket). Boost's report pipe closes on exec too.
    ::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);
  }

  [[noreturn]] void fail(int code) const {
    // One write of 4 bytes: whole or not at all.
    [[maybe_unused]] const ssize_t written = ::write(report, &code, sizeof code);
    ::_exit(127);
  }
};

// While stdin is written: a program that exits without reading it all makes
// the write fail with EPIPE instead of killing this process with SIGPIPE.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&m_pipe);
    sigaddset(&m_pipe, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    m_was_pending = sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &m_pipe, &m_before);
  }
  ~SigpipeBlocked() {
    // The write's own SIGPIPE, pending now, is taken before the mask returns.
    if (!m_was_pending) {
      const timespec none{};
      while (::sigtimedwait(&m_pipe, nullptr, &none) == SIGPIPE) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &m_before, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t m_pipe{};
  sigset_t m_before{};
  bool m_was_pending = false;
};

// One captured stream: read as it comes, kept up to the limit.
struct Capture {
  explicit Capture(asio::io_context& io) : pipe(io) {}
  Descriptor pipe;
  std::string* text = nullptr;
  std::size_t limit = 0;
  std::array<char, 16384> buffer{};

  void keep(std::size_t n) {
    if (text->size() < limit) text->append(buffer.data(), std::min(n, limit - text->size()));
  }
  // What is there now, without waiting (bounded: a leftover may still write).
  void drain() {
    if (!pipe.is_open()) return;
    boost::system::error_code ec;
    pipe.cancel(ec);
    pipe.non_blocking(true, ec);
    for (std::size_t taken = 0; !ec && taken < k_drain_limit;) {
      const std::size_t n = pipe.read_some(asio::buffer(buffer), ec);
      keep(n);
      taken += n;
    }
    pipe.close(ec);
  }
};

class Running {
 public:
  Running(const Spec& spec, Result& result)
      : m_spec(spec),
        m_result(result),
        m_input(m_io),
        m_out(m_io),
        m_err(m_io),
        m_exit(m_io),
        m_deadline(m_io),
        m_exit_poll(m_io) {}

  /// Starts the program; throws when it cannot.
  void start();
  /// Feeds, reads and waits for it, to its end or its deadline.
  void wait();
  /// After a failure of wait(): kills it and what it started, and reaps it.
  void abandon();

 private:
  void read(Capture& c);
  void write_input();
  void watch_exit();
  void poll_exit();
  void over_when_done();
  bool streams_done() const;
  void kill_all();
  void reap();

  const Spec& m_spec;
  Result& m_result;
  asio::io_context m_io;
  Descriptor m_input;
  Capture m_out;
  Capture m_err;
  Descriptor m_exit;
  asio::steady_timer m_deadline;
  asio::steady_timer m_exit_poll;
  bp::child m_child;
  bool m_captures = false;
  bool m_exited = false;  // a zombie, not reaped yet
  bool m_reaped = false;
  bool m_watching_exit = false;
};

void Running::start() {
  const std::string program = program_of(m_spec);
  std::vector<std::string> environment = m_spec.environment.value_or(std::vector<std::string>());
  std::vector<char*> envp;
  if (m_spec.environment) {
    for (std::string& e : environment) envp.push_back(e.data());
    envp.push_back(nullptr);
  }

  // The child's ends of its streams, closed here once it has them.
  std::vector<UniqueFd> theirs;
  ChildStreams streams;
  UniqueFd null_fd;
  auto dev_null = [&] {
    if (null_fd.get() < 0) {
      const int fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
      if (fd < 0) throw_errno("/dev/null");
      null_fd = above_stdio(fd);
    }
    return null_fd.get();
  };
  if (!m_spec.inherit_stdin) {
    if (m_spec.input.empty()) {
      streams.in = dev_null();
    } else {
      Pipe p = make_pipe();
      streams.in = p.read_end.get();
      theirs.push_back(std::move(p.read_end));
      m_input.assign(p.write_end.release());
    }
  }
  auto output = [&](Output to, Capture& capture, std::string& text) {
    switch (to) {
      case Output::captured: {
        Pipe p = make_pipe();
        const int fd = p.write_end.get();
        theirs.push_back(std::move(p.write_end));
        capture.pipe.assign(p.read_end.release());
        capture.text = &text;
        capture.limit = m_spec.output_limit;
        m_captures = true;
        return fd;
      }
      case Output::discarded:
        return dev_null();
      case Output::with_stdout:
        return streams.out >= 0 ? streams.out : STDOUT_FILENO;
      case Output::inherited:
        break;
    }
    return -1;
  };
  streams.out =
      output(m_spec.stdout_to == Output::with_stdout ? Output::inherited : m_spec.stdout_to, m_out,
             m_result.out);
  streams.err = output(m_spec.stderr_to, m_err, m_result.err);

  Pipe report = make_pipe();
  ChildSetup setup;
  setup.spec = &m_spec;
  setup.streams = streams;
  setup.environment = m_spec.environment ? envp.data() : nullptr;
  setup.report = report.write_end.get();
  pid_t failed_child = -1;
  setup.failed_child = &failed_child;
  // With an error_code, Boost reports a failed exec in it rather than
  // throwing process_error, once on_error has named the child to reap.
  std::error_code ec;
  m_child =
      bp::child(bp::exe = program,
                bp::args = std::vector<std::string>(m_spec.argv.begin() + 1, m_spec.argv.end()),
                setup, bp::error(ec));
  theirs.clear();
  null_fd.reset();
  report.write_end.reset();
  int code = 0;
  if (ec) {
    // Its exec failed: Boost has not made it a child to wait for.
    if (failed_child > 0) {
      while (::waitpid(failed_child, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    code = ec.value();
  } else {
    // Boost returns once the child has exec'd or exited: the report is there
    // or its pipe is closed.
    ssize_t n = 0;
    while ((n = ::read(report.read_end.get(), &code, sizeof code)) < 0 && errno == EINTR) {
    }
    if (n != static_cast<ssize_t>(sizeof code)) return;
    reap();
  }
  const std::string& name = m_spec.argv.front();
  if (code & k_chdir_failed)
    throw Error(Errc::io, fmt::format("{}: {}: {}", name, m_spec.working_dir,
                                      std::strerror(code & ~k_chdir_failed)));
  throw Error(Errc::io, fmt::format("{}: {}", name, std::strerror(code)));
}

void Running::read(Capture& c) {
  c.pipe.async_read_some(asio::buffer(c.buffer),
                         [this, &c](const boost::system::error_code& ec, std::size_t n) {
                           c.keep(n);
                           if (ec == asio::error::operation_aborted) return;
                           if (ec) {
                             // Its end, or a failure, which ends it too.
                             boost::system::error_code ignored;
                             c.pipe.close(ignored);
                             over_when_done();
                             return;
                           }
                           read(c);
                         });
}

void Running::write_input() {
  asio::async_write(m_input, asio::buffer(m_spec.input),
                    [this](const boost::system::error_code& ec, std::size_t) {
                      if (ec == asio::error::operation_aborted) return;
                      // All of it, or EPIPE: it has stopped reading.
                      boost::system::error_code ignored;
                      m_input.close(ignored);
                      over_when_done();
                    });
}

void Running::watch_exit() {
  m_watching_exit = true;
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, m_child.id(), 0));
  if (pidfd < 0) {
    poll_exit();
    return;
  }
  m_exit.assign(pidfd);
  m_exit.async_wait(Descriptor::wait_read, [this](const boost::system::error_code& ec) {
    if (ec) return;
    m_exited = true;
    over_when_done();
  });
}

// Without a pidfd (Linux before 5.3), its exit is looked for every 10 ms.
void Running::poll_exit() {
  m_exit_poll.expires_after(std::chrono::milliseconds(10));
  m_exit_poll.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    if (!has_exited(m_child.id(), WNOHANG)) {
      poll_exit();
      return;
    }
    m_exited = true;
    over_when_done();
  });
}

bool Running::streams_done() const {
  if (m_out.pipe.is_open() || m_err.pipe.is_open()) return false;
  // With nothing captured, taking its input is what it has to do.
  return m_captures || !m_input.is_open();
}

void Running::over_when_done() {
  if (m_watching_exit && !m_exited) return;
  if (m_spec.end == End::exit || streams_done()) m_io.stop();
}

void Running::kill_all() {
  const pid_t pid = m_child.id();
  if (m_spec.new_process_group) ::kill(-pid, SIGKILL);
  // Also when it has left its group (setsid).
  ::kill(pid, SIGKILL);
}

void Running::reap() {
  std::error_code failed;
  m_child.wait(failed);
  m_reaped = true;
}

void Running::wait() {
  std::optional<SigpipeBlocked> sigpipe_blocked;
  if (m_input.is_open()) {
    sigpipe_blocked.emplace();
    write_input();
  }
  if (m_out.pipe.is_open()) read(m_out);
  if (m_err.pipe.is_open()) read(m_err);
  if (m_spec.timeout.count() > 0 || m_spec.end == End::exit) watch_exit();
  if (m_spec.timeout.count() > 0) {
    m_deadline.expires_after(m_spec.timeout);
    m_deadline.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;
      m_result.timed_out = true;
      kill_all();
      m_io.stop();
    });
  }
  if (!streams_done() || m_watching_exit) m_io.run();
  // Its input ends here, whether it took it all or not: one waiting for more
  // would never exit.
  boost::system::error_code ignored;
  m_input.close(ignored);
  if (!m_exited) has_exited(m_child.id(), 0);
  if (m_spec.new_process_group && m_spec.kill_group_at_end) ::kill(-m_child.id(), SIGKILL);
  // What it wrote last, when its end was not the end of its output.
  m_out.drain();
  m_err.drain();
  reap();

  const int status = m_child.native_exit_code();
  if (m_result.timed_out) {
    m_result.term_signal = SIGKILL;
  } else if (WIFSIGNALED(status)) {
    m_result.term_signal = WTERMSIG(status);
  }
  m_result.exit_code = m_result.term_signal != 0 ? 128 + m_result.term_signal : WEXITSTATUS(status);
}

void Running::abandon() {
  if (!m_child.valid() || m_reaped) return;
  kill_all();
  reap();
}

}  // namespace

Result run(const Spec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty())
    throw Error(Errc::io, "process::run: no program given");
  Result result;
  Running running(spec, result);
  running.start();
  try {
    running.wait();
  } catch (...) {
    // Not left running, nor unreaped, by a failure here.
    running.abandon();
    throw;
  }
  return result;
}

}  // namespace stint::process
