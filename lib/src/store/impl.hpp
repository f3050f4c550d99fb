#pragma once
// Store's private part, shared by the files that implement Store's methods
// (store.cpp: jobs and meta; job_rows.cpp: a job's row; accounts.cpp:
// accounts, users, associations, QOS).

#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <stint/store.hpp>

#include "store/sqlite.hpp"

namespace stint {

// A job's JSON columns as text. The tasks of an array share their request,
// spec and dependency, so a batch of them is serialised once (insert_jobs).
struct JobTexts {
  std::string request;
  std::string spec;
  std::string dependency;
};

// The request and spec an array's tasks were submitted with (array_texts).
// A task row holding k_shared_text in their place has these.
struct SharedTexts {
  JobId array_job_id = 0;  // 0: none loaded
  bool found = false;      // the array has a row (one submitted before schema 9 has none)
  std::string request;
  std::string spec;
};
inline constexpr std::string_view k_shared_text = "{}";

/// Loads `array`'s shared texts into `out`, unless it holds them already.
const SharedTexts& shared_texts(sql::Connection& conn, JobId array, SharedTexts& out);

struct Store::Impl {
  sql::Connection conn;
  bool read_only;
  // The job writes, prepared once and reused: preparing their 40-odd columns
  // anew for each row was a large part of submitting an array (10,000 rows).
  // Declared after conn, so they are finalized before it closes.
  std::unique_ptr<sql::Statement> insert_job;
  std::unique_ptr<sql::Statement> replace_job;
  // The JSON texts update_job wrote last, with what they were made from.
  struct LastTexts {
    std::optional<JobTexts> texts;
    ResourceRequest request;
    JobSpec spec;
    Dependency dependency;
    std::string user_name, account;  // of the last job whose association was recorded
  } last_texts;
  // The rows of job_associations, read on the first job written: a job's
  // association is inserted only when it is not among them. Forgotten when
  // a transaction rolls back (what it inserted is gone).
  std::optional<std::set<std::pair<std::string, std::string>>> associations;
  // Pages in the WAL after the last commit (the writer's WAL hook).
  int wal_pages = 0;
  // Told of each commit by the same hook, for empty_wal_when_quiet.
  sql::QuietWal wal_rest;
  // The statements of every transaction and submission, prepared once
  // (prepared() resets them): preparing them anew each time was a tenth of
  // stintd's time per sbatch.
  enum class Sql { begin, commit, rollback, sync_full, sync_normal, get_meta, set_meta, count };
  std::array<std::unique_ptr<sql::Statement>, static_cast<std::size_t>(Sql::count)> statements;
  sql::Statement& prepared(Sql which);
  // Of the array update_job or insert_jobs wrote last.
  SharedTexts shared;

  Impl(const std::string& path, bool ro) : conn(path, ro), read_only(ro) {}
};

}  // namespace stint
