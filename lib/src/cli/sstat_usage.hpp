#pragma once
// sstat's figures: what /proc says of one process, a task's sum over its
// processes, and a step's Max/Min/Ave over its tasks as Slurm's
// jobacct_gather/linux and jobacctinfo_aggregate compute them. Pure.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stint::cli::sstat {

/// The TRES an sstat usage figure is of, in the order Slurm prints them
/// ("cpu=...,energy=...,fs/disk=...,mem=...,pages=...,vmem=...").
enum class Tres : std::uint8_t { cpu, energy, fs_disk, mem, pages, vmem };
inline constexpr std::size_t k_tres_count = 6;
/// "cpu", "energy", "fs/disk", "mem", "pages", "vmem".
std::string_view tres_name(Tres t);

/// One figure per TRES; nullopt where Slurm has none (NO_VAL).
using TresValues = std::array<std::optional<std::uint64_t>, k_tres_count>;
using TresNodes = std::array<std::optional<std::string>, k_tres_count>;

/// What the step variables in a process's environment say.
struct ProcessEnv {
  std::string job_id;      ///< SLURM_JOB_ID
  std::string step_id;     ///< SLURM_STEP_ID; empty in the batch script's processes
  std::uint32_t task = 0;  ///< SLURM_PROCID
  std::string node;        ///< SLURMD_NODENAME
  std::string conf;        ///< SLURM_CONF: names the cluster's state directory
};
/// The variables of /proc/PID/environ (NUL-separated NAME=value); nullopt
/// without SLURM_JOB_ID.
std::optional<ProcessEnv> parse_environ(std::string_view environ);

/// One process's figures.
struct ProcessFigures {
  std::uint64_t cpu_ticks = 0;      ///< utime + stime + cutime + cstime, clock ticks
  std::uint64_t major_faults = 0;   ///< majflt + cmajflt
  std::uint64_t rss_kb = 0;         ///< VmRSS
  std::uint64_t rss_peak_kb = 0;    ///< VmHWM
  std::uint64_t vsize_kb = 0;       ///< VmSize
  std::uint64_t vsize_peak_kb = 0;  ///< VmPeak
  std::uint64_t read_bytes = 0;     ///< rchar
  std::uint64_t write_bytes = 0;    ///< wchar
};
/// /proc/PID/stat: the CPU times and major faults; false when it cannot be read.
bool parse_proc_stat(std::string_view text, ProcessFigures& out);
/// /proc/PID/status: VmRSS, VmHWM, VmSize, VmPeak (kernel threads have none).
void parse_proc_status(std::string_view text, ProcessFigures& out);
/// /proc/PID/io: rchar and wchar.
void parse_proc_io(std::string_view text, ProcessFigures& out);
/// The "cpu MHz" of /proc/cpuinfo's first processor, whole; 0 without one.
std::uint32_t parse_cpuinfo_mhz(std::string_view text);

/// One task of a step: the sum over its processes, as slurmstepd's gatherer
/// adds a task's descendants to it.
struct TaskUsage {
  std::uint32_t task = 0;
  std::string node;
  std::vector<int> pids;  ///< ascending
  std::uint32_t cpu_mhz = 0;
  ProcessFigures sum;
};
/// Adds one process to its task.
void add_process(TaskUsage& task, int pid, const ProcessFigures& figures);

/// A step's figures over its tasks (Slurm's jobacctinfo_2_stats, then
/// sstat's averaging): each TRES's maximum and minimum with the task and node
/// that had it, the total, and the average (the total over the tasks).
struct StepUsage {
  std::uint32_t tasks = 0;
  std::vector<std::string> nodes;  ///< each once, in the tasks' order
  std::vector<int> pids;           ///< every task's, in task order
  double cpu_mhz = 0;              ///< the tasks' average
  TresValues in_max, in_max_task, in_min, in_min_task, in_tot, in_ave;
  TresNodes in_max_node, in_min_node;
  TresValues out_max, out_max_task, out_min, out_min_task, out_tot, out_ave;
  TresNodes out_max_node, out_min_node;
};
/// `tasks` in task order.
StepUsage aggregate(const std::vector<TaskUsage>& tasks, long clock_ticks_per_second);

}  // namespace stint::cli::sstat
