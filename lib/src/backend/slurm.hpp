#pragma once
// The slurm run backend: a run becomes a job of a real Slurm
// cluster. The pure parts (the batch script and sbatch's options, reading
// sacct's and scontrol's answers into the registry's record) are separate
// from the part that runs the cluster's commands, so they are tested alone.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>
#include <stint/store.hpp>

#include "backend/command.hpp"

namespace stint::backend {

/// What sbatch is given for a run: its options, and the script on stdin.
struct SlurmSubmission {
  std::vector<std::string> options;  ///< after "sbatch", "--parsable" first
  std::string script;
};

/// The cluster partition a server type maps to ("" the cluster's default).
std::string slurm_partition(const SlurmBackendConfig& config, const std::string& server_type);

/// The batch job of a run (numbered, its ports given): one job of N nodes
/// whose script starts rank i as job step "rank<i>" on node i (srun
/// --relative), each with the run's variables and RANK, NODE_RANK,
/// LOCAL_RANK, WORLD_SIZE, MASTER_ADDR (the first node's address),
/// MASTER_PORT and the port variables of run::rank_environment. Each rank's
/// output goes to <submit dir>/run-<job id>.<rank>.out, as the local
/// backend's. The script exits with the first failing rank's status; with
/// keep-alive it then holds the allocation until scancel.
/// `bin_dir`: where srun and scontrol are on the nodes ("" PATH).
SlurmSubmission slurm_submission(const ClusterRun& run, const SlurmBackendConfig& config,
                                 const std::string& bin_dir = {});

/// The output file of rank `rank` (run-logs).
std::string rank_output_path(const ClusterRun& run, std::uint32_t rank);

/// One line of `sacct --parsable2 --noheader --format=<k_sacct_format>`.
struct SacctRecord {
  std::string job_id;     ///< JobIDRaw: "12", "12.batch", "12.0"
  std::string name;       ///< JobName: a rank's step is "rank<i>"
  std::string state;      ///< "COMPLETED", "CANCELLED by 0"
  std::string exit_code;  ///< "1:0"
  std::string node_list;
  std::string partition;
  std::string submit, start, end;  ///< epoch seconds (SLURM_TIME_FORMAT=%s), or "Unknown"
};
inline constexpr std::string_view k_sacct_format =
    "JobIDRaw,JobName%64,State%64,ExitCode,NodeList%512,Partition,Submit,Start,End";
std::vector<SacctRecord> parse_sacct(std::string_view text);

/// `scontrol show job -o` output: one map of Key=Value per job line.
std::vector<std::map<std::string, std::string>> parse_scontrol_jobs(std::string_view text);

/// Slurm's state word ("CANCELLED by 0", "PENDING", "OUT_OF_MEMORY") as
/// stint's state; nullopt for a word it does not know.
std::optional<JobState> slurm_state(std::string_view word);

/// Brings a run's record up to what sacct reports of its job and the rank
/// steps; false when sacct has no record of the job.
bool apply_sacct(ClusterRun& run, const std::vector<SacctRecord>& records);
/// Whether sacct has a finished step of every rank of the run's job.
bool ranks_recorded(const ClusterRun& run, const std::vector<SacctRecord>& records);
/// How long after a job's end its ranks' steps are waited for in sacct.
inline constexpr Seconds k_step_record_grace = 30;
/// The same from `scontrol show job` (no steps: the ranks share the job's
/// outcome); false when the job is not among `jobs`.
bool apply_scontrol(ClusterRun& run, const std::vector<std::map<std::string, std::string>>& jobs);

/// A run as run-list and run-show see a job: the cluster's job id, state and
/// nodes in the fields the local backend fills.
Job job_view(const ClusterRun& run);

// --- talking to the cluster ----------------------------------------------------------

/// Where a run's commands go, and as whom.
CommandTarget target_of(const ClusterRun& run, const SlurmBackendConfig& config);

/// Submits with sbatch --parsable; returns the job id. Throws
/// Errc::invalid_argument "slurm: <sbatch's message>" when the cluster
/// refuses it, Errc::daemon_unavailable "slurm: ..." when it cannot be reached.
std::uint64_t submit(const CommandTarget& target, const SlurmSubmission& submission);
/// scancel; throws as submit.
void cancel(const CommandTarget& target, std::uint64_t job_id);
/// Asks the cluster about `runs` (all of one target) and updates them:
/// sacct, else scontrol; a job neither knows is lost ("vanished"). Throws
/// Errc::daemon_unavailable when the cluster cannot be asked.
void refresh(const CommandTarget& target, const std::vector<ClusterRun*>& runs, Seconds now);

}  // namespace stint::backend
