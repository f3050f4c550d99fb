#include "model/reservation_json.hpp"

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint {
namespace {

using nlohmann::json;

template <typename T>
void put_opt(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <typename T>
void get_opt(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

template <typename T>
void get_or(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

}  // namespace

json to_json(const Reservation& r) {
  json j = {{"name", r.name},
            {"id", r.id},
            {"start_time", r.start_time},
            {"end_time", r.end_time},
            {"nodes", r.nodes},
            {"users", r.users},
            {"accounts", r.accounts},
            {"partition", r.partition},
            {"features", r.features},
            {"flags", r.flags.bits()},
            {"purge_comp_time", r.purge_comp_time},
            {"idle_since", r.idle_since}};
  put_opt(j, "duration", r.duration);
  return j;
}

Reservation reservation_from_json(const json& j) {
  try {
    Reservation r;
    r.name = j.at("name").get<std::string>();
    get_or(j, "id", r.id);
    get_or(j, "start_time", r.start_time);
    get_or(j, "end_time", r.end_time);
    get_opt(j, "duration", r.duration);
    get_or(j, "nodes", r.nodes);
    get_or(j, "users", r.users);
    get_or(j, "accounts", r.accounts);
    get_or(j, "partition", r.partition);
    get_or(j, "features", r.features);
    std::uint32_t flags = 0;
    get_or(j, "flags", flags);
    r.flags = ResvFlags::from_bits(flags);
    get_or(j, "purge_comp_time", r.purge_comp_time);
    get_or(j, "idle_since", r.idle_since);
    return r;
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, fmt::format("malformed reservation record: {}", e.what()));
  }
}

json to_json(const ReservationRequest& r) {
  json j = json::object();
  put_opt(j, "name", r.name);
  put_opt(j, "start_time", r.start_time);
  put_opt(j, "end_time", r.end_time);
  put_opt(j, "duration", r.duration);
  if (r.duration_sign) j["duration_sign"] = std::string(1, r.duration_sign);
  put_opt(j, "users", r.users);
  put_opt(j, "accounts", r.accounts);
  put_opt(j, "nodes", r.nodes);
  put_opt(j, "node_count", r.node_count);
  put_opt(j, "partition", r.partition);
  put_opt(j, "features", r.features);
  if (!r.flags_set.empty()) j["flags_set"] = r.flags_set.bits();
  if (!r.flags_clear.empty()) j["flags_clear"] = r.flags_clear.bits();
  put_opt(j, "purge_comp_time", r.purge_comp_time);
  if (r.skip) j["skip"] = true;
  return j;
}

ReservationRequest reservation_request_from_json(const json& j) {
  try {
    ReservationRequest r;
    get_opt(j, "name", r.name);
    get_opt(j, "start_time", r.start_time);
    get_opt(j, "end_time", r.end_time);
    get_opt(j, "duration", r.duration);
    std::string sign;
    get_or(j, "duration_sign", sign);
    if (sign == "+" || sign == "-") r.duration_sign = sign.front();
    get_opt(j, "users", r.users);
    get_opt(j, "accounts", r.accounts);
    get_opt(j, "nodes", r.nodes);
    get_opt(j, "node_count", r.node_count);
    get_opt(j, "partition", r.partition);
    get_opt(j, "features", r.features);
    std::uint32_t bits = 0;
    get_or(j, "flags_set", bits);
    r.flags_set = ResvFlags::from_bits(bits);
    bits = 0;
    get_or(j, "flags_clear", bits);
    r.flags_clear = ResvFlags::from_bits(bits);
    get_opt(j, "purge_comp_time", r.purge_comp_time);
    get_or(j, "skip", r.skip);
    return r;
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, fmt::format("malformed reservation request: {}", e.what()));
  }
}

}  // namespace stint
