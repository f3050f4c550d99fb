// Accounts, users, associations and QOS in the database (schema migration 3).
// The columns are what a lookup needs; limits and lists are a JSON object in
// `settings` whose absent keys mean "not set".

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>
#include <stint/store.hpp>

#include "store/impl.hpp"
#include "store/sqlite.hpp"

namespace stint {
namespace {

using Json = nlohmann::json;

void put_opt(Json& j, const char* key, const std::optional<std::int64_t>& v) {
  if (v) j[key] = *v;
}

void get_opt(const Json& j, const char* key, std::optional<std::int64_t>& v) {
  auto it = j.find(key);
  if (it != j.end()) v = it->get<std::int64_t>();
}

void put_tres(Json& j, const char* key, const Tres& t) {
  if (t.empty()) return;
  Json o = Json::object();
  for (const auto& [name, value] : t) o[name] = value;
  j[key] = o;
}

void get_tres(const Json& j, const char* key, Tres& t) {
  auto it = j.find(key);
  if (it == j.end()) return;
  for (const auto& [name, value] : it->items()) t[name] = value.get<std::int64_t>();
}

void put_list(Json& j, const char* key, const std::vector<std::string>& v) {
  if (!v.empty()) j[key] = v;
}

void get_list(const Json& j, const char* key, std::vector<std::string>& v) {
  auto it = j.find(key);
  if (it != j.end()) v = it->get<std::vector<std::string>>();
}

std::string assoc_settings(const Association& a) {
  Json j = Json::object();
  if (a.priority) j["priority"] = *a.priority;
  const AssocLimits& l = a.limits;
  put_opt(j, "grp_jobs", l.grp_jobs);
  put_opt(j, "grp_submit_jobs", l.grp_submit_jobs);
  put_tres(j, "grp_tres", l.grp_tres);
  put_opt(j, "max_jobs", l.max_jobs);
  put_opt(j, "max_submit_jobs", l.max_submit_jobs);
  put_opt(j, "max_wall", l.max_wall);
  put_tres(j, "max_tres_per_job", l.max_tres_per_job);
  put_tres(j, "max_tres_per_node", l.max_tres_per_node);
  put_tres(j, "grp_tres_mins", l.grp_tres_mins);
  put_tres(j, "grp_tres_run_mins", l.grp_tres_run_mins);
  put_opt(j, "grp_wall", l.grp_wall);
  put_tres(j, "max_tres_mins_per_job", l.max_tres_mins_per_job);
  put_list(j, "qos", a.qos);
  if (!a.default_qos.empty()) j["default_qos"] = a.default_qos;
  return j.dump();
}

void read_assoc_settings(const Json& j, Association& a) {
  if (auto it = j.find("priority"); it != j.end()) a.priority = it->get<std::uint32_t>();
  AssocLimits& l = a.limits;
  get_opt(j, "grp_jobs", l.grp_jobs);
  get_opt(j, "grp_submit_jobs", l.grp_submit_jobs);
  get_tres(j, "grp_tres", l.grp_tres);
  get_opt(j, "max_jobs", l.max_jobs);
  get_opt(j, "max_submit_jobs", l.max_submit_jobs);
  get_opt(j, "max_wall", l.max_wall);
  get_tres(j, "max_tres_per_job", l.max_tres_per_job);
  get_tres(j, "max_tres_per_node", l.max_tres_per_node);
  get_tres(j, "grp_tres_mins", l.grp_tres_mins);
  get_tres(j, "grp_tres_run_mins", l.grp_tres_run_mins);
  get_opt(j, "grp_wall", l.grp_wall);
  get_tres(j, "max_tres_mins_per_job", l.max_tres_mins_per_job);
  get_list(j, "qos", a.qos);
  a.default_qos = j.value("default_qos", std::string());
}

std::string qos_settings(const Qos& q) {
  Json j = Json::object();
  j["usage_factor"] = q.usage_factor;
  put_list(j, "preempt", q.preempt);
  j["preempt_mode"] = q.preempt_mode;
  j["grace_time"] = q.grace_time;
  if (q.preempt_exempt_time) j["preempt_exempt_time"] = *q.preempt_exempt_time;
  put_list(j, "flags", q.flags);
  const QosLimits& l = q.limits;
  put_opt(j, "grp_jobs", l.grp_jobs);
  put_opt(j, "grp_submit_jobs", l.grp_submit_jobs);
  put_tres(j, "grp_tres", l.grp_tres);
  put_opt(j, "max_jobs_per_user", l.max_jobs_per_user);
  put_opt(j, "max_submit_jobs_per_user", l.max_submit_jobs_per_user);
  put_opt(j, "max_wall", l.max_wall);
  put_tres(j, "max_tres_per_job", l.max_tres_per_job);
  put_tres(j, "max_tres_per_node", l.max_tres_per_node);
  put_tres(j, "max_tres_per_user", l.max_tres_per_user);
  put_tres(j, "grp_tres_mins", l.grp_tres_mins);
  put_tres(j, "grp_tres_run_mins", l.grp_tres_run_mins);
  put_opt(j, "grp_wall", l.grp_wall);
  put_tres(j, "max_tres_mins_per_job", l.max_tres_mins_per_job);
  return j.dump();
}

void read_qos_settings(const Json& j, Qos& q) {
  q.usage_factor = j.value("usage_factor", 1.0);
  get_list(j, "preempt", q.preempt);
  q.preempt_mode = j.value("preempt_mode", std::string("cluster"));
  q.grace_time = j.value("grace_time", Seconds{0});
  if (auto it = j.find("preempt_exempt_time"); it != j.end())
    q.preempt_exempt_time = it->get<Seconds>();
  get_list(j, "flags", q.flags);
  QosLimits& l = q.limits;
  get_opt(j, "grp_jobs", l.grp_jobs);
  get_opt(j, "grp_submit_jobs", l.grp_submit_jobs);
  get_tres(j, "grp_tres", l.grp_tres);
  get_opt(j, "max_jobs_per_user", l.max_jobs_per_user);
  get_opt(j, "max_submit_jobs_per_user", l.max_submit_jobs_per_user);
  get_opt(j, "max_wall", l.max_wall);
  get_tres(j, "max_tres_per_job", l.max_tres_per_job);
  get_tres(j, "max_tres_per_node", l.max_tres_per_node);
  get_tres(j, "max_tres_per_user", l.max_tres_per_user);
  get_tres(j, "grp_tres_mins", l.grp_tres_mins);
  get_tres(j, "grp_tres_run_mins", l.grp_tres_run_mins);
  get_opt(j, "grp_wall", l.grp_wall);
  get_tres(j, "max_tres_mins_per_job", l.max_tres_mins_per_job);
}

Json parse_settings(const std::string& text, std::string_view what) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw Error(Errc::store, fmt::format("{}: corrupt settings: {}", what, e.what()));
  }
}

