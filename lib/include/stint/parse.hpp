#pragma once
/// Slurm's little languages: time limits, dates, memory sizes, GRES, hostlists,
/// file name patterns, and the formatting that goes back the other way.
/// Every parser throws stint::Error (Errc::invalid_argument or a more specific
/// code) on malformed input and never accepts part of a string.

#include <stint/model.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stint::parse {

/// A time limit as sbatch -t takes it: "minutes", "minutes:seconds",
/// "hours:minutes:seconds", "days-hours", "days-hours:minutes",
/// "days-hours:minutes:seconds", or "UNLIMITED"/"INFINITE"/"-1" (k_infinite).
/// Throws Errc::invalid_time for anything else (e.g. "1:2:3:4", "abc", "-5").
Seconds time_limit(std::string_view text);

/// A duration as Slurm prints it in squeue's TIME and sacct's Elapsed:
/// "M:SS", "H:MM:SS", "D-HH:MM:SS"; k_infinite prints "UNLIMITED".
std::string format_duration(Seconds s);
/// sacct's fixed form: "HH:MM:SS" or "D-HH:MM:SS" (Elapsed, Timelimit).
std::string format_duration_fixed(Seconds s);
/// squeue -l TIME_LIMIT / scontrol TimeLimit form: like format_duration but
/// "UNLIMITED" for k_infinite.
std::string format_time_limit(Seconds s);

/// A memory size: an integer with an optional suffix K, M, G, T (powers of 1024,
/// case-insensitive; default M). Returns MiB, rounding KiB up. "0" is valid.
std::uint64_t memory_mb(std::string_view text);
/// MiB back to Slurm's text: "100M", "2G" when a whole number of GiB.
std::string format_memory_mb(std::uint64_t mb);

/// --gres for GPUs: "gpu:N", "gpu:TYPE:N", "gpu" (N=1), several joined by ','
/// (only gpu is known; anything else throws Errc::invalid_gres).
struct GpuRequest {
  std::string type;  ///< empty: any
  std::uint32_t count = 0;
};
GpuRequest gres(std::string_view text);
/// -G/--gpus and --gpus-per-node: "N" or "TYPE:N".
GpuRequest gpus(std::string_view text);

/// Hostlists: "node[01-04,7],login" <-> {"node01",...,"node04","node7","login"}.
/// Expansion keeps the order written and the zero padding; throws on bad
/// brackets or ranges.
std::vector<std::string> expand_hostlist(std::string_view text);
/// The inverse, as Slurm prints NODELIST: consecutive numbers with the same
/// prefix and width fold into ranges ("vm[1-3,5]").
std::string compress_hostlist(const std::vector<std::string>& hosts);

/// A date/time as --begin and sacct -S take it: "now", "now+1hour" (units
/// seconds, minutes, hours, days, weeks; default seconds), "HH:MM[:SS]" (today,
/// or tomorrow if passed), "YYYY-MM-DD[THH:MM[:SS]]", "MM/DD[/YY]", "midnight",
/// "noon", "today", "tomorrow". `now` is the reference time (local time zone).
Seconds date_time(std::string_view text, Seconds now);
/// Slurm's timestamp form "2026-11-29T18:15:44" in local time; k_no_time prints
/// "Unknown"; the squeue form with "N/A" is the caller's choice.
std::string format_timestamp(Seconds t);

/// Values a file name pattern may use.
struct PatternValues {
  JobId job_id = 0;
  JobId array_job_id = 0;        ///< %A (0: same as job_id)
  std::uint32_t array_task_id = 0xfffffffe;  ///< %a (4294967294 when not an array)
  std::string job_name;          ///< %x
  std::string user;              ///< %u
  std::string node;              ///< %N (first node)
  std::uint32_t step_id = 0;     ///< %s (batch step prints "batch")
  std::uint32_t task_id = 0;     ///< %t
};
/// Expands %j %J %A %a %x %u %N %s %t %% (with optional zero-padding width,
/// e.g. %4j -> 0217, as Slurm does); unknown letters are left as written.
std::string expand_pattern(std::string_view pattern, const PatternValues& v);

/// A non-negative integer option value (e.g. -N, -n, -c); throws
/// Errc::invalid_argument naming `what` on junk, negatives or overflow.
std::uint32_t count(std::string_view text, std::string_view what);

}  // namespace stint::parse
