// Submissions by token: what makes a submission sent twice (its answer lost
// to a stintd killed after the commit) one job.

#include <stint/error.hpp>

#include "store/impl.hpp"

namespace stint {

std::optional<Store::Submission> Store::submission(std::uint32_t user_id,
                                                   const std::string& token) {
  sql::Statement find(m_impl->conn,
                      "SELECT job_id, run FROM submissions WHERE user_id = ? AND token = ?");
  find.bind(1, static_cast<std::int64_t>(user_id)).bind(2, token);
  if (!find.step()) return std::nullopt;
  return Submission{static_cast<std::uint64_t>(find.int64(0)), find.text(1)};
}

void Store::add_submission(std::uint32_t user_id, const std::string& token, const Submission& made,
                           Seconds at) {
  if (m_impl->read_only) throw Error(Errc::internal, "add_submission on a read-only store");
  sql::Statement add(m_impl->conn,
                     "INSERT INTO submissions (user_id, token, job_id, run, made) "
                     "VALUES (?, ?, ?, ?, ?)");
  add.bind(1, static_cast<std::int64_t>(user_id))
      .bind(2, token)
      .bind(3, static_cast<std::int64_t>(made.job_id))
      .bind(4, made.run)
      .bind(5, at);
  add.run();
}

void Store::remove_submission(std::uint32_t user_id, const std::string& token) {
  sql::Statement remove(m_impl->conn, "DELETE FROM submissions WHERE user_id = ? AND token = ?");
  remove.bind(1, static_cast<std::int64_t>(user_id)).bind(2, token);
  remove.run();
}

std::size_t Store::purge_submissions(Seconds made_before) {
  sql::Statement purge(m_impl->conn, "DELETE FROM submissions WHERE made < ?");
  purge.bind(1, made_before);
  purge.run();
  return static_cast<std::size_t>(sqlite3_changes(m_impl->conn.handle()));
}

}  // namespace stint
