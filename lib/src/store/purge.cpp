// What keeps stint.db from growing forever: finding free job ids once the
// sequence has wrapped at MaxJobId, slurmdbd's purges of old jobs and steps,
// and compaction.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <stint/error.hpp>

#include "store/impl.hpp"

namespace stint {

std::optional<JobId> Store::free_job_ids(JobId from, JobId limit, std::uint32_t count) {
  if (count == 0 || from >= limit) return std::nullopt;
  sql::Statement used(m_impl->conn, "SELECT id FROM jobs WHERE id >= ? AND id < ? ORDER BY id");
  used.bind(1, static_cast<std::int64_t>(from)).bind(2, static_cast<std::int64_t>(limit));
  std::uint64_t candidate = from;
  while (used.step()) {
    const auto id = static_cast<std::uint64_t>(used.int64(0));
    if (id >= candidate + count) break;
    candidate = id + 1;
  }
  if (candidate + count > limit) return std::nullopt;
  return static_cast<JobId>(candidate);
}

Store::PurgedJobs Store::purge_jobs(Seconds submitted_by, std::size_t max) {
  if (m_impl->read_only) throw Error(Errc::internal, "purge_jobs on a read-only store");
  // slurmdbd purges a job submitted at or before the cutoff once it has
  // ended. A run's job stays: its array texts (for a run submitted as an
  // array task) say so when its own spec is the shared placeholder.
  sql::Statement pick(m_impl->conn, fmt::format(R"sql(
SELECT id, array_job_id, het_job_id FROM jobs
 WHERE submit_time <= ? AND end_time != 0 AND state >= {}
   AND json_extract(spec, '$.run') IS NULL
   AND NOT (array_job_id != 0 AND EXISTS (
     SELECT 1 FROM array_texts a
      WHERE a.array_job_id = jobs.array_job_id AND json_extract(a.spec, '$.run') IS NOT NULL))
 ORDER BY id LIMIT ?)sql",
                                                static_cast<int>(JobState::completed)));
  pick.bind(1, submitted_by).bind(2, static_cast<std::int64_t>(max));
  PurgedJobs out;
  std::set<JobId> arrays, het_jobs;
  while (pick.step()) {
    const auto id = static_cast<JobId>(pick.int64(0));
    const auto array = static_cast<JobId>(pick.int64(1));
    const auto het = static_cast<JobId>(pick.int64(2));
    out.jobs.push_back(id);
    // A job's script is kept under its array's or het job's id, else its own.
    if (array != 0) {
      arrays.insert(array);
    } else if (het != 0) {
      het_jobs.insert(het);
    } else {
      out.scripts.push_back(id);
    }
  }
  if (out.jobs.empty()) return out;

  sql::Statement job(m_impl->conn, "DELETE FROM jobs WHERE id = ?");
  sql::Statement attempts(m_impl->conn, "DELETE FROM job_attempts WHERE job_id = ?");
  sql::Statement steps(m_impl->conn, "DELETE FROM steps WHERE job_id = ?");
  for (JobId id : out.jobs) {
    for (sql::Statement* st : {&job, &attempts, &steps}) {
      st->bind(1, static_cast<std::int64_t>(id));
      st->run();
    }
  }
  // An array's texts and script go with its last task, a het job's script
  // with its last component.
  sql::Statement array_left(m_impl->conn, "SELECT 1 FROM jobs WHERE array_job_id = ? LIMIT 1");
  sql::Statement texts(m_impl->conn, "DELETE FROM array_texts WHERE array_job_id = ?");
  for (JobId array : arrays) {
    array_left.bind(1, static_cast<std::int64_t>(array));
    const bool left = array_left.step();
    array_left.reset();
    if (left) continue;
    texts.bind(1, static_cast<std::int64_t>(array));
    texts.run();
    out.scripts.push_back(array);
  }
  sql::Statement het_left(m_impl->conn, "SELECT 1 FROM jobs WHERE het_job_id = ? LIMIT 1");
  for (JobId het : het_jobs) {
    het_left.bind(1, static_cast<std::int64_t>(het));
    const bool left = het_left.step();
    het_left.reset();
    if (!left) out.scripts.push_back(het);
  }
  // What was cached of rows that are gone.
  m_impl->shared = SharedTexts{};
  m_impl->last_texts.texts.reset();
  return out;
}

std::size_t Store::purge_steps(Seconds started_by, std::size_t max) {
  if (m_impl->read_only) throw Error(Errc::internal, "purge_steps on a read-only store");
  sql::Statement purge(m_impl->conn, R"sql(
DELETE FROM steps WHERE (job_id, attempt, step_id) IN (
  SELECT job_id, attempt, step_id FROM steps
   WHERE start_time <= ? AND end_time != 0 LIMIT ?))sql");
  purge.bind(1, started_by).bind(2, static_cast<std::int64_t>(max));
  purge.run();
  return static_cast<std::size_t>(sqlite3_changes(m_impl->conn.handle()));
}

void Store::compact() {
  if (m_impl->read_only) throw Error(Errc::internal, "compact on a read-only store");
  m_impl->conn.exec("VACUUM");
  // VACUUM leaves its pages in the WAL; copy them back now so the file on
  // disk is the smaller one.
  m_impl->conn.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

}  // namespace stint
