#include "backend/command.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <fmt/core.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

extern char** environ;

namespace stint::backend {
namespace {

class Pipe {
 public:
  Pipe() {
    if (::pipe2(m_fds, O_CLOEXEC) != 0)
      throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const { return m_fds[0]; }
  int write_end() const { return m_fds[1]; }
  void close_read() { close_fd(m_fds[0]); }
  void close_write() { close_fd(m_fds[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int m_fds[2] = {-1, -1};
};

std::string env_value(const std::vector<std::string>& env, std::string_view name) {
  for (const auto& e : env) {
    if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
      return e.substr(name.size() + 1);
  }
  return {};
}

// argv[0] in PATH, resolved before fork (nothing in the child allocates).
std::string find_program(const std::string& name, const std::string& path) {
  if (name.find('/') != std::string::npos) return name;
  std::size_t start = 0;
  const std::string dirs = path.empty() ? "/usr/local/bin:/usr/bin:/bin" : path;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  throw Error(Errc::io, fmt::format("{}: command not found", name));
}

std::vector<gid_t> groups_of(std::uint32_t uid, std::uint32_t gid) {
  std::vector<gid_t> groups;
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found) {
    int n = 64;
    groups.resize(static_cast<std::size_t>(n));
    if (::getgrouplist(pw.pw_name, gid, groups.data(), &n) < 0) {
      groups.resize(static_cast<std::size_t>(n));
      ::getgrouplist(pw.pw_name, gid, groups.data(), &n);
    }
    groups.resize(static_cast<std::size_t>(std::max(n, 0)));
  }
  if (groups.empty()) groups.push_back(gid);
  return groups;
}

}  // namespace

std::string program(const CommandTarget& target, const std::string& name) {
  return target.bin_dir.empty() ? name : target.bin_dir + "/" + name;
}

std::string find_bin_dir(const std::string& name, const std::string& path) {
  std::error_code ec;
  const auto self = std::filesystem::canonical("/proc/self/exe", ec).parent_path();
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    const auto candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    if (std::filesystem::canonical(dir, ec) == self) continue;
    return dir;
  }
  return {};
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

CommandResult run_command(const CommandTarget& target, const std::vector<std::string>& argv,
                          const std::string& input) {
  std::vector<std::string> env = target.environment;
  if (env.empty()) {
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
  }
  std::vector<std::string> args;
  if (target.login.empty()) {
    args = argv;
    if (!target.conf.empty()) {
      std::erase_if(env, [](const std::string& e) { return e.rfind("SLURM_CONF=", 0) == 0; });
      env.push_back("SLURM_CONF=" + target.conf);
    }
  } else {
    // ssh joins its arguments into one line for the remote shell: quote each.
    std::string line;
    if (!target.conf.empty()) line = "SLURM_CONF=" + shell_quote(target.conf) + " ";
    for (const auto& a : argv)
      line += (line.empty() || line.back() == ' ' ? "" : " ") + shell_quote(a);
    args = {"ssh",
            "-o",
            "BatchMode=yes",
            "-o",
            fmt::format("ConnectTimeout={}", std::max(1, target.timeout_s / 2)),
            target.login,
            line};
  }
  const std::string exe = find_program(args.front(), env_value(env, "PATH"));

  const bool switch_user = ::geteuid() == 0 && target.uid && *target.uid != 0;
  std::vector<gid_t> groups;
  const uid_t uid = switch_user ? *target.uid : 0;
  const gid_t gid = switch_user ? target.gid.value_or(*target.uid) : 0;
  if (switch_user) groups = groups_of(uid, gid);

  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  Pipe in, out, err, status;
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(Errc::io, fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    // Only async-signal-safe calls from here to exec.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);
    ::setpgid(0, 0);
    if (::dup2(in.read_end(), 0) < 0 || ::dup2(out.write_end(), 1) < 0 ||
        ::dup2(err.write_end(), 2) < 0)
      ::_exit(127);
    if (switch_user && (::setgroups(groups.size(), groups.data()) != 0 || ::setgid(gid) != 0 ||
                        ::setuid(uid) != 0)) {
      int e = errno;
      (void)!::write(status.write_end(), &e, sizeof e);
      ::_exit(127);
    }
    ::execve(exe.c_str(), argp.data(), envp.data());
    int e = errno;
    (void)!::write(status.write_end(), &e, sizeof e);
    ::_exit(127);
  }
  in.close_read();
  out.close_write();
  err.close_write();
  status.close_write();
  int exec_errno = 0;
  if (::read(status.read_end(), &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    ::waitpid(pid, nullptr, 0);
    throw Error(Errc::io, fmt::format("{}: {}", args.front(), std::strerror(exec_errno)));
  }

  CommandResult result;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(std::max(1, target.timeout_s));
  std::size_t written = 0;
  ::fcntl(in.write_end(), F_SETFL, O_NONBLOCK);
  if (input.empty()) in.close_write();
  bool out_open = true, err_open = true;
  char buf[8192];
  while (out_open || err_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd fds[3] = {{out_open ? out.read_end() : -1, POLLIN, 0},
                     {err_open ? err.read_end() : -1, POLLIN, 0},
                     {in.write_end(), POLLOUT, 0}};
    if (::poll(fds, 3, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        (i == 0 ? out_open : err_open) = false;
      }
    }
    if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      const ssize_t n = ::write(in.write_end(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) written = input.size();
      if (written >= input.size()) in.close_write();
    }
  }
  in.close_write();
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (result.timed_out)
    result.exit_code = 128 + SIGKILL;
  else if (WIFEXITED(st))
    result.exit_code = WEXITSTATUS(st);
  else if (WIFSIGNALED(st))
    result.exit_code = 128 + WTERMSIG(st);
  return result;
}

}  // namespace stint::backend
