#pragma once
// What the read-side tools (squeue, sinfo, sacct, scontrol) share: their
// formatting context and the small lists their options take.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/config.hpp>
#include <stint/format.hpp>
#include <stint/model.hpp>
#include <stint/query.hpp>

namespace stint::cli {

/// The formatting context: now, the cluster's name and partition tiers, group
/// names from the system, this machine's architecture, OS and boot time.
format::Context read_context(const Config& config);

/// Warns on stderr, once per process, that the state shown may be stale
/// (query::state_may_be_stale): a stintd that died leaves jobs RUNNING in the
/// database after they ended, and reading tools never start it. Standard
/// output is left as it is, for the scripts that parse it.
void warn_if_stale(std::string_view tool, const Paths& paths);

/// MinJobAge: how long slurmctld keeps an ended job where squeue and
/// `scontrol show job` see it (default 300 s).
Seconds min_job_age(const Config& config);

/// "a,b,,c" -> {"a","b","c"}.
std::vector<std::string> split_list(std::string_view text);

/// -M/--clusters, or SLURM_CLUSTERS when `from_env`: this machine is the only
/// cluster slurmdbd would know. Nullopt when every name is `cluster_name` or
/// "all"; else Slurm's message for an unknown cluster, which points at
/// sacctmgr (without the "tool: error: " before it).
std::optional<std::string> unknown_clusters(std::string_view clusters,
                                            std::string_view cluster_name, bool from_env);

/// A job id as the tools take it: digits only, not 0.
std::optional<JobId> job_id_from_text(std::string_view text);

/// "12_[1,3],14" -> {"12_[1,3]","14"}: a comma list whose items may hold
/// commas inside brackets (array task lists).
std::vector<std::string> split_job_list(std::string_view text);

/// One job named on a command line: "12" (the job, or all of array 12),
/// "12_3" (one task), or "12_[1-3,5]" (those tasks, expanded); nullopt on
/// anything else.
std::optional<std::vector<query::JobRef>> job_refs_from_text(std::string_view text);

/// Job states of a comma list of names or codes in any case ("PD,running");
/// "all" gives an empty list; nullopt names the first unknown one in `bad`.
std::optional<std::vector<JobState>> states_from_list(std::string_view text, std::string& bad);

/// Whether the system knows this user name (or numeric uid).
bool user_exists(const std::string& user);
/// A user as the filters name it: a uid of a known user becomes its name
/// (squeue -u 0 is root's jobs, as Slurm's uid_from_string reads it);
/// anything else stays as written.
std::string user_name_of(const std::string& user);

/// Slurm's list of job state names, for its "Valid job states include" line.
std::string_view slurm_job_state_names();

/// argv with "-S X" / "--sort X" (and the other options named) joined into
/// "--long=X", so values that start with '-' ("-S -p,i") reach CLI11 as values.
std::vector<std::string> join_dash_values(
    int argc, char** argv, const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace stint::cli
