#include "daemon/handlers/rpc_stats.hpp"

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include <stint/error.hpp>

#include "util/clock.hpp"

namespace stint::daemon {
namespace {

struct Count {
  std::uint64_t count = 0;
  std::uint64_t total_usec = 0;
};

struct RpcStats {
  std::mutex mutex;
  Seconds since = wall_now();  // stintd's start, or the last clear
  std::map<std::pair<std::string, std::uint32_t>, Count> by_type;  // (name, id)
  std::map<std::uint32_t, Count> by_user;
};

RpcStats& stats() {
  static RpcStats s;
  return s;
}

// Initialised as stintd starts, so that "Data since" is its start.
[[maybe_unused]] const RpcStats& k_started = stats();

struct MessageType {
  std::string_view op;
  std::string_view name;
  std::uint32_t id;
};

// Slurm's message type (slurm_protocol_defs.h, slurmdbd_defs.h) for each of
// stintd's requests; stintd is slurmctld and slurmdbd in one. The requests
// of stint's own (runs, projects, storages) keep their names, with no id.
constexpr MessageType k_types[] = {
    {"ping", "REQUEST_PING", 1008},
    {"shutdown", "REQUEST_SHUTDOWN", 1005},
    {"reconfigure", "REQUEST_RECONFIGURE", 1003},
    {"task_done", "MESSAGE_TASK_EXIT", 6003},
    {"submit", "REQUEST_SUBMIT_BATCH_JOB", 4003},
    {"batch_script", "REQUEST_BATCH_SCRIPT", 2051},
    {"cancel", "REQUEST_KILL_JOB", 5032},
    {"hold", "REQUEST_UPDATE_JOB", 3001},
    {"release", "REQUEST_UPDATE_JOB", 3001},
    {"update_job", "REQUEST_UPDATE_JOB", 3001},
    {"top", "REQUEST_TOP_JOB", 5038},
    {"requeue", "REQUEST_JOB_REQUEUE", 5023},
    {"suspend", "REQUEST_SUSPEND", 5014},
    {"step_begin", "REQUEST_JOB_STEP_CREATE", 5001},
    {"step_end", "REQUEST_STEP_COMPLETE", 5016},
    {"step_cancel", "REQUEST_CANCEL_JOB_STEP", 5005},
    {"step_update", "REQUEST_UPDATE_JOB_STEP", 5007},
    {"update_node", "REQUEST_UPDATE_NODE", 3002},
    {"update_partition", "REQUEST_UPDATE_PARTITION", 3005},
    {"create_partition", "REQUEST_CREATE_PARTITION", 3003},
    {"delete_partition", "REQUEST_DELETE_PARTITION", 3004},
    {"resv_create", "REQUEST_CREATE_RESERVATION", 3006},
    {"resv_update", "REQUEST_UPDATE_RESERVATION", 3009},
    {"resv_delete", "REQUEST_DELETE_RESERVATION", 3008},
    {"acct_stats", "DBD_GET_STATS", 1489},
    {"acct_clear_stats", "DBD_CLEAR_STATS", 1491},
};

constexpr MessageType k_fini = {"", "DBD_FINI", 1401};

// sacctmgr's add, modify and delete by what they act on.
MessageType accounting_type(std::string_view op, std::string_view entity) {
  const bool user = entity == "user";
  const bool qos = entity == "qos";
  if (op == "acct_add") {
    return user  ? MessageType{op, "DBD_ADD_USERS", 1406}
           : qos ? MessageType{op, "DBD_ADD_QOS", 1447}
                 : MessageType{op, "DBD_ADD_ACCOUNTS", 1402};
  }
  if (op == "acct_modify") {
    return user  ? MessageType{op, "DBD_MODIFY_USERS", 1431}
           : qos ? MessageType{op, "DBD_MODIFY_QOS", 1451}
                 : MessageType{op, "DBD_MODIFY_ACCOUNTS", 1428};
  }
  return user  ? MessageType{op, "DBD_REMOVE_USERS", 1439}
         : qos ? MessageType{op, "DBD_REMOVE_QOS", 1450}
               : MessageType{op, "DBD_REMOVE_ACCOUNTS", 1435};
}

MessageType type_of(const nlohmann::json& request) {
  std::string op = "unknown";
  if (request.is_object() && request.contains("op") && request["op"].is_string())
    op = request["op"].get<std::string>();
  if (op == "acct_add" || op == "acct_modify" || op == "acct_delete") {
    const auto entity = request.find("entity");
    return accounting_type(op, entity != request.end() && entity->is_string()
                                   ? entity->get_ref<const std::string&>()
                                   : std::string_view());
  }
  for (const MessageType& t : k_types) {
    if (t.op == op) return t;
  }
  return {"", "", 0};
}

void add(Count& c, std::int64_t usec) {
  ++c.count;
  c.total_usec += static_cast<std::uint64_t>(usec < 0 ? 0 : usec);
}

void require_admin(Controller& c, const Caller& caller) {
  if (c.admin_level(caller) != AdminLevel::admin)
    throw Error(Errc::access_denied, "Your user doesn't have privilege to perform this action");
}

}  // namespace

void record_rpc(const nlohmann::json& request, std::uint32_t uid, std::int64_t usec) {
  MessageType t = type_of(request);
  std::string name(t.name);
  if (name.empty()) name = request.value("op", std::string("unknown"));
  RpcStats& s = stats();
  const std::lock_guard lock(s.mutex);
  add(s.by_type[{name, t.id}], usec);
  add(s.by_type[{std::string(k_fini.name), k_fini.id}], 0);
  add(s.by_user[uid], usec);
}

nlohmann::json handle_acct_stats(Controller& c, const nlohmann::json&, const Caller& caller) {
  require_admin(c, caller);
  RpcStats& s = stats();
  const std::lock_guard lock(s.mutex);
  nlohmann::json types = nlohmann::json::array();
  for (const auto& [key, n] : s.by_type) {
    types.push_back({{"name", key.first},
                     {"id", key.second},
                     {"count", n.count},
                     {"total_usec", n.total_usec}});
  }
  nlohmann::json users = nlohmann::json::array();
  for (const auto& [uid, n] : s.by_user)
    users.push_back({{"uid", uid}, {"count", n.count}, {"total_usec", n.total_usec}});
  return {{"since", s.since}, {"types", types}, {"users", users}};
}

nlohmann::json handle_acct_clear_stats(Controller& c, const nlohmann::json&, const Caller& caller) {
  require_admin(c, caller);
  RpcStats& s = stats();
  const std::lock_guard lock(s.mutex);
  s.since = wall_now();
  s.by_type.clear();
  s.by_user.clear();
  return nlohmann::json::object();
}

}  // namespace stint::daemon
