#pragma once
// Facts about processes from /proc.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace stint::proc {

/// The start time of a process in clock ticks since boot (/proc/PID/stat field
/// 22); nullopt when there is no such process.
std::optional<std::uint64_t> start_ticks(std::int64_t pid);
/// Whether `pid` is alive and is the process that started at `ticks` (a reused
/// pid is not mistaken for it). A zombie counts as gone.
bool alive(std::int64_t pid, std::uint64_t ticks);
/// A live process (not a zombie) of this process's real user, running the
/// file `executable` (/proc/PID/exe; the file as it was, when it has been
/// replaced since), whose command line is `program` (compared by its last
/// path component) and then exactly `argument`; nullopt when none. For
/// stintd's recovery: a stepd it spawned but died before recording. A command
/// line is anyone's to choose, so a stranger's look-alike is never taken.
std::optional<std::int64_t> find_process(std::string_view program, std::string_view argument,
                                         const std::string& executable);
/// The file a process runs (/proc/PID/exe), "" when it cannot be read (gone,
/// or another user's). A file replaced or removed since reads "PATH (deleted)".
std::string executable_of(std::int64_t pid);

/// The live processes (zombies aside) descended from `pid`, children first
/// then theirs, `pid` itself not included. A snapshot: a process forked after
/// the scan is not in it.
std::vector<std::int64_t> descendants(std::int64_t pid);
/// The live processes whose command line (its arguments joined by spaces, as
/// a retitled process such as sshd's listener shows it) starts with `program`
/// and contains `text`.
std::vector<std::int64_t> find_processes_mentioning(std::string_view program,
                                                    std::string_view text);
/// A process's parent; nullopt when there is no such process.
std::optional<std::int64_t> parent_pid(std::int64_t pid);
/// The value of variable `name` in a process's environment as it started
/// (/proc/PID/environ, readable by its owner and root); "" when unset or
/// unreadable.
std::string environment_value(std::int64_t pid, std::string_view name);
/// The real user id of a live process; nullopt when there is no such process.
std::optional<std::uint32_t> real_uid(std::int64_t pid);

/// The name of a user id, or the number as text when it has none.
std::string user_name(std::uint32_t uid);
/// The groups `user` gets at login, as initgroups(3) would set them: `gid`
/// and the groups that list the user; just `gid` when the user has none. For
/// a process about to take on a user's identity: resolved before the fork,
/// where allocating and reading the group database are safe.
std::vector<gid_t> login_groups(const std::string& user, gid_t gid);
/// This machine's short host name.
std::string short_hostname();

}  // namespace stint::proc
