#pragma once
// The contract between stintd and stint-stepd: a launch file stintd writes into
// the job's spool folder before starting stepd, and a result file stepd writes
// (fsynced, renamed into place) when the task has ended. stepd is started as
// `stint-stepd <launch file>`.
//
// Signals stintd sends to a stepd:
//   SIGTERM                      cancel: SIGTERM to the task's process group,
//                                SIGKILL after kill_wait; result.cancelled = true
//   SIGUSR1 via sigqueue(value)  deliver signal `value` to the task's process
//                                group (scancel -s), nothing else

#include <csignal>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <stint/model.hpp>

#include "util/rlimits.hpp"

namespace stint {

inline constexpr int k_stepd_forward_signal = SIGUSR1;

struct TaskLaunch {
  JobId job_id = 0;
  std::uint32_t node_index = 0;  ///< 0..nodes-1 (SLURM_NODEID)
  std::string node_name;
  std::vector<std::string> argv;  ///< argv[0] is the program (the batch script)
  std::vector<std::pair<std::string, std::string>> env;  ///< the complete environment
  std::string work_dir;
  std::string stdout_path;
  std::string stderr_path;             ///< same as stdout_path: both to one file
  std::string stdin_path;              ///< sbatch -i; empty: /dev/null
  bool open_append = false;            ///< --open-mode=append
  std::vector<std::uint32_t> cpu_ids;  ///< virtual CPUs; stepd folds them onto real ones
  Seconds time_limit = k_infinite;
  Seconds kill_wait = 30;
  /// UnkillableStepTimeout: how long processes sent SIGKILL may take to go
  /// before stepd gives up on them and says so (kill_failed).
  Seconds unkillable_timeout = 60;
  std::uint32_t uid = 0;  ///< run as this user when stepd runs as root
  std::uint32_t gid = 0;
  /// Memory limit of the task tree in MiB (0: none). Over it, the task is
  /// killed and the result says out_of_memory.
  std::uint64_t mem_limit_mb = 0;
  /// --signal: a signal sent `before` seconds ahead of the time limit.
  SignalSpec signal;
  std::string result_path;  ///< where to write the TaskResult
  std::string socket_path;  ///< stintd's socket, to report the end (best effort)
  /// Whether the task sees its node (util/node_view): node_name as its host
  /// name, and `hosts_file` (the cluster's, "" for none) as /etc/hosts.
  bool node_view = false;
  std::string hosts_file;
  /// The site's prolog and epilog (slurm.conf Prolog=/Epilog=, the seed's
  /// *_bash_scripts): each an argv, run in order with script_env, before the
  /// task once per node of `script_nodes` (SLURMD_NODENAME) and after it.
  std::vector<std::vector<std::string>> prolog;
  std::vector<std::vector<std::string>> epilog;
  std::vector<std::pair<std::string, std::string>> script_env;
  std::vector<std::string> script_nodes;
  Seconds script_timeout = k_infinite;  ///< PrologEpilogTimeout
  /// slurm.conf PropagateResourceLimits[Except] as a mask (util/rlimits.hpp):
  /// the SLURM_RLIMIT_<NAME> values of `env` stepd applies to the task; those
  /// marked 'U' (sbatch --propagate) it applies whatever this says.
  std::uint32_t propagate_rlimits = k_all_rlimits;
  /// --get-user-env: the task starts with the user's login environment under
  /// `env`, loaded within this long (0: not asked); mode 'S' (su without
  /// "-"), 'L' (su -) or 0 (the default, L).
  Seconds user_env_timeout = 0;
  char user_env_mode = 0;
  /// A run's node: how long its task may use nothing (its GPUs, `gpu_ids`,
  /// at 0 %, or no CPU time without them) before stepd says so in
  /// `activity_path` and tells stintd (StintIdleRunAfter); 0: not watched.
  Seconds idle_after = 0;
  std::string activity_path;
  std::vector<std::uint32_t> gpu_ids;
};

/// What stepd last found of a watched task's use, in launch.activity_path.
struct TaskActivity {
  Seconds idle_since = k_no_time;  ///< k_no_time: in use
  bool gpus = false;               ///< measured on its GPUs, not its CPU time
};

struct TaskResult {
  JobId job_id = 0;
  std::uint32_t node_index = 0;
  int exit_status = 0;         ///< WEXITSTATUS, 0 when signalled
  int exit_signal = 0;         ///< WTERMSIG, 0 when it exited
  bool timed_out = false;      ///< killed by stepd at the time limit
  bool cancelled = false;      ///< killed by stepd on stintd's SIGTERM
  bool launch_failed = false;  ///< the task never started (exec, cwd, output file)
  bool out_of_memory = false;  ///< killed for going over mem_limit_mb
  /// Processes sent SIGKILL were still there after unkillable_timeout
  /// (uninterruptible sleep): stintd drains the node, "Kill task failed".
  bool kill_failed = false;
  std::string error;  ///< why, when launch_failed
  Seconds start_time = 0;
  Seconds end_time = 0;
  std::uint64_t user_cpu_us = 0;
  std::uint64_t sys_cpu_us = 0;
  std::uint64_t max_rss_kb = 0;
  bool prolog_failed = false;  ///< the task did not run (launch_failed is set too)
  bool epilog_failed = false;
  std::string script_node;    ///< the node whose prolog or epilog failed
  std::string script_output;  ///< what the prolog and epilog printed, for stintd's log
};

std::string to_json_text(const TaskLaunch& l);
TaskLaunch task_launch_from_json_text(const std::string& text);  ///< throws Errc::protocol
std::string to_json_text(const TaskResult& r);
TaskResult task_result_from_json_text(const std::string& text);  ///< throws Errc::protocol
std::string to_json_text(const TaskActivity& a);
TaskActivity task_activity_from_json_text(const std::string& text);  ///< throws Errc::protocol

}  // namespace stint
