#include "util/node_view.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <fmt/core.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stint::node_view {
namespace {

bool same_file(const char* a, const char* b) {
  struct stat sa {};
  struct stat sb {};
  if (::stat(a, &sa) != 0 || ::stat(b, &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Writes all of `text` to `path` with one write, as the /proc files of a
// user namespace's maps require. 0 or errno.
int write_proc_file(const char* path, const char* text) noexcept {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const auto len = static_cast<ssize_t>(std::strlen(text));
  const ssize_t n = ::write(fd, text, static_cast<std::size_t>(len));
  const int err = n == len ? 0 : (n < 0 ? errno : EIO);
  ::close(fd);
  return err;
}

// A user namespace of the caller's own: its user and group mapped to
// themselves, and nothing else (all an unprivileged process may map).
// setgroups is denied first, as the kernel requires before a gid_map.
int map_own_ids(const Plan& p) noexcept {
  if (int err = write_proc_file("/proc/self/setgroups", "deny"); err != 0 && err != ENOENT)
    return err;
  if (int err = write_proc_file("/proc/self/uid_map", p.uid_map.c_str()); err != 0) return err;
  return write_proc_file("/proc/self/gid_map", p.gid_map.c_str());
}

}  // namespace

Plan plan(const std::string& node, const std::string& hosts_file) {
  Plan p;
  utsname u{};
  if (!node.empty() && ::uname(&u) == 0) {
    const std::string full = u.nodename;
    const std::string short_name = full.substr(0, full.find('.'));
    p.set_hostname = node != full && node != short_name;
  }
  p.hostname = node;
  if (!hosts_file.empty() && ::access(hosts_file.c_str(), R_OK) == 0 &&
      ::access("/etc/hosts", F_OK) == 0)
    p.bind_hosts = !same_file(hosts_file.c_str(), "/etc/hosts");
  p.hosts_file = hosts_file;
  p.uid_map = fmt::format("{} {} 1\n", ::geteuid(), ::geteuid());
  p.gid_map = fmt::format("{} {} 1\n", ::getegid(), ::getegid());
  return p;
}

int enter(const Plan& p) noexcept {
  const int flags = (p.set_hostname ? CLONE_NEWUTS : 0) | (p.bind_hosts ? CLONE_NEWNS : 0);
  if (flags == 0) return 0;
  // With CAP_SYS_ADMIN (root's stepd, before it becomes the job's user) the
  // namespaces alone; without, inside a user namespace, which gives the
  // capability over them. root whose capability is withheld (a container)
  // must not take that path when it is to become another user afterwards:
  // only its own ids would be mapped.
  if (::unshare(flags) != 0) {
    if (errno != EPERM || !p.user_ns_allowed) return errno;
    if (::unshare(flags | CLONE_NEWUSER) != 0) return errno;
    if (int err = map_own_ids(p); err != 0) return err;
  }
  if (p.bind_hosts) {
    // Slave, not private: mounts made on the machine later still reach the
    // task, while the bind below stays in its namespace. The file system
    // type is ignored for both; "none", since memory checkers take a null
    // one for a bad pointer.
    if (::mount("none", "/", "none", MS_REC | MS_SLAVE, nullptr) != 0) return errno;
    if (::mount(p.hosts_file.c_str(), "/etc/hosts", "none", MS_BIND, nullptr) != 0) return errno;
  }
  if (p.set_hostname && ::sethostname(p.hostname.data(), p.hostname.size()) != 0) return errno;
  return 0;
}

std::string unavailable_reason() {
  Plan probe;
  probe.set_hostname = true;
  probe.bind_hosts = false;
  probe.hostname = "stint-probe";
  probe.uid_map = fmt::format("{} {} 1\n", ::geteuid(), ::geteuid());
  probe.gid_map = fmt::format("{} {} 1\n", ::getegid(), ::getegid());
  const pid_t pid = ::fork();
  if (pid < 0) return fmt::format("fork: {}", std::strerror(errno));
  if (pid == 0) ::_exit(enter(probe) & 0xff);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  const int err = WIFEXITED(status) ? WEXITSTATUS(status) : EPERM;
  return fmt::format(
      "this kernel gives no namespaces to this user ({}): tasks see the machine's host name "
      "and /etc/hosts, not their node's (allow unprivileged user namespaces with "
      "sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0, or run a "
      "system stintd as root)",
      std::strerror(err));
}

}  // namespace stint::node_view
