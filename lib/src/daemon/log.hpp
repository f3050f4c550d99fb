#pragma once
// stintd's log: timestamped lines on its stderr, which points at
// <state>/log/stintd.log (or the journal under systemd with --foreground).

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string_view>

#include <fmt/core.h>

namespace stint::daemon {

void log_line(std::string_view level, const std::string& text);

/// Notes the name of the file stderr writes to, as stintd starts: the log
/// that rotation and reopen_log keep under that name.
void remember_log_path();
/// The size past which the log file is rotated (StintLogMaxSize); 0: never.
void set_log_limit(std::uint64_t bytes);
/// As slurmctld on SIGUSR2: opens the log file again by its name when it was
/// moved away (logrotate) or removed; nothing when stderr is not a file.
void reopen_log();

template <typename... Args>
void log_info(fmt::format_string<Args...> f, Args&&... args) {
  log_line("info", fmt::format(f, std::forward<Args>(args)...));
}

template <typename... Args>
void log_error(fmt::format_string<Args...> f, Args&&... args) {
  log_line("error", fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace stint::daemon
