// A Config as stint.yaml text: what `stint init` writes. parse_config reads it
// back to an equal Config (tests/unit/config).

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <stint/config.hpp>
#include <stint/parse.hpp>

namespace stint {
namespace {

std::string time_text(Seconds s) {
  return s == k_infinite ? std::string("UNLIMITED") : parse::format_duration_fixed(s);
}

bool default_names(const NodePool& pool) {
  for (std::uint32_t n = 0; n < pool.node_names.size(); ++n) {
    if (pool.node_names[n] != fmt::format("{}-{}", pool.id, n + 1)) return false;
  }
  return true;
}

// A script reads best as a literal block. yaml-cpp writes "|" with no chomping
// indicator, which adds a newline to a script that has none, so blocks are
// written here; text a block cannot hold exactly goes double-quoted.
bool fits_block(std::string_view s) {
  if (s.empty() || s.front() == ' ' || s.front() == '\t' || s.front() == '\n') return false;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = std::min(s.find('\n', start), s.size());
    std::string_view line = s.substr(start, end - start);
    if (!line.empty() && line.find_first_not_of(" \t") == std::string_view::npos) return false;
    start = end + 1;
  }
  return std::none_of(s.begin(), s.end(), [](char c) {
    return (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
  });
}

std::string script_item(std::string_view s) {
  if (!fits_block(s)) {
    YAML::Emitter e;
    e << YAML::DoubleQuoted << std::string(s);
    return fmt::format("  - {}\n", e.c_str());
  }
  std::size_t trailing = s.size() - (s.find_last_not_of('\n') + 1);
  std::string_view chomp = trailing == 0 ? "-" : trailing == 1 ? "" : "+";
  std::string_view body = s.substr(0, s.size() - trailing);
  std::string out = fmt::format("  - |{}\n", chomp);
  std::size_t start = 0;
  while (start <= body.size()) {
    std::size_t end = std::min(body.find('\n', start), body.size());
    std::string_view line = body.substr(start, end - start);
    out += line.empty() ? std::string("\n") : fmt::format("    {}\n", line);
    start = end + 1;
  }
  for (std::size_t i = 1; i < trailing; ++i) out += "\n";
  return out;
}

std::string scripts(std::string_view key, const std::vector<std::string>& list) {
  if (list.empty()) return {};
  std::string out = fmt::format("{}:\n", key);
  for (const std::string& s : list) out += script_item(s);
  return out;
}

// Kinds with no names are left out; "" (drop the request) is written quoted.
void write_aliases(YAML::Emitter& e, const ForeignNames& a) {
  e << YAML::Key << "aliases" << YAML::Value << YAML::BeginMap;
  for (const auto& [key, names] :
       {std::pair{"partitions", &a.partitions}, std::pair{"qos", &a.qos},
        std::pair{"accounts", &a.accounts}, std::pair{"reservations", &a.reservations},
        std::pair{"gpu_types", &a.gpu_types}}) {
    if (names->empty()) continue;
    e << YAML::Key << key << YAML::Value << YAML::BeginMap;
    for (const auto& [from, to] : *names) {
      e << YAML::Key << from << YAML::Value;
      if (to.empty()) {
        e << YAML::DoubleQuoted << to;
      } else {
        e << to;
      }
    }
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
}

}  // namespace

std::string config_to_yaml(const Config& c) {
  YAML::Emitter e;
  e << YAML::BeginMap;
  e << YAML::Key << "cluster_name" << YAML::Value << c.cluster_name;
  if (c.node_addr_base != k_default_node_addr_base)
    e << YAML::Key << "node_addr_base" << YAML::Value << c.node_addr_base;
  e << YAML::Key << "node_pools" << YAML::Value << YAML::BeginSeq;
  for (const NodePool& pool : c.node_pools) {
    e << YAML::BeginMap;
    e << YAML::Key << "id" << YAML::Value << pool.id;
    e << YAML::Key << "count" << YAML::Value << pool.count;
    e << YAML::Key << "cpus" << YAML::Value << pool.cpus;
    e << YAML::Key << "memory" << YAML::Value << parse::format_memory_mb(pool.memory_mb);
    e << YAML::Key << "gpus" << YAML::Value << pool.gpus;
    if (!pool.gpu_type.empty()) e << YAML::Key << "gpu_type" << YAML::Value << pool.gpu_type;
    if (!pool.features.empty()) {
      e << YAML::Key << "features" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const std::string& f : pool.features) e << f;
      e << YAML::EndSeq;
    }
    if (pool.sockets != 1) e << YAML::Key << "sockets" << YAML::Value << pool.sockets;
    if (pool.threads_per_core != 1)
      e << YAML::Key << "threads_per_core" << YAML::Value << pool.threads_per_core;
    if (pool.tmp_disk_mb > 0)
      e << YAML::Key << "tmp_disk" << YAML::Value << parse::format_memory_mb(pool.tmp_disk_mb);
    if (!pool.node_names.empty() && !default_names(pool)) {
      e << YAML::Key << "node_names" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const std::string& n : pool.node_names) e << n;
      e << YAML::EndSeq;
    }
    if (!pool.node_addrs.empty()) {
      e << YAML::Key << "node_addrs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const std::string& a : pool.node_addrs) e << a;
      e << YAML::EndSeq;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  e << YAML::Key << "partitions" << YAML::Value << YAML::BeginSeq;
  for (const PartitionConfig& p : c.partitions) {
    e << YAML::BeginMap;
    e << YAML::Key << "id" << YAML::Value << p.id;
    e << YAML::Key << "node_pool_ids" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& id : p.node_pool_ids) e << id;
    e << YAML::EndSeq;
    e << YAML::Key << "priority_tier" << YAML::Value << p.priority_tier;
    if (p.priority_job_factor)
      e << YAML::Key << "priority_job_factor" << YAML::Value << *p.priority_job_factor;
    e << YAML::Key << "max_time" << YAML::Value << time_text(p.max_time);
    if (p.default_time)
      e << YAML::Key << "default_time" << YAML::Value << time_text(*p.default_time);
    e << YAML::Key << "state" << YAML::Value << std::string(partition_state_name(p.state));
    // YES and FORCE (CPUs shared between jobs) have no key: the import says so.
    if (p.over_subscribe == "EXCLUSIVE")
      e << YAML::Key << "oversubscribe" << YAML::Value << p.over_subscribe;
    if (!p.preempt_mode.empty()) e << YAML::Key << "preempt_mode" << YAML::Value << p.preempt_mode;
    if (p.grace_time != 0) e << YAML::Key << "grace_time" << YAML::Value << time_text(p.grace_time);
    for (auto [key, names] :
         {std::pair{"allow_accounts", &p.allow_accounts},
          std::pair{"deny_accounts", &p.deny_accounts}, std::pair{"allow_qos", &p.allow_qos},
          std::pair{"deny_qos", &p.deny_qos}}) {
      if (names->empty()) continue;
      e << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const std::string& n : *names) e << n;
      e << YAML::EndSeq;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  if (!c.default_partition_id.empty())
    e << YAML::Key << "default_partition_id" << YAML::Value << c.default_partition_id;
  if (!c.login_node_pool_id.empty())
    e << YAML::Key << "login_node_pool_id" << YAML::Value << c.login_node_pool_id;
  if (!c.home_directory_storage.empty())
    e << YAML::Key << "home_directory_storage" << YAML::Value << c.home_directory_storage;
  if (!c.aliases.empty()) write_aliases(e, c.aliases);
  if (!c.slurm_conf.empty()) {
    e << YAML::Key << "config" << YAML::Value << YAML::BeginMap;
    for (const auto& [key, value] : c.slurm_conf) e << YAML::Key << key << YAML::Value << value;
    e << YAML::EndMap;
  }
  e << YAML::EndMap;
  return fmt::format(
      "# stint cluster configuration (see examples/clusters/ and `stint config show`).\n"
      "{}\n{}{}",
      e.c_str(), scripts("prolog_bash_scripts", c.prolog_bash_scripts),
      scripts("epilog_bash_scripts", c.epilog_bash_scripts));
}

}  // namespace stint
