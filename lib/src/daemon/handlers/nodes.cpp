// scontrol update NodeName= / PartitionName= and scontrol reconfigure:
// operators only; everything is checked before anything changes.

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/raw.hpp"
#include "config/warnings.hpp"
#include "daemon/handlers/handlers.hpp"
#include "daemon/handlers/sacctmgr.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// As slurmctld: root, the state directory's owner, and users sacctmgr made
// Operator or Administrator.
void operators_only(Controller& c, const Caller& caller) {
  if (acct::caller_level(c, caller) == AdminLevel::none)
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
}

/// The named nodes, each of which must exist.
std::vector<std::string> known_nodes(const Controller& c, const std::string& list) {
  std::vector<std::string> names;
  try {
    names = parse::expand_hostlist(list);
  } catch (const Error&) {
    throw Error(Errc::invalid_node_name, std::string(errc_slurm_message(Errc::invalid_node_name)));
  }
  const std::vector<NodeDef> all = c.config().nodes();
  if (names.empty())
    throw Error(Errc::invalid_node_name, std::string(errc_slurm_message(Errc::invalid_node_name)));
  for (const std::string& n : names) {
    if (std::none_of(all.begin(), all.end(), [&](const NodeDef& d) { return d.name == n; }))
      throw Error(Errc::invalid_node_name,
                  fmt::format("{}: {}", errc_slurm_message(Errc::invalid_node_name), n));
  }
  return names;
}

}  // namespace

Json handle_update_node(Controller& c, const Json& req, const Caller& caller) {
  operators_only(c, caller);
  const std::vector<std::string> names = known_nodes(c, req.at("nodes").get<std::string>());
  const std::string state = upper(req.value("state", std::string()));
  const std::string reason = req.value("reason", std::string());
  if (req.contains("features")) {
    const auto features = req.at("features").get<std::vector<std::string>>();
    for (const std::string& f : features) {
      if (f.empty() || f.find_first_of(" \t|&[]*") != std::string::npos)
        throw Error(Errc::invalid_feature, fmt::format("Invalid feature specification: {}", f));
    }
    c.set_node_features(names, features, Controller::who(caller));
    // Features alone: nothing else to change.
    if (state.empty() && reason.empty()) return Json::object();
  }
  std::vector<NodeStatus> changes;
  for (const std::string& name : names) {
    auto it = c.node_states().find(name);
    const NodeAdminState now = it == c.node_states().end() ? NodeAdminState::up : it->second.state;
    NodeStatus s;
    s.name = name;
    s.user_id = caller.uid;
    s.user_name = proc::user_name(caller.uid);
    s.since = c.now();
    s.reason = reason;
    if (state.empty()) {
      if (reason.empty()) throw Error(Errc::usage, "No changes specified");
      if (now == NodeAdminState::up)
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid node state specified: {} is not down or drained", name));
      s.state = now;
    } else if (state == "DRAIN" || state == "DOWN") {
      if (reason.empty())
        throw Error(Errc::invalid_argument,
                    "You must specify a reason when DOWNING or DRAINING a node. Request denied");
      // DRAIN is a flag that DOWN keeps (node_mgr.c's _make_node_down): a
      // down node drained, or a drained one set down, is both.
      const bool down = state == "DOWN" || is_down(now);
      const bool drain = state == "DRAIN" || is_drain(now);
      s.state = down && drain ? NodeAdminState::down_drain
                : down        ? NodeAdminState::down
                              : NodeAdminState::drain;
    } else if (state == "IDLE" && now == NodeAdminState::up) {
      // Slurm's IDLE clears DOWN and DRAIN; a node that is up already stays so.
      continue;
    } else if (state == "RESUME" || state == "IDLE") {
      if (now == NodeAdminState::up)
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid node state specified: {} is not down or drained", name));
      s = NodeStatus{name, NodeAdminState::up, {}, 0, {}, k_no_time};
    } else if (state == "UNDRAIN") {
      // Clears a drain, never a DOWN.
      if (!is_drain(now)) continue;
      if (now == NodeAdminState::down_drain) {
        s = it->second;
        s.state = NodeAdminState::down;
      } else {
        s = NodeStatus{name, NodeAdminState::up, {}, 0, {}, k_no_time};
      }
    } else {
      throw Error(Errc::invalid_argument, fmt::format("Invalid node state specified: {}", state));
    }
    changes.push_back(std::move(s));
  }
  c.set_node_states(changes, Controller::who(caller));
  return Json::object();
}

