#pragma once
/// Slurm's little languages: time limits, dates, memory sizes, GRES, hostlists,
/// file name patterns, and the formatting that goes back the other way.
/// Every parser throws stint::Error (Errc::invalid_argument or a more specific
/// code) on malformed input and never accepts part of a string.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint::parse {

/// A time limit as sbatch -t takes it: "minutes", "minutes:seconds",
/// "hours:minutes:seconds", "days-hours", "days-hours:minutes",
/// "days-hours:minutes:seconds", or "UNLIMITED"/"INFINITE"/"-1" (k_infinite).
/// Fields are not range-checked ("1:60:00" is two hours), as in Slurm. The result
/// is in seconds but rounded up to whole minutes, as Slurm stores limits ("0:30"
/// gives 60); a zero limit ("0", "0:00") means no limit and gives k_infinite, as
/// sbatch does. Throws Errc::invalid_time "Invalid --time specification" for
/// anything else, including what Slurm lets through by accident: signed numbers
/// ("-5"), empty fields ("1-", "5:"), and values over 2^31-1 seconds.
Seconds time_limit(std::string_view text);
/// The same grammar as a plain duration (slurm.conf's PreemptExemptTime,
/// DefaultTime...): exact seconds, no rounding, "0" is 0; the infinite words give
/// k_infinite. Throws Errc::invalid_time naming the text.
Seconds duration(std::string_view text);

/// squeue's TIME form (_print_secs): "M:SS", "H:MM:SS", "D-HH:MM:SS"; k_infinite
/// prints "UNLIMITED" and other negatives "INVALID". Unlike squeue, durations over
/// a year print as they are rather than "INVALID".
std::string format_duration(Seconds s);
/// The fixed form of scontrol (TimeLimit, RunTime) and sacct (Elapsed,
/// Timelimit): "HH:MM:SS" or "D-HH:MM:SS"; "UNLIMITED" for k_infinite.
std::string format_duration_fixed(Seconds s);
/// squeue -l TIME_LIMIT: format_duration's form ("5:00", "UNLIMITED"). scontrol's
/// TimeLimit uses format_duration_fixed instead ("00:05:00").
std::string format_time_limit(Seconds s);

/// A memory size: an integer with an optional suffix K, M, G, T (powers of 1024,
/// case-insensitive; default M), optionally followed by "B" ("4GB"), as Slurm's
/// str_to_mbytes. Returns MiB, rounding KiB up. "0" is valid. Throws
/// Errc::invalid_argument naming the text on junk, signs and overflow.
std::uint64_t memory_mb(std::string_view text);
/// The same, with Slurm's message for an option: memory_mb("abc", "--mem")
/// throws "Invalid --mem specification".
std::uint64_t memory_mb(std::string_view text, std::string_view option);
/// MiB back to Slurm's text (sacct ReqMem, TRES mem=): the largest unit that
/// divides exactly, "100M", "1536M", "2G", "1T"; 0 prints "0".
std::string format_memory_mb(std::uint64_t mb);

/// --gres for GPUs: "gpu" (N=1), "gpu:N", "gpu:TYPE" (N=1), "gpu:TYPE:N"; "none"
/// gives count 0. TYPE starts with a letter and holds letters, digits, '_', '-'
/// and '.'. Slurm takes a comma-separated list of GRES, but only gpu is known
/// here and only once, so a list, another name or junk throws Errc::invalid_gres
/// "Invalid generic resource (gres) specification".
struct GpuRequest {
  std::string type;  ///< empty: any
  std::uint32_t count = 0;
};
GpuRequest gres(std::string_view text);
/// -G/--gpus and --gpus-per-node: "N" or "TYPE:N"; throws like gres().
GpuRequest gpus(std::string_view text);

/// Hostlists: "node[01-04,7],login" <-> {"node01",...,"node04","node7","login"}.
/// Expansion keeps the order written and the zero padding (the width of a
/// range's low end); several bracket groups multiply ("r[0-1]_b[0-1]", the first
/// varying slowest); empty items ("a,,b") are skipped as in Slurm. Throws
/// Errc::invalid_argument on bad brackets or ranges, blanks, or more than 65536
/// names. "" gives no names.
std::vector<std::string> expand_hostlist(std::string_view text);
/// The inverse, as Slurm prints NODELIST: consecutive numbers with the same
/// prefix and width fold into ranges ("vm[1-3,5]"), in the order given (no
/// sorting, duplicates kept); a lone numbered name has no brackets ("vm1").
std::string compress_hostlist(const std::vector<std::string>& hosts);
/// Slurm's compressed per-node counts (SLURM_TASKS_PER_NODE): equal
/// neighbours fold, "2(x3),1".
std::string compress_counts(const std::vector<std::uint32_t>& counts);

