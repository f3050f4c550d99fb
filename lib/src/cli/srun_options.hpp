#pragma once
// srun's options: one table (cli/srun_table.cpp) for the parser, --help, the
// man page's OPTIONS section and the completion, read with getopt_long's
// rules (cli/option_table.hpp), as sbatch's and salloc's are.
//
// The options srun shares with sbatch keep sbatch's ids (SbatchOpt): outside
// an allocation they become the new job's, spelled as sbatch spells them, so
// that they mean what they mean to sbatch. srun's own options have ids of
// their own (SrunOpt), numbered after sbatch's.
//
// Precedence (Slurm's src/srun/libsrun/opt.c): the SLURM_* input environment
// variables, then the command line.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/option_table.hpp"
#include "cli/sbatch_options.hpp"
#include "cli/srun.hpp"

namespace stint::cli {

/// srun's own options, numbered after sbatch's (OptionSpec::id).
enum class SrunOpt : int {
  accel_bind = 200,
  bcast,
  bcast_exclude,
  compress,
  cpu_bind,
  debugger_test,
  disable_status,
  epilog,
  exact,
  het_group,
  immediate,
  interactive,
  jobid,
  kill_on_bad_exit,
  label,
  mpi,
  msg_timeout,
  multi_prog,
  no_allocate,
  overlap,
  preserve_env,
  prolog,
  pty,
  quit_on_interrupt,
  relative,
  resv_ports,
  send_libs,
  slurmd_debug,
  task_epilog,
  task_prolog,
  threads,
  unbuffered,
  wait,
  whole,
  x11,
};

/// srun's option table, in --help order.
std::span<const OptionSpec> srun_option_table();

/// What srun's command line asks for.
struct SrunCommandLine {
  enum class Action : std::uint8_t {
    run,            ///< run the command as a step
    help,           ///< --help
    usage,          ///< --usage
    version,        ///< --version
    mpi_list,       ///< --mpi=list: print the MPI types
    cpu_bind_help,  ///< --cpu-bind=help
    hint_help,      ///< --hint=help
    mem_bind_help,  ///< --mem-bind=help
  };
  Action action = Action::run;
  SrunOptions options;
  /// Lines srun prints on standard error before it runs the step, without
  /// the "srun: " prefix ("Warning: can't run 1 processes on 2 nodes, ...").
  /// -Q silences them, as it silences Slurm's info lines.
  std::vector<std::string> notices;
};

/// Reads srun's command line (without argv[0]) and its input environment
/// variables: the SLURM_* (and SRUN_*) variables first, the command line
/// over them, then the command from the first operand on. Pure: nothing is
/// read but `environment`.
/// Throws UsageError for getopt's errors, stint::Error with Slurm's message
/// for a bad value (exit 255 where Slurm's option parser exits -1, 1 where
/// srun's own checks do), and for an option this machine cannot honour.
SrunCommandLine parse_srun_command_line(const std::vector<std::string>& args,
                                        const EnvList& environment);

/// The MPI types this machine has, as `srun --mpi=list` prints them.
std::string srun_mpi_list_text();
/// What `srun --cpu-bind=help` prints.
std::string_view srun_cpu_bind_help();

std::string srun_help_text();
std::string srun_usage_text();

}  // namespace stint::cli
