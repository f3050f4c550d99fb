#pragma once
// What the run tools share: building a run's job, its state as NSML shows it.

#include <string>

#include <stint/model.hpp>
#include <stint/run.hpp>

namespace stint::cli {

/// The job that carries out a run with these settings.
JobSpec run_job_spec(const RunSettings& s, const std::string& cloned_from);
/// Submits it; returns the run's name.
std::string submit_run(const JobSpec& spec);
/// A directory image must exist (made absolute) and bubblewrap be installed;
/// OCI images are refused until they are supported.
void check_containers(RunSettings& s);
/// Whether a server type is the CPU (notebook) type: the partition "cpu".
inline bool is_cpu_server(const std::string& server_type) { return server_type == "cpu"; }
/// PENDING, RUNNING, KEPT_ALIVE (command ended, nodes kept), STOPPED, or
/// the job's end state.
std::string run_state(const Job& job);
/// A run's settings back from its job (run-show, run-clone).
RunSettings run_settings(const Job& job);

}  // namespace stint::cli
