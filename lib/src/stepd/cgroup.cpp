#include "stepd/cgroup.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <dirent.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stint::stepd::detail {
namespace {

// Reads a small control file; returns 0 or errno.
int read_control(const std::string& path, std::string& out) {
  out.clear();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  char buf[4096];
  int err = 0;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return err;
}

// Writes a control file in one write(2), as the kernel wants; returns 0 or errno.
int write_control(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  ssize_t n;
  do {
    n = ::write(fd, text.data(), text.size());
  } while (n < 0 && errno == EINTR);
  int err = n < 0 ? errno : (static_cast<std::size_t>(n) == text.size() ? 0 : EIO);
  ::close(fd);
  return err;
}

bool has_word(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w) {
    if (w == word) return true;
  }
  return false;
}

std::string join_path(const std::string& mount, const std::string& cgroup) {
  if (cgroup.empty() || cgroup == "/") return mount;
  return cgroup.front() == '/' ? mount + cgroup : mount + "/" + cgroup;
}

std::string parent_of(const std::string& cgroup) {
  auto slash = cgroup.rfind('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return cgroup.substr(0, slash);
}

// Leaves of earlier stepds (see cgroup.hpp) whose stepd is gone. rmdir fails
// harmlessly on a leaf that still holds a process.
void remove_dead_leaves(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  constexpr std::string_view prefix = "stint_stepd_";
  while (const dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.substr(0, prefix.size()) != prefix) continue;
    char* end = nullptr;
    long pid = std::strtol(e->d_name + prefix.size(), &end, 10);
    if (pid <= 0 || !end || *end != '\0' || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    ::rmdir(fmt::format("{}/{}", dir, name).c_str());
  }
  ::closedir(d);
}

// The memory controller for the children of `dir`: there already, or enabled
// now (moving stepd into a leaf first when it is `own` and EBUSY says it
// holds processes). Returns "" or why not.
std::string enable_memory(const std::string& dir, bool own) {
  std::string text;
  if (int err = read_control(dir + "/cgroup.controllers", text))
    return fmt::format("cannot read cgroup.controllers: {}", std::strerror(err));
  if (!has_word(text, "memory")) return "the memory controller is not available";
  if (int err = read_control(dir + "/cgroup.subtree_control", text))
    return fmt::format("cannot read cgroup.subtree_control: {}", std::strerror(err));
  if (has_word(text, "memory")) return "";
  int err = write_control(dir + "/cgroup.subtree_control", "+memory");
  if (err == 0) return "";
  if (err != EBUSY || !own)
    return fmt::format("cannot enable the memory controller: {}", std::strerror(err));
  // "No internal processes": stepd itself is in the way. Step aside.
  std::string self = std::to_string(::getpid());
  std::string leaf = fmt::format("{}/stint_stepd_{}", dir, self);
  if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST)
    return fmt::format("cannot create a leaf for stepd: {}", std::strerror(errno));
  if (int move_err = write_control(leaf + "/cgroup.procs", self)) {
    ::rmdir(leaf.c_str());
    return fmt::format("cannot move stepd into a leaf: {}", std::strerror(move_err));
  }
  err = write_control(dir + "/cgroup.subtree_control", "+memory");
  if (err == 0) return "";
  // Others live here too: go back where stepd was, as it was.
  write_control(dir + "/cgroup.procs", self);
  ::rmdir(leaf.c_str());
  return fmt::format("cannot enable the memory controller: {} (other processes are in it)",
                     std::strerror(err));
}

// A throwaway child moves itself into the cgroup: the permission to migrate is
// checked only then (write access up to the common ancestor). Returns 0 or errno.
int probe_move(int procs_fd) {
  pid_t pid = ::fork();
  if (pid < 0) return errno;
  if (pid == 0) {
    char buf[24];
    int n = std::snprintf(buf, sizeof buf, "%d", static_cast<int>(::getpid()));
    ssize_t w = ::write(procs_fd, buf, static_cast<std::size_t>(n));
    ::_exit(w == n ? 0 : (w < 0 ? errno : EIO));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return errno;
  }
  if (!WIFEXITED(status)) return EIO;
  return WEXITSTATUS(status);
}

}  // namespace

std::optional<std::string> own_cgroup_path(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) == 0) return line.substr(3);
  }
  return std::nullopt;
}

