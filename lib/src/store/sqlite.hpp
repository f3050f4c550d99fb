#pragma once
// A thin RAII layer over the SQLite C API: a connection and prepared statements
// that throw stint::Error(Errc::store) with SQLite's message.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <sqlite3.h>

namespace stint::sql {

class Statement;

class Connection {
 public:
  Connection(const std::string& path, bool read_only);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void exec(std::string_view sql);
  sqlite3* handle() const { return m_db; }
  [[noreturn]] void fail(std::string_view what) const;
  /// A truncating checkpoint that waits for no reader: true if the WAL file
  /// is empty afterwards, false if a reader of an older snapshot (or another
  /// writer) stood in the way.
  bool empty_wal();

 private:
  sqlite3* m_db = nullptr;
};

/// A writer's WAL file emptied between bursts: told of each write, it empties
/// the file (Connection::empty_wal) once nothing has been written for a
/// while. A failed attempt is made again that long after it.
class QuietWal {
 public:
  void wrote() {
    m_written = true;
    m_touched = std::chrono::steady_clock::now();
  }
  /// True if it emptied the file now.
  bool empty_when_quiet(Connection& conn, std::chrono::milliseconds quiet);

 private:
  bool m_written = false;  ///< the file holds something since it was last emptied
  std::chrono::steady_clock::time_point m_touched;  ///< the last write, or attempt
};

class Statement {
 public:
  Statement(Connection& c, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t v);
  Statement& bind(int index, std::string_view v);
  /// Binds the text without copying it: it must stay as it is until the
  /// statement is reset (run() resets it). For the many columns of a row
  /// written at once from a job that outlives the write.
  Statement& bind_unowned(int index, std::string_view v);
  /// true while a row is available.
  bool step();
  /// Steps once, expecting no row.
  void run();
  void reset();

  std::int64_t int64(int col) const { return sqlite3_column_int64(m_stmt, col); }
  std::string text(int col) const;
  /// The column's text without a copy, valid until the next step or reset.
  std::string_view text_view(int col) const;

 private:
  Connection& m_conn;
  sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace stint::sql
