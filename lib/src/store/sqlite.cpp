#include "store/sqlite.hpp"

#include <mutex>

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint::sql {

namespace {

// How long a statement waits for a lock another connection holds (a tool's
// read, stintd's write) before it fails as busy.
constexpr int k_busy_timeout_ms = 5000;

// SQLite's page cache starts each connection with 20 page slots allocated at
// once and written through (one page fault each), before the first page is
// read. A tool reads a handful of pages and exits: those slots were a fifth
// of `squeue -j N`'s page faults, each some tens of microseconds on this
// project's VM (bench/RESULTS-notes.md). Without the bulk, a slot is
// allocated when a page needs one. Only possible before SQLite initialises,
// so done once, before the process's first connection.
void configure_sqlite_once() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_PAGECACHE, nullptr, 0, 0); });
}

}  // namespace

Connection::Connection(const std::string& path, bool read_only) {
  configure_sqlite_once();
  int flags = read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  flags |= SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
    std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
    sqlite3_close(m_db);
    m_db = nullptr;
    throw Error(Errc::store, fmt::format("Unable to open database {}: {}", path, msg));
  }
  sqlite3_busy_timeout(m_db, k_busy_timeout_ms);
}

Connection::~Connection() { sqlite3_close_v2(m_db); }

bool Connection::empty_wal() {
  sqlite3_busy_timeout(m_db, 0);
  const int rc =
      sqlite3_wal_checkpoint_v2(m_db, "main", SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  sqlite3_busy_timeout(m_db, k_busy_timeout_ms);
  return rc == SQLITE_OK;
}

bool QuietWal::empty_when_quiet(Connection& conn, std::chrono::milliseconds quiet) {
  if (!m_written) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_touched < quiet) return false;
  m_touched = now;
  if (!conn.empty_wal()) return false;
  m_written = false;
  return true;
}

void Connection::exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(m_db);
    sqlite3_free(err);
    throw Error(Errc::store, fmt::format("database error: {}", msg));
  }
}

void Connection::fail(std::string_view what) const {
  throw Error(Errc::store, fmt::format("database error ({}): {}", what, sqlite3_errmsg(m_db)));
}

Statement::Statement(Connection& c, std::string_view sql) : m_conn(c) {
  if (sqlite3_prepare_v3(c.handle(), sql.data(), static_cast<int>(sql.size()),
                         SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK)
    c.fail("prepare");
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement& Statement::bind(int index, std::int64_t v) {
  if (sqlite3_bind_int64(m_stmt, index, v) != SQLITE_OK) m_conn.fail("bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view v) {
  if (sqlite3_bind_text(m_stmt, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) !=
      SQLITE_OK)
    m_conn.fail("bind");
  return *this;
}

Statement& Statement::bind_unowned(int index, std::string_view v) {
  if (sqlite3_bind_text(m_stmt, index, v.data(), static_cast<int>(v.size()), SQLITE_STATIC) !=
      SQLITE_OK)
    m_conn.fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  m_conn.fail("step");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(m_stmt, col);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

std::string_view Statement::text_view(int col) const {
  const auto* p = sqlite3_column_text(m_stmt, col);
  if (!p) return {};
  return {reinterpret_cast<const char*>(p),
          static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col))};
}

}  // namespace stint::sql
