#pragma once
/// The cluster configuration: stint.yaml in the state directory (or the seed's
/// JSON cluster spec), slurm.conf keys with their defaults, and autodetection.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

/// Where a configuration value came from (for `stint config show`).
enum class ConfigOrigin : std::uint8_t { built_in_default, config_file, autodetected };
std::string_view config_origin_name(ConfigOrigin o);  ///< "default", "stint.yaml", "autodetected"

/// `count` nodes of one shape.
struct NodePool {
  std::string id;
  std::uint32_t count = 1;
  std::uint32_t cpus = 1;
  std::uint64_t memory_mb = 1024;
  std::uint32_t gpus = 0;
  std::string gpu_type;                 ///< optional, e.g. "a100"
  std::vector<std::string> node_names;  ///< optional; default "<id>-<n>" (n from 1)
  /// Optional: each node's address (NodeAddr), pinned; default: the
  /// cluster's node_addr_base counted on by the node's place in the cluster.
  std::vector<std::string> node_addrs;
  /// Features (slurm.conf Features=) its nodes offer, for -C/--constraint and --prefer.
  std::vector<std::string> features;
  std::uint64_t tmp_disk_mb = 0;  ///< TmpDisk, for --tmp
  /// The layout of `cpus`: sockets of cores of threads (cpus divides by
  /// sockets * threads_per_core), as scontrol show node and -B see it.
  std::uint32_t sockets = 1;
  std::uint32_t threads_per_core = 1;
  /// config_file, or autodetected: this machine's shape, for a pool the file's
  /// partitions name without defining it (the seed's spec) or from autodetect_config.
  ConfigOrigin origin = ConfigOrigin::config_file;

  bool operator==(const NodePool&) const = default;
};

enum class PartitionState : std::uint8_t { up, down, drain, inactive };
std::string_view partition_state_name(PartitionState s);  ///< "UP", "DOWN", ...

struct PartitionConfig {
  std::string id;
  std::vector<std::string> node_pool_ids;
  std::uint32_t priority_tier = 1;
  /// PriorityJobFactor, the partition's weight in a job's priority (the
  /// Partition factor); unset: priority_tier, as Slurm's Priority= sets both.
  std::optional<std::uint32_t> priority_job_factor;
  Seconds max_time = k_infinite;
  std::optional<Seconds> default_time;  ///< unset: max_time
  PartitionState state = PartitionState::up;
  /// PreemptMode of this partition's jobs when preempted (OFF, CANCEL,
  /// REQUEUE, SUSPEND); empty: the cluster's PreemptMode.
  std::string preempt_mode;
  Seconds grace_time = 0;  ///< GraceTime: SIGTERM this long before SIGKILL when preempted
  /// Node names set by `scontrol update Nodes=`; empty: the pools' nodes.
  std::vector<std::string> nodes;
  /// OverSubscribe= as slurm.conf spells it (NO, YES[:N], EXCLUSIVE,
  /// FORCE[:N]); empty is NO.
  std::string over_subscribe;
  /// AllowAccounts=/DenyAccounts=, AllowQos=/DenyQos=: empty allows all and
  /// denies none. Slurm keeps a deny list only where there is no allow list.
  std::vector<std::string> allow_accounts;
  std::vector<std::string> deny_accounts;
  std::vector<std::string> allow_qos;
  std::vector<std::string> deny_qos;

  bool operator==(const PartitionConfig&) const = default;
};

/// One node of the cluster, expanded from its pool.
/// Where node addresses start unless stint.yaml's node_addr_base says
/// otherwise: 127.0.1.1 is what Debian's /etc/hosts gives the machine's own
/// name, so a cluster of one node named after the machine keeps it.
inline constexpr std::string_view k_default_node_addr_base = "127.0.1.1";

/// An IPv4 address in dotted-quad form as a number; nullopt when `text` is
/// not one.
std::optional<std::uint32_t> parse_ipv4(std::string_view text);
/// A number as a dotted-quad IPv4 address.
std::string format_ipv4(std::uint32_t addr);

