#pragma once
// SSH into a run's node: with StintRunSsh=YES, each node of a run
// gets an sshd of its own on a port reserved beside the node's TCP ports,
// started by stintd as the run's owner when the run starts and stopped, with
// every session under it, when the run's nodes are let go (its end, a
// requeue). It outlives the node's task, so that a run kept alive can be
// logged into until run-stop.
//
// Each sshd runs as the run's user (root only for root's runs), so that it
// can let no one else in: public keys only (~/.ssh/authorized_keys), no PAM,
// AllowUsers the owner. Sessions find the node's variables (RANK,
// WORLD_SIZE, MASTER_PORT, CUDA_VISIBLE_DEVICES, SLURM_*, the run's own)
// through SetEnv and run on the node's CPUs. The sshd is made a child
// subreaper, so that what a session leaves behind (setsid, nohup, double
// fork) stays in its tree and is killed with it.
//
// Files: <state>/ssh/<job>/ (root's, 0711) holds the job's host key and a
// config per node, both the user's and 0600; the user may change neither
// the folder's entries nor another user's files. sshd writes its log to
// <state>/log/sshd.log.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>
#include <stint/paths.hpp>

namespace stint::daemon {

/// The sshd that serves runs' nodes, when StintRunSsh=YES and it is an
/// executable (StintRunSshd, /usr/sbin/sshd by default); else nullopt.
std::optional<std::string> node_sshd(const Config& config);

/// <state>/ssh/<job>.
std::string ssh_dir(const Paths& paths, JobId job);

/// The sshd_config of a node: its port, the job's host key, the owner alone,
/// and `env` (the node's variables) as one SetEnv line. Variables whose value
/// holds a line break are left out (sshd_config is line based).
std::string node_sshd_config(std::uint16_t port, const std::string& host_key,
                             const std::string& user,
                             const std::vector<std::pair<std::string, std::string>>& env);

/// The variables of a node's environment an SSH session gets: Slurm's and
/// stint's, the GPU binding, the rank variables and the run's own (`run_env`
/// names); not what was merely exported at submit (PATH, HOME...).
std::vector<std::pair<std::string, std::string>> node_session_env(
    const std::vector<std::pair<std::string, std::string>>& node_env,
    const std::vector<std::pair<std::string, std::string>>& run_env);

/// Makes the job's ssh folder and host key (ssh-keygen). Throws Errc::io.
void prepare_ssh_dir(const Paths& paths, const Job& job);

/// Writes node `node`'s config and starts its sshd as the job's user, on the
/// node's CPUs. Returns its pid. Throws Errc::io when it cannot be started.
std::int64_t start_node_sshd(const Paths& paths, const Job& job, std::uint32_t node,
                             const std::string& sshd,
                             const std::vector<std::pair<std::string, std::string>>& env);

/// Stops an sshd and every process under it (its sessions and what they left
/// running), when it is still the process that was started.
void stop_node_sshd(std::int64_t pid, std::uint64_t start_ticks);

/// Removes the job's ssh folder (the files stintd wrote, then the folder).
void remove_ssh_dir(const Paths& paths, JobId job);

/// At recovery: sshds of this state directory found running. An sshd of a
/// node whose job is live and that has none recorded is adopted (its pid
/// returned in `adopted`, by job and node); one whose job is over, or that
/// is not its node's recorded sshd, is stopped. The folders of jobs that are
/// not live are removed.
struct AdoptedSshd {
  JobId job;
  std::uint32_t node;
  std::int64_t pid;
};
std::vector<AdoptedSshd> sweep_node_sshds(const Paths& paths, const std::map<JobId, Job>& live);

}  // namespace stint::daemon
