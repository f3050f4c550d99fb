// Job steps: what srun ran inside an allocation (sacct's "12.0" lines).

#include <fmt/core.h>

#include <stint/store.hpp>

#include "store/impl.hpp"
#include "store/sqlite.hpp"

namespace stint {
namespace {

constexpr std::string_view k_step_columns =
    "job_id, attempt, step_id, name, nodes, node_count, tasks, cpus, state, start_time, "
    "end_time, exit_status, exit_signal, user_cpu_us, sys_cpu_us, max_rss_kb, time_limit";

JobStep read_step(const sql::Statement& st) {
  JobStep s;
  int i = 0;
  s.job_id = static_cast<JobId>(st.int64(i++));
  s.attempt = static_cast<std::uint32_t>(st.int64(i++));
  s.step_id = static_cast<std::uint32_t>(st.int64(i++));
  s.name = st.text(i++);
  s.nodes = st.text(i++);
  s.node_count = static_cast<std::uint32_t>(st.int64(i++));
  s.tasks = static_cast<std::uint32_t>(st.int64(i++));
  s.cpus = static_cast<std::uint32_t>(st.int64(i++));
  const std::int64_t state = st.int64(i++);
  // A state this build does not know (a newer stint's) reads as failed.
  s.state = state >= 0 && state <= static_cast<std::int64_t>(JobState::deadline)
                ? static_cast<JobState>(state)
                : JobState::failed;
  s.start_time = st.int64(i++);
  s.end_time = st.int64(i++);
  s.exit_status = static_cast<int>(st.int64(i++));
  s.exit_signal = static_cast<int>(st.int64(i++));
  s.user_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
  s.sys_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
  s.max_rss_kb = static_cast<std::uint64_t>(st.int64(i++));
  s.time_limit = st.int64(i++);
  return s;
}

}  // namespace

std::uint32_t Store::next_step_id(JobId job, std::uint32_t attempt) {
  sql::Statement st(m_impl->conn,
                    "SELECT COALESCE(MAX(step_id) + 1, 0) FROM steps WHERE job_id = ? AND "
                    "attempt = ?");
  st.bind(1, static_cast<std::int64_t>(job)).bind(2, static_cast<std::int64_t>(attempt));
  return st.step() ? static_cast<std::uint32_t>(st.int64(0)) : 0;
}

void Store::put_step(const JobStep& s) {
  sql::Statement st(m_impl->conn, fmt::format("REPLACE INTO steps ({}) VALUES "
                                              "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                              k_step_columns));
  st.bind(1, static_cast<std::int64_t>(s.job_id))
      .bind(2, static_cast<std::int64_t>(s.attempt))
      .bind(3, static_cast<std::int64_t>(s.step_id))
      .bind(4, s.name)
      .bind(5, s.nodes)
      .bind(6, static_cast<std::int64_t>(s.node_count))
      .bind(7, static_cast<std::int64_t>(s.tasks))
      .bind(8, static_cast<std::int64_t>(s.cpus))
      .bind(9, static_cast<std::int64_t>(s.state))
      .bind(10, s.start_time)
      .bind(11, s.end_time)
      .bind(12, static_cast<std::int64_t>(s.exit_status))
      .bind(13, static_cast<std::int64_t>(s.exit_signal))
      .bind(14, static_cast<std::int64_t>(s.user_cpu_us))
      .bind(15, static_cast<std::int64_t>(s.sys_cpu_us))
      .bind(16, static_cast<std::int64_t>(s.max_rss_kb))
      .bind(17, s.time_limit)
      .run();
}

void Store::end_running_steps(JobId job, std::uint32_t attempt, JobState state, Seconds end) {
  sql::Statement st(m_impl->conn,
                    "UPDATE steps SET state = ?, end_time = ? WHERE job_id = ? AND attempt = ? "
                    "AND state = ?");
  st.bind(1, static_cast<std::int64_t>(state))
      .bind(2, end)
      .bind(3, static_cast<std::int64_t>(job))
      .bind(4, static_cast<std::int64_t>(attempt))
      .bind(5, static_cast<std::int64_t>(JobState::running))
      .run();
}

std::vector<JobStep> Store::steps(const std::vector<JobId>& ids) {
  std::vector<JobStep> out;
  auto read_all = [&](sql::Statement& st) {
    while (st.step()) out.push_back(read_step(st));
  };
  if (ids.empty()) {
    sql::Statement st(
        m_impl->conn,
        fmt::format("SELECT {} FROM steps ORDER BY job_id, attempt, step_id", k_step_columns));
    read_all(st);
    return out;
  }
  // One prepared lookup per job: the primary key makes each a short range scan.
  sql::Statement st(m_impl->conn,
                    fmt::format("SELECT {} FROM steps WHERE job_id = ? ORDER BY attempt, step_id",
                                k_step_columns));
  for (JobId id : ids) {
    st.bind(1, static_cast<std::int64_t>(id));
    read_all(st);
    st.reset();
  }
  return out;
}

}  // namespace stint
