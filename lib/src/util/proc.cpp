#include "util/proc.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <dirent.h>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "util/fs.hpp"

namespace stint::proc {
namespace {

// The fields after the command name, which may itself hold spaces and ')'.
std::optional<std::vector<std::string>> stat_fields(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::vector<std::string> fields;
  std::string f;
  while (rest >> f) fields.push_back(f);
  return fields;
}

// A process's command line, "" when it is gone. Read with read(2): a process
// that exits while it is read fails the read with ESRCH, which an
// istreambuf_iterator turns into an exception (seen under ASan in CI).
std::string cmdline_of(long pid) {
  try {
    return fs::read_file("/proc/" + std::to_string(pid) + "/cmdline");
  } catch (const Error&) {
    return {};
  }
}

// Every live pid in /proc, to `fn`.
template <typename Fn>
void for_each_pid(Fn&& fn) {
  DIR* dir = ::opendir("/proc");
  if (!dir) return;
  while (dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (pid > 0 && *end == '\0') fn(static_cast<std::int64_t>(pid));
  }
  ::closedir(dir);
}

// A command line's program, by its last path component: argv[0] up to the
// first NUL or space (a retitled process joins its words with spaces).
std::string_view program_of(std::string_view cmdline) {
  std::string_view first = cmdline.substr(0, cmdline.find_first_of(std::string_view("\0 ", 2)));
  if (const auto slash = first.rfind('/'); slash != std::string_view::npos)
    first.remove_prefix(slash + 1);
  return first;
}

}  // namespace

std::optional<std::uint64_t> start_ticks(std::int64_t pid) {
  auto fields = stat_fields(pid);
  // fields[0] is field 3 (state); field 22 is fields[19].
  if (!fields || fields->size() < 20) return std::nullopt;
  try {
    return std::stoull((*fields)[19]);
  } catch (...) {
    return std::nullopt;
  }
}

bool alive(std::int64_t pid, std::uint64_t ticks) {
  if (pid <= 0) return false;
  auto fields = stat_fields(pid);
  if (!fields || fields->size() < 20) return false;
  if ((*fields)[0] == "Z" || (*fields)[0] == "X") return false;
  try {
    return std::stoull((*fields)[19]) == ticks;
  } catch (...) {
    return false;
  }
}

std::string executable_of(std::int64_t pid) {
  std::error_code ec;
  auto target = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  return ec ? std::string() : target.string();
}

std::optional<std::int64_t> find_process(std::string_view program, std::string_view argument,
                                         const std::string& executable) {
  std::error_code ec;
  const std::string wanted = std::filesystem::weakly_canonical(executable, ec).string();
  if (ec || wanted.empty()) return std::nullopt;
  const auto own_uid = static_cast<std::uint32_t>(::getuid());
  std::optional<std::int64_t> found;
  for_each_pid([&](std::int64_t pid) {
    if (found) return;
    const std::string cmdline = cmdline_of(pid);
    // argv[0] NUL argv[1] NUL, and nothing after but the NULs a process that
    // rewrote its arguments leaves (a stepd forked by the fork server).
    const auto first = cmdline.find('\0');
    if (first == std::string::npos) return;
    std::string_view exe(cmdline.data(), first);
    if (const auto slash = exe.rfind('/'); slash != std::string_view::npos)
      exe.remove_prefix(slash + 1);
    if (exe != program) return;
    std::string_view rest = std::string_view(cmdline).substr(first + 1);
    if (rest.empty() || rest.back() != '\0') return;
    while (!rest.empty() && rest.back() == '\0') rest.remove_suffix(1);
    if (rest != argument) return;
    if (real_uid(pid) != own_uid) return;
    std::string runs = executable_of(pid);
    constexpr std::string_view k_deleted = " (deleted)";
    if (runs.ends_with(k_deleted)) runs.resize(runs.size() - k_deleted.size());
    if (runs != wanted) return;
    if (auto ticks = start_ticks(pid); ticks && alive(pid, *ticks)) found = pid;
  });
  return found;
}

namespace {

// Every process's pid, parent and state letter, from /proc/PID/stat.
struct ProcEntry {
  std::int64_t pid;
  std::int64_t ppid;
  bool zombie;
};

std::vector<ProcEntry> process_table() {
  std::vector<ProcEntry> out;
  for_each_pid([&](std::int64_t pid) {
    auto fields = stat_fields(pid);
    // fields[0] is the state (field 3), fields[1] the parent (field 4).
    if (!fields || fields->size() < 2) return;
    char* end = nullptr;
    const long long ppid = std::strtoll((*fields)[1].c_str(), &end, 10);
    if (*end != '\0') return;
    const bool zombie = (*fields)[0] == "Z" || (*fields)[0] == "X";
    out.push_back({pid, static_cast<std::int64_t>(ppid), zombie});
  });
  return out;
}

}  // namespace

std::optional<std::int64_t> parent_pid(std::int64_t pid) {
  const auto fields = stat_fields(pid);
  if (!fields || fields->size() < 2) return std::nullopt;
  char* end = nullptr;
  const long long ppid = std::strtoll((*fields)[1].c_str(), &end, 10);
  if (*end != '\0') return std::nullopt;
  return static_cast<std::int64_t>(ppid);
}

std::string environment_value(std::int64_t pid, std::string_view name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string entry;
  while (std::getline(in, entry, '\0')) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 &&
        entry[name.size()] == '=')
      return entry.substr(name.size() + 1);
  }
  return "";
}