std::uint64_t memory_event(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

std::unique_ptr<Cgroup> Cgroup::create(const std::string& name, std::uint64_t limit_bytes,
                                       std::string& why, const CgroupSetup& setup) {
  why.clear();
  struct statfs sfs {};
  if (::statfs(setup.mount.c_str(), &sfs) != 0) {
    why = fmt::format("{}: {}", setup.mount, std::strerror(errno));
    return nullptr;
  }
  if (sfs.f_type != CGROUP2_SUPER_MAGIC) {
    why = fmt::format("{} is not cgroup v2", setup.mount);
    return nullptr;
  }
  std::string text;
  if (int err = read_control(setup.self_cgroup_file, text)) {
    why = fmt::format("{}: {}", setup.self_cgroup_file, std::strerror(err));
    return nullptr;
  }
  std::optional<std::string> own = own_cgroup_path(text);
  if (!own) {
    why = fmt::format("no cgroup v2 entry in {}", setup.self_cgroup_file);
    return nullptr;
  }

  struct Candidate {
    std::string dir;
    bool own;
  };
  // A stepd that already stepped aside into its leaf (an in-process caller
  // supervising again) goes on from where the leaf sits.
  std::string leaf_name = fmt::format("/stint_stepd_{}", ::getpid());
  if (own->size() > leaf_name.size() &&
      own->compare(own->size() - leaf_name.size(), leaf_name.size(), leaf_name) == 0)
    own = parent_of(*own);
  std::vector<Candidate> candidates;
  if (!setup.configured.empty())
    candidates.push_back({join_path(setup.mount, setup.configured), false});
  candidates.push_back({join_path(setup.mount, *own), true});
  if (*own != "/" && !own->empty())
    candidates.push_back({join_path(setup.mount, parent_of(*own)), false});

  std::vector<std::string> reasons;
  for (const Candidate& c : candidates) {
    auto fail = [&](const std::string& reason) { reasons.push_back(c.dir + ": " + reason); };
    if (std::string reason = enable_memory(c.dir, c.own); !reason.empty()) {
      fail(reason);
      continue;
    }
    remove_dead_leaves(c.dir);
    std::string path = c.dir + "/" + name;
    int made = ::mkdir(path.c_str(), 0755);
    // One left by an earlier stepd of this task (killed before it cleaned up)
    // goes, unless something still runs in it.
    if (made != 0 && errno == EEXIST && ::rmdir(path.c_str()) == 0)
      made = ::mkdir(path.c_str(), 0755);
    if (made != 0) {
      fail(fmt::format("cannot create {}: {}", name, std::strerror(errno)));
      continue;
    }
    std::unique_ptr<Cgroup> cg(new Cgroup());
    cg->m_path = path;  // from here on, the destructor removes it
    std::string limit = std::to_string(limit_bytes);
    if (int err = write_control(path + "/memory.max", limit)) {
      fail(fmt::format("cannot write memory.max: {}", std::strerror(err)));
      continue;
    }
    std::string back;
    read_control(path + "/memory.max", back);
    while (!back.empty() && (back.back() == '\n' || back.back() == ' ')) back.pop_back();
    if (back != limit) {
      fail(fmt::format("memory.max reads back '{}' after writing {}", back, limit));
      continue;
    }
    // No swap to spill into (the file is missing without swap accounting).
    if (int err = write_control(path + "/memory.swap.max", "0"); err != 0 && err != ENOENT) {
      fail(fmt::format("cannot write memory.swap.max: {}", std::strerror(err)));
      continue;
    }
    cg->m_procs = Fd(::open((path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
    if (!cg->m_procs) {
      fail(fmt::format("cannot open cgroup.procs: {}", std::strerror(errno)));
      continue;
    }
    if (int err = probe_move(cg->m_procs.get())) {
      fail(fmt::format("cannot move a process into it: {}", std::strerror(err)));
      continue;
    }
    return cg;
  }
  for (const auto& r : reasons) why += (why.empty() ? "" : "; ") + r;
  return nullptr;
}

Cgroup::~Cgroup() { remove(); }

std::vector<pid_t> Cgroup::pids() const {
  std::vector<pid_t> out;
  std::string text;
  if (m_path.empty() || read_control(m_path + "/cgroup.procs", text) != 0) return out;
  std::istringstream in(text);
  long pid = 0;
  while (in >> pid) out.push_back(static_cast<pid_t>(pid));
  return out;
}

std::uint64_t Cgroup::oom_kills() const {
  std::string text;
  if (m_path.empty() || read_control(m_path + "/memory.events", text) != 0) return 0;
  return memory_event(text, "oom_kill");
}

bool Cgroup::remove() {
  if (m_path.empty()) return true;
  m_procs.reset();
  if (std::vector<pid_t> left = pids(); !left.empty()) {
    // cgroup.kill (Linux 5.14) takes what forks meanwhile too.
    write_control(m_path + "/cgroup.kill", "1");
    for (pid_t pid : left) ::kill(pid, SIGKILL);
  }
  if (::rmdir(m_path.c_str()) != 0 && errno != ENOENT) return false;
  m_path.clear();
  return true;
}

}  // namespace stint::stepd::detail
