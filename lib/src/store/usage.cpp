// The runs fair share charges usage for, read from the jobs and their earlier
// attempts. Usage is not stored: it is derived from these runs (start, end,
// allocation) whenever it is needed, so it never disagrees with accounting.

#include <fmt/core.h>

#include <stint/store.hpp>

#include "store/impl.hpp"
#include "store/sqlite.hpp"

namespace stint {
namespace {

// The allocation's totals, from its JSON (model/json.cpp's NodeAlloc form).
constexpr std::string_view k_alloc_totals =
    "(SELECT total(json_extract(value, '$.cpus')) FROM json_each({0}.alloc)), "
    "(SELECT total(json_extract(value, '$.mem_mb')) FROM json_each({0}.alloc)), "
    "json_array_length({0}.alloc), "
    "(SELECT total(json_array_length(value, '$.gpu_ids')) FROM json_each({0}.alloc))";

std::string id_list(const std::vector<JobId>& ids) {
  std::string out;
  for (JobId id : ids) {
    if (!out.empty()) out += ',';
    out += std::to_string(id);
  }
  return out;
}

}  // namespace

std::vector<JobRun> Store::job_runs(Seconds ended_after, const std::vector<JobId>& ids) {
  std::string only_jobs;
  std::string only_attempts;
  if (!ids.empty()) {
    only_jobs = fmt::format(" AND j.id IN ({})", id_list(ids));
    only_attempts = fmt::format(" AND a.job_id IN ({})", id_list(ids));
  }
  const std::string sql = fmt::format(
      "SELECT j.id, j.restart_count, j.user_name, j.account, j.partition, j.qos, j.start_time, "
      "j.end_time, {0} FROM jobs j WHERE j.start_time != 0 AND (j.end_time = 0 OR j.end_time > "
      "?1){1} "
      "UNION ALL "
      "SELECT a.job_id, a.attempt, j.user_name, j.account, j.partition, j.qos, a.start_time, "
      "a.end_time, {2} FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE a.start_time != "
      "0 AND (a.end_time = 0 OR a.end_time > ?1){3} "
      "ORDER BY 1, 2",
      fmt::format(k_alloc_totals, "j"), only_jobs, fmt::format(k_alloc_totals, "a"), only_attempts);
  sql::Statement st(m_impl->conn, sql);
  st.bind(1, ended_after);
  std::vector<JobRun> out;
  while (st.step()) {
    JobRun r;
    int i = 0;
    r.job_id = static_cast<JobId>(st.int64(i++));
    r.attempt = static_cast<std::uint32_t>(st.int64(i++));
    r.user = st.text(i++);
    r.account = st.text(i++);
    r.partition = st.text(i++);
    r.qos = st.text(i++);
    r.start = st.int64(i++);
    r.end = st.int64(i++);
    r.cpus = static_cast<std::uint32_t>(st.int64(i++));
    r.mem_mb = static_cast<std::uint64_t>(st.int64(i++));
    r.nodes = static_cast<std::uint32_t>(st.int64(i++));
    r.gpus = static_cast<std::uint32_t>(st.int64(i++));
    out.push_back(std::move(r));
  }
  return out;
}

void Store::update_job_priority(JobId id, std::uint32_t priority, Seconds eligible_time) {
  sql::Statement st(m_impl->conn, "UPDATE jobs SET priority = ?, eligible_time = ? WHERE id = ?");
  st.bind(1, static_cast<std::int64_t>(priority));
  st.bind(2, eligible_time);
  st.bind(3, static_cast<std::int64_t>(id));
  st.run();
}

void Store::update_ended_pending(const std::vector<const Job*>& jobs) {
  sql::Statement st(m_impl->conn,
                    "UPDATE jobs SET state = ?, reason = ?, start_time = ?, end_time = ?, "
                    "cancelled_by = ? WHERE id = ?");
  for (const Job* job : jobs) {
    st.bind(1, static_cast<std::int64_t>(job->state));
    st.bind(2, static_cast<std::int64_t>(job->reason));
    st.bind(3, job->start_time);
    st.bind(4, job->end_time);
    st.bind(5, static_cast<std::int64_t>(job->cancelled_by));
    st.bind(6, static_cast<std::int64_t>(job->id));
    st.run();
  }
}

std::vector<std::pair<std::string, std::string>> Store::job_associations() {
  sql::Statement st(m_impl->conn,
                    "SELECT user_name, account FROM job_associations ORDER BY user_name, account");
  std::vector<std::pair<std::string, std::string>> out;
  while (st.step()) out.emplace_back(st.text(0), st.text(1));
  return out;
}

}  // namespace stint
