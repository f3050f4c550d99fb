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
  std::optional<std::uint32_t> ntasks;           ///< -n
  std::optional<std::uint32_t> nodes;            ///< -N
  std::optional<std::uint32_t> ntasks_per_node;  ///< --ntasks-per-node
  std::optional<std::uint32_t> cpus_per_task;    ///< -c
  std::optional<std::string> nodelist;           ///< -w
  std::optional<std::string> job_name;           ///< -J
  std::optional<std::string> output;             ///< -o, a pattern (%t, %n, %N, %j, %s)
  std::optional<std::string> error;              ///< -e
  std::optional<std::string> chdir;              ///< -D
  std::string input = "0";                       ///< -i: 0 (task 0), all, none
  bool label = false;                            ///< -l
  bool kill_on_bad_exit = false;                 ///< -K
  bool open_append = false;                      ///< --open-mode=append
  bool quiet = false;                            ///< -Q
  bool pty = false;                              ///< --pty: task 0 on a terminal of its own
  /// -E: SLURM_NNODES and SLURM_NTASKS as srun found them, not the step's.
  bool preserve_env = false;
  std::optional<JobId> jobid;  ///< --jobid: the allocation to run in
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
