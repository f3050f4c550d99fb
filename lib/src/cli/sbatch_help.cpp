// sbatch's --help and --usage texts, in Slurm's layout (man/sbatch.1's
// OPTIONS section and the bash completion are generated from --help).

#include <string>

#include "cli/sbatch_options.hpp"

namespace stint::cli {

std::string sbatch_help_text() {
  return R"(Usage: sbatch [OPTIONS...] executable [args...]

Parallel run options:
  -a, --array=indexes         job array index values
  -A, --account=name          charge job to specified account
  -b, --begin=time            defer job until HH:MM MM/DD/YY
      --comment=name          arbitrary comment
  -c, --cpus-per-task=ncpus   number of cpus required per task
  -d, --dependency=type:jobid[:time]
                              defer job until condition on jobid is satisfied
      --deadline=time         remove the job if no ending possible before
                              this deadline (start > (deadline - time[-min]))
  -D, --chdir=directory       set working directory for batch script
  -e, --error=err             file for batch script's standard error
      --export[=names]        specify environment variables to export
  -H, --hold                  submit job in held state
  -J, --job-name=jobname      name of job
      --kill-on-invalid-dep=yes|no
                              cancel the job if its dependency can never be
                              satisfied, rather than leave it pending
  -n, --ntasks=ntasks         number of tasks to run
      --nice[=value]          decrease scheduling priority by value
      --no-requeue            if set, do not permit the job to be requeued
  -N, --nodes=N               number of nodes on which to run (N = min[-max])
  -o, --output=out            file for batch script's standard output
      --open-mode=append|truncate
                              open the output and error files in append or
                              truncate mode
  -p, --partition=partition   partition requested
      --priority=value        set the priority of the job to value
      --parsable              outputs only the jobid and cluster name (if present),
                              separated by semicolon, only on successful submission.
  -q, --qos=qos               quality of service
  -Q, --quiet                 quiet mode (suppress informational messages)
      --requeue               if set, permit the job to be requeued
      --signal=[[R][B]:]num[@time]
                              send signal when time limit within time seconds
  -t, --time=minutes          time limit
      --test-only             validate and get estimated start time but do not submit
  -v, --verbose               verbose mode (multiple -v's increase verbosity)
  -W, --wait                  wait for completion of submitted job
      --wrap[=command string] wrap command string in a sh script and submit

Constraint options:
      --mem=MB                minimum amount of real memory
      --mem-per-cpu=MB        maximum amount of real memory per allocated
                              cpu required by the job.
                              --mem >= --mem-per-cpu if --mem is specified.
      --ntasks-per-node=n     number of tasks to invoke on each node

GPU scheduling options:
  -G, --gpus=n                count of GPUs required for the job
      --gpus-per-node=n       number of GPUs required per allocated node
      --gres=list             required generic resources

Help options:
  -h, --help                  show this help message
      --usage                 display brief usage message

Other options:
  -V, --version               output version information and exit

)";
}

std::string sbatch_usage_text() {
  return R"(Usage: sbatch [-N nnodes] [-n ntasks]
              [-c ncpus] [-p partition] [--hold] [--parsable] [-t minutes]
              [-D path] [--output file] [--error file] [-J jobname]
              [--account=name] [--comment=name] [--mem=MB] [--mem-per-cpu=MB]
              [--nice[=value]] [--wait] [--ntasks-per-node=n] [--qos=qos]
              [--gres=list] [--gpus=n] [--gpus-per-node=n] [--quiet]
              [--export[=names]] [--test-only] [--wrap=command]
              [--array=indexes] [--begin=time] [--deadline=time]
              [--dependency=type:jobid[:time]] [--kill-on-invalid-dep=yes|no]
              [--requeue] [--no-requeue] [--open-mode=append|truncate]
              [--signal=[[R][B]:]num[@time]]
              executable [args...]
)";
}

}  // namespace stint::cli
