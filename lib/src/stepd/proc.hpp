#pragma once
// Reading the task's processes from /proc (internal to the stepd module): who
// descends from the supervisor, and how much memory and CPU time they hold.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace stint::stepd::detail {

/// The live children of `pid`, from /proc/<pid>/task/*/children
/// (CONFIG_PROC_CHILDREN), or from a scan of /proc/*/stat where that is missing.
std::vector<pid_t> children_of(pid_t pid);

/// Every live descendant of `root` (not `root` itself), parents before their
/// children. The supervisor is a child subreaper, so for it this is the whole
/// task: what the task started, and what was orphaned on the way.
std::vector<pid_t> descendants_of(pid_t root);

/// The resident set of one process in KiB (VmRSS, from /proc/<pid>/statm);
/// 0 for a process that is gone or a zombie.
std::uint64_t rss_kb(pid_t pid);

/// A process's command name (/proc/<pid>/comm: its program's file name, cut
/// at 15 characters); "" for one that is gone.
std::string command_name(pid_t pid);

/// The sum of rss_kb over `pids`.
std::uint64_t rss_kb_sum(const std::vector<pid_t>& pids);

/// utime + stime + cutime + cstime, in clock ticks, from the text of
/// /proc/<pid>/stat (fields 14 to 17, after the parenthesised command); 0
/// when it does not parse.
std::uint64_t cpu_ticks_from_stat(std::string_view stat_text);

/// The sum of cpu_ticks_from_stat over `pids` (gone ones count 0): the CPU
/// time of the task's processes and of the children they reaped.
std::uint64_t cpu_ticks_sum(const std::vector<pid_t>& pids);

/// The parent pid in the text of /proc/<pid>/stat (the field after the
/// parenthesised command, which may itself hold spaces and parentheses);
/// -1 when the text does not parse.
pid_t parent_from_stat(const std::string& stat_text);

}  // namespace stint::stepd::detail
