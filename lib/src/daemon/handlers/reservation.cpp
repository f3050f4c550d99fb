// scontrol create|update|delete reservation (daemon/reservations.cpp does
// the work). Operators and admins only, as slurmctld's RPCs: another user is
// told "Invalid user id" (ESLURM_USER_ID_MISSING), which is Slurm's answer.

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "model/reservation_json.hpp"

namespace stint::daemon {
namespace {

void require_operator(Controller& c, const Caller& caller, std::string_view what) {
  if (c.is_operator(caller)) return;
  log_info("Security violation, {} RPC from uid={}", what, caller.uid);
  throw Error(Errc::invalid_user, std::string(errc_slurm_message(Errc::invalid_user)));
}

}  // namespace

Json handle_resv_create(Controller& c, const Json& req, const Caller& caller) {
  require_operator(c, caller, "RESERVATION_CREATE");
  const ReservationRequest r = reservation_request_from_json(req.at("reservation"));
  const std::string name = c.create_reservation(r);
  log_info("reservation {} created by {}", name, Controller::who(caller));
  return {{"name", name}};
}

Json handle_resv_update(Controller& c, const Json& req, const Caller& caller) {
  require_operator(c, caller, "UPDATE_RESERVATION");
  const ReservationRequest r = reservation_request_from_json(req.at("reservation"));
  c.update_reservation(r);
  log_info("reservation {} updated by {}", r.name.value_or(""), Controller::who(caller));
  return Json::object();
}

Json handle_resv_delete(Controller& c, const Json& req, const Caller& caller) {
  require_operator(c, caller, "DELETE_RESERVATION");
  const std::string name = req.at("name").get<std::string>();
  c.delete_reservation(name);
  log_info("reservation {} deleted by {}", name, Controller::who(caller));
  return Json::object();
}

}  // namespace stint::daemon
