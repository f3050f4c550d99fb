// Partition overrides (scontrol update PartitionName=) and the difference
// between two configs (what scontrol reconfigure logs).

#include <algorithm>
#include <cctype>
#include <set>
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
  if (o.default_time) j["default_time"] = *o.default_time;
  if (o.default_time_none) j["default_time_none"] = true;
  if (o.priority_tier) j["priority_tier"] = *o.priority_tier;
  if (o.priority_job_factor) j["priority_job_factor"] = *o.priority_job_factor;
  if (o.nodes) j["nodes"] = *o.nodes;
  if (o.allow_accounts) j["allow_accounts"] = *o.allow_accounts;
  if (o.deny_accounts) j["deny_accounts"] = *o.deny_accounts;
  if (o.allow_qos) j["allow_qos"] = *o.allow_qos;
  if (o.deny_qos) j["deny_qos"] = *o.deny_qos;
  if (o.created) j["created"] = true;
  if (o.deleted) j["deleted"] = true;
  return j.dump();
}

PartitionOverride partition_override_from_json(std::string_view text) {
  PartitionOverride o;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw Error(Errc::config_invalid, "partition override: not an object");
    if (auto it = j.find("state"); it != j.end()) {
      const std::string s = it->get<std::string>();
      for (PartitionState st : {PartitionState::up, PartitionState::down, PartitionState::drain,
                                PartitionState::inactive}) {
        if (s == partition_state_name(st)) o.state = st;
      }
      if (!o.state) throw Error(Errc::config_invalid, "unknown partition state " + s);
    }
    if (auto it = j.find("max_time"); it != j.end()) o.max_time = it->get<Seconds>();
    if (auto it = j.find("default_time"); it != j.end()) o.default_time = it->get<Seconds>();
    o.default_time_none = j.value("default_time_none", false);
    if (auto it = j.find("priority_tier"); it != j.end())
      o.priority_tier = it->get<std::uint32_t>();
    if (auto it = j.find("priority_job_factor"); it != j.end())
      o.priority_job_factor = it->get<std::uint32_t>();
    auto names = [&](const char* key, std::optional<std::vector<std::string>>& into) {
      if (auto it = j.find(key); it != j.end()) into = it->get<std::vector<std::string>>();
    };
    names("nodes", o.nodes);
    names("allow_accounts", o.allow_accounts);
    names("deny_accounts", o.deny_accounts);
    names("allow_qos", o.allow_qos);
    names("deny_qos", o.deny_qos);
    o.created = j.value("created", false);
    o.deleted = j.value("deleted", false);
  } catch (const nlohmann::json::exception& e) {
    throw Error(Errc::config_invalid, fmt::format("partition override: {}", e.what()));
  }
  return o;
}

void merge_partition_override(PartitionOverride& into, const PartitionOverride& change) {
  if (change.deleted) {
    // What was set before no longer matters; a partition the file has stays
    // deleted until a reconfigure, a created one is simply gone.
    const bool was_created = into.created;
    into = PartitionOverride{};
    into.deleted = !was_created;
    return;
  }
  if (change.created) {
    into = change;
    return;
  }
  if (change.state) into.state = change.state;
  if (change.max_time) into.max_time = change.max_time;
  if (change.default_time || change.default_time_none) {
    into.default_time = change.default_time;
    into.default_time_none = change.default_time_none;
  }
  if (change.priority_tier) into.priority_tier = change.priority_tier;
  if (change.priority_job_factor) into.priority_job_factor = change.priority_job_factor;
  if (change.nodes) into.nodes = change.nodes;
  if (change.allow_accounts) into.allow_accounts = change.allow_accounts;
  if (change.deny_accounts) into.deny_accounts = change.deny_accounts;
  if (change.allow_qos) into.allow_qos = change.allow_qos;
  if (change.deny_qos) into.deny_qos = change.deny_qos;
}

void apply_partition_override(Config& c, std::string_view partition, const PartitionOverride& o) {
  if (o.deleted) {
    std::erase_if(c.partitions, [&](const PartitionConfig& p) { return p.id == partition; });
    if (c.default_partition_id == partition) c.default_partition_id.clear();
    return;
  }
  if (o.created && !c.find_partition(partition)) {
    PartitionConfig made;
    made.id = std::string(partition);
    // stint's partitions name pools; the created one names its nodes' pools
    // and keeps the node list itself, as `Nodes=` updates do.
    if (o.nodes) {
      for (const NodeDef& n : c.nodes()) {
        if (std::find(o.nodes->begin(), o.nodes->end(), n.name) != o.nodes->end() &&
            std::find(made.node_pool_ids.begin(), made.node_pool_ids.end(), n.pool_id) ==
                made.node_pool_ids.end())
          made.node_pool_ids.push_back(n.pool_id);
      }
    }
    c.partitions.push_back(std::move(made));
  }
  for (PartitionConfig& p : c.partitions) {
    if (p.id != partition) continue;
    if (o.state) p.state = *o.state;
    if (o.max_time) p.max_time = *o.max_time;
    if (o.default_time_none)
      p.default_time.reset();
    else if (o.default_time)
      p.default_time = *o.default_time;
    if (o.priority_tier) p.priority_tier = *o.priority_tier;
    if (o.priority_job_factor) p.priority_job_factor = *o.priority_job_factor;
    if (o.nodes) p.nodes = *o.nodes;
    if (o.allow_accounts) p.allow_accounts = *o.allow_accounts;
    if (o.deny_accounts) p.deny_accounts = *o.deny_accounts;
    if (o.allow_qos) p.allow_qos = *o.allow_qos;
    if (o.deny_qos) p.deny_qos = *o.deny_qos;
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
  if (from.node_addr_base != to.node_addr_base)
    out.push_back(fmt::format("node_addr_base: {} -> {}", from.node_addr_base, to.node_addr_base));
  for (const NodePool& p : from.node_pools) {
    auto it = std::find_if(to.node_pools.begin(), to.node_pools.end(),
                           [&](const NodePool& q) { return q.id == p.id; });
    if (it == to.node_pools.end())
      out.push_back(fmt::format("node pool {} removed", p.id));
    else if (pool_text(p) != pool_text(*it) || p.node_names != it->node_names ||
             p.node_addrs != it->node_addrs)
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
  // Features scontrol update set on nodes (or a reconfigure dropped).
  if (from.node_features != to.node_features) {
    auto features_of = [](const Config& c, const std::string& node) {
      for (const NodeDef& n : c.nodes()) {
        if (n.name == node) return fmt::format("{}", fmt::join(n.features, ","));
      }
      return std::string();
    };
    std::set<std::string> names;
    for (const auto& entry : from.node_features) names.insert(entry.first);
    for (const auto& entry : to.node_features) names.insert(entry.first);
    for (const std::string& name : names) {
      const std::string before = features_of(from, name);
      const std::string after = features_of(to, name);
      if (before != after)
        out.push_back(fmt::format("node {} features: {} -> {}", name,
                                  before.empty() ? "(null)" : before,
                                  after.empty() ? "(null)" : after));
    }
  }
  if (from.prolog_bash_scripts != to.prolog_bash_scripts)
    out.push_back(fmt::format("prolog_bash_scripts: {} -> {} scripts",
                              from.prolog_bash_scripts.size(), to.prolog_bash_scripts.size()));
  if (from.epilog_bash_scripts != to.epilog_bash_scripts)
    out.push_back(fmt::format("epilog_bash_scripts: {} -> {} scripts",
                              from.epilog_bash_scripts.size(), to.epilog_bash_scripts.size()));
  return out;
}

}  // namespace stint
