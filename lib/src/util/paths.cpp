#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

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

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string without_trailing_slashes(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// Sets a folder's mode, creating it if missing.
void make_dir_with_mode(const std::string& dir, unsigned mode) {
  fs::make_dirs(dir, mode);
  if (::chmod(dir.c_str(), mode) != 0)
    throw Error(Errc::io,
                fmt::format("Unable to set the mode of {}: {}", dir, std::strerror(errno)));
}

}  // namespace

std::string_view system_state_dir() {
#ifdef STINT_SYSTEM_STATE_DIR
  return STINT_SYSTEM_STATE_DIR;
#else
  return "/var/lib/stint";
#endif
}

std::string Paths::spool(JobId id) const { return fmt::format("{}/spool/{}", state_dir, id); }

std::string choose_state_dir(const std::string& state_env, const std::string& xdg,
                             const std::string& home, const std::string& system_dir,
                             bool (*exists)(const std::string&)) {
  if (!state_env.empty()) return without_trailing_slashes(state_env);
  const std::string personal = xdg.empty() ? home + "/.local/state/stint" : xdg + "/stint";
  if (exists(personal)) return without_trailing_slashes(personal);
  if (!system_dir.empty() && exists(system_dir)) return without_trailing_slashes(system_dir);
  return without_trailing_slashes(personal);
}

Paths default_paths() {
  const std::string state_env = env_or_empty("STINT_STATE_DIR");
  // home_dir() asks the password database only when it is needed.
  if (!state_env.empty()) return Paths{without_trailing_slashes(state_env)};
  return Paths{choose_state_dir(state_env, env_or_empty("XDG_STATE_HOME"), home_dir(),
                                std::string(system_state_dir()), is_dir)};
}

bool system_mode() { return ::geteuid() == 0; }

void ensure_state_dir(const Paths& p) {
  if (!system_mode()) {
    fs::make_dirs(p.state_dir, 0700);
    fs::make_dirs(p.log_dir(), 0700);
    fs::make_dirs(p.spool_root(), 0700);
    return;
  }
  make_dir_with_mode(p.state_dir, 0755);
  make_dir_with_mode(p.log_dir(), 0700);
  make_dir_with_mode(p.spool_root(), 0711);
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
