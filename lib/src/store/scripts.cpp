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
#include "util/fs.hpp"

namespace stint {

struct ScriptStore::Impl {
  explicit Impl(const std::string& path) : conn(path, false), wal(path + "-wal") {}
  sql::Connection conn;
  std::string wal;
  // The WAL file whose folder entry sync() has made durable (SQLite's own
  // FULL syncs do that once per new journal file).
  dev_t synced_dev = 0;
  ino_t synced_ino = 0;
  // Prepared once the table exists (ScriptStore::open), used per submission
  // and per start; destroyed before the connection.
  std::optional<sql::Statement> put, get;
  // Told of each write (no WAL hook: it would turn SQLite's own checkpoint off).
  sql::QuietWal wal_rest;
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
  // NORMAL: a put is written when it returns, and on disk once sync() has
  // returned, which can overlap with stint.db's own sync (intake.cpp).
  impl->conn.exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
      "CREATE TABLE IF NOT EXISTS scripts ("
      "  job_id      INTEGER PRIMARY KEY,"
      "  script      TEXT NOT NULL,"
      "  environment TEXT NOT NULL);"
      // A cluster run's variables (its job and environment are the
      // cluster's): stint.db keeps their names only.
      "CREATE TABLE IF NOT EXISTS run_envs ("
      "  run TEXT PRIMARY KEY,"
      "  env TEXT NOT NULL) WITHOUT ROWID");
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
  m_impl->wal_rest.wrote();
}

void ScriptStore::remove(const std::vector<JobId>& ids) {
  if (ids.empty()) return;
  m_impl->conn.exec("BEGIN");
  try {
    sql::Statement gone(m_impl->conn, "DELETE FROM scripts WHERE job_id = ?");
    for (JobId id : ids) {
      gone.bind(1, static_cast<std::int64_t>(id));
      gone.run();
    }
    m_impl->conn.exec("COMMIT");
    m_impl->wal_rest.wrote();
  } catch (...) {
    m_impl->conn.exec("ROLLBACK");
    throw;
  }
}

void ScriptStore::compact() {
  m_impl->conn.exec("VACUUM");
  m_impl->conn.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

bool ScriptStore::empty_wal_when_quiet(std::chrono::milliseconds quiet) {
  return m_impl->wal_rest.empty_when_quiet(m_impl->conn, quiet);
}

void ScriptStore::sync() {
  // A descriptor of its own: fdatasync flushes the file, whoever wrote it,
  // and the connection is the caller's thread's. Opened each time, since
  // SQLite may make the WAL anew.
  int fd = ::open(m_impl->wal.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return;  // nothing written since the last checkpoint
    throw Error(Errc::store,
                fmt::format("Unable to open {}: {}", m_impl->wal, std::strerror(errno)));
  }
  struct stat st {};
  int rc = ::fstat(fd, &st);
  if (rc == 0) rc = ::fdatasync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0)
    throw Error(Errc::store, fmt::format("Unable to sync {}: {}", m_impl->wal, std::strerror(err)));
  if (st.st_dev != m_impl->synced_dev || st.st_ino != m_impl->synced_ino) {
    const auto slash = m_impl->wal.rfind('/');
    fs::sync_dir(slash == std::string::npos ? "." : m_impl->wal.substr(0, slash));
    m_impl->synced_dev = st.st_dev;
    m_impl->synced_ino = st.st_ino;
  }
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

void ScriptStore::put_run_env(std::string_view run, std::string_view env) {
  sql::Statement st(m_impl->conn, "INSERT OR REPLACE INTO run_envs (run, env) VALUES (?1, ?2)");
  st.bind_unowned(1, run).bind_unowned(2, env);
  st.run();
  m_impl->wal_rest.wrote();
}

std::optional<std::string> ScriptStore::run_env(std::string_view run) {
  sql::Statement st(m_impl->conn, "SELECT env FROM run_envs WHERE run = ?1");
  st.bind_unowned(1, run);
  if (!st.step()) return std::nullopt;
  return st.text(0);
}

}  // namespace stint
