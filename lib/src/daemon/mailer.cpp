#include "daemon/mailer.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <fmt/core.h>
#include <pwd.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/log.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0;
}

struct Account {
  std::string name;
  std::string home;
};

std::optional<Account> account_of(std::uint32_t uid) {
  std::optional<Account> a;
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(static_cast<uid_t>(uid), &pw, buf.data(), buf.size(), &found) == 0 && found)
    a = Account{pw.pw_name, pw.pw_dir ? pw.pw_dir : ""};
  // A personal stintd is its user: their HOME is where their ~ is.
  if (const char* home = std::getenv("HOME"); home && *home && uid == ::geteuid()) {
    if (!a) a = Account{std::to_string(uid), {}};
    a->home = home;
  }
  return a;
}

// Everything the mailer's process needs, made before it starts: it shares
// stintd's memory until it execs, so it only makes system calls.
struct ChildPlan {
  std::vector<std::string> strings;  ///< argv then envp texts
  std::vector<char*> argv;
  std::vector<char*> envp;
  int null_fd = -1;
  int output_fd = -1;
  const char* work_dir = nullptr;
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
};

[[noreturn]] void child_main(const ChildPlan& p) noexcept {
  ::setpgid(0, 0);
  // stintd blocks the signals its signalfd reads and ignores SIGPIPE.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) {
    if (s != SIGKILL && s != SIGSTOP) ::sigaction(s, &dfl, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::dup2(p.null_fd, 0) < 0 || ::dup2(p.output_fd, 1) < 0 || ::dup2(p.output_fd, 2) < 0)
    ::_exit(127);
  // The system calls, not libc's wrappers (see stepd/spawn.cpp): this
  // process alone changes user.
  if (p.switch_user) {
    if (::syscall(SYS_setgroups, p.groups.size(), p.groups.data()) != 0 ||
        ::syscall(SYS_setgid, p.gid) != 0 || ::syscall(SYS_setuid, p.uid) != 0)
      ::_exit(127);
  }
  if (p.work_dir && ::chdir(p.work_dir) != 0 && ::chdir("/") != 0) ::_exit(127);
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execve(p.argv[0], p.argv.data(), p.envp.data());
  ::_exit(127);
}

