#include <stint/error.hpp>
#include <stint/tools.hpp>

#include <unistd.h>

#include <fmt/core.h>

#include "daemon/handlers/handlers.hpp"

namespace stint::daemon {
namespace {

using Handler = Json (*)(Controller&, const Json&, const Caller&);

struct Route {
  std::string_view op;
  Handler handler;
};

constexpr Route k_routes[] = {
    {"ping", handle_ping},         {"shutdown", handle_shutdown},
    {"task_done", handle_task_done}, {"submit", handle_submit},
    {"cancel", handle_cancel},     {"hold", handle_hold},
    {"release", handle_release},   {"update_job", handle_update_job},
};

}  // namespace

Json job_result(JobId id, const std::optional<Error>& error) {
  Json r = {{"job_id", id}};
  if (error) {
    r["error"] = std::string(errc_name(error->code()));
    r["message"] = error->what();
  }
  return r;
}

std::vector<JobId> requested_ids(const Json& req) {
  std::vector<JobId> ids;
  auto it = req.find("job_ids");
  if (it == req.end()) return ids;
  if (!it->is_array()) throw Error(Errc::protocol, "job_ids must be an array");
  for (const auto& v : *it) {
    if (!v.is_number_unsigned()) throw Error(Errc::protocol, "job ids must be numbers");
    ids.push_back(v.get<JobId>());
  }
  return ids;
}

Json Controller::handle(const Json& request, const Caller& caller) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    throw Error(Errc::protocol, "request without op");
  std::string op = request["op"].get<std::string>();
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
  return {{"pid", ::getpid()}, {"version", std::string(version())}, {"state_dir", c.paths().state_dir}};
}

Json handle_shutdown(Controller& c, const Json&, const Caller& caller) {
  if (!c.is_operator(caller))
    throw Error(Errc::access_denied, "Access/permission denied: only the owner stops stintd");
  c.request_shutdown();
  return Json::object();
}

Json handle_task_done(Controller& c, const Json&, const Caller&) {
  // The result file is what counts; this only says "look now".
  c.mark_dirty();
  return Json::object();
}

}  // namespace stint::daemon
