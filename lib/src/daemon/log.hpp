#pragma once
// stintd's log: timestamped lines on its stderr, which points at
// <state>/log/stintd.log (or the journal under systemd with --foreground).

#include <cstdio>
#include <ctime>
#include <string_view>

#include <fmt/core.h>

namespace stint::daemon {

void log_line(std::string_view level, const std::string& text);

template <typename... Args>
void log_info(fmt::format_string<Args...> f, Args&&... args) {
  log_line("info", fmt::format(f, std::forward<Args>(args)...));
}

template <typename... Args>
void log_error(fmt::format_string<Args...> f, Args&&... args) {
  log_line("error", fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace stint::daemon
