#pragma once
// srun's options and its two ways of running (cli/srun.cpp, srun_alloc.cpp).
// No CLI11 here: the tool's entry (srun_main.cpp) parses into SrunOptions.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <stint/model.hpp>

namespace stint::cli {

struct SrunOptions {
  std::optional<std::uint32_t> ntasks;  ///< -n
  /// -t: inside an allocation, the step's own time limit (k_infinite: none).
  std::optional<Seconds> time_limit;
  std::optional<std::uint32_t> nodes;            ///< -N
  std::optional<std::uint32_t> ntasks_per_node;  ///< --ntasks-per-node
  std::optional<std::uint32_t> cpus_per_task;    ///< -c
  std::optional<std::string> nodelist;           ///< -w
  std::optional<std::string> job_name;           ///< -J
  std::optional<std::string> output;             ///< -o, a pattern (%t, %n, %N, %j, %s)
  std::optional<std::string> error;              ///< -e
  std::optional<std::string> chdir;              ///< -D
  std::string input = "0";  ///< -i: a task's id (0), all, none, or a file pattern
  bool label = false;       ///< -l
  /// -K; unset: slurm.conf's KillOnBadExit.
  std::optional<bool> kill_on_bad_exit;
  bool open_append = false;  ///< --open-mode=append
  bool quiet = false;        ///< -Q
  /// A tool that runs its command as a step (run-exec: "run-exec: mnist/1
  /// node 1") says the command's failure in its own words, as a shell would
  /// ("...: command exited 7", "...: nope: command not found", status 127),
  /// rather than as srun and slurmstepd. Empty: srun's.
  std::string voice;
  bool pty = false;  ///< --pty: task 0 on a terminal of its own
  /// -E: SLURM_NNODES and SLURM_NTASKS as srun found them, not the step's.
  bool preserve_env = false;
  /// --exact: the step gets only the CPUs its tasks ask for, so several
  /// steps run side by side in one allocation.
  bool exact = false;
  /// --overlap (or -s): the step may use CPUs other steps use.
  bool overlap = false;
  /// --multi-prog: command[0] is a file naming each task's program.
  bool multi_prog = false;
  /// -r/--relative: the step's first node, counted within the job's nodes.
  std::optional<std::uint32_t> relative;
  std::string export_spec;  ///< --export (empty: ALL), as sbatch's
  /// --cpu-bind: none, cores, threads, map_cpu:<list>, mask_cpu:<list>,
  /// optionally preceded by verbose or quiet (empty: srun's default, cores).
  std::string cpu_bind;
  std::string mpi;                   ///< --mpi: none or pmi2; empty: slurm.conf's MpiDefault
  std::string task_prolog;           ///< --task-prolog: run in each task's environment first
  std::string task_epilog;           ///< --task-epilog: run after each task
  std::string prolog;                ///< --prolog: run by srun before the step
  std::string epilog;                ///< --epilog: run by srun after the step
  std::optional<std::string> bcast;  ///< --bcast[=dest]: copy the program to each node first
  /// -W/--wait: end the step this many seconds after its first task ended
  /// (0: no limit).
  std::optional<std::uint32_t> wait_after_first;  ///< -W; unset: slurm.conf's WaitTime
  bool unbuffered = false;                        ///< -u: output passed on as the tasks write it
  bool disable_status = false;                    ///< -X: SIGINT goes straight to the tasks
  int verbose = 0;                                ///< -v count
  std::optional<JobId> jobid;                     ///< --jobid: the allocation to run in
  /// -I[secs]: give up unless the allocation (or, inside one, the step's
  /// CPUs) is there at once, or within secs.
  std::optional<std::uint32_t> immediate;
  bool overcommit = false;   ///< -O: more tasks than the nodes' CPUs, sharing them
  std::string distribution;  ///< -m: block, cyclic, plane=N (empty: block)
  /// --het-group: the component of a heterogeneous job the step runs in.
  std::uint32_t het_group = 0;
  /// The allocation's options, used only outside an allocation: the flag as
  /// sbatch spells it and its value ("--time", "10").
  std::vector<std::pair<std::string, std::string>> allocation;
  std::vector<std::string> command;  ///< the program and its arguments
  /// Variables set over srun's own environment before the step's (run-exec:
  /// the run's node environment).
  std::vector<std::pair<std::string, std::string>> environment;
};

/// Runs a step inside the running job `job_id`; returns srun's exit status.
int run_step(const SrunOptions& options, JobId job_id);

/// Outside an allocation: submits a job whose script runs srun with `args`
/// (srun's own arguments) inside it, passes its output through, and returns
/// its exit status once it has ended.
int run_with_allocation(const SrunOptions& options, const std::vector<std::string>& args);

/// Outside an allocation, for a step that needs this process's terminal
/// (--pty): becomes `salloc -Q <the allocation's options> srun <args>`, so the
/// allocation is held while this same srun runs the step from here.
[[noreturn]] void run_with_held_allocation(const SrunOptions& options,
                                           const std::vector<std::string>& args);

}  // namespace stint::cli