// The fields scontrol sends (Slurm's key names, already matched from the
// user's abbreviations) as an override; throws what scontrol reports.
PartitionOverride partition_change(const Controller& c, const Json& fields) {
  PartitionOverride change;
  auto list = [](const std::string& value) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= value.size()) {
      std::size_t end = value.find(',', start);
      if (end == std::string::npos) end = value.size();
      if (end > start) names.push_back(value.substr(start, end - start));
      start = end + 1;
    }
    return names;
  };
  auto priority = [](const std::string& key, const std::string& value) {
    std::uint32_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || n > 65533)
      throw Error(Errc::invalid_argument, fmt::format("Invalid {} value: {}", key, value));
    return n;
  };
  auto limit = [](const std::string& key, const std::string& value) {
    try {
      return parse::time_limit(value);
    } catch (const Error&) {
      throw Error(Errc::invalid_time, fmt::format("Invalid input: {}={}", key, value));
    }
  };
  for (const auto& [key, value_json] : fields.items()) {
    const std::string value = value_json.get<std::string>();
    const std::string k = upper(key);
    if (k == "STATE") {
      const std::string v = upper(value);
      for (PartitionState st : {PartitionState::up, PartitionState::down, PartitionState::drain,
                                PartitionState::inactive}) {
        if (v == partition_state_name(st)) change.state = st;
      }
      if (!change.state)
        throw Error(Errc::invalid_argument, fmt::format("Invalid input: State={}", value));
    } else if (k == "MAXTIME") {
      change.max_time = limit(key, value);
    } else if (k == "DEFAULTTIME") {
      change.default_time = limit(key, value);
    } else if (k == "PRIORITY") {
      change.priority_tier = change.priority_job_factor = priority(key, value);
    } else if (k == "PRIORITYTIER") {
      change.priority_tier = priority(key, value);
    } else if (k == "PRIORITYJOBFACTOR") {
      change.priority_job_factor = priority(key, value);
    } else if (k == "NODES") {
      std::vector<std::string> nodes;
      if (upper(value) == "ALL") {
        for (const NodeDef& n : c.config().nodes()) nodes.push_back(n.name);
      } else if (!value.empty()) {
        nodes = known_nodes(c, value);
      }
      change.nodes = std::move(nodes);
    } else if (k == "ALLOWACCOUNTS" || k == "ALLOWQOS") {
      // ALL (or nothing) lifts the list, as slurmctld's update_part does.
      std::vector<std::string> names =
          upper(value) == "ALL" ? std::vector<std::string>{} : list(value);
      (k == "ALLOWQOS" ? change.allow_qos : change.allow_accounts) = std::move(names);
    } else if (k == "DENYACCOUNTS") {
      change.deny_accounts = list(value);
    } else if (k == "DENYQOS") {
      change.deny_qos = list(value);
    } else {
      throw Error(Errc::invalid_argument,
                  fmt::format("Update of this parameter is not supported: {}={}", key, value));
    }
  }
  return change;
}

Json handle_update_partition(Controller& c, const Json& req, const Caller& caller) {
  operators_only(c, caller);
  const std::string name = req.at("partition").get<std::string>();
  if (!c.config().find_partition(name))
    throw Error(Errc::invalid_partition, std::string(errc_slurm_message(Errc::invalid_partition)));
  PartitionOverride change = partition_change(c, req.at("fields"));
  if (change.empty()) throw Error(Errc::usage, "No changes specified");
  c.update_partition(name, change, Controller::who(caller));
  return Json::object();
}

// scontrol create PartitionName=: a partition stint.yaml lacks, kept (as
// Slurm keeps one) until stintd reads its file again without KeepPartInfo.
Json handle_create_partition(Controller& c, const Json& req, const Caller& caller) {
  operators_only(c, caller);
  const std::string name = req.at("partition").get<std::string>();
  if (c.config().find_partition(name) || !config_detail::valid_name(name))
    throw Error(Errc::invalid_partition, std::string(errc_slurm_message(Errc::invalid_partition)));
  PartitionOverride change = partition_change(c, req.at("fields"));
  change.created = true;
  if (!change.nodes) change.nodes = std::vector<std::string>{};
  c.update_partition(name, change, Controller::who(caller));
  return Json::object();
}

// scontrol delete PartitionName=: refused while a job that has not ended
// names it, or a reservation does (slurmctld's partition_in_use).
Json handle_delete_partition(Controller& c, const Json& req, const Caller& caller) {
  operators_only(c, caller);
  const std::string name = req.at("partition").get<std::string>();
  if (!c.config().find_partition(name))
    throw Error(Errc::invalid_partition, std::string(errc_slurm_message(Errc::invalid_partition)));
  for (const auto& [id, job] : c.live()) {
    if (job.partition == name && !is_terminal(job.state))
      throw Error(Errc::invalid_argument, "Partition is in use");
  }
  for (const Reservation& r : c.reservations()) {
    if (r.partition == name) throw Error(Errc::invalid_argument, "Partition is in use");
  }
  PartitionOverride change;
  change.deleted = true;
  c.update_partition(name, change, Controller::who(caller));
  return Json::object();
}

Json handle_reconfigure(Controller& c, const Json&, const Caller& caller) {
  operators_only(c, caller);
  std::vector<std::string> changes = c.reconfigure(Controller::who(caller));
  Json reply = {{"changes", changes}};
  // What the new configuration asks for that this machine cannot give:
  // scontrol prints it, as stint config check does.
  if (auto warnings = config_warnings(c.config()); !warnings.empty()) reply["warnings"] = warnings;
  return reply;
}

}  // namespace stint::daemon
