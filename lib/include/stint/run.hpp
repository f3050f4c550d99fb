#pragma once
// Runs, the NSML way: a run is an experiment of N nodes in a
// project, named "<project>/<n>", whose command starts on every node (rank
// 0..N-1). These are the run's settings and the pure rules over them: names,
// clone, sweeps, the project's variable set, port reservation and each
// node's environment. How a run executes (a job of stintd, or of a real
// Slurm) is the backend's.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

/// "<project>/<n>".
struct RunName {
  std::string project;
  std::uint32_t number = 0;
  std::string text() const { return project + "/" + std::to_string(number); }
  bool operator==(const RunName&) const = default;
};

/// --storage NAME[:MOUNT].
struct StorageMount {
  std::string name;
  std::string mount;  ///< where it appears in a container; empty: /storage/<name>
  bool operator==(const StorageMount&) const = default;
};

using RunEnvironment = std::vector<std::pair<std::string, std::string>>;

/// What run-create is given, and run-clone copies.
struct RunSettings {
  std::string project;
  std::string server_type;  ///< a partition; empty: the default one
  std::uint32_t nodes = 1;
  std::optional<std::uint32_t> gpus;    ///< per node
  std::optional<std::uint32_t> cpus;    ///< per node
  std::optional<std::uint64_t> mem_mb;  ///< per node
  std::optional<Seconds> time_limit;
  bool keep_alive = false;
  std::uint32_t ports_per_node = 2;  ///< TCP ports reserved on each node
  std::string image;
  std::vector<StorageMount> storages;
  RunEnvironment env;  ///< in the order given
  std::string name;
  std::string description;
  std::vector<std::string> command;  ///< after "--"
  /// --metrics-file: more files of metric records (globs, relative to the
  /// working directory), besides STINT_METRICS and what the common
  /// training libraries write.
  std::vector<std::string> metrics_files;
  bool metrics_all_ranks = false;  ///< --metrics-rank all: every rank's records
  bool operator==(const RunSettings&) const = default;
};

