// A run as a Slurm batch job: sbatch's options and the script that starts
// one job step per rank.

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/run.hpp>

#include "backend/command.hpp"
#include "backend/slurm.hpp"

namespace stint::backend {
namespace {

std::string time_option(Seconds limit) {
  if (limit <= 0) return "UNLIMITED";         // k_infinite (-1) included
  const Seconds minutes = (limit + 59) / 60;  // sbatch's unit; rounded up as stint does
  return fmt::format("{}-{:02}:{:02}:00", minutes / 1440, (minutes / 60) % 24, minutes % 60);
}

RunName name_of(const ClusterRun& run) { return RunName{run.project, run.number}; }

}  // namespace

std::string slurm_partition(const SlurmBackendConfig& config, const std::string& server_type) {
  if (auto it = config.partitions.find(server_type); it != config.partitions.end())
    return it->second;
  return server_type;
}

std::string rank_output_path(const ClusterRun& run, std::uint32_t rank) {
  std::string dir = run.spec.submit_dir.empty() ? "." : run.spec.submit_dir;
  return fmt::format("{}/run-{}.{}.out", dir, run.cluster_job_id, rank);
}

SlurmSubmission slurm_submission(const ClusterRun& run, const SlurmBackendConfig& config,
                                 const std::string& bin_dir) {
  const std::string srun = shell_quote(bin_dir.empty() ? "srun" : bin_dir + "/srun");
  const std::string scontrol = shell_quote(bin_dir.empty() ? "scontrol" : bin_dir + "/scontrol");
  const JobSpec& spec = run.spec;
  const RunInfo& info = *spec.run;
  const std::uint32_t world = spec.nodes.value_or(1);
  const std::string dir = spec.submit_dir.empty() ? "." : spec.submit_dir;

  SlurmSubmission s;
  auto& o = s.options;
  o.push_back("--parsable");
  o.push_back("--job-name=" + (spec.name.empty() ? name_of(run).text() : spec.name));
  o.push_back(fmt::format("--nodes={}", world));
  o.push_back("--ntasks-per-node=1");
  if (spec.cpus_per_task) o.push_back(fmt::format("--cpus-per-task={}", *spec.cpus_per_task));
  if (spec.mem_per_node_mb) o.push_back(fmt::format("--mem={}M", *spec.mem_per_node_mb));
  if (spec.gpus_per_node && *spec.gpus_per_node > 0)
    o.push_back(fmt::format("--gpus-per-node={}", *spec.gpus_per_node));
  if (spec.time_limit) o.push_back("--time=" + time_option(*spec.time_limit));
  if (const std::string p = slurm_partition(config, spec.partition.value_or("")); !p.empty())
    o.push_back("--partition=" + p);
  if (!config.account.empty()) o.push_back("--account=" + config.account);
  o.push_back("--chdir=" + dir);
  o.push_back(fmt::format("--output={}/run-%j.batch.out", dir));

  // The script: the run's variables for every rank, the first node's address
  // as MASTER_ADDR (its NodeAddr: node names need not resolve, as with
  // several slurmd on one host), then one step per rank, so that each rank's
  // state, exit code and host are Slurm's own records (sacct: <job>.<step>).
  std::string& sh = s.script;
  sh += "#!/bin/sh\n";
  sh += fmt::format("# stint run {}: one job step per rank (stint's slurm backend)\n",
                    name_of(run).text());
  for (const auto& [name, value] : info.env)
    sh += fmt::format("export {}={}\n", name, shell_quote(value));
  sh += fmt::format("first=$({} show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n", scontrol);
  sh += fmt::format(
      "addr=$({} show node \"$first\" -o 2>/dev/null | tr ' ' '\\n' | "
      "sed -n 's/^NodeAddr=//p' | head -n 1)\n",
      scontrol);
  sh += "MASTER_ADDR=${addr:-$first}\nexport MASTER_ADDR\npids=\n";
  std::string command;
  for (const auto& word : info.command) command += " " + shell_quote(word);
  for (std::uint32_t rank = 0; rank < world; ++rank) {
    sh += "(\n";
    for (const auto& [name, value] :
         run::rank_environment(name_of(run), rank, world, "", run.ports)) {
      if (name == "MASTER_ADDR") continue;
      sh += fmt::format("  export {}={}\n", name, shell_quote(value));
    }
    sh += fmt::format(
        "  exec {3} --nodes=1 --ntasks=1 --relative={0} --job-name=rank{0} --output={1} --{2}\n",
        rank, shell_quote(fmt::format("{}/run-%j.{}.out", dir, rank)), command, srun);
    sh += ") &\npids=\"$pids $!\"\n";
  }
  sh +=
      "rc=0\nfor pid in $pids; do\n  wait \"$pid\"; s=$?\n"
      "  if [ \"$rc\" -eq 0 ]; then rc=$s; fi\ndone\n";
  if (info.keep_alive)
    sh +=
        "echo \"stint: every rank has ended (exit $rc); the nodes are kept until run-stop\"\n"
        "while :; do sleep 3600; done\n";
  sh += "exit \"$rc\"\n";
  return s;
}

}  // namespace stint::backend
