// Projects and deleted runs (schema migration 7).

#include <stint/store.hpp>

#include "store/impl.hpp"

namespace stint {
namespace {

constexpr const char* k_project_columns = "name, owner_id, owner_name, description, created";

Project read_project(const sql::Statement& st) {
  Project p;
  p.name = st.text(0);
  p.owner_id = static_cast<std::uint32_t>(st.int64(1));
  p.owner_name = st.text(2);
  p.description = st.text(3);
  p.created = st.int64(4);
  return p;
}

}  // namespace

bool Store::add_project(const Project& project) {
  sql::Statement st(m_impl->conn,
                    "INSERT OR IGNORE INTO projects (name, owner_id, owner_name, description, "
                    "created) VALUES (?,?,?,?,?)");
  st.bind(1, std::string_view(project.name));
  st.bind(2, static_cast<std::int64_t>(project.owner_id));
  st.bind(3, std::string_view(project.owner_name));
  st.bind(4, std::string_view(project.description));
  st.bind(5, static_cast<std::int64_t>(project.created));
  st.run();
  return sqlite3_changes(m_impl->conn.handle()) > 0;
}

std::optional<Project> Store::project(const std::string& name) {
  sql::Statement st(m_impl->conn,
                    std::string("SELECT ") + k_project_columns + " FROM projects WHERE name = ?");
  st.bind(1, std::string_view(name));
  if (!st.step()) return std::nullopt;
  return read_project(st);
}

std::vector<Project> Store::projects() {
  sql::Statement st(m_impl->conn,
                    std::string("SELECT ") + k_project_columns + " FROM projects ORDER BY name");
  std::vector<Project> out;
  while (st.step()) out.push_back(read_project(st));
  return out;
}

void Store::delete_run(const std::string& project, std::uint32_t number, std::uint32_t deleted_by,
                       Seconds at) {
  sql::Statement st(m_impl->conn,
                    "INSERT OR REPLACE INTO deleted_runs (project, number, deleted_by, "
                    "deleted_at) VALUES (?,?,?,?)");
  st.bind(1, std::string_view(project));
  st.bind(2, static_cast<std::int64_t>(number));
  st.bind(3, static_cast<std::int64_t>(deleted_by));
  st.bind(4, static_cast<std::int64_t>(at));
  st.run();
}

bool Store::delete_project(const std::string& name) {
  sql::Statement st(m_impl->conn, "DELETE FROM projects WHERE name = ?");
  st.bind(1, std::string_view(name));
  st.run();
  return sqlite3_changes(m_impl->conn.handle()) > 0;
}

}  // namespace stint
