#include "daemon/log.hpp"

#include <atomic>
#include <cerrno>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stint::daemon {
namespace {

std::atomic<std::uint64_t> g_log_limit{64ULL * 1024 * 1024};

// The file stderr writes to, by the name it had as stintd started (a
// rename since, by logrotate, shows in /proc as the new name); empty when
// stderr is not a regular file (the journal's socket under systemd, a
// terminal).
std::string g_log_path;

std::string current_log_path() {
  struct stat st {};
  if (::fstat(2, &st) != 0 || !S_ISREG(st.st_mode)) return {};
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/fd/2", buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

// Points stdout and stderr at `path`, made anew if it is not there.
void point_output_at(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  ::close(fd);
}

// Past the limit the log becomes <log>.1 (replacing the one before) and a new
// one starts, so stintd's logs hold at most twice the limit.
void rotate_if_due() {
  const std::uint64_t limit = g_log_limit.load(std::memory_order_relaxed);
  if (limit == 0) return;
  struct stat st {};
  if (::fstat(2, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uint64_t>(st.st_size) < limit)
    return;
  if (g_log_path.empty()) return;
  // Moved away already (logrotate without SIGUSR2): only a new file is due.
  if (::rename(g_log_path.c_str(), (g_log_path + ".1").c_str()) != 0 && errno != ENOENT) return;
  point_output_at(g_log_path);
}

}  // namespace

void set_log_limit(std::uint64_t bytes) { g_log_limit.store(bytes, std::memory_order_relaxed); }

void remember_log_path() { g_log_path = current_log_path(); }

void reopen_log() {
  const std::string& path = g_log_path;
  if (path.empty()) return;
  // Renamed away by logrotate (or removed): the name is free, start anew there.
  struct stat open_file {};
  struct stat named {};
  if (::fstat(2, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
      open_file.st_ino == named.st_ino && open_file.st_dev == named.st_dev)
    return;
  point_output_at(path);
}

void log_line(std::string_view level, const std::string& text) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  const std::string line = fmt::format("[{}] stintd[{}] {}: {}\n", stamp, ::getpid(), level, text);
  // Not fmt::print, which throws when the write fails: with the log on a full
  // disk, a line that cannot be written is lost, and stintd goes on.
  [[maybe_unused]] const std::size_t n = std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  rotate_if_due();
}

}  // namespace stint::daemon
