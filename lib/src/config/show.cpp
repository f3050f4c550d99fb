// `stint config show`: every key stint knows with its value and where it came
// from (ccache --show-config style), the file's other settings, and a summary
// of the pools and partitions. `scontrol show config` is slurm_show.cpp.

#include <string>

#include <fmt/format.h>

#include <stint/config.hpp>
#include <stint/config_show.hpp>
#include <stint/parse.hpp>

#include "config/conf_keys.hpp"

namespace stint {
namespace {

// Keys padded to 23 columns as Slurm's are; the origin in parentheses after
// the value, always, so that a reader never has to guess.
void line(std::string& out, std::string_view key, std::string_view value, std::string_view origin) {
  out += fmt::format("{:<23} = {} ({})\n", key, value, origin);
}

std::string base_name(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string origin_text(const Config& c, ConfigOrigin o) {
  switch (o) {
    case ConfigOrigin::built_in_default:
      return std::string(config_origin_name(o));
    case ConfigOrigin::config_file:
      return c.source_path.empty() ? std::string(config_origin_name(o)) : base_name(c.source_path);
    case ConfigOrigin::autodetected:
      return std::string(config_origin_name(o));
  }
  return {};
}

std::string or_null(const std::string& s) { return s.empty() ? std::string("(null)") : s; }

std::string time_text(Seconds s) {
  return parse::format_duration_fixed(s);  // scontrol show partition's form
}

std::string node_list(const std::vector<NodeDef>& nodes) {
  std::vector<std::string> names;
  for (const NodeDef& n : nodes) names.push_back(n.name);
  return names.empty() ? std::string("(null)") : parse::compress_hostlist(names);
}

}  // namespace

std::string stint_config_show_text(const Config& c) {
  std::string out;
  // Neither default memory set: stint's own rule applies (sched/request.cpp),
  // not Slurm's "the whole node", and UNLIMITED alone would hide it.
  const auto unset = [&c](std::string_view key) {
    const auto v = c.conf(key);
    return !v || v->empty() || *v == "0" || *v == "UNLIMITED";
  };
  const bool memory_rule = unset("DefMemPerCPU") && unset("DefMemPerNode");
  for (const auto& [key, value, origin] : c.all_conf()) {
    const config_detail::ConfKey* k = config_detail::find_conf_key(key);
    std::string from = origin_text(c, origin);
    if (memory_rule && (key == "DefMemPerCPU" || key == "DefMemPerNode"))
      from += ": a job without --mem gets a share of its node's memory by its CPUs";
    line(out, key, k ? config_detail::conf_display_value(*k, value) : value, from);
  }

  out += '\n';
  std::string file_origin = origin_text(c, ConfigOrigin::config_file);
  std::string default_origin = origin_text(c, ConfigOrigin::built_in_default);
  auto from_file = [&](bool set) { return set ? file_origin : default_origin; };
  out += fmt::format("{:<23} = {}\n", "ConfigFile", or_null(c.source_path));
  const PartitionConfig* def = c.default_partition();
  line(out, "DefaultPartition", def ? def->id : "(null)",
       from_file(!c.default_partition_id.empty()));
  line(out, "LoginNodePool", or_null(c.login_node_pool_id),
       from_file(!c.login_node_pool_id.empty()));
  line(out, "HomeDirectoryStorage", or_null(c.home_directory_storage),
       from_file(!c.home_directory_storage.empty()));
  line(out, "PrologBashScripts", std::to_string(c.prolog_bash_scripts.size()),
       from_file(!c.prolog_bash_scripts.empty()));
  line(out, "EpilogBashScripts", std::to_string(c.epilog_bash_scripts.size()),
       from_file(!c.epilog_bash_scripts.empty()));

  out += '\n';
  for (const NodePool& pool : c.node_pools) {
    std::vector<NodeDef> nodes;
    for (NodeDef& n : c.nodes()) {
      if (n.pool_id == pool.id) nodes.push_back(std::move(n));
    }
    std::string gres = pool.gpus == 0          ? std::string("(null)")
                       : pool.gpu_type.empty() ? fmt::format("gpu:{}", pool.gpus)
                                               : fmt::format("gpu:{}:{}", pool.gpu_type, pool.gpus);
    std::string origin = pool.origin == ConfigOrigin::autodetected
                             ? std::string(" (autodetected: this machine's shape)")
                             : std::string();
    out += fmt::format("NodePool={} Count={} Nodes={} CPUs={} RealMemory={} Gres={}{}\n", pool.id,
                       pool.count, node_list(nodes), pool.cpus, pool.memory_mb, gres, origin);
  }
  for (const PartitionConfig& p : c.partitions) {
    out += fmt::format(
        "PartitionName={} NodePools={} Nodes={} Default={} PriorityTier={} MaxTime={} "
        "DefaultTime={} State={}\n",
        p.id, fmt::join(p.node_pool_ids, ","), node_list(c.partition_nodes(p)),
        def == &p ? "YES" : "NO", p.priority_tier, time_text(p.max_time),
        p.default_time ? time_text(*p.default_time) : std::string("NONE"),
        partition_state_name(p.state));
  }
  return out;
}

}  // namespace stint
