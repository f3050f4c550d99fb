#pragma once
// What the run tools share: building a run's job, its state as NSML shows it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/model.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>

namespace stint::cli {

/// The job that carries out a run with these settings.
JobSpec run_job_spec(const RunSettings& s, const std::string& cloned_from);
/// Submits it; returns the run's name. stintd's warnings (a server type
/// mapped by stint.yaml's aliases) are printed as "<tool>: warning: ...".
std::string submit_run(const JobSpec& spec, std::string_view tool);
/// A directory image must exist (made absolute) and bubblewrap be installed;
/// an OCI image must be in the user's podman store.
void check_containers(RunSettings& s);
/// Whether a server type is the CPU (notebook) type: the partition "cpu".
inline bool is_cpu_server(const std::string& server_type) { return server_type == "cpu"; }
/// PENDING, RUNNING, KEPT_ALIVE (command ended, nodes kept), STOPPED, or
/// the job's end state.
std::string run_state(const Job& job);
/// A run's settings back from its job (run-show, run-clone).
RunSettings run_settings(const Job& job);

// Both backends (run_backend.cpp).
/// The runs of `project` (every project when empty) by number: stintd's
/// jobs and the cluster runs of the registry, as jobs.
std::vector<Job> all_run_jobs(Store& store, const std::string& project);
/// Whether the caller may read every user's runs: root, the state
/// directory's owner, sacctmgr operators and administrators.
bool may_read_any_run(Store& store);
/// Puts the values of the runs' variables, which stint.db does not keep, into
/// `jobs`, from stintd (the job's environment as submitted), for the runs the
/// caller may see: their own, or any for an operator. Every other value
/// becomes "***" (another user's, or all when stintd does not answer, said on
/// stderr as "<tool>: warning: ..."). Returns, per job, whether its values
/// are shown.
std::vector<bool> reveal_run_env(Store& store, std::vector<Job>& jobs, std::string_view tool);
/// Asks stintd to ask the cluster about the live cluster runs of `project`
/// now; when it cannot, says so on stderr and the last answer stands.
void refresh_cluster_runs(Store& store, const std::string& project, std::string_view tool);
std::optional<ClusterRun> find_cluster_run(Store& store, const RunName& name);
/// Rank `rank`'s output of a cluster run from byte `offset` on (over ssh
/// when the run's commands go there); nullopt while there is none.
std::optional<std::string> read_cluster_output(const ClusterRun& run, std::uint32_t rank,
                                               std::size_t offset);

}  // namespace stint::cli
