#include "stepd/spawn.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <fmt/core.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/stepd.hpp"
#include "util/node_view.hpp"
#include "util/proc.hpp"

namespace stint::stepd::detail {
namespace {

// Who the task runs as. Only a stepd running as root can switch; a personal
// stintd runs jobs as its own user and the launch's uid/gid are then moot.
struct Credentials {
  bool change = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  ///< supplementary groups of the user
};

Credentials credentials_for(const TaskLaunch& l) {
  Credentials c;
  if (::geteuid() != 0) return c;
  if (l.uid == ::geteuid() && l.gid == ::getegid()) return c;
  c.change = true;
  c.uid = l.uid;
  c.gid = l.gid;
  // Like initgroups(3), but resolved here, before fork, where allocating is fine.
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(c.uid, &pw, buf.data(), buf.size(), &found) == 0 && found)
    c.groups = proc::login_groups(pw.pw_name, c.gid);
  else
    c.groups = {c.gid};
  return c;
}

// Takes on the user's effective ids while opening their files, so that the
// files belong to them and permissions are checked as for them (as slurmstepd
// does with its temporary privilege drop). Restores root's on destruction.
class EffectiveUser {
 public:
  explicit EffectiveUser(const Credentials& c) {
    if (!c.change) return;
    int n = ::getgroups(0, nullptr);
    m_groups.resize(static_cast<std::size_t>(std::max(n, 0)));
    if (n > 0) ::getgroups(n, m_groups.data());
    m_gid = ::getegid();
    m_active = true;
    if (::setgroups(c.groups.size(), c.groups.data()) != 0 || ::setegid(c.gid) != 0 ||
        ::seteuid(c.uid) != 0) {
      int saved = errno;
      restore();
      throw Error(Errc::io, fmt::format("Unable to act as uid {} gid {}: {}", c.uid, c.gid,
                                        std::strerror(saved)));
    }
  }
  ~EffectiveUser() { restore(); }
  EffectiveUser(const EffectiveUser&) = delete;
  EffectiveUser& operator=(const EffectiveUser&) = delete;

 private:
  void restore() noexcept {
    if (!m_active) return;
    m_active = false;
    // Order matters: only with euid 0 again may the gid and groups be restored.
    (void)!::seteuid(0);
    (void)!::setegid(m_gid);
    (void)!::setgroups(m_groups.size(), m_groups.data());
  }

