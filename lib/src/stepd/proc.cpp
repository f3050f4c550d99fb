#include "stepd/proc.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <dirent.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

namespace stint::stepd::detail {
namespace {

// A /proc file in one go (they are generated on read; a few KiB at most here).
bool read_proc_file(const std::string& path, std::string& out) {
  out.clear();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return true;
}

// Calls f(number) for every all-digit entry of a /proc folder.
template <typename F>
bool for_each_number(const std::string& dir_path, F f) {
  DIR* dir = ::opendir(dir_path.c_str());
  if (!dir) return false;
  while (const dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    long n = std::strtol(e->d_name, &end, 10);
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && end && *end == '\0') f(static_cast<pid_t>(n));
  }
  ::closedir(dir);
  return true;
}

void parse_pids(const std::string& text, std::vector<pid_t>& out) {
  const char* p = text.c_str();
  for (;;) {
    char* end = nullptr;
    long pid = std::strtol(p, &end, 10);
    if (end == p) break;
    if (pid > 0) out.push_back(static_cast<pid_t>(pid));
    p = end;
  }
}

// Whether this kernel has /proc/<pid>/task/<tid>/children; asked once.
bool have_children_files() {
  static const bool have =
      ::access(fmt::format("/proc/{}/task/{}/children", ::getpid(), ::getpid()).c_str(), R_OK) == 0;
  return have;
}

// Without CONFIG_PROC_CHILDREN: every process's parent from /proc/*/stat.
std::unordered_multimap<pid_t, pid_t> parent_map() {
  std::unordered_multimap<pid_t, pid_t> children;  // parent -> child
  std::string text;
  for_each_number("/proc", [&](pid_t pid) {
    if (!read_proc_file(fmt::format("/proc/{}/stat", pid), text)) return;
    pid_t parent = parent_from_stat(text);
    if (parent > 0) children.emplace(parent, pid);
  });
  return children;
}

}  // namespace

pid_t parent_from_stat(const std::string& text) {
  // "pid (comm) state ppid ...": comm may hold anything, so from the last ')'.
  auto close = text.rfind(')');
  if (close == std::string::npos || close + 4 >= text.size()) return -1;
  const char* p = text.c_str() + close + 1;
  while (*p == ' ') ++p;
  if (*p == '\0') return -1;
  ++p;  // the state letter
  char* end = nullptr;
  long ppid = std::strtol(p, &end, 10);
  if (end == p) return -1;
  return static_cast<pid_t>(ppid);
}

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  if (!have_children_files()) {
    auto map = parent_map();
    auto [first, last] = map.equal_range(pid);
    for (auto it = first; it != last; ++it) out.push_back(it->second);
    return out;
  }
  // A child forked by any thread is listed in that thread's file.
  std::string text;
  for_each_number(fmt::format("/proc/{}/task", pid), [&](pid_t tid) {
    if (read_proc_file(fmt::format("/proc/{}/task/{}/children", pid, tid), text))
      parse_pids(text, out);
  });
  return out;
}

std::vector<pid_t> descendants_of(pid_t root) {
  std::vector<pid_t> out;
  std::unordered_set<pid_t> seen{root};
  // A bound against a fork bomb turning the sampling into one.
  constexpr std::size_t k_max = 100000;
  if (!have_children_files()) {
    auto map = parent_map();
    std::vector<pid_t> todo{root};
    while (!todo.empty() && out.size() < k_max) {
      pid_t p = todo.back();
      todo.pop_back();
      auto [first, last] = map.equal_range(p);
      for (auto it = first; it != last; ++it) {
        if (seen.insert(it->second).second) {
          out.push_back(it->second);
          todo.push_back(it->second);
        }
      }
    }
    return out;
  }
  std::size_t next = 0;
  for (pid_t child : children_of(root)) {
    if (seen.insert(child).second) out.push_back(child);
  }
  while (next < out.size() && out.size() < k_max) {
    pid_t p = out[next++];
    for (pid_t child : children_of(p)) {
      if (seen.insert(child).second) out.push_back(child);
    }
  }
  return out;
}

std::uint64_t rss_kb(pid_t pid) {
  static const long page_kb = std::max(::sysconf(_SC_PAGESIZE) / 1024, 1L);
  std::string text;
  if (!read_proc_file(fmt::format("/proc/{}/statm", pid), text)) return 0;
  // "size resident shared text lib data dt", in pages.
  const char* p = text.c_str();
  char* end = nullptr;
  std::strtoull(p, &end, 10);
  if (end == p) return 0;
  p = end;
  unsigned long long resident = std::strtoull(p, &end, 10);
  if (end == p) return 0;
  return static_cast<std::uint64_t>(resident) * static_cast<std::uint64_t>(page_kb);
}

std::string command_name(pid_t pid) {
  std::string text;
  if (!read_proc_file(fmt::format("/proc/{}/comm", pid), text)) return {};
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::uint64_t rss_kb_sum(const std::vector<pid_t>& pids) {
  std::uint64_t sum = 0;
  for (pid_t pid : pids) sum += rss_kb(pid);
  return sum;
}

std::uint64_t cpu_ticks_from_stat(std::string_view text) {
  // "pid (comm) state ppid ..." with utime as field 14: the 12th after ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return 0;
  std::string_view rest = text.substr(close + 1);
  std::uint64_t sum = 0;
  for (int field = 3; field <= 17; ++field) {
    rest = rest.substr(std::min(rest.find_first_not_of(' '), rest.size()));
    const std::size_t end = std::min(rest.find(' '), rest.size());
    if (end == 0) return 0;
    if (field >= 14) {
      // cutime and cstime are signed in the kernel's format; never below 0.
      std::int64_t ticks = 0;
      const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + end, ticks);
      if (ec != std::errc() || ptr != rest.data() + end) return 0;
      sum += static_cast<std::uint64_t>(std::max<std::int64_t>(ticks, 0));
    }
    rest = rest.substr(end);
  }
  return sum;
}

std::uint64_t cpu_ticks_sum(const std::vector<pid_t>& pids) {
  std::uint64_t sum = 0;
  std::string text;
  for (pid_t pid : pids) {
    if (read_proc_file(fmt::format("/proc/{}/stat", pid), text)) sum += cpu_ticks_from_stat(text);
  }
  return sum;
}

}  // namespace stint::stepd::detail
