// Config's queries, the slurm.conf accessors, and loading from files.

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/conf_keys.hpp"
#include "config/raw.hpp"
#include "util/fs.hpp"

namespace stint {

using config_detail::ConfKey;
using config_detail::find_conf_key;
using config_detail::iequals;

std::string_view partition_state_name(PartitionState s) {
  switch (s) {
    case PartitionState::up:
      return "UP";
    case PartitionState::down:
      return "DOWN";
    case PartitionState::drain:
      return "DRAIN";
    case PartitionState::inactive:
      return "INACTIVE";
  }
  return "UNKNOWN";
}

std::string_view config_origin_name(ConfigOrigin o) {
  switch (o) {
    case ConfigOrigin::built_in_default:
      return "default";
    case ConfigOrigin::config_file:
      return "stint.yaml";
    case ConfigOrigin::autodetected:
      return "autodetected";
  }
  return "unknown";
}

std::optional<std::uint32_t> parse_ipv4(std::string_view text) {
  std::uint32_t addr = 0;
  int parts = 0;
  std::size_t i = 0;
  while (parts < 4) {
    std::size_t start = i;
    std::uint32_t part = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 3)
      part = part * 10 + static_cast<std::uint32_t>(text[i++] - '0');
    if (i == start || part > 255) return std::nullopt;
    addr = addr << 8 | part;
    ++parts;
    if (parts < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != text.size()) return std::nullopt;
  return addr;
}

std::string format_ipv4(std::uint32_t addr) {
  return fmt::format("{}.{}.{}.{}", addr >> 24, (addr >> 16) & 0xff, (addr >> 8) & 0xff,
                     addr & 0xff);
}

std::vector<NodeDef> Config::nodes() const {
  std::vector<NodeDef> out;
  const std::uint32_t base =
      parse_ipv4(node_addr_base).value_or(*parse_ipv4(k_default_node_addr_base));
  std::uint32_t place = 0;
  for (const NodePool& pool : node_pools) {
    for (std::uint32_t n = 0; n < pool.count; ++n, ++place) {
      NodeDef node;
      node.name =
          n < pool.node_names.size() ? pool.node_names[n] : fmt::format("{}-{}", pool.id, n + 1);
      node.addr = n < pool.node_addrs.size() ? pool.node_addrs[n] : format_ipv4(base + place);
      node.pool_id = pool.id;
      node.cpus = pool.cpus;
      node.memory_mb = pool.memory_mb;
      node.gpus = pool.gpus;
      node.gpu_type = pool.gpu_type;
      node.features = pool.features;
      if (auto it = node_features.find(node.name); it != node_features.end())
        node.features = it->second;
      node.tmp_disk_mb = pool.tmp_disk_mb;
      node.sockets = pool.sockets;
      node.threads_per_core = pool.threads_per_core;
      out.push_back(std::move(node));
    }
  }
  return out;
}

bool Config::has_virtual_nodes(std::string_view machine) const {
  std::uint32_t count = 0;
  for (const NodePool& pool : node_pools) count += pool.count;
  if (count != 1) return true;
  const std::vector<NodeDef> all = nodes();
  return all.front().name != machine || !node_pools.front().node_addrs.empty() ||
         node_addr_base != k_default_node_addr_base;
}

std::vector<NodeDef> Config::partition_nodes(const PartitionConfig& p) const {
  std::vector<NodeDef> all = nodes();
  if (!p.nodes.empty()) {
    std::erase_if(all, [&](const NodeDef& n) {
      return std::find(p.nodes.begin(), p.nodes.end(), n.name) == p.nodes.end();
    });
    return all;
  }
  std::erase_if(all, [&](const NodeDef& n) {
    return std::find(p.node_pool_ids.begin(), p.node_pool_ids.end(), n.pool_id) ==
           p.node_pool_ids.end();
  });
  return all;
}

const PartitionConfig* Config::find_partition(std::string_view id) const {
  for (const PartitionConfig& p : partitions) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

const PartitionConfig* Config::default_partition() const {
  if (!default_partition_id.empty()) {
    if (const PartitionConfig* p = find_partition(default_partition_id)) return p;
  }
  return partitions.empty() ? nullptr : &partitions.front();
}

std::string Config::run_backend_for(std::string_view project) const {
  auto it = projects.find(std::string(project));
  return it != projects.end() && !it->second.run_backend.empty() ? it->second.run_backend
                                                                 : run_backend;
}

const SlurmBackendConfig& Config::slurm_for(std::string_view project) const {
  auto it = projects.find(std::string(project));
  return it != projects.end() && it->second.slurm ? *it->second.slurm : slurm;
}

std::optional<std::string> Config::conf(std::string_view key) const {
  auto v = conf_with_origin(key);
  if (!v) return std::nullopt;
  return std::move(v->first);
}

std::optional<std::pair<std::string, ConfigOrigin>> Config::conf_with_origin(
    std::string_view key) const {
  const ConfKey* k = find_conf_key(key);
  // ClusterName lives in cluster_name (the file's cluster_name or config.ClusterName).
  if (k && k->name == "ClusterName") {
    return std::pair{cluster_name, cluster_name == k->default_value ? ConfigOrigin::built_in_default
                                                                    : ConfigOrigin::config_file};
  }
  for (const auto& [name, value] : slurm_conf) {
    if (iequals(name, key)) return std::pair{value, ConfigOrigin::config_file};
  }
  if (k) return std::pair{std::string(k->default_value), ConfigOrigin::built_in_default};
  return std::nullopt;
}

std::vector<std::tuple<std::string, std::string, ConfigOrigin>> Config::all_conf() const {
  std::vector<std::tuple<std::string, std::string, ConfigOrigin>> out;
  for (const ConfKey& k : config_detail::conf_keys()) {
    auto [value, origin] = *conf_with_origin(k.name);
    out.emplace_back(std::string(k.name), std::move(value), origin);
  }
  return out;
}

namespace {

const ConfKey& known_key(std::string_view key) {
  const ConfKey* k = find_conf_key(key);
  if (!k) throw Error(Errc::config_invalid, fmt::format("{}: unknown slurm.conf key", key));
  return *k;
}

}  // namespace

std::int64_t Config::conf_int(std::string_view key) const {
  const ConfKey& k = known_key(key);
  return config_detail::conf_value_int(k, *conf(k.name));
}

Seconds Config::conf_time(std::string_view key) const {
  const ConfKey& k = known_key(key);
  if (k.kind != config_detail::ConfKind::time)
    throw Error(Errc::config_invalid, fmt::format("{} is not a time key", k.name));
  return config_detail::conf_time_value(k, *conf(k.name));
}

Seconds Config::kill_wait() const { return conf_int("KillWait"); }
std::uint32_t Config::max_array_size() const {
  return static_cast<std::uint32_t>(conf_int("MaxArraySize"));
}
Seconds Config::daemon_idle_exit() const { return conf_int("StintIdleExit"); }

void Config::set_conf(std::string_view key, std::string_view value) {
  const ConfKey* k = find_conf_key(key);
  if (!k) {
    std::vector<std::string_view> known;
    for (const ConfKey& c : config_detail::conf_keys()) known.push_back(c.name);
    std::string guess = config_detail::closest(key, known);
    throw Error(Errc::config_invalid,
                guess.empty()
                    ? fmt::format("{}: unknown slurm.conf key", key)
                    : fmt::format("{}: unknown slurm.conf key; did you mean {}?", key, guess));
  }
  if (std::string problem = config_detail::conf_value_problem(*k, value); !problem.empty())
    throw Error(Errc::config_invalid, fmt::format("{}: {}", k->name, problem));
  if (k->name == "ClusterName") {
    if (value.empty() || value.find_first_of(" \t\n,") != std::string_view::npos)
      throw Error(Errc::config_invalid,
                  fmt::format("ClusterName: \"{}\" is not a valid cluster name", value));
    cluster_name = std::string(value);
    return;
  }
  std::erase_if(slurm_conf, [&](const auto& entry) { return iequals(entry.first, key); });
  slurm_conf.emplace(std::string(k->name), std::string(value));
}

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// JSON by name, or by its first character: '{' or a comment. A YAML file
// starting with a flow map '{' is rare enough, and valid JSON mostly anyway.
bool looks_like_json(std::string_view text, const std::string& name) {
  if (ends_with(name, ".json")) return true;
  if (ends_with(name, ".yaml") || ends_with(name, ".yml")) return false;
  std::size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos) return false;
  return text[i] == '{' || text.substr(i, 2) == "//" || text.substr(i, 2) == "/*";
}

Config parse_with(std::string_view text, const std::string& name,
                  const std::function<Machine()>& machine) {
  config_detail::RawNode raw = looks_like_json(text, name) ? config_detail::json_to_raw(text, name)
                                                           : config_detail::yaml_to_raw(text, name);
  return config_detail::build_config(raw, name, machine);
}

}  // namespace

