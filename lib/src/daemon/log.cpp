#include "daemon/log.hpp"

#include <unistd.h>

namespace stint::daemon {

void log_line(std::string_view level, const std::string& text) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  fmt::print(stderr, "[{}] stintd[{}] {}: {}\n", stamp, ::getpid(), level, text);
  std::fflush(stderr);
}

}  // namespace stint::daemon