AdminLevel admin_level_from(std::int64_t v) {
  return (v >= 0 && v <= static_cast<std::int64_t>(AdminLevel::admin)) ? static_cast<AdminLevel>(v)
                                                                       : AdminLevel::none;
}

}  // namespace

Accounting Store::accounting() {
  Accounting out;
  sql::Connection& db = m_impl->conn;
  {
    sql::Statement st(db,
                      "SELECT name, description, organization, parent FROM accounts ORDER BY name");
    while (st.step()) out.accounts.push_back({st.text(0), st.text(1), st.text(2), st.text(3)});
  }
  {
    sql::Statement st(db, "SELECT name, default_account, admin_level FROM users ORDER BY name");
    while (st.step()) out.users.push_back({st.text(0), st.text(1), admin_level_from(st.int64(2))});
  }
  {
    sql::Statement st(db,
                      "SELECT id, account, user_name, partition, shares, settings "
                      "FROM associations ORDER BY id");
    while (st.step()) {
      Association a;
      a.id = st.int64(0);
      a.account = st.text(1);
      a.user = st.text(2);
      a.partition = st.text(3);
      a.shares = static_cast<std::uint32_t>(st.int64(4));
      try {
        read_assoc_settings(parse_settings(st.text(5), "association"), a);
      } catch (const Json::exception& e) {
        throw Error(Errc::store, fmt::format("association {}: corrupt row: {}", a.id, e.what()));
      }
      out.associations.push_back(std::move(a));
    }
  }
  {
    sql::Statement st(db, "SELECT id, name, description, priority, settings FROM qos ORDER BY id");
    while (st.step()) {
      Qos q;
      q.id = st.int64(0);
      q.name = st.text(1);
      q.description = st.text(2);
      q.priority = static_cast<std::uint32_t>(st.int64(3));
      try {
        read_qos_settings(parse_settings(st.text(4), "qos"), q);
      } catch (const Json::exception& e) {
        throw Error(Errc::store, fmt::format("qos {}: corrupt row: {}", q.name, e.what()));
      }
      out.qos.push_back(std::move(q));
    }
  }
  return out;
}

