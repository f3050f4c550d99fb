#include "store/scripts.hpp"

#include <cerrno>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "store/sqlite.hpp"

namespace stint {

struct ScriptStore::Impl {
  explicit Impl(const std::string& path) : conn(path, false) {}
  sql::Connection conn;
  // Prepared once the table exists (ScriptStore::open), used per submission
  // and per start; destroyed before the connection.
  std::optional<sql::Statement> put, get;
};

std::unique_ptr<ScriptStore> ScriptStore::open(const std::string& path) {
  // SQLite gives the -wal and -shm files the database file's mode: made
  // 0600 here, before SQLite creates it with 0644 (a system stintd's umask),
  // and again on a file that was made otherwise.
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || ::fchmod(fd, 0600) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw Error(Errc::store,
                fmt::format("Unable to open database {}: {}", path, std::strerror(err)));
  }
  ::close(fd);
  auto impl = std::make_unique<Impl>(path);
  // FULL: a put is on disk when it returns (the WAL synced at each commit).
  impl->conn.exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
      "CREATE TABLE IF NOT EXISTS scripts ("
      "  job_id      INTEGER PRIMARY KEY,"
      "  script      TEXT NOT NULL,"
      "  environment TEXT NOT NULL)");
  // A submission that failed after its put (stint.db had no room) leaves its
  // row, and its retry takes the same id: rewriting the same row would append
  // to the WAL again, so on a disk freed a little at a time each retry took
  // the room stint.db needed, and no submission ever fit. The same row is
  // left as it is (no page changed, nothing written).
  impl->put.emplace(
      impl->conn,
      "INSERT INTO scripts (job_id, script, environment) VALUES (?1, ?2, ?3) "
      "ON CONFLICT (job_id) DO UPDATE SET script = excluded.script, "
      "environment = excluded.environment "
      "WHERE script IS NOT excluded.script OR environment IS NOT excluded.environment");
  impl->get.emplace(impl->conn, "SELECT script, environment FROM scripts WHERE job_id = ?");
  return std::unique_ptr<ScriptStore>(new ScriptStore(std::move(impl)));
}

ScriptStore::ScriptStore(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ScriptStore::~ScriptStore() = default;

void ScriptStore::put(JobId id, std::string_view script, std::string_view environment) {
  sql::Statement& put = *m_impl->put;
  put.reset();
  // Unowned: the texts (an environment is kilobytes) stand until run() resets.
  put.bind(1, static_cast<std::int64_t>(id)).bind_unowned(2, script).bind_unowned(3, environment);
  put.run();
}

std::optional<SubmittedScript> ScriptStore::get(JobId id) {
  sql::Statement& lookup = *m_impl->get;
  lookup.reset();
  lookup.bind(1, static_cast<std::int64_t>(id));
  std::optional<SubmittedScript> kept;
  if (lookup.step()) kept = SubmittedScript{lookup.text(0), lookup.text(1)};
  lookup.reset();
  return kept;
}

}  // namespace stint