Config parse_config(std::string_view text, const std::string& name) {
  return parse_with(text, name, [] { return detect_machine(); });
}

Config parse_config(std::string_view text, const std::string& name, const Machine& machine) {
  return parse_with(text, name, [&machine] { return machine; });
}

Config load_config(const std::string& path) { return parse_config(fs::read_file(path), path); }

Config config_for_machine(const Machine& m) {
  Config c;
  NodePool pool;
  pool.id = "local";
  pool.count = 1;
  pool.cpus = m.cpus;
  pool.memory_mb = m.memory_mb;
  pool.gpus = m.gpus;
  pool.gpu_type = m.gpus > 0 ? m.gpu_type : std::string();
  pool.node_names = {m.hostname};
  pool.origin = ConfigOrigin::autodetected;
  c.node_pools.push_back(std::move(pool));
  PartitionConfig p;
  p.id = "local";
  p.node_pool_ids = {"local"};
  p.max_time = k_infinite;
  c.partitions.push_back(std::move(p));
  return c;
}

Config autodetect_config() { return config_for_machine(detect_machine()); }

Config load_or_init_config(const std::string& state_dir) {
  std::string yaml_path = state_dir + "/stint.yaml";
  if (fs::exists(yaml_path)) return load_config(yaml_path);
  std::string json_path = state_dir + "/stint.json";
  if (fs::exists(json_path)) return load_config(json_path);
  Machine machine = detect_machine();
  std::string text = config_to_yaml(config_for_machine(machine));
  fs::make_dirs(state_dir, 0700);
  fs::write_file_atomic(yaml_path, text);
  // What a later load_config will see, origins included.
  return parse_config(text, yaml_path, machine);
}

}  // namespace stint