/// Which way date_time fills in what a date leaves out (Slurm's `past` flag).
enum class Resolve {
  future,  ///< --begin, --deadline: a time of day already passed means tomorrow
  past,    ///< sacct -S/-E: a time of day means today, a month to come last year
};
/// A date/time as --begin and sacct -S take it: "now", "now+1hour", "now-30"
/// (units seconds, minutes, hours, days, weeks, singular or plural; default
/// seconds), "HH:MM[:SS]" with optional "AM"/"PM", "midnight", "noon",
/// "elevenses" (11:00), "fika" (15:00), "teatime" (16:00), "YYYY-MM-DD",
/// "MM/DD[/YY]", "MM.DD[.YY]", "MMDD[YY]", "today", "tomorrow", and a date and a
/// time together joined by blanks, '-' or 'T' ("2026-12-01T10:00", "tomorrow
/// noon"). A time alone is today's or tomorrow's, whichever comes next (hours and
/// minutes compared, as Slurm); a date alone is its midnight; a date without year
/// is this year's unless passed. `now` is the reference time; the local time zone
/// applies. Throws Errc::invalid_time naming the text.
Seconds date_time(std::string_view text, Seconds now);
/// The same, resolving toward the past or the future.
Seconds date_time(std::string_view text, Seconds now, Resolve resolve);
/// Slurm's timestamp form "2026-11-29T18:15:44" in local time; k_no_time and
/// k_infinite print "Unknown"; the squeue form with "N/A" is the caller's choice.
std::string format_timestamp(Seconds t);

/// The step id of a batch script (Slurm's SLURM_BATCH_SCRIPT); %s prints "batch".
inline constexpr std::uint32_t k_batch_step = 0xfffffffb;

/// Values a file name pattern may use.
struct PatternValues {
  JobId job_id = 0;
  JobId array_job_id = 0;                    ///< %A (0: same as job_id)
  std::uint32_t array_task_id = 0xfffffffe;  ///< %a (4294967294 when not an array)
  std::string job_name;                      ///< %x
  std::string user;                          ///< %u
  std::string node;                          ///< %N (first node)
  std::uint32_t step_id = k_batch_step;      ///< %s: "batch" for the batch script, else N
  std::uint32_t task_id = 0;                 ///< %t
  std::uint32_t node_index = 0;              ///< %n (0: the first node of the job)
};
/// Expands %j %J %A %a %x %u %N %n %s %t %% (with optional zero-padding width,
/// e.g. %4j -> 0217, at most 10, numbers only, as Slurm does). %J is
/// "jobid.stepid", just the job id for the batch step. Unknown letters, and a
/// trailing "%", are left as written. As in Slurm, a backslash anywhere turns
/// expansion off: backslashes are dropped ("\\" leaves one) and the rest is kept.
std::string expand_pattern(std::string_view pattern, const PatternValues& v);

/// A non-negative integer option value (e.g. -N, -n); throws
/// Errc::invalid_argument with Slurm's wording, `Invalid numeric value "x" for
/// <what>.`, on junk and negatives, and "Numeric argument (x) too big for <what>."
/// past 2^32-1.
std::uint32_t count(std::string_view text, std::string_view what);
/// The same, refusing 0 too (-c 0: `Invalid numeric value "0" for --cpus-per-task.`).
std::uint32_t positive_count(std::string_view text, std::string_view what);

/// An array spec as sbatch --array takes it: "0-15", "1,3,5", "0-99:2",
/// "1-10%2" (ranges, lists, :step, %throttle). The task ids as a TaskSet:
/// "0-999999" is one run, never a million ids. Throws Errc::invalid_argument with Slurm's message
/// "Invalid --array specification" on junk, empty ranges, a step of 0, or a
/// task id above `max_array_size - 1` (MaxArraySize).
struct ArraySpec {
  TaskSet tasks;
  std::uint32_t throttle = 0;  ///< %N; 0 = no limit
};
ArraySpec array_spec(std::string_view text, std::uint32_t max_array_size);
/// Task ids folded back into Slurm's range form: {1,2,3,5} -> "1-3,5"; with a
/// step when regular ({0,2,4} -> "0-4:2").
std::string format_task_ids(const std::vector<std::uint32_t>& ids);

/// A dependency expression as sbatch -d takes it: "afterok:12:13,afterany:14",
/// "afterok:12?afternotok:13", "after:12+5" (minutes), "afterok:12_3",
/// "aftercorr:12", "singleton". Throws Errc::invalid_argument with the message
/// "Job dependency problem" on junk (unknown type, non-numeric id, mixing ','
/// and '?', empty terms).
Dependency dependency(std::string_view text);
/// Back to text as scontrol shows it, without the state suffixes:
/// "afterok:12_*" for a whole array is the caller's business; this prints
/// "afterok:12,afterany:14_3", "after:12+5" (minutes), "singleton".
std::string format_dependency(const Dependency& d);

/// --signal=[{R|B}:]<sig_num|sig_name>[@sig_time]: signal by number or name
/// (USR1, SIGUSR1), time in seconds (default 60, at most 65535). Throws
/// Errc::invalid_argument "Invalid --signal specification".
SignalSpec signal_spec(std::string_view text);
/// A signal by name ("TERM", "SIGUSR1", "usr1") or number; nullopt if unknown.
std::optional<int> signal_number(std::string_view text);

}  // namespace stint::parse
STINT_API_END