void Store::put_account(const Account& account) {
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO accounts (name, description, organization, parent) "
                    "VALUES (?, ?, ?, ?)");
  st.bind(1, account.name).bind(2, account.description).bind(3, account.organization);
  st.bind(4, account.parent);
  st.run();
}

void Store::delete_account(const std::string& name) {
  sql::Statement st(m_impl->conn, "DELETE FROM accounts WHERE name = ?");
  st.bind(1, name);
  st.run();
}

void Store::put_user(const User& user) {
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO users (name, default_account, admin_level) VALUES (?, ?, ?)");
  st.bind(1, user.name).bind(2, user.default_account);
  st.bind(3, static_cast<std::int64_t>(user.admin_level));
  st.run();
}

void Store::delete_user(const std::string& name) {
  sql::Statement st(m_impl->conn, "DELETE FROM users WHERE name = ?");
  st.bind(1, name);
  st.run();
}

std::int64_t Store::put_association(const Association& association) {
  const Association& a = association;
  if (a.id == 0) {
    sql::Statement st(m_impl->conn,
                      "INSERT INTO associations (account, user_name, partition, shares, settings) "
                      "VALUES (?, ?, ?, ?, ?)");
    st.bind(1, a.account).bind(2, a.user).bind(3, a.partition);
    st.bind(4, static_cast<std::int64_t>(a.shares)).bind(5, assoc_settings(a));
    st.run();
    return sqlite3_last_insert_rowid(m_impl->conn.handle());
  }
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO associations (id, account, user_name, partition, shares, "
                    "settings) VALUES (?, ?, ?, ?, ?, ?)");
  st.bind(1, a.id).bind(2, a.account).bind(3, a.user).bind(4, a.partition);
  st.bind(5, static_cast<std::int64_t>(a.shares)).bind(6, assoc_settings(a));
  st.run();
  return a.id;
}

void Store::delete_association(std::int64_t id) {
  sql::Statement st(m_impl->conn, "DELETE FROM associations WHERE id = ?");
  st.bind(1, id);
  st.run();
}

std::int64_t Store::put_qos(const Qos& qos) {
  if (qos.id == 0) {
    sql::Statement st(
        m_impl->conn,
        "INSERT INTO qos (name, description, priority, settings) VALUES (?, ?, ?, ?)");
    st.bind(1, qos.name).bind(2, qos.description);
    st.bind(3, static_cast<std::int64_t>(qos.priority)).bind(4, qos_settings(qos));
    st.run();
    return sqlite3_last_insert_rowid(m_impl->conn.handle());
  }
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO qos (id, name, description, priority, settings) "
                    "VALUES (?, ?, ?, ?, ?)");
  st.bind(1, qos.id).bind(2, qos.name).bind(3, qos.description);
  st.bind(4, static_cast<std::int64_t>(qos.priority)).bind(5, qos_settings(qos));
  st.run();
  return qos.id;
}

void Store::delete_qos(std::int64_t id) {
  sql::Statement st(m_impl->conn, "DELETE FROM qos WHERE id = ?");
  st.bind(1, id);
  st.run();
}

}  // namespace stint
