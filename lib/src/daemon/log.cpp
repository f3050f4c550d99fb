#include "daemon/log.hpp"

#include <string>

#include <unistd.h>

namespace stint::daemon {

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
}

}  // namespace stint::daemon