struct NodeDef {
  std::string name;
  /// Its address (NodeAddr): a loopback address of its own unless its pool
  /// pins one, so that a job on it can listen and be reached by the name.
  std::string addr;
  std::string pool_id;
  std::uint32_t cpus = 1;
  std::uint64_t memory_mb = 1024;
  std::uint32_t gpus = 0;
  std::string gpu_type;
  std::vector<std::string> features;   ///< from its pool
  std::uint64_t tmp_disk_mb = 0;       ///< from its pool
  std::uint32_t sockets = 1;           ///< from its pool
  std::uint32_t threads_per_core = 1;  ///< from its pool

  /// Cores per socket: its CPUs are sockets x cores x threads.
  std::uint32_t cores_per_socket() const {
    const std::uint32_t per_core = sockets * threads_per_core;
    return per_core == 0 ? cpus : cpus / per_core;
  }

  bool operator==(const NodeDef&) const = default;
};

/// How runs reach a real Slurm cluster (the slurm run backend):
/// stint.yaml's `slurm` map, and a project's own under `projects`.
struct SlurmBackendConfig {
  /// Where the cluster's commands run: "" here (a login node), else
  /// "user@host" or "host", over ssh.
  std::string login;
  /// SLURM_CONF for those commands; "" leaves the environment's.
  std::string conf;
  std::string account;  ///< sbatch --account; "" the user's default
  /// Where sbatch, srun, sacct, ... are; "" looks them up in PATH (here:
  /// skipping stint's own folder, whose sbatch is stint's).
  std::string bin_dir;
  /// Server type -> the cluster's partition; a type not in it is the
  /// partition's own name, and none is the cluster's default partition.
  std::map<std::string, std::string> partitions;
  Seconds poll_interval = 10;    ///< how often stintd asks about live runs
  Seconds command_timeout = 60;  ///< the longest a cluster command may take
  bool operator==(const SlurmBackendConfig&) const = default;
};

/// A project's own settings (stint.yaml's `projects` map).
struct ProjectConfig {
  std::string run_backend;                  ///< "" the global one
  std::optional<SlurmBackendConfig> slurm;  ///< unset: the global one
  bool operator==(const ProjectConfig&) const = default;
};

/// Names a cluster's scripts carry that this machine lacks, mapped to its
/// own (stint.yaml's `aliases`): a rehearsal of a real cluster's scripts.
struct ForeignNames {
  std::map<std::string, std::string> partitions;
  std::map<std::string, std::string> qos;
  std::map<std::string, std::string> accounts;
  std::map<std::string, std::string> reservations;
  std::map<std::string, std::string> gpu_types;
  bool empty() const {
    return partitions.empty() && qos.empty() && accounts.empty() && reservations.empty() &&
           gpu_types.empty();
  }
  bool operator==(const ForeignNames&) const = default;
};

struct Config {
  std::string cluster_name = "stint";
  /// Where runs execute: "local" (stintd's own nodes) or "slurm" (a real
  /// cluster, `slurm`); a project may choose its own (`projects`).
  std::string run_backend = "local";
  SlurmBackendConfig slurm;
  std::map<std::string, ProjectConfig> projects;
  std::vector<NodePool> node_pools;
  std::vector<PartitionConfig> partitions;
  std::string default_partition_id;  ///< empty: the first partition
  std::string login_node_pool_id;
  std::string home_directory_storage;
  /// The first node's address; node k of the cluster (pool order, from 0)
  /// gets this plus k, unless its pool pins its own (NodePool::node_addrs).
  std::string node_addr_base = std::string(k_default_node_addr_base);
  /// slurm.conf keys as written in the file's `config` map (key case as written).
  std::map<std::string, std::string> slurm_conf;
  std::vector<std::string> prolog_bash_scripts;
  std::vector<std::string> epilog_bash_scripts;
  ForeignNames aliases;     ///< `aliases`: a cluster's names mapped to this machine's
  std::string source_path;  ///< the file this was loaded from ("" if built in)
  /// Node name -> its features as `scontrol update NodeName= AvailableFeatures=`
  /// set them, instead of its pool's: kept across restarts of stintd, dropped
  /// by a reconfigure (which reads every node's from the file, as Slurm's).
  std::map<std::string, std::vector<std::string>> node_features;

