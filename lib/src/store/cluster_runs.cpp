// The registry of runs on a real Slurm cluster (schema migration 5): one row
// per run, keyed by its name; the columns are what queries filter on, the
// record (JSON) is the rest.

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/store.hpp>

#include "model/json.hpp"
#include "store/impl.hpp"
#include "store/job_rows.hpp"

namespace stint {
namespace {

using json = nlohmann::json;

json ports_json(const std::vector<std::vector<std::uint16_t>>& ports) {
  json out = json::array();
  for (const auto& node : ports) out.push_back(node);
  return out;
}

std::string record_of(const ClusterRun& r) {
  json spec = to_json(r.spec);
  drop_private_values(spec);
  return json{{"login", r.login},
              {"conf", r.conf},
              {"group_id", r.group_id},
              {"user_name", r.user_name},
              {"spec", std::move(spec)},
              {"partition", r.partition},
              {"cluster_state", r.cluster_state},
              {"submit_time", r.submit_time},
              {"start_time", r.start_time},
              {"end_time", r.end_time},
              {"exit_status", r.exit_status},
              {"exit_signal", r.exit_signal},
              {"nodes", to_json(r.nodes)},
              {"ports", ports_json(r.ports)},
              {"polled", r.polled},
              {"settled", r.settled}}
      .dump();
}

constexpr const char* k_columns =
    "project, number, backend, cluster_job_id, user_id, state, record";

ClusterRun read_run(const sql::Statement& st) {
  ClusterRun r;
  r.project = st.text(0);
  r.number = static_cast<std::uint32_t>(st.int64(1));
  r.backend = st.text(2);
  r.cluster_job_id = static_cast<std::uint64_t>(st.int64(3));
  r.user_id = static_cast<std::uint32_t>(st.int64(4));
  r.state = static_cast<JobState>(st.int64(5));
  try {
    const json j = json::parse(st.text(6));
    r.login = j.value("login", std::string());
    r.conf = j.value("conf", std::string());
    r.group_id = j.value("group_id", 0U);
    r.user_name = j.value("user_name", std::string());
    r.spec = job_spec_from_json(j.at("spec"));
    r.partition = j.value("partition", std::string());
    r.cluster_state = j.value("cluster_state", std::string());
    r.submit_time = j.value("submit_time", k_no_time);
    r.start_time = j.value("start_time", k_no_time);
    r.end_time = j.value("end_time", k_no_time);
    r.exit_status = j.value("exit_status", 0);
    r.exit_signal = j.value("exit_signal", 0);
    r.nodes = alloc_from_json(j.at("nodes"));
    for (const auto& node : j.at("ports"))
      r.ports.push_back(node.get<std::vector<std::uint16_t>>());
    r.polled = j.value("polled", k_no_time);
    r.settled = j.value("settled", false);
  } catch (const json::exception& e) {
    throw Error(Errc::store,
                fmt::format("cluster run {}/{}: bad record: {}", r.project, r.number, e.what()));
  }
  return r;
}

}  // namespace

void Store::save_cluster_run(const ClusterRun& run) {
  sql::Statement st(m_impl->conn,
                    "INSERT OR REPLACE INTO cluster_runs (project, number, backend, "
                    "cluster_job_id, user_id, state, live, record) VALUES (?,?,?,?,?,?,?,?)");
  st.bind(1, std::string_view(run.project));
  st.bind(2, static_cast<std::int64_t>(run.number));
  st.bind(3, std::string_view(run.backend));
  st.bind(4, static_cast<std::int64_t>(run.cluster_job_id));
  st.bind(5, static_cast<std::int64_t>(run.user_id));
  st.bind(6, static_cast<std::int64_t>(run.state));
  st.bind(7, static_cast<std::int64_t>(run.live() ? 1 : 0));
  st.bind(8, std::string_view(record_of(run)));
  st.run();
}

std::vector<ClusterRun> Store::cluster_runs(const std::string& project) {
  sql::Statement st(m_impl->conn,
                    fmt::format("SELECT {} FROM cluster_runs c WHERE (?1 = '' OR project = ?1) "
                                "AND NOT EXISTS (SELECT 1 FROM deleted_runs d WHERE "
                                "d.project = c.project AND d.number = c.number) "
                                "ORDER BY project, number",
                                k_columns));
  st.bind(1, std::string_view(project));
  std::vector<ClusterRun> out;
  while (st.step()) out.push_back(read_run(st));
  return out;
}

std::vector<ClusterRun> Store::live_cluster_runs() {
  sql::Statement st(
      m_impl->conn,
      fmt::format("SELECT {} FROM cluster_runs WHERE live = 1 ORDER BY project, number",
                  k_columns));
  std::vector<ClusterRun> out;
  while (st.step()) out.push_back(read_run(st));
  return out;
}

}  // namespace stint
