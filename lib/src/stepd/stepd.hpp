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

#include <string>

#include <stint/model.hpp>

#include "stepd/launch.hpp"

namespace stint::stepd {

/// How long stepd waits, after the task has ended and the processes it left
/// behind were sent SIGKILL, for them to be reaped before writing the result
/// anyway (a process stuck in uninterruptible sleep must not hold the job).
inline constexpr Seconds k_drain_timeout = 5;

/// Why stepd ended a task early, for Slurm's line in the job's error file.
enum class KillCause { cancel, time_limit };

/// Starts the task, enforces its time limit, handles stintd's signals, reaps
/// it and what it left behind, and returns what happened. Blocks until then.
/// Never throws for a task that could not start: that is a result with
/// launch_failed set and the reason in `error`.
TaskResult supervise_task(const TaskLaunch& launch);

/// supervise_task, then the result file (atomically, when result_path is set),
/// then a best-effort task_done to stintd (when socket_path is set).
/// Throws Errc::io when the result file cannot be written.
TaskResult run_task(const TaskLaunch& launch);

/// Writes the result to launch.result_path: temporary file, fsync, rename.
void write_result(const TaskLaunch& launch, const TaskResult& result);

/// Sends {"op":"task_done"} to stintd on launch.socket_path and waits briefly
/// for the reply. Returns whether stintd answered; never throws (stintd may be
/// down: it collects result files when it starts).
bool notify_task_done(const TaskLaunch& launch) noexcept;

/// Slurm's line for the job's error file, e.g. `slurmstepd-vm: error: *** JOB 36
/// ON vm CANCELLED AT 2026-11-29T18:02:30 DUE TO TIME LIMIT ***` (local time).
/// Scripts grep for it, so the wording is Slurm's, prefix included.
std::string kill_line(const TaskLaunch& launch, KillCause cause, Seconds when);

/// The prefix of every line stepd writes into the job's output, as Slurm's
/// slurmstepd does: `slurmstepd-<node>: error: ` (`slurmstepd: error: ` without
/// a node name).
std::string output_error_prefix(const TaskLaunch& launch);

}  // namespace stint::stepd
