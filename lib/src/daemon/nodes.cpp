// Node states (DRAIN, DOWN, RESUME) and partition overrides: what
// `scontrol update NodeName=` and `PartitionName=` change, kept in the store
// so that they survive a restart of stintd.

#include <algorithm>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "daemon/node_hosts.hpp"
#include "daemon/slurm_conf_file.hpp"
#include "daemon/spool.hpp"
#include "model/json.hpp"
#include "sched/sched.hpp"
#include "stepd/launch.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

std::string_view admin_state_name(NodeAdminState s) {
  switch (s) {
    case NodeAdminState::up:
      return "UP";
    case NodeAdminState::drain:
      return "DRAIN";
    case NodeAdminState::down:
      return "DOWN";
    case NodeAdminState::down_drain:
      return "DOWN+DRAIN";
  }
  return "UNKNOWN";
}

}  // namespace

std::string Controller::who(const Caller& caller) {
  return fmt::format("{}({})", proc::user_name(caller.uid), caller.uid);
}

void Controller::load_node_state() {
  for (NodeStatus& s : m_store->node_states()) m_node_states.emplace(s.name, std::move(s));
  m_node_features = m_store->node_features();
  for (const auto& [name, settings] : m_store->partition_overrides()) {
    try {
      m_partition_overrides.emplace(name, partition_override_from_json(settings));
    } catch (const Error& e) {
      log_error("partition {}: ignoring its stored settings: {}", name, e.what());
    }
  }
  apply_overrides();
  // The tools show the config stintd runs with, not a stint.yaml edited since
  // (query::read_config): the text it was loaded from goes to the store.
  if (!m_file_config.source_path.empty()) {
    try {
      std::string text = fs::read_file(m_file_config.source_path);
      if (parse_config(text, m_file_config.source_path) == m_file_config) {
        Store::Transaction tx(*m_store);
        m_store->set_meta("config_text", text);
        m_store->set_meta("config_name", m_file_config.source_path);
        tx.commit();
      }
    } catch (const Error& e) {
      // Changed under us since it was loaded: the tools read the file.
      log_error("config {}: {}", m_file_config.source_path, e.what());
    }
  }
}

void Controller::apply_overrides() {
  Config c = m_file_config;
  c.node_features = m_node_features;
  for (const auto& [name, o] : m_partition_overrides) {
    PartitionOverride effective = o;
    if (effective.nodes) {
      // Nodes a reconfigure removed drop out of the list.
      std::vector<NodeDef> all = c.nodes();
      std::erase_if(*effective.nodes, [&](const std::string& n) {
        return std::none_of(all.begin(), all.end(), [&](const NodeDef& d) { return d.name == n; });
      });
    }
    apply_partition_override(c, name, effective);
  }
  m_config = std::move(c);
  // A pending job's request depends on its partition's nodes (whole-node
  // memory, the default memory share): computed again for the new ones. One
  // that no longer parses keeps what it had.
  for (auto& [id, job] : m_live) {
    if (job.state != JobState::pending) continue;
    const PartitionConfig* part = m_config.find_partition(job.partition);
    if (!part) continue;
    try {
      ResourceRequest r = sched::make_request(job.spec, m_config.partition_nodes(*part), m_config);
      sched::apply_partition(r, *part);
      if (to_json(r) != to_json(job.req)) {
        job.req = r;
        m_store->update_job(job);
      }
    } catch (const Error&) {
    }
  }
  // Each job's SLURM_CONF says what stintd now runs with.
  try {
    write_slurm_conf(m_paths.state_dir, m_config, proc::short_hostname());
  } catch (const Error& e) {
    log_error("{}: {}", slurm_conf_path(m_paths.state_dir), e.what());
  }
  try {
    write_node_hosts(m_paths.state_dir, m_config, proc::short_hostname());
  } catch (const Error& e) {
    log_error("{}: {}", node_hosts_path(m_paths.state_dir), e.what());
  }
  m_dirty = true;
}

void Controller::set_node_states(const std::vector<NodeStatus>& states, const std::string& who) {
  std::vector<JobId> failed;
  {
    Store::Transaction tx(*m_store);
    for (const NodeStatus& s : states) m_store->put_node_state(s);
    tx.commit();
  }
  for (const NodeStatus& s : states) {
    if (s.state == NodeAdminState::up)
      m_node_states.erase(s.name);
    else
      m_node_states[s.name] = s;
    log_info("node {} set {} by {}{}", s.name, admin_state_name(s.state), who,
             s.reason.empty() ? std::string() : fmt::format(": {}", s.reason));
    if (!is_down(s.state)) continue;
    for (const auto& [id, job] : m_live) {
      if (!is_active(job.state)) continue;
      for (const NodeAlloc& a : job.alloc) {
        if (a.node == s.name && std::find(failed.begin(), failed.end(), id) == failed.end())
          failed.push_back(id);
      }
    }
  }
  for (JobId id : failed) {
    if (Job* job = find_live(id)) node_failed(*job);
  }
  m_dirty = true;
}