  bool m_active = false;
  gid_t m_gid = 0;
  std::vector<gid_t> m_groups;
};

// Moves a descriptor above 0..2 so that dup2 onto the standard descriptors in
// the child can never clobber another source (stepd may have been started
// with some of them closed).
Fd above_stdio(int fd) {
  if (fd >= 3) return Fd(fd);
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int saved = errno;
  ::close(fd);
  if (moved < 0) throw Error(Errc::io, fmt::format("fcntl: {}", std::strerror(saved)));
  return Fd(moved);
}

std::string resolve(const std::string& path, const std::string& work_dir) {
  if (path.empty()) return "/dev/null";
  if (path.front() == '/' || work_dir.empty()) return path;
  return work_dir + "/" + path;
}

// Non-blocking for the open alone: a FIFO with nobody reading it would keep
// stepd in open(), and with it the job's cancel and time limit; it fails at
// once instead (ENXIO), as a launch failure the user sees. Blocking again
// afterwards: the task writes as to any file.
int open_without_waiting(const std::string& path, int flags, mode_t mode) {
  const int fd = ::open(path.c_str(), flags | O_NONBLOCK, mode);
  if (fd < 0) return fd;
  const int now = ::fcntl(fd, F_GETFL);
  if (now >= 0) ::fcntl(fd, F_SETFL, now & ~O_NONBLOCK);
  return fd;
}

Fd open_output(const std::string& path, bool append, const char* which) {
  int flags = O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  // As slurmstepd: 0666 less the user's umask (in force around the opens).
  int fd = open_without_waiting(path, flags, 0666);
  if (fd < 0) {
    const int err = errno;
    if (err == ENXIO)
      throw Error(Errc::io, fmt::format("Could not open {} file {}: nothing reads that FIFO "
                                        "(open it for reading first, or write to a regular file)",
                                        which, path));
    throw Error(Errc::io,
                fmt::format("Could not open {} file {}: {}", which, path, std::strerror(err)));
  }
  return above_stdio(fd);
}

// Everything the child needs, built before it starts: the child only makes
// system calls on these (no allocation, no locks).
struct ChildPlan {
  std::vector<std::string> env_strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
  const char* path = nullptr;
  const char* work_dir = nullptr;  ///< null: stay where stepd is
  std::string chdir_warning;       ///< "<prefix>couldn't chdir to `<dir>': "
  Credentials creds;
  bool bind = false;
  cpu_set_t cpus{};
  int stdin_fd = -1;
  int out_fd = -1;
  int err_fd = -1;
  int report_fd = -1;
  int cgroup_fd = -1;  ///< the task's cgroup.procs, or -1
  pid_t stepd_pid = 0;
  /// Where the child writes its own pid, in the SLURM_TASK_PID entry of the
  /// environment (room for any pid, made before it starts).
  char* task_pid = nullptr;
  RlimitPlan limits;  ///< the submitting shell's limits (stepd/rlimits.hpp)
  int umask = -1;     ///< the submitter's (SLURM_UMASK), or -1: stepd's
  node_view::Plan view;
};

constexpr std::string_view k_task_pid_prefix = "SLURM_TASK_PID=";
constexpr std::size_t k_pid_digits = 20;

// Writes `v` in decimal at `out` and ends the string there.
void write_decimal(char* out, unsigned long v) {
  char digits[k_pid_digits];
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < k_pid_digits);
  while (n > 0) *out++ = digits[--n];
  *out = '\0';
}

void write_str(int fd, const char* s) { (void)!::write(fd, s, std::strlen(s)); }

[[noreturn]] void child_fail(const ChildPlan& p, LaunchStage stage, int err) {
  LaunchFailure f{stage, err};
  // Smaller than PIPE_BUF: written whole or not at all.
  (void)!::write(p.report_fd, &f, sizeof f);
  // slurmstepd exits with errno when execve fails; keep that.
  ::_exit(stage == LaunchStage::exec ? err : 1);
}