std::vector<std::int64_t> descendants(std::int64_t pid) {
  const auto table = process_table();
  std::vector<std::int64_t> out;
  std::vector<std::int64_t> parents{pid};
  // Breadth first; a pid is never its own ancestor, so this ends.
  for (std::size_t next = 0; next < parents.size(); ++next) {
    for (const auto& e : table) {
      if (e.ppid != parents[next] || e.pid == pid) continue;
      parents.push_back(e.pid);  // a zombie has no children, but may be walked
      if (!e.zombie) out.push_back(e.pid);
    }
  }
  return out;
}

std::vector<std::int64_t> find_processes_mentioning(std::string_view program,
                                                    std::string_view text) {
  std::vector<std::int64_t> out;
  for_each_pid([&](std::int64_t pid) {
    std::string cmdline = cmdline_of(pid);
    for (char& c : cmdline) {
      if (c == '\0') c = ' ';
    }
    const std::string_view first = program_of(cmdline);
    // "sshd" or a retitled "sshd:"
    if (first != program && first != std::string(program) + ":") return;
    if (cmdline.find(text) == std::string::npos) return;
    if (auto ticks = start_ticks(pid); ticks && alive(pid, *ticks)) out.push_back(pid);
  });
  return out;
}

std::optional<std::uint32_t> real_uid(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Uid:", 0) != 0) continue;
    std::istringstream fields(line.substr(4));
    std::uint32_t uid = 0;
    if (fields >> uid) return uid;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string user_name(std::uint32_t uid) {
  passwd pw{};
  passwd* result = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &result) == 0 && result)
    return result->pw_name;
  return std::to_string(uid);
}

std::vector<gid_t> login_groups(const std::string& user, gid_t gid) {
  std::vector<gid_t> groups(64);
  int n = static_cast<int>(groups.size());
  if (::getgrouplist(user.c_str(), gid, groups.data(), &n) < 0) {
    groups.resize(static_cast<std::size_t>(n));
    ::getgrouplist(user.c_str(), gid, groups.data(), &n);
  }
  groups.resize(static_cast<std::size_t>(std::max(n, 0)));
  if (groups.empty()) groups.push_back(gid);
  return groups;
}

std::string short_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string name(buf);
  auto dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace stint::proc
