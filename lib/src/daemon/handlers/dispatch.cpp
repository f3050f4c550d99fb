#include <chrono>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/tools.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/handlers/rpc_stats.hpp"

namespace stint::daemon {
namespace {

using Handler = Json (*)(Controller&, const Json&, const Caller&);

struct Route {
  std::string_view op;
  Handler handler;
};

constexpr Route k_routes[] = {
    {"ping", handle_ping},
    {"shutdown", handle_shutdown},
    {"task_done", handle_task_done},
    {"task_activity", handle_task_activity},
    {"submit", handle_submit},
    {"cancel", handle_cancel},
    {"hold", handle_hold},
    {"release", handle_release},
    {"update_job", handle_update_job},
    {"requeue", handle_requeue},
    {"top", handle_top},
    {"suspend", handle_suspend},
    {"run_stop", handle_run_stop},
    {"run_refresh", handle_run_refresh},
    {"run_delete", handle_run_delete},
    {"project_create", handle_project_create},
    {"project_delete", handle_project_delete},
    {"batch_script", handle_batch_script},
    {"job_env", handle_job_env},
    {"storage_create", handle_storage_create},
    {"storage_delete", handle_storage_delete},
    {"step_begin", handle_step_begin},
    {"step_end", handle_step_end},
    {"step_cancel", handle_step_cancel},
    {"step_update", handle_step_update},
    {"update_node", handle_update_node},
    {"update_partition", handle_update_partition},
    {"create_partition", handle_create_partition},
    {"delete_partition", handle_delete_partition},
    {"reconfigure", handle_reconfigure},
    {"resv_create", handle_resv_create},
    {"resv_update", handle_resv_update},
    {"resv_delete", handle_resv_delete},
    {"acct_add", handle_acct_add},
    {"acct_modify", handle_acct_modify},
    {"acct_delete", handle_acct_delete},
    {"acct_stats", handle_acct_stats},
    {"acct_clear_stats", handle_acct_clear_stats},
    {"db_compact", handle_db_compact},
};

}  // namespace

Json job_result(const Json& job_id, const std::optional<Error>& error) {
  Json r = {{"job_id", job_id}};
  if (error) {
    r["error"] = std::string(errc_name(error->code()));
    r["message"] = error->what();
  }
  return r;
}

JobRef job_ref(const Json& entry) {
  JobRef ref;
  ref.as_given = entry;
  if (entry.is_number_unsigned()) {
    ref.id = entry.get<JobId>();
    return ref;
  }
  if (entry.is_string()) {
    const std::string text = entry.get<std::string>();
    // "12+1": component 1 of het job 12, whose id is 13.
    if (auto plus = text.find('+'); plus != std::string::npos) {
      try {
        std::size_t used = 0;
        const unsigned long id = std::stoul(text.substr(0, plus), &used);
        std::size_t offset_used = 0;
        const unsigned long offset = std::stoul(text.substr(plus + 1), &offset_used);
        if (used != plus || offset_used != text.size() - plus - 1 || text[plus + 1] == '-' ||
            id == 0 || id + offset >= k_no_array_task)
          throw std::invalid_argument(text);
        ref.id = static_cast<JobId>(id + offset);
        return ref;
      } catch (const std::exception&) {
        throw Error(Errc::invalid_job_id, fmt::format("Invalid job id {}", text));
      }
    }
    auto underscore = text.find('_');
    try {
      std::size_t used = 0;
      ref.id = static_cast<JobId>(std::stoul(text.substr(0, underscore), &used));
      if (used != (underscore == std::string::npos ? text.size() : underscore))
        throw std::invalid_argument(text);
      if (underscore != std::string::npos) {
        std::string task = text.substr(underscore + 1);
        ref.array_task = static_cast<std::uint32_t>(std::stoul(task, &used));
        if (used != task.size()) throw std::invalid_argument(text);
      }
      return ref;
    } catch (const std::exception&) {
      throw Error(Errc::invalid_job_id, fmt::format("Invalid job id {}", text));
    }
  }
  throw Error(Errc::protocol, "job ids must be numbers or \"A_T\" strings");
}

std::vector<JobRef> requested_refs(const Json& req) {
  std::vector<JobRef> refs;
  auto it = req.find("job_ids");
  if (it == req.end()) return refs;
  if (!it->is_array()) throw Error(Errc::protocol, "job_ids must be an array");
  for (const auto& v : *it) refs.push_back(job_ref(v));
  return refs;
}

std::vector<Job*> resolve_live(Controller& c, const JobRef& ref, std::optional<Error>& error,
                               std::string_view ended_message) {
  std::vector<Job*> jobs = c.live_jobs(ref.id, ref.array_task);
  if (jobs.empty()) {
    bool ended = c.ever_existed(ref.id, ref.array_task);
    Errc code = ended ? Errc::job_state_invalid : Errc::invalid_job_id;
    error = Error(code, std::string(ended && !ended_message.empty() ? ended_message
                                                                    : errc_slurm_message(code)));
  }
  return jobs;
}

Json Controller::handle(const Json& request, const Caller& caller) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    throw Error(Errc::protocol, "request without op");
  std::string op = request["op"].get<std::string>();
  // Counted for `sacctmgr show stats` once answered or refused.
  const auto started = std::chrono::steady_clock::now();
  struct Record {
    const Json& request;
    const Caller& caller;
    std::chrono::steady_clock::time_point started;
    ~Record() {
      const auto took = std::chrono::steady_clock::now() - started;
      record_rpc(request, caller.uid,
                 std::chrono::duration_cast<std::chrono::microseconds>(took).count());
    }
  } record{request, caller, started};
  for (const auto& route : k_routes) {
    if (route.op == op) {
      try {
        Json reply = route.handler(*this, request, caller);
        reply["ok"] = true;
        return reply;
      } catch (const nlohmann::json::exception& e) {
        throw Error(Errc::protocol, fmt::format("malformed {} request: {}", op, e.what()));
      }
    }
  }
  throw Error(Errc::protocol, fmt::format("unknown request '{}'", op));
}

Json handle_ping(Controller& c, const Json&, const Caller&) {
  return {
      {"pid", ::getpid()}, {"version", std::string(version())}, {"state_dir", c.paths().state_dir}};
}

Json handle_shutdown(Controller& c, const Json&, const Caller& caller) {
  if (!c.is_superuser(caller))
    throw Error(Errc::access_denied, "Access/permission denied: only the owner stops stintd");
  c.request_shutdown();
  return Json::object();
}

Json handle_task_done(Controller& c, const Json&, const Caller&) {
  // The result file is what counts; this only says "look now".
  c.mark_dirty();
  return Json::object();
}

Json handle_task_activity(Controller& c, const Json& req, const Caller&) {
  // As task_done: the activity file in stintd's spool is what counts (stepd's
  // alone to write); the request only says which to read.
  c.task_activity(req.at("job_id").get<JobId>(), req.at("node_index").get<std::uint32_t>());
  return Json::object();
}

}  // namespace stint::daemon