  /// Every node of every pool, in pool order.
  std::vector<NodeDef> nodes() const;
  /// Whether its nodes are other than this machine as it is: not for a
  /// cluster of one node named after the machine `machine` (stint init's
  /// default), whose tasks see the machine's name and /etc/hosts and whose
  /// NodeAddr is its name, as on a cluster of one real node.
  bool has_virtual_nodes(std::string_view machine) const;
  /// The nodes of one partition.
  std::vector<NodeDef> partition_nodes(const PartitionConfig& p) const;
  const PartitionConfig* find_partition(std::string_view id) const;
  /// default_partition_id, else the first partition; nullptr if there is none.
  const PartitionConfig* default_partition() const;
  /// The run backend of a project: its own, else run_backend.
  std::string run_backend_for(std::string_view project) const;
  /// The slurm settings of a project: its own, else `slurm`.
  const SlurmBackendConfig& slurm_for(std::string_view project) const;

  /// A slurm.conf value: the file's (key matched case-insensitively), else
  /// Slurm's default for known keys, else nullopt.
  std::optional<std::string> conf(std::string_view key) const;
  /// conf(key) with its origin; for `stint config show`.
  std::optional<std::pair<std::string, ConfigOrigin>> conf_with_origin(std::string_view key) const;
  /// Every known slurm.conf key with its effective value and origin, sorted by key.
  std::vector<std::tuple<std::string, std::string, ConfigOrigin>> all_conf() const;

  // Typed accessors for the keys the scheduler and daemon use.
  Seconds kill_wait() const;             ///< KillWait, default 30 s
  std::uint32_t max_array_size() const;  ///< MaxArraySize, default 1001
  /// How long an idle personal stintd waits before it exits; 0 never.
  Seconds daemon_idle_exit() const;  ///< StintIdleExit, default 300 s

  /// A known integer key's value (PriorityWeightAge, MinJobAge, KillWait in
  /// seconds, DefMemPerCPU in MiB, ...). Throws Errc::config_invalid for a key
  /// that is not a known integer key or a value that does not parse.
  std::int64_t conf_int(std::string_view key) const;
  /// A known time key's value in seconds (PriorityMaxAge, PriorityDecayHalfLife,
  /// PreemptExemptTime, ...; k_infinite for "UNLIMITED"/"-1"). Throws as conf_int.
  Seconds conf_time(std::string_view key) const;
  /// Checks and sets one slurm.conf key (`scontrol reconfigure`/`update`);
  /// ClusterName sets cluster_name. Throws Errc::config_invalid "<key>: <problem>"
  /// and then changes nothing.
  void set_conf(std::string_view key, std::string_view value);

  bool operator==(const Config&) const = default;
};

/// Partition settings `scontrol update PartitionName=` changed: they hold
/// over the config file's until a `scontrol reconfigure` (unless ReconfigFlags
/// keeps them) and across restarts of stintd (the store keeps them).
struct PartitionOverride {
  std::optional<PartitionState> state;
  std::optional<Seconds> max_time;
  std::optional<Seconds> default_time;  ///< k_infinite: UNLIMITED; 0 with `none`: NONE
  bool default_time_none = false;       ///< DefaultTime=NONE: the partition's MaxTime
  std::optional<std::uint32_t> priority_tier;
  std::optional<std::uint32_t> priority_job_factor;
  std::optional<std::vector<std::string>> nodes;  ///< node names
  std::optional<std::vector<std::string>> allow_accounts;
  std::optional<std::vector<std::string>> deny_accounts;
  std::optional<std::vector<std::string>> allow_qos;
  std::optional<std::vector<std::string>> deny_qos;
  /// `scontrol create PartitionName=`: a partition the file lacks, made of
  /// `nodes`; `scontrol delete`: the file's (or a created) partition gone.
  bool created = false;
  bool deleted = false;
  bool empty() const {
    return !state && !max_time && !default_time && !default_time_none && !priority_tier &&
           !priority_job_factor && !nodes && !allow_accounts && !deny_accounts && !allow_qos &&
           !deny_qos && !created && !deleted;
  }
  bool operator==(const PartitionOverride&) const = default;
};
std::string partition_override_to_json(const PartitionOverride& o);
/// Throws Errc::config_invalid for text that is not an override.
PartitionOverride partition_override_from_json(std::string_view text);
/// Applies an override to the partition of that name: a created one is
/// added (after the file's), a deleted one removed; an override of a
/// partition the config lacks otherwise changes nothing.
void apply_partition_override(Config& c, std::string_view partition, const PartitionOverride& o);
/// Merges a later change into an override (`scontrol update` after update or
/// create); a deletion drops everything set before it.
void merge_partition_override(PartitionOverride& into, const PartitionOverride& change);
/// What `scontrol reconfigure` keeps of the overrides (ReconfigFlags): all
/// of them with KeepPartInfo, the state only with KeepPartState, else none.
PartitionOverride kept_on_reconfigure(const Config& next, const PartitionOverride& o);

