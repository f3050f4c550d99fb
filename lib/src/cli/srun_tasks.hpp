#pragma once
// Running the tasks of one job step (srun): fork and exec each with its own
// environment and CPUs, in srun's process group (so that stepd's signals to
// the job reach them as they reach the batch script), forward the signals
// sent to srun alone, carry the tasks' stdin and output through srun (and to
// sattach: cli/srun_io.hpp), and reap each task with its usage.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace stint::cli {

struct StepTask {
  std::uint32_t task_id = 0;  ///< SLURM_PROCID
  std::string node;           ///< for srun's messages
  std::vector<int> cpus;      ///< real CPUs to bind to (empty: no binding)
  std::vector<std::pair<std::string, std::string>> env;  ///< complete environment
  std::string stdout_path;                               ///< empty: srun's own stdout
  std::string stderr_path;        ///< empty: srun's own stderr (or stdout's file if that is set)
  bool takes_stdin = false;       ///< srun's stdin (and sattach's); the others read /dev/null
  std::string stdin_path;         ///< -i FILE: the task reads this file instead
  std::vector<std::string> argv;  ///< its own program (--multi-prog, --bcast); empty: the step's
  /// A descriptor the task inherits under its own number (the PMI socket of
  /// --mpi=pmi2, named by PMI_FD in its environment); -1: none.
  int inherited_fd = -1;
};

struct StepOptions {
  std::vector<std::string> argv;
  std::string work_dir;           ///< empty: srun's own
  bool label = false;             ///< -l: "T: " before each line
  bool unbuffered = false;        ///< -u: output passed on as read, not by lines
  bool kill_on_bad_exit = false;  ///< -K: a task that fails ends the others
  bool open_append = false;
  /// Signals from this pid reached the tasks already (stepd signals the
  /// job's process group): srun forwards only the others.
  pid_t group_signaller = 0;
  /// --pty: task 0 on a pseudo-terminal of its own (cli/srun_pty.hpp); the
  /// other tasks' output goes to /dev/null, as Slurm's.
  bool pty = false;
  /// Each task in a process group of its own, signalled as a group: srun is
  /// not in the job's process group (a step from salloc's shell, --jobid),
  /// so stepd's signals to the job would not reach the tasks' children.
  bool own_groups = false;
  /// Asked twice a second: nullopt while the allocation runs; once it has
  /// ended, why, as the end of slurmstepd's line ("" for scancel, " DUE TO
  /// TIME LIMIT"). The tasks then get SIGTERM, and SIGKILL kill_wait seconds
  /// later: a step run from salloc's shell is not in the job's process group.
  std::function<std::optional<std::string>()> allocation_ended = nullptr;
  /// --cpu-bind=verbose: each task says its binding on its stderr, as
  /// slurmstepd does ("cpu-bind=MASK - n-1, task  0  0 [pid]: mask 0x1 set").
  bool cpu_bind_verbose = false;
  std::string task_prolog;  ///< run before each task; its "export"/"unset"/"print" lines act
  std::string task_epilog;  ///< run after each task, in its environment
  /// -W: the tasks still running this many seconds after the first ended are
  /// killed (0: never).
  std::uint32_t wait_after_first = 0;
  std::string step_label;                              ///< "12.0", for srun's messages
  std::function<int()> kill_wait = [] { return 30; };  ///< KillWait, read when needed
  /// Called once every task has been started (before any has been reaped).
  std::function<void()> on_launched = nullptr;
  /// The abstract socket sattach finds the step's I/O at
  /// (step_io_socket_name); empty: none.
  std::string io_socket;
  /// SrunOptions::voice: an exec failure is the shell's 127 (126 when it is
  /// not executable) with "<voice>: <program>: command not found".
  std::string voice;
  /// The cluster's hosts file (daemon/node_hosts.hpp): each task sees its
  /// node's name and this file as /etc/hosts (util/node_view.hpp). Empty, or
  /// no such file: the tasks see the machine as it is.
  std::string hosts_file;
};

struct TaskOutcome {
  std::uint32_t task_id = 0;
  std::string node;
  int exit_status = 0;
  int exit_signal = 0;
  std::uint64_t user_cpu_us = 0;
  std::uint64_t sys_cpu_us = 0;
  std::uint64_t max_rss_kb = 0;
};

/// Runs the tasks to their end; throws Errc::io when one cannot be started
/// (the ones started are killed first).
std::vector<TaskOutcome> run_step_tasks(const std::vector<StepTask>& tasks,
                                        const StepOptions& options);

}  // namespace stint::cli