void Controller::node_failed(Job& job) {
  // A het job's component fails with its whole job: the leader's end (or
  // requeue) takes the components along.
  if (job.is_het_component() && !job.is_het_leader()) {
    if (Job* leader = find_live(job.het_job_id); leader && is_active(leader->state)) {
      node_failed(*leader);
      return;
    }
  }
  // --no-kill, as slurmctld: a job on several nodes goes on without the ones
  // that went DOWN (they leave its allocation, NodeList and NumNodes). Not
  // when the batch script's node is one of them: the script is lost with it.
  if (job.spec.options().no_kill && job.alloc.size() > 1 && !job.spec.run) {
    auto down = [&](const NodeAlloc& a) {
      auto it = m_node_states.find(a.node);
      return it != m_node_states.end() && is_down(it->second.state);
    };
    if (!down(job.alloc.front())) {
      for (const NodeAlloc& a : job.alloc) {
        if (down(a)) log_error("Removing failed node {} from JobId={}", a.node, job.id);
      }
      std::erase_if(job.alloc, down);
      save(job);
      return;
    }
  }
  // As Slurm on a node failure: the job is killed, and requeued when it may
  // be. The marker makes the stepds' report end the attempt NODE_FAIL.
  RequeueMarker m;
  m.node_fail = true;
  m.requeue = job.requeue;
  write_requeue_marker(m_paths, job.id, m);
  log_info("job {}: its node is DOWN; {}", job.display_id(),
           job.requeue ? "requeued" : "ends NODE_FAIL");
  cancel_running(job);
}

void Controller::set_node_features(const std::vector<std::string>& names,
                                   const std::vector<std::string>& features,
                                   const std::string& who) {
  {
    Store::Transaction tx(*m_store);
    for (const std::string& name : names) m_store->put_node_features(name, features);
    tx.commit();
  }
  for (const std::string& name : names) m_node_features[name] = features;
  const Config before = m_config;
  apply_overrides();
  for (const std::string& line : config_changes(before, m_config))
    log_info("scontrol update by {}: {}", who, line);
  m_dirty = true;
}

void Controller::update_partition(const std::string& name, const PartitionOverride& change,
                                  const std::string& who) {
  PartitionOverride merged = m_partition_overrides[name];
  merge_partition_override(merged, change);
  // A created partition deleted again leaves nothing to keep.
  const bool nothing_left = merged.empty();
  m_store->put_partition_override(
      name, nothing_left ? std::string() : partition_override_to_json(merged));
  if (nothing_left)
    m_partition_overrides.erase(name);
  else
    m_partition_overrides[name] = merged;
  const Config before = m_config;
  apply_overrides();
  for (const std::string& line : config_changes(before, m_config))
    log_info("scontrol update by {}: {}", who, line);
}

void Controller::mark_unavailable(sched::Cluster& cluster) const {
  if (m_node_states.empty()) return;
  for (sched::NodeUsage& n : cluster.nodes()) {
    if (m_node_states.count(n.def.name)) n.available = false;
  }
}

Reason Controller::unavailable_reason(const Job& job, Reason pass_reason) const {
  if (m_node_states.empty() ||
      (pass_reason != Reason::resources && pass_reason != Reason::priority))
    return pass_reason;
  const PartitionConfig* part = m_config.find_partition(job.partition);
  if (!part) return pass_reason;
  std::vector<NodeDef> up = m_config.partition_nodes(*part);
  const std::size_t all = up.size();
  std::erase_if(up, [&](const NodeDef& n) { return m_node_states.count(n.name) > 0; });
  if (up.size() == all) return pass_reason;
  return sched::never_fits(job.req, up) ? Reason::req_node_not_avail : pass_reason;
}

}  // namespace stint::daemon

namespace stint::daemon {

void Controller::drain_node(const std::string& name, const std::string& reason) {
  // By the controller's user, with Slurm's reason, unless it is down already.
  NodeStatus drain;
  drain.name = name;
  drain.state = NodeAdminState::drain;
  drain.reason = reason;
  drain.user_id = static_cast<std::uint32_t>(::getuid());
  drain.user_name = proc::user_name(drain.user_id);
  drain.since = now();
  auto it = m_node_states.find(drain.name);
  if (it == m_node_states.end() || !is_down(it->second.state)) set_node_states({drain}, "stintd");
}

bool Controller::site_scripts_ended(Job& job, const TaskResult& r) {
  if (!r.script_output.empty()) {
    std::size_t start = 0;
    while (start < r.script_output.size()) {
      std::size_t end = r.script_output.find('\n', start);
      if (end == std::string::npos) end = r.script_output.size();
      log_info("job {}: {}", job.display_id(), r.script_output.substr(start, end - start));
      start = end + 1;
    }
  }
  if (!r.prolog_failed && !r.epilog_failed) return false;
  log_error("job {}: {}", job.display_id(), r.error);
  // As slurmd: the node whose script failed is drained.
  drain_node(r.script_node.empty() ? job.alloc.front().node : r.script_node,
             r.prolog_failed ? "Prolog error" : "Epilog error");
  if (!r.prolog_failed) return false;
  // The job never ran: it goes back to the queue, held unless
  // SchedulerParameters has nohold_on_prolog_fail ("launch failed requeued
  // held", released by an operator).
  const std::string params = m_config.conf("SchedulerParameters").value_or("");
  const bool hold = params.find("nohold_on_prolog_fail") == std::string::npos;
  // A requeue or DOWN asked for meanwhile is this requeue; its marker must
  // not end the next attempt.
  clear_requeue_marker(m_paths, job.id);
  requeue_now(job, JobState::node_fail, hold, hold);
  if (hold) {
    job.hold_reason = Reason::launch_failed;
    job.reason = Reason::launch_failed;
    m_store->update_job(job);
  }
  return true;
}

}  // namespace stint::daemon
