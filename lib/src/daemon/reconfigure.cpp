// scontrol reconfigure: the config file read again, checked whole against the
// live jobs, and switched to in one step, or refused with nothing changed.

#include <fmt/format.h>

#include <stint/error.hpp>

#include "config/warnings.hpp"
#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "sched/reconfig.hpp"
#include "util/fs.hpp"

namespace stint::daemon {

std::vector<std::string> Controller::reconfigure(const std::string& who) {
  // The file stintd would load at start: stint.yaml, else stint.json.
  std::string path = m_paths.state_dir + "/stint.yaml";
  if (!fs::exists(path) && fs::exists(m_paths.state_dir + "/stint.json"))
    path = m_paths.state_dir + "/stint.json";
  auto refuse = [&](const std::string& why) {
    log_error("reconfigure by {} refused: {}", who, why);
    return Error(Errc::config_invalid,
                 fmt::format("reconfigure refused, the running configuration stays: {}", why));
  };
  std::string text;
  Config next;
  try {
    text = fs::read_file(path);
    next = parse_config(text, path);
  } catch (const Error& e) {
    throw refuse(e.what());
  }
  // Overrides of partitions that are gone, and states of nodes that are gone,
  // go with them; the rest of the overrides as ReconfigFlags says (a partition
  // `scontrol create` made stays only with KeepPartInfo).
  std::map<std::string, PartitionOverride> overrides;
  for (const auto& [name, o] : m_partition_overrides) {
    PartitionOverride kept = kept_on_reconfigure(next, o);
    if ((next.find_partition(name) || kept.created) && !kept.empty()) overrides.emplace(name, kept);
  }
  Config next_effective = next;
  for (const auto& [name, o] : overrides) apply_partition_override(next_effective, name, o);
  std::vector<const Job*> live;
  for (const auto& [id, job] : m_live) live.push_back(&job);
  if (auto problems = sched::reconfigure_problems(next_effective, live); !problems.empty())
    throw refuse(fmt::format("{}", fmt::join(problems, "; ")));

  std::vector<std::string> gone_nodes;
  const std::vector<NodeDef> next_nodes = next.nodes();
  for (const auto& entry : m_node_states) {
    // Not a structured binding: clang 14 lets no lambda capture one.
    const std::string& name = entry.first;
    if (std::none_of(next_nodes.begin(), next_nodes.end(),
                     [&](const NodeDef& n) { return n.name == name; }))
      gone_nodes.push_back(name);
  }

  Store::Transaction tx(*m_store);
  for (const auto& [name, o] : m_partition_overrides) {
    auto it = overrides.find(name);
    m_store->put_partition_override(
        name, it == overrides.end() ? std::string() : partition_override_to_json(it->second));
  }
  for (const std::string& name : gone_nodes)
    m_store->put_node_state(NodeStatus{name, NodeAdminState::up, {}, 0, {}, k_no_time});
  // Every node's features come from the file again, as slurmctld's
  // reconfigure reads them from slurm.conf.
  for (const auto& entry : m_node_features) m_store->put_node_features(entry.first, std::nullopt);
  m_store->set_meta("config_text", text);
  m_store->set_meta("config_name", path);
  tx.commit();

  const Config before = m_config;
  m_file_config = std::move(next);
  m_partition_overrides = std::move(overrides);
  for (const std::string& name : gone_nodes) m_node_states.erase(name);
  m_node_features.clear();
  apply_overrides();
  set_log_limit(log_limit());
  std::vector<std::string> changes = config_changes(before, m_config);
  log_info("reconfigure by {}: {} read, {} change{}", who, path, changes.size(),
           changes.size() == 1 ? "" : "s");
  for (const std::string& line : changes) log_info("reconfigure by {}: {}", who, line);
  for (const std::string& w : config_warnings(m_config)) log_error("reconfigure by {}: {}", who, w);
  return changes;
}

}  // namespace stint::daemon
