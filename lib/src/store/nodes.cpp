// Node states and partition overrides: what scontrol update changed.

#include <stint/store.hpp>

#include "store/impl.hpp"
#include "store/sqlite.hpp"

namespace stint {

std::vector<NodeStatus> Store::node_states() {
  std::vector<NodeStatus> out;
  sql::Statement st(m_impl->conn,
                    "SELECT name, state, reason, user_id, user_name, since FROM node_states "
                    "ORDER BY name");
  while (st.step()) {
    NodeStatus n;
    n.name = st.text(0);
    const std::int64_t state = st.int64(1);
    // A state this build does not know (a newer stint's) reads as drained:
    // the node takes no new jobs until an operator looks at it.
    n.state = state == static_cast<std::int64_t>(NodeAdminState::down) ? NodeAdminState::down
              : state == static_cast<std::int64_t>(NodeAdminState::down_drain)
                  ? NodeAdminState::down_drain
                  : NodeAdminState::drain;
    n.reason = st.text(2);
    n.user_id = static_cast<std::uint32_t>(st.int64(3));
    n.user_name = st.text(4);
    n.since = st.int64(5);
    out.push_back(std::move(n));
  }
  return out;
}

void Store::put_node_state(const NodeStatus& status) {
  if (status.state == NodeAdminState::up) {
    sql::Statement st(m_impl->conn, "DELETE FROM node_states WHERE name = ?");
    st.bind(1, status.name).run();
    return;
  }
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO node_states (name, state, reason, user_id, user_name, since) "
                    "VALUES (?, ?, ?, ?, ?, ?)");
  st.bind(1, status.name)
      .bind(2, static_cast<std::int64_t>(status.state))
      .bind(3, status.reason)
      .bind(4, static_cast<std::int64_t>(status.user_id))
      .bind(5, status.user_name)
      .bind(6, status.since)
      .run();
}

std::vector<std::pair<std::string, std::string>> Store::partition_overrides() {
  std::vector<std::pair<std::string, std::string>> out;
  sql::Statement st(m_impl->conn, "SELECT name, settings FROM partition_overrides ORDER BY name");
  while (st.step()) out.emplace_back(st.text(0), st.text(1));
  return out;
}

void Store::put_partition_override(const std::string& name, const std::string& settings_json) {
  if (settings_json.empty()) {
    sql::Statement st(m_impl->conn, "DELETE FROM partition_overrides WHERE name = ?");
    st.bind(1, name).run();
    return;
  }
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO partition_overrides (name, settings) VALUES (?, ?)");
  st.bind(1, name).bind(2, settings_json).run();
}

// Kept comma-separated: a feature name holds no comma (sbatch -C splits on it).
std::map<std::string, std::vector<std::string>> Store::node_features() {
  std::map<std::string, std::vector<std::string>> out;
  sql::Statement st(m_impl->conn, "SELECT name, features FROM node_features");
  while (st.step()) {
    std::vector<std::string>& list = out[st.text(0)];
    const std::string text = st.text(1);
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(',', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) list.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }
  return out;
}

void Store::put_node_features(const std::string& name,
                              const std::optional<std::vector<std::string>>& features) {
  if (!features) {
    sql::Statement st(m_impl->conn, "DELETE FROM node_features WHERE name = ?");
    st.bind(1, name).run();
    return;
  }
  std::string text;
  for (const std::string& f : *features) text += (text.empty() ? "" : ",") + f;
  sql::Statement st(m_impl->conn, "REPLACE INTO node_features (name, features) VALUES (?, ?)");
  st.bind(1, name).bind(2, text).run();
}

}  // namespace stint
