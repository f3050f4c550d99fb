#pragma once
// Facts about processes from /proc.

#include <cstdint>
#include <optional>
#include <string>

namespace stint::proc {

/// The start time of a process in clock ticks since boot (/proc/PID/stat field
/// 22); nullopt when there is no such process.
std::optional<std::uint64_t> start_ticks(std::int64_t pid);
/// Whether `pid` is alive and is the process that started at `ticks` (a reused
/// pid is not mistaken for it). A zombie counts as gone.
bool alive(std::int64_t pid, std::uint64_t ticks);
/// The name of a user id, or the number as text when it has none.
std::string user_name(std::uint32_t uid);
/// This machine's short host name.
std::string short_hostname();

}  // namespace stint::proc
