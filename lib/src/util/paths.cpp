#include <climits>
#include <cstdlib>

#include <fmt/core.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>

#include "util/fs.hpp"

namespace stint {
namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string home_dir() {
  std::string home = env_or_empty("HOME");
  if (!home.empty()) return home;
  if (const passwd* pw = ::getpwuid(::getuid())) return pw->pw_dir;
  return "/tmp";
}

std::string self_dir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  std::string exe(buf, static_cast<std::size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

bool is_executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace

std::string Paths::spool(JobId id) const { return fmt::format("{}/spool/{}", state_dir, id); }

Paths default_paths() {
  std::string dir = env_or_empty("STINT_STATE_DIR");
  if (dir.empty()) {
    std::string xdg = env_or_empty("XDG_STATE_HOME");
    dir = xdg.empty() ? home_dir() + "/.local/state/stint" : xdg + "/stint";
  }
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return Paths{dir};
}

void ensure_state_dir(const Paths& p) {
  fs::make_dirs(p.state_dir, 0700);
  fs::make_dirs(p.log_dir(), 0700);
  fs::make_dirs(p.spool_root(), 0700);
}

std::string find_helper(std::string_view name) {
  std::string override_dir = env_or_empty("STINT_LIBEXEC_DIR");
  std::string dir = self_dir();
  for (const std::string& candidate :
       {override_dir.empty() ? std::string() : override_dir + "/" + std::string(name),
        dir + "/" + std::string(name), dir + "/../sbin/" + std::string(name),
        dir + "/../libexec/stint/" + std::string(name)}) {
    if (!candidate.empty() && is_executable(candidate)) return candidate;
  }
  std::string path = env_or_empty("PATH");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string candidate = path.substr(start, end - start) + "/" + std::string(name);
    if (end > start && is_executable(candidate)) return candidate;
    start = end + 1;
  }
  throw Error(Errc::io, fmt::format("cannot find {} beside {} or on PATH", name, dir));
}

}  // namespace stint
