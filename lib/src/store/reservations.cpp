// Advance reservations (schema migration 10): a row per reservation, its
// record as JSON.

#include <stint/reservation.hpp>
#include <stint/store.hpp>

#include "model/reservation_json.hpp"
#include "store/impl.hpp"

namespace stint {

std::vector<Reservation> Store::reservations() {
  std::vector<Reservation> out;
  sql::Statement st(m_impl->conn, "SELECT record FROM reservations ORDER BY name");
  while (st.step()) out.push_back(reservation_from_json(nlohmann::json::parse(st.text(0))));
  return out;
}

void Store::put_reservation(const Reservation& reservation) {
  sql::Statement st(m_impl->conn, "REPLACE INTO reservations (name, record) VALUES (?, ?)");
  st.bind(1, reservation.name).bind(2, to_json(reservation).dump()).run();
}

void Store::delete_reservation(const std::string& name) {
  sql::Statement st(m_impl->conn, "DELETE FROM reservations WHERE name = ?");
  st.bind(1, name).run();
}

}  // namespace stint
