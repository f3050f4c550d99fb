#pragma once
/// The cluster configuration: stint.yaml in the state directory (or the seed's
/// JSON cluster spec), slurm.conf keys with their defaults, and autodetection.

#include <stint/model.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stint {

/// `count` nodes of one shape.
struct NodePool {
  std::string id;
  std::uint32_t count = 1;
  std::uint32_t cpus = 1;
  std::uint64_t memory_mb = 1024;
  std::uint32_t gpus = 0;
  std::string gpu_type;                 ///< optional, e.g. "a100"
  std::vector<std::string> node_names;  ///< optional; default "<id>-<n>" (n from 1)
};

enum class PartitionState : std::uint8_t { up, down, drain, inactive };
std::string_view partition_state_name(PartitionState s);  ///< "UP", "DOWN", ...

struct PartitionConfig {
  std::string id;
  std::vector<std::string> node_pool_ids;
  std::uint32_t priority_tier = 1;
  Seconds max_time = k_infinite;
  std::optional<Seconds> default_time;  ///< unset: max_time
  PartitionState state = PartitionState::up;
};

/// One node of the cluster, expanded from its pool.
struct NodeDef {
  std::string name;
  std::string pool_id;
  std::uint32_t cpus = 1;
  std::uint64_t memory_mb = 1024;
  std::uint32_t gpus = 0;
  std::string gpu_type;
};

/// Where a configuration value came from (for `scontrol show config`).
enum class ConfigOrigin : std::uint8_t { built_in_default, config_file, autodetected };
std::string_view config_origin_name(ConfigOrigin o);  ///< "default", "stint.yaml", ...

struct Config {
  std::string cluster_name = "stint";
  std::vector<NodePool> node_pools;
  std::vector<PartitionConfig> partitions;
  std::string default_partition_id;  ///< empty: the first partition
  std::string login_node_pool_id;
  std::string home_directory_storage;
  /// slurm.conf keys as written in the file's `config` map (key case as written).
  std::map<std::string, std::string> slurm_conf;
  std::vector<std::string> prolog_bash_scripts;
  std::vector<std::string> epilog_bash_scripts;
  std::string source_path;  ///< the file this was loaded from ("" if built in)

  /// Every node of every pool, in pool order.
  std::vector<NodeDef> nodes() const;
  /// The nodes of one partition.
  std::vector<NodeDef> partition_nodes(const PartitionConfig& p) const;
  const PartitionConfig* find_partition(std::string_view id) const;
  /// default_partition_id, else the first partition; nullptr if there is none.
  const PartitionConfig* default_partition() const;

  /// A slurm.conf value: the file's (key matched case-insensitively), else
  /// Slurm's default for known keys, else nullopt.
  std::optional<std::string> conf(std::string_view key) const;
  /// conf(key) with its origin; for `scontrol show config`.
  std::optional<std::pair<std::string, ConfigOrigin>> conf_with_origin(std::string_view key) const;
  /// Every known slurm.conf key with its effective value and origin, sorted by key.
  std::vector<std::tuple<std::string, std::string, ConfigOrigin>> all_conf() const;

  // Typed accessors for the keys the scheduler and daemon use.
  Seconds kill_wait() const;      ///< KillWait, default 30 s
  std::uint32_t max_array_size() const;  ///< MaxArraySize, default 1001
  /// How long an idle personal stintd waits before it exits; 0 never.
  Seconds daemon_idle_exit() const;  ///< StintIdleExit, default 300 s
};

/// Loads and validates a config file: YAML (stint.yaml) or the seed's JSON
/// (with `//` comments; `orchestratorSpec.slurmSpec` or the bare spec;
/// camelCase or snake_case keys). Throws Errc::config_invalid with a message
/// "<file>:<line>: <key>: <problem>" and never returns a half-valid Config.
Config load_config(const std::string& path);
/// Parses config text as load_config does; `name` is used in messages.
Config parse_config(std::string_view text, const std::string& name);
/// The machine's own shape: one pool of one node named after the host, with its
/// CPUs, memory and GPUs (nvidia-smi when present), one partition.
Config autodetect_config();
/// The config as stint.yaml text (what `stint init` writes).
std::string config_to_yaml(const Config& c);
/// Reads `<state_dir>/stint.yaml`; when absent, writes the autodetected one
/// first (atomically) and returns it.
Config load_or_init_config(const std::string& state_dir);

}  // namespace stint