namespace run {

/// A project name: letters, digits, '_', '-', '.', 1 to 64 characters, not
/// starting with '.' or '-'.
bool valid_project_name(std::string_view name);
/// An environment variable name: [A-Za-z_][A-Za-z0-9_]*.
bool valid_env_name(std::string_view name);

/// "proj/12". Throws Errc::invalid_argument "Invalid run name: ...".
RunName parse_run_name(std::string_view text);
/// "NAME=VALUE" (the value may be empty or hold '='). Throws Errc::invalid_argument.
std::pair<std::string, std::string> parse_env_assignment(std::string_view text);
/// "NAME" or "NAME:/mount/point". Throws Errc::invalid_argument.
StorageMount parse_storage(std::string_view text);
/// Sets NAME=VALUE in `env`: in place when NAME is there, else at the end.
void set_env(RunEnvironment& env, std::string name, std::string value);

/// The checks run-create makes before anything is created; throws
/// Errc::invalid_argument with the message to print. `cpu_server`: the
/// server type is a CPU (notebook) type, which takes neither a node count
/// nor keep-alive.
void check_settings(const RunSettings& s, bool cpu_server, bool node_count_given);

/// What run-clone is asked for, besides the source's settings.
struct CloneRequest {
  RunEnvironment env;              ///< --env NAME=VALUE: new values, or new names
  std::vector<std::string> unset;  ///< --unset NAME (refused)
  std::vector<std::pair<std::string, std::string>> rename;  ///< --rename OLD=NEW (refused)
  std::vector<std::string> command;                         ///< after "--"
  bool same_command = false;                                ///< --same-command
  std::optional<std::string> name;                          ///< --name
};
/// The settings of a clone of `source`: everything but command and
/// environment is copied; every variable of the source stays, with the value
/// --env gives or its own; new names are added at the end. Renaming or
/// dropping a variable, or no command, throws Errc::invalid_argument.
RunSettings clone_settings(const RunSettings& source, const RunName& source_name,
                           const CloneRequest& request);

/// --sweep NAME=v1,v2,...: one clone request per value, in order. Throws
/// Errc::invalid_argument for an empty list or a bad name.
std::vector<CloneRequest> sweep(const CloneRequest& base, std::string_view spec);

/// A project's variable set: every name any of its runs has, in the order
/// they first appear (runs in creation order). A run that lacks a name shows
/// it empty (run-list).
std::vector<std::string> variable_set(const std::vector<const RunSettings*>& runs);
/// The value of `name` in `env`, empty when unset.
std::string env_value(const RunEnvironment& env, std::string_view name);

/// An inclusive port range (StintRunPorts, "20000-29999").
struct PortRange {
  std::uint16_t first = 20000;
  std::uint16_t last = 29999;
};
/// "LOW-HIGH", 1024 <= LOW <= HIGH <= 65535. Throws Errc::invalid_argument.
PortRange parse_port_range(std::string_view text);
/// `per_node` ports for each of `nodes` nodes, the lowest of `range` that
/// are neither in `taken` (other runs' reservations) nor refused by `free`
/// (a probe: nothing else on the machine listens there). Throws
/// Errc::node_config_unavailable "port range ... exhausted ..." when they run out.
std::vector<std::vector<std::uint16_t>> reserve_ports(
    const PortRange& range, std::uint32_t nodes, std::uint32_t per_node,
    const std::set<std::uint16_t>& taken, const std::function<bool(std::uint16_t)>& free);

/// The variables a run's task finds on node `rank` of `world`: RANK,
/// NODE_RANK, LOCAL_RANK (0: one task per node), WORLD_SIZE, MASTER_ADDR,
/// MASTER_PORT (rank 0's first port, so torch.distributed works as is),
/// STINT_RUN, STINT_PROJECT, STINT_TCP_PORTS (this node's ports, comma
/// separated) and STINT_PORT_0, STINT_PORT_1, ...
RunEnvironment rank_environment(const RunName& run, std::uint32_t rank, std::uint32_t world,
                                const std::string& master_addr,
                                const std::vector<std::vector<std::uint16_t>>& ports);

/// Storages: named directories kept across runs, under the state
/// directory's storages/ folder, each owned by the user who created it.
/// Where storage `name` lives.
std::string storage_path(const std::string& state_dir, const std::string& name);
/// Where a storage appears in a container: its mount, else /storage/<name>.
std::string storage_mount(const StorageMount& m);
/// The variable that gives a storage's path to a run's command:
/// STINT_STORAGE_<NAME>, the name upper-cased with '-' and '.' as '_'.
std::string storage_env_name(const std::string& name);

/// Whether an --image names a directory (a root file system, run with
/// bubblewrap) rather than an OCI image (podman): it is a path.
bool is_directory_image(std::string_view image);
/// The command line that runs `command` in a directory image with bubblewrap
/// (`bwrap`): the image as /, a fresh /proc, /dev and /tmp, the working
/// directory bound at its own path and entered; the network is the host's,
/// so the ranks meet on MASTER_PORT as they do without an image.
/// `binds` are (host path, path inside) pairs bound read-write: the storages.
std::vector<std::string> bubblewrap_argv(
    const std::string& bwrap, const std::string& image, const std::string& work_dir,
    const std::vector<std::string>& command,
    const std::vector<std::pair<std::string, std::string>>& binds = {});
/// The command line that runs `command` in an OCI image with podman: a
/// container named `name` (stint-<job>-<rank>), removed when it ends, on the
/// host's network (MASTER_PORT as without an image), the working directory
/// bound at its own path and entered, `binds` bound read-write, and each of
/// `env_names` passed from podman's environment (the node's) into it, but for
/// the few that belong to the image (PATH, HOME, ...). `podman run` runs
/// under /bin/sh, which passes a SIGTERM (cancel, time limit) on to the
/// container by name and exits with podman's status (the container's).
std::vector<std::string> podman_argv(const std::string& podman, const std::string& image,
                                     const std::string& name, const std::string& work_dir,
                                     const std::vector<std::string>& command,
                                     const std::vector<std::pair<std::string, std::string>>& binds,
                                     const std::vector<std::string>& env_names);

}  // namespace run
}  // namespace stint
STINT_API_END
