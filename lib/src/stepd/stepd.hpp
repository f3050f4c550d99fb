#pragma once
// stint-stepd's work as library functions, so that tests run real tasks
// in-process: supervise one task (launch.hpp) to its end, write the result
// file, tell stintd.
//
// The calling process becomes the task's supervisor for the duration: it is
// made a child subreaper, SIGTERM/SIGINT/SIGUSR1/SIGCHLD are blocked and read
// through a signalfd, and every child of the process is treated as part of the
// task (reaped for accounting, killed once the task has ended). So call these
// from a single-threaded process that has no other children: stint-stepd
// itself, or a test (or a child forked by one).
//
// Choices where Slurm leaves room, written down:
// - SIGINT is a cancel like SIGTERM (stepd must not die of a stray ^C).
// - A working directory that cannot be entered is Slurm's "couldn't chdir to
//   `X': ...: going to /tmp instead" line in the job's error file; the task
//   runs in /tmp. An output file that cannot be opened fails the launch.
// - An execve failure is launch_failed with "execve(): <path>: <reason>", the
//   same line goes into the job's error file, and the exit status is errno,
//   as slurmstepd's is.
// - When the task ends, whatever it left running (its process group, and
//   orphans that left the group) is killed at once, as Slurm does.
// - A memory limit (mem_limit_mb) is a cgroup v2 memory.max where stepd may
//   create one that works (cgroup.hpp), the kernel's OOM killer acting on it
//   and Slurm's "Detected N oom-kill event(s)" line at the end, as under
//   task/cgroup. Elsewhere stepd samples the sum of VmRSS over the task's
//   processes every 200 ms and, over the limit, kills them all with SIGKILL
//   after Slurm's "exceeded memory limit (X > Y), being killed" line, as
//   JobAcctGatherParams=OverMemoryKill does. Either way out_of_memory is set;
//   the log says which mechanism ran.
// - max_rss_kb is the larger of wait4's ru_maxrss (the largest single
//   process's peak, exact) and the largest sampled sum over the task's
//   processes (every second without a limit). Slurm's MaxRSS is per task, the
//   sum over the task's process tree; a stepd runs one task, so the sum is that
//   figure, taken between samples by the single-process peak when larger.
// - --signal goes out once, `before` seconds ahead of the time limit (at once
//   when `before` exceeds the limit; never without a limit), to the task's
//   process group, or with B: to the batch shell alone. Slurm without B
//   signals the job's steps and not the batch shell; a stint task has no
//   steps, so the whole group stands in for them.
// - A run's node (launch.idle_after > 0) is sampled for use every quarter of
//   idle_after, between 1 s and a minute (stepd/activity.hpp): its GPUs with
//   nvidia-smi, else its processes' CPU time. A stretch of no use that long is
//   written to launch.activity_path and told to stintd (task_activity), and
//   so is use again; stintd shows the run IDLE and mails its owner.

#include <functional>
#include <string>

#include <stint/model.hpp>

#include "stepd/launch.hpp"

namespace stint::stepd {

/// Why stepd ended a task early, for Slurm's line in the job's error file.
enum class KillCause { cancel, time_limit };

/// Takes stepd's own log lines (which memory mechanism runs, signals sent),
/// without a time stamp or newline. Empty: no log.
using LogFn = std::function<void(const std::string&)>;

/// Starts the task, enforces its time and memory limits, sends --signal,
/// handles stintd's signals, reaps it and what it left behind, and returns
/// what happened. Blocks until then. Never throws for a task that could not
/// start: that is a result with launch_failed set and the reason in `error`.
TaskResult supervise_task(const TaskLaunch& launch, const LogFn& log = {});

/// supervise_task, then the result file (atomically, when result_path is set),
/// then a best-effort task_done to stintd (when socket_path is set). A personal
/// stintd that was killed (its socket left behind) is started again to take it.
/// Throws Errc::io when the result file cannot be written.
TaskResult run_task(const TaskLaunch& launch, const LogFn& log = {});

/// Writes the result to launch.result_path: temporary file, fsync, rename.
void write_result(const TaskLaunch& launch, const TaskResult& result);

/// Sends {"op":"task_done"} to stintd on launch.socket_path and waits briefly
/// for the reply. Returns whether stintd answered; never throws (stintd may be
/// down: it collects result files when it starts).
bool notify_task_done(const TaskLaunch& launch) noexcept;

/// Sends {"op":"task_activity"}: stintd reads launch.activity_path again.
/// Returns whether stintd answered; never throws.
bool notify_task_activity(const TaskLaunch& launch) noexcept;

/// Slurm's line for the job's error file, e.g. `slurmstepd-vm: error: *** JOB 36
/// ON vm CANCELLED AT 2026-11-29T18:02:30 DUE TO TIME LIMIT ***` (local time).
/// Scripts grep for it, so the wording is Slurm's, prefix included.
std::string kill_line(const TaskLaunch& launch, KillCause cause, Seconds when);

/// The prefix of every line stepd writes into the job's output, as Slurm's
/// slurmstepd does: `slurmstepd-<node>: error: ` (`slurmstepd: error: ` without
/// a node name).
std::string output_error_prefix(const TaskLaunch& launch);

}  // namespace stint::stepd