/// What changed from `from` to `to`, one line each ("partition gpu added",
/// "node pool n: count 2 -> 3", "PriorityWeightAge: 1000 -> 2000"), for the
/// log of `scontrol reconfigure`; empty when nothing did.
std::vector<std::string> config_changes(const Config& from, const Config& to);

/// What autodetection finds on this machine.
struct Machine {
  std::string hostname = "localhost";  ///< the short host name (up to the first '.')
  std::uint32_t cpus = 1;              ///< CPUs this process may use
  std::uint64_t memory_mb = 1024;      ///< MemTotal, rounded down to MiB
  std::uint32_t gpus = 0;              ///< as nvidia-smi lists them; 0 without nvidia-smi
  std::string gpu_type;                ///< e.g. "h200"; empty with no GPUs or with mixed models
};

/// Loads and validates a config file: YAML (stint.yaml) or the seed's JSON
/// (with `//` comments; `orchestratorSpec.slurmSpec` or the bare spec;
/// camelCase or snake_case keys). Throws Errc::config_invalid with a message
/// "<file>:<line>: <key>: <problem>" and never returns a half-valid Config;
/// a file that cannot be read is Errc::io.
Config load_config(const std::string& path);
/// Parses config text as load_config does; `name` is used in messages. The text
/// is JSON when `name` ends in ".json" or it starts with '{' or a comment,
/// else YAML. A pool that a partition names but the file does not define (the
/// seed's spec names pool "a4" and defines none) becomes one node of this
/// machine's shape (detect_machine, run only then) named "<id>-1"; when the file
/// defines pools, an undefined one is an error.
Config parse_config(std::string_view text, const std::string& name);
/// parse_config with a given machine shape for undefined pools (for tests).
Config parse_config(std::string_view text, const std::string& name, const Machine& machine);
/// The machine's own shape: one pool of one node named after the host, with its
/// CPUs, memory and GPUs (nvidia-smi when present), one partition.
Config autodetect_config();
/// The config autodetect_config builds for a machine: one pool "local" of one
/// node named after the host, one partition "local" with no time limit.
Config config_for_machine(const Machine& m);
/// This machine: host name, CPUs (sched_getaffinity), /proc/meminfo, nvidia-smi.
Machine detect_machine();
/// MemTotal of /proc/meminfo text in MiB, rounded down; throws Errc::io when absent.
std::uint64_t meminfo_total_mb(std::string_view meminfo);
/// GPUs as `nvidia-smi --query-gpu=name --format=csv,noheader` lists them, one
/// name a line: the count and, when all are one model, its type (gpu_type_from_name).
std::pair<std::uint32_t, std::string> gpus_from_nvidia_smi(std::string_view output);
/// A GRES type from an NVIDIA model name: "NVIDIA H200" -> "h200",
/// "NVIDIA A100-SXM4-80GB" -> "a100", "NVIDIA GeForce RTX 4090" -> "rtx4090".
std::string gpu_type_from_name(std::string_view name);
/// The config as stint.yaml text (what `stint init` writes).
std::string config_to_yaml(const Config& c);
/// Reads `<state_dir>/stint.yaml`, else `<state_dir>/stint.json`; when neither
/// exists, writes the autodetected stint.yaml first (atomically, creating the
/// folder) and returns it as a later load will read it.
Config load_or_init_config(const std::string& state_dir);

}  // namespace stint
STINT_API_END