// As stepd starts its task (stepd/spawn.cpp): a child sharing stintd's memory
// until it execs, so that a large stintd pays no copy of its page tables; not
// process::run, which forks and waits, where MailProg runs beside the loop.
pid_t spawn_child(ChildPlan& p) {
#if defined(__SANITIZE_ADDRESS__)
  pid_t pid = ::fork();
  if (pid == 0) child_main(p);
  return pid;
#else
  auto entry = [](void* plan) -> int { child_main(*static_cast<const ChildPlan*>(plan)); };
  constexpr std::size_t k_stack_bytes = std::size_t{64} * 1024;
  void* stack = ::mmap(nullptr, k_stack_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return -1;
  pid_t pid = ::clone(entry, static_cast<char*>(stack) + k_stack_bytes,
                      CLONE_VM | CLONE_VFORK | SIGCHLD, &p);
  const int err = errno;
  ::munmap(stack, k_stack_bytes);
  errno = err;
  return pid;
#endif
}

std::string read_output(int fd) {
  std::string out(1024, '\0');
  const ssize_t n = ::pread(fd, out.data(), out.size(), 0);
  out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

std::string mail_program(const Config& config) {
  std::string program = config.conf("MailProg").value_or("/bin/mail");
  if (program == "/bin/mail" && !executable_file(program) && executable_file("/usr/bin/mail"))
    return "/usr/bin/mail";
  return program;
}

std::string user_mail_hook(std::uint32_t uid) {
  const std::optional<Account> a = account_of(uid);
  if (!a || a->home.empty()) return {};
  const std::string hook = a->home + "/.config/stint/notify";
  return executable_file(hook) ? hook : std::string();
}

Mailer::~Mailer() {
  // Those still running finish on their own (their own process group); their
  // output goes with stintd.
  for (const Running& r : m_running) {
    if (r.output_fd >= 0) ::close(r.output_fd);
  }
}

void Mailer::send(Mail mail, const Config& config) {
  Waiting w;
  w.program = mail_program(config);
  if (!executable_file(w.program)) {
    w.program = user_mail_hook(mail.uid);
    w.hook = true;
  }
  if (w.program.empty()) {
    if (!m_said_no_mailer) {
      m_said_no_mailer = true;
      log_error(
          "job {}: mail not sent: MailProg {} does not exist and the user has no executable "
          "~/.config/stint/notify (said once; later mail is dropped the same way)",
          mail.job_id, mail_program(config));
    }
    return;
  }
  w.mail = std::move(mail);
  m_waiting.push_back(std::move(w));
  start_waiting();
}

void Mailer::start_waiting() {
  while (m_running.size() < k_parallel && !m_waiting.empty()) {
    Waiting w = std::move(m_waiting.front());
    m_waiting.pop_front();
    start(std::move(w));
  }
}

void Mailer::start(Waiting w) {
  ChildPlan p;
  p.strings = {w.program, "-s", w.mail.subject, w.mail.recipient};
  const std::size_t argc = p.strings.size();
  for (const auto& [name, value] : w.mail.env) p.strings.push_back(name + "=" + value);
  std::optional<Account> account;
  if (w.hook) {
    account = account_of(w.mail.uid);
    p.strings.push_back("STINT_SUBJECT=" + w.mail.subject);
    // The user's own program gets what a shell would give it.
    p.strings.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
    if (account) {
      p.strings.push_back("HOME=" + account->home);
      p.strings.push_back("USER=" + account->name);
      p.strings.push_back("LOGNAME=" + account->name);
      p.work_dir = account->home.c_str();
    }
    if (::geteuid() == 0 && w.mail.uid != 0) {
      p.switch_user = true;
      p.uid = w.mail.uid;
      p.gid = w.mail.gid;
      p.groups = proc::login_groups(account ? account->name : std::to_string(w.mail.uid), p.gid);
    }
  }
  for (std::size_t i = 0; i < p.strings.size(); ++i)
    (i < argc ? p.argv : p.envp).push_back(p.strings[i].data());
  p.argv.push_back(nullptr);
  p.envp.push_back(nullptr);

  p.null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  p.output_fd = ::memfd_create("stint-mail", MFD_CLOEXEC);
  if (p.output_fd < 0) p.output_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (p.null_fd < 0 || p.output_fd < 0) {
    log_error("job {}: mail not sent: {}", w.mail.job_id, std::strerror(errno));
    if (p.null_fd >= 0) ::close(p.null_fd);
    if (p.output_fd >= 0) ::close(p.output_fd);
    return;
  }
  const pid_t pid = spawn_child(p);
  const int err = errno;
  ::close(p.null_fd);
  if (pid < 0) {
    log_error("job {}: mail not sent: cannot start {}: {}", w.mail.job_id, w.program,
              std::strerror(err));
    ::close(p.output_fd);
    return;
  }
  // The parent sets the group too, so a kill at the deadline never misses it.
  ::setpgid(pid, pid);
  log_info("job {}: mail to {}: {}{}", w.mail.job_id, w.mail.recipient, w.mail.subject,
           w.hook ? fmt::format(" (by {})", w.program) : std::string());
  Running r;
  r.pid = pid;
  r.deadline = std::chrono::steady_clock::now() + k_timeout;
  r.output_fd = p.output_fd;
  r.program = w.program;
  r.job_id = w.mail.job_id;
  m_running.push_back(std::move(r));
}

bool Mailer::reaped(std::int64_t pid, int status) {
  auto it = std::find_if(m_running.begin(), m_running.end(),
                         [pid](const Running& r) { return r.pid == pid; });
  if (it == m_running.end()) return false;
  const std::string output = it->output_fd >= 0 ? read_output(it->output_fd) : std::string();
  if (it->output_fd >= 0) ::close(it->output_fd);
  if (it->killed) {
    log_error("job {}: MailProg {} killed after {} s", it->job_id, it->program, k_timeout.count());
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    // slurmctld's words.
    log_error("MailProg returned error, it's output was '{}'", output);
  }
  m_running.erase(it);
  start_waiting();
  return true;
}

void Mailer::expire() {
  const auto now = std::chrono::steady_clock::now();
  for (Running& r : m_running) {
    if (r.killed || now < r.deadline) continue;
    r.killed = true;
    ::kill(-static_cast<pid_t>(r.pid), SIGKILL);
  }
}

}  // namespace stint::daemon
