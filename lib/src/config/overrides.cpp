// Partition overrides (scontrol update PartitionName=) and the difference
// between two configs (what scontrol reconfigure logs).

#include <algorithm>
#include <cctype>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/parse.hpp>

namespace stint {
namespace {

bool has_word(std::string_view list, std::string_view word) {
  std::string l(list), w(word);
  for (auto* s : {&l, &w}) {
    for (char& c : *s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::size_t start = 0;
  while (start <= l.size()) {
    std::size_t end = l.find(',', start);
    if (end == std::string::npos) end = l.size();
    if (l.substr(start, end - start) == w) return true;
    start = end + 1;
  }
  return false;
}

std::string limit_text(Seconds s) { return parse::format_duration_fixed(s); }

std::string pool_text(const NodePool& p) {
  return fmt::format("count={} cpus={} memory={}M gpus={}{}", p.count, p.cpus, p.memory_mb, p.gpus,
                     p.gpu_type.empty() ? "" : ":" + p.gpu_type);
}

std::string partition_text(const Config& c, const PartitionConfig& p) {
  std::vector<std::string> names;
  for (const NodeDef& n : c.partition_nodes(p)) names.push_back(n.name);
  return fmt::format("Nodes={} MaxTime={} PriorityTier={} State={}",
                     parse::compress_hostlist(names), limit_text(p.max_time), p.priority_tier,
                     partition_state_name(p.state));
}

// One line per alias added, removed or retargeted ("alias partition gpu-long:
// gpu -> batch"); "" shows as (none), the request dropped.
void alias_changes(const ForeignNames& from, const ForeignNames& to,
                   std::vector<std::string>& out) {
  auto shown = [](const std::string& s) { return s.empty() ? std::string("(none)") : s; };
  for (const auto& [what, a, b] :
       {std::tuple{"partition", &from.partitions, &to.partitions},
        std::tuple{"QOS", &from.qos, &to.qos}, std::tuple{"account", &from.accounts, &to.accounts},
        std::tuple{"reservation", &from.reservations, &to.reservations},
        std::tuple{"GPU type", &from.gpu_types, &to.gpu_types}}) {
    for (const auto& [name, target] : *a) {
      auto it = b->find(name);
      if (it == b->end())
        out.push_back(fmt::format("alias {} {} removed", what, name));
      else if (it->second != target)
        out.push_back(
            fmt::format("alias {} {}: {} -> {}", what, name, shown(target), shown(it->second)));
    }
    for (const auto& [name, target] : *b) {
      if (!a->count(name))
        out.push_back(fmt::format("alias {} {} added: {}", what, name, shown(target)));
    }
  }
}

}  // namespace

std::string partition_override_to_json(const PartitionOverride& o) {
  nlohmann::json j = nlohmann::json::object();
  if (o.state) j["state"] = std::string(partition_state_name(*o.state));
  if (o.max_time) j["max_time"] = *o.max_time;
  if (o.priority_tier) j["priority_tier"] = *o.priority_tier;
  if (o.nodes) j["nodes"] = *o.nodes;
  return j.dump();
}

PartitionOverride partition_override_from_json(std::string_view text) {
  PartitionOverride o;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (auto it = j.find("state"); it != j.end()) {
      const std::string s = it->get<std::string>();
      for (PartitionState st : {PartitionState::up, PartitionState::down, PartitionState::drain,
                                PartitionState::inactive}) {
        if (s == partition_state_name(st)) o.state = st;
      }
      if (!o.state) throw Error(Errc::config_invalid, "unknown partition state " + s);
    }
    if (auto it = j.find("max_time"); it != j.end()) o.max_time = it->get<Seconds>();
    if (auto it = j.find("priority_tier"); it != j.end())
      o.priority_tier = it->get<std::uint32_t>();
    if (auto it = j.find("nodes"); it != j.end()) o.nodes = it->get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(Errc::config_invalid, fmt::format("partition override: {}", e.what()));
  }
  return o;
}

void apply_partition_override(Config& c, std::string_view partition, const PartitionOverride& o) {
  for (PartitionConfig& p : c.partitions) {
    if (p.id != partition) continue;
    if (o.state) p.state = *o.state;
    if (o.max_time) p.max_time = *o.max_time;
    if (o.priority_tier) p.priority_tier = *o.priority_tier;
    if (o.nodes) p.nodes = *o.nodes;
  }
}

PartitionOverride kept_on_reconfigure(const Config& next, const PartitionOverride& o) {
  const std::string flags = next.conf("ReconfigFlags").value_or("");
  if (has_word(flags, "KeepPartInfo")) return o;
  PartitionOverride kept;
  if (has_word(flags, "KeepPartState")) kept.state = o.state;
  return kept;
}

std::vector<std::string> config_changes(const Config& from, const Config& to) {
  std::vector<std::string> out;
  if (from.cluster_name != to.cluster_name)
    out.push_back(fmt::format("ClusterName: {} -> {}", from.cluster_name, to.cluster_name));
  for (const NodePool& p : from.node_pools) {
    auto it = std::find_if(to.node_pools.begin(), to.node_pools.end(),
                           [&](const NodePool& q) { return q.id == p.id; });
    if (it == to.node_pools.end())
      out.push_back(fmt::format("node pool {} removed", p.id));
    else if (pool_text(p) != pool_text(*it) || p.node_names != it->node_names)
      out.push_back(fmt::format("node pool {}: {} -> {}", p.id, pool_text(p), pool_text(*it)));
  }
  for (const NodePool& q : to.node_pools) {
    if (std::none_of(from.node_pools.begin(), from.node_pools.end(),
                     [&](const NodePool& p) { return p.id == q.id; }))
      out.push_back(fmt::format("node pool {} added: {}", q.id, pool_text(q)));
  }
  for (const PartitionConfig& p : from.partitions) {
    const PartitionConfig* q = to.find_partition(p.id);
    if (!q)
      out.push_back(fmt::format("partition {} removed", p.id));
    else if (partition_text(from, p) != partition_text(to, *q) || !(p == *q))
      out.push_back(fmt::format("partition {}: {} -> {}", p.id, partition_text(from, p),
                                partition_text(to, *q)));
  }
  for (const PartitionConfig& q : to.partitions) {
    if (!from.find_partition(q.id))
      out.push_back(fmt::format("partition {} added: {}", q.id, partition_text(to, q)));
  }
  if (from.default_partition_id != to.default_partition_id)
    out.push_back(fmt::format("default partition: {} -> {}", from.default_partition_id,
                              to.default_partition_id));
  // Every known key by its effective value, so a key that moves to its
  // default is a change too.
  auto a = from.all_conf();
  auto b = to.all_conf();
  for (const auto& [key, value, origin] : a) {
    // A plain name for it: clang 14 lets no lambda capture a structured binding.
    const auto& name = key;
    auto it =
        std::find_if(b.begin(), b.end(), [&](const auto& t) { return std::get<0>(t) == name; });
    if (it != b.end() && std::get<1>(*it) != value)
      out.push_back(fmt::format("{}: {} -> {}", key, value.empty() ? "(null)" : value,
                                std::get<1>(*it).empty() ? "(null)" : std::get<1>(*it)));
  }
  alias_changes(from.aliases, to.aliases, out);
  if (from.prolog_bash_scripts != to.prolog_bash_scripts)
    out.push_back(fmt::format("prolog_bash_scripts: {} -> {} scripts",
                              from.prolog_bash_scripts.size(), to.prolog_bash_scripts.size()));
  if (from.epilog_bash_scripts != to.epilog_bash_scripts)
    out.push_back(fmt::format("epilog_bash_scripts: {} -> {} scripts",
                              from.epilog_bash_scripts.size(), to.epilog_bash_scripts.size()));
  return out;
}

}  // namespace stint