void mark_fds_cloexec(int report_fd) {
  if (::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  // Kernels before 5.11 lack the flag: close all but the report pipe instead.
  if (report_fd > 3) ::close_range(3, static_cast<unsigned>(report_fd) - 1, 0);
  ::close_range(static_cast<unsigned>(report_fd) + 1, ~0U, 0);
}

[[noreturn]] void child_main(const ChildPlan& p) noexcept {
  // Its own process group, so that killpg reaches the task and all it starts.
  ::setpgid(0, 0);
  // slurmstepd gives each task its own pid as SLURM_TASK_PID.
  if (p.task_pid) write_decimal(p.task_pid, static_cast<unsigned long>(::getpid()));
  // Into the task's cgroup while still stepd's user (who may move processes
  // there), before anything of the task runs.
  if (p.cgroup_fd >= 0) {
    char buf[16];
    char* end = buf + sizeof buf;
    char* s = end;
    for (unsigned long v = static_cast<unsigned long>(::getpid()); s == end || v != 0; v /= 10)
      *--s = static_cast<char>('0' + v % 10);
    auto len = static_cast<std::size_t>(end - s);
    ssize_t n = ::write(p.cgroup_fd, s, len);
    if (n != static_cast<ssize_t>(len)) child_fail(p, LaunchStage::cgroup, n < 0 ? errno : EIO);
  }
  // The task starts as from a shell: default dispositions, nothing blocked
  // (stepd blocks the signals it reads, and its parent may have ignored some).
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) {
    if (s != SIGKILL && s != SIGSTOP) ::sigaction(s, &dfl, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);

  if (::dup2(p.stdin_fd, 0) < 0 || ::dup2(p.out_fd, 1) < 0 || ::dup2(p.err_fd, 2) < 0)
    child_fail(p, LaunchStage::stdio, errno);

  // The node's name and hosts, while still stepd's user: root needs no user
  // namespace for them. A refusal leaves the machine's (node_view.hpp).
  if (p.view.needed()) (void)node_view::enter(p.view);

  // The system calls themselves, not libc's wrappers: in a process with
  // threads those would ask every thread of the memory the child shares with
  // stepd (spawn_child) to switch too; the calls change this process alone.
  if (p.creds.change) {
    if (::syscall(SYS_setgroups, p.creds.groups.size(), p.creds.groups.data()) != 0 ||
        ::syscall(SYS_setgid, p.creds.gid) != 0 || ::syscall(SYS_setuid, p.creds.uid) != 0)
      child_fail(p, LaunchStage::credentials, errno);
  }
  // A stepd killed (SIGKILL, the OOM killer) takes the task with it: its
  // attempt ends NODE_FAIL and may be requeued, and must not go on running
  // beside the next one. Set after the credentials, which would clear it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != p.stepd_pid) ::_exit(1);

  // Slurm's choice, kept: a missing working directory is an error line in the
  // job's output and the task runs in /tmp; only a missing /tmp fails it.
  if (p.work_dir && ::chdir(p.work_dir) != 0) {
    int err = errno;
    write_str(2, p.chdir_warning.c_str());
    // Not strerror, which may allocate (its translation).
    const char* reason = ::strerrordesc_np(err);
    write_str(2, reason ? reason : "Unknown error");
    write_str(2, ": going to /tmp instead\n");
    if (::chdir("/tmp") != 0) child_fail(p, LaunchStage::chdir, errno);
  }

  // Binding is placement, not correctness: a failure (the cpuset changed under
  // us) leaves the task unbound rather than failing it.
  if (p.bind) ::sched_setaffinity(0, sizeof p.cpus, &p.cpus);

  // The task's own: the clone shares no file-system context with stepd.
  if (p.umask >= 0) ::umask(static_cast<mode_t>(p.umask));
  mark_fds_cloexec(p.report_fd);
  // Last, as slurmstepd does: nothing of stepd's own runs under them.
  apply_rlimits(p.limits);
  ::execve(p.path, p.argv.data(), p.envp.data());
  child_fail(p, LaunchStage::exec, errno);
}

// The task's process, as posix_spawn makes one: a child that shares stepd's
// memory, on a stack of its own, while stepd waits until it has exec'd or
// exited (CLONE_VM | CLONE_VFORK). A fork copied stepd's page tables and then
// took a page fault for each page either side touched, some 40 per job, at
// several microseconds each on a virtual machine (a job's start is the hot
// path that keeps its own spawn: docs/architecture.md, "Running other
// programs"). child_main allocates
// nothing and takes no lock, so sharing the memory is safe. Under
// AddressSanitizer, a fork: its shadow of the borrowed stack would outlive it.
pid_t spawn_child(ChildPlan& p) {
#if defined(__SANITIZE_ADDRESS__)
  pid_t pid = ::fork();
  if (pid == 0) child_main(p);
  return pid;
#else
  auto child_entry = [](void* plan) -> int { child_main(*static_cast<const ChildPlan*>(plan)); };
  constexpr std::size_t k_stack_bytes = std::size_t{256} * 1024;  // touched pages only
  void* stack = ::mmap(nullptr, k_stack_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return -1;
  pid_t pid = ::clone(child_entry, static_cast<char*>(stack) + k_stack_bytes,
                      CLONE_VM | CLONE_VFORK | SIGCHLD, &p);
  const int err = errno;
  ::munmap(stack, k_stack_bytes);
  errno = err;
  return pid;
#endif
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

const std::string* env_value(const TaskLaunch& l, std::string_view name) {
  for (const auto& [k, v] : l.env) {
    if (k == name) return &v;
  }
  return nullptr;
}

// The umask of the shell the job was submitted from (sbatch passes it as
// SLURM_UMASK, as Slurm's does): the job's files, output included, are
// created with it; -1 when none was passed.
int submit_umask(const TaskLaunch& l) {
  const std::string* text = env_value(l, "SLURM_UMASK");
  if (!text || text->empty() || text->size() > 4) return -1;
  unsigned mask = 0;
  for (char ch : *text) {
    if (ch < '0' || ch > '7') return -1;
    mask = mask * 8 + static_cast<unsigned>(ch - '0');
  }
  return static_cast<int>(mask & 0777U);
}

// The submitter's umask for the output opens only: stepd's own umask stays
// as it was, since the epilog and whatever else stepd starts as root must not
// create files with a user's 000.
class SubmitUmask {
 public:
  explicit SubmitUmask(const TaskLaunch& l) {
    if (const int mask = submit_umask(l); mask >= 0)
      m_saved = static_cast<int>(::umask(static_cast<mode_t>(mask)));
  }
  ~SubmitUmask() {
    if (m_saved >= 0) ::umask(static_cast<mode_t>(m_saved));
  }
  SubmitUmask(const SubmitUmask&) = delete;
  SubmitUmask& operator=(const SubmitUmask&) = delete;

 private:
  int m_saved = -1;
};

// HOME, USER and LOGNAME of the job's user where the job's environment lacks
// them (--export=NONE, or a submitter that had none) and stepd becomes that
// user: what a login gives. A personal stepd runs the environment as given.
void add_login_variables(const TaskLaunch& l, const Credentials& creds,
                         std::vector<std::string>& env_strings) {
  if (!creds.change) return;
  const bool need = !env_value(l, "HOME") || !env_value(l, "USER") || !env_value(l, "LOGNAME");
  if (!need) return;
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(static_cast<uid_t>(l.uid), &pw, buf.data(), buf.size(), &found) != 0 || !found)
    return;
  if (!env_value(l, "HOME")) env_strings.push_back(std::string("HOME=") + pw.pw_dir);
  if (!env_value(l, "USER")) env_strings.push_back(std::string("USER=") + pw.pw_name);
  if (!env_value(l, "LOGNAME")) env_strings.push_back(std::string("LOGNAME=") + pw.pw_name);
}

}  // namespace

void Fd::reset(int fd) {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = fd;
}

OutputFiles open_output_files(const TaskLaunch& l) {
  SubmitUmask umask_for_opens(l);
  Credentials creds = credentials_for(l);
  EffectiveUser as_user(creds);
  OutputFiles files;
  std::string out = resolve(l.stdout_path, l.work_dir);
  std::string err = l.stderr_path.empty() ? out : resolve(l.stderr_path, l.work_dir);
  files.out = open_output(out, l.open_append, "stdout");
  if (err != out) files.err = open_output(err, l.open_append, "stderr");
  if (!l.stdin_path.empty()) {
    const std::string in = resolve(l.stdin_path, l.work_dir);
    // A FIFO with no writer opens at once for reading (open_without_waiting).
    const int fd = open_without_waiting(in, O_RDONLY | O_NOCTTY | O_CLOEXEC, 0);
    if (fd < 0) {
      throw Error(Errc::io,
                  fmt::format("Could not open stdin file {}: {}", in, std::strerror(errno)));
    }
    files.in = above_stdio(fd);
  }
  return files;
}

std::vector<int> fold_cpus(const std::vector<std::uint32_t>& cpu_ids) {
  std::vector<int> real;
  if (cpu_ids.empty()) return real;
  std::vector<int> allowed = allowed_cpus();
  if (allowed.empty()) return real;
  for (auto id : cpu_ids) real.push_back(allowed[id % allowed.size()]);
  std::sort(real.begin(), real.end());
  real.erase(std::unique(real.begin(), real.end()), real.end());
  return real;
}

Spawned spawn_task(const TaskLaunch& l, const OutputFiles& files, int cgroup_procs_fd,
                   const RlimitPlan& limits) {
  if (l.argv.empty()) throw Error(Errc::internal, "no program to run");
  ChildPlan p;
  p.limits = limits;
  p.umask = submit_umask(l);
  for (const auto& [k, v] : l.env) {
    // Applied by open_output_files and stepd; slurmstepd takes them out of
    // the job's environment. SLURM_TASK_PID is the task's own, below (one
    // exported at submit is not).
    if (k != "SLURM_UMASK" && k != "SLURM_TASK_PID" && k.rfind("SLURM_RLIMIT_", 0) != 0) {
      p.env_strings.push_back(k + "=" + v);
    }
  }
  p.env_strings.push_back(std::string(k_task_pid_prefix) + std::string(k_pid_digits, '0'));
  const std::size_t task_pid_entry = p.env_strings.size() - 1;
  // Before envp takes pointers into env_strings.
  p.creds = credentials_for(l);
  if (l.node_view) {
    p.view = node_view::plan(l.node_name, l.hosts_file);
    p.view.user_ns_allowed = !p.creds.change;
  }
  add_login_variables(l, p.creds, p.env_strings);
  std::vector<std::string> args = l.argv;
  for (auto& a : args) p.argv.push_back(a.data());
  p.argv.push_back(nullptr);
  for (auto& e : p.env_strings) p.envp.push_back(e.data());
  p.envp.push_back(nullptr);
  p.task_pid = p.env_strings[task_pid_entry].data() + k_task_pid_prefix.size();
  p.path = args.front().c_str();
  if (!l.work_dir.empty()) p.work_dir = l.work_dir.c_str();
  p.chdir_warning = fmt::format("{}couldn't chdir to `{}': ", output_error_prefix(l), l.work_dir);
  if (std::vector<int> cpus = fold_cpus(l.cpu_ids); !cpus.empty()) {
    p.bind = true;
    CPU_ZERO(&p.cpus);
    for (int c : cpus) CPU_SET(c, &p.cpus);
  }
  Fd dev_null;
  if (files.in) {
    p.stdin_fd = files.in.get();
  } else {
    dev_null.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!dev_null) throw Error(Errc::io, fmt::format("/dev/null: {}", std::strerror(errno)));
    dev_null = above_stdio(dev_null.release());
    p.stdin_fd = dev_null.get();
  }
  p.out_fd = files.out.get();
  p.err_fd = files.err_fd();
  p.cgroup_fd = cgroup_procs_fd;

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  Fd report(pipe_fds[0]);
  Fd report_w(pipe_fds[1]);
  p.report_fd = report_w.get();

  p.stepd_pid = ::getpid();
  pid_t pid = spawn_child(p);
  if (pid < 0)
    throw Error(Errc::io, fmt::format("Unable to start the task: {}", std::strerror(errno)));
  // The parent sets the group too: a signal sent to the group before the
  // child got to run its own setpgid must not miss it (the shells' old race).
  // It fails harmlessly once the child has exec'd.
  ::setpgid(pid, pid);
  return Spawned{pid, std::move(report)};
}

std::string describe(const TaskLaunch& l, const LaunchFailure& f) {
  const char* reason = std::strerror(f.err);
  switch (f.stage) {
    case LaunchStage::stdio:
      return fmt::format("Unable to set up standard input and output: {}", reason);
    case LaunchStage::credentials:
      return fmt::format("Unable to switch to uid {} gid {}: {}", l.uid, l.gid, reason);
    case LaunchStage::chdir:
      return fmt::format("couldn't chdir to /tmp either. dying.");
    case LaunchStage::exec:
      return fmt::format("execve(): {}: {}", l.argv.empty() ? "" : l.argv.front(), reason);
    case LaunchStage::cgroup:
      return fmt::format("Unable to add the task to its cgroup: {}", reason);
  }
  return fmt::format("launch failed: {}", reason);
}

}  // namespace stint::stepd::detail
