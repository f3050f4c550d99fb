#pragma once
// JSON forms of reservations: the store's record and the create/update
// request scontrol sends to stintd. Internal header (nlohmann-json).

#include <nlohmann/json.hpp>

#include <stint/reservation.hpp>

namespace stint {

nlohmann::json to_json(const Reservation& r);
/// Throws Errc::protocol for a record that is not one.
Reservation reservation_from_json(const nlohmann::json& j);

nlohmann::json to_json(const ReservationRequest& r);
/// Throws Errc::protocol for a request that is not one.
ReservationRequest reservation_request_from_json(const nlohmann::json& j);

}  // namespace stint
