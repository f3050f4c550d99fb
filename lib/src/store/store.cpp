#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string_view>
#include <thread>

#include <fmt/core.h>
#include <sys/stat.h>

#include <stint/error.hpp>
#include <stint/store.hpp>

#include "model/json.hpp"
#include "store/impl.hpp"
#include "store/job_rows.hpp"
#include "store/schema.hpp"
#include "store/sqlite.hpp"

namespace stint {
namespace {

template <typename T, typename F>
bool matches_any(const std::vector<T>& wanted, F&& pred) {
  if (wanted.empty()) return true;
  for (const auto& w : wanted) {
    if (pred(w)) return true;
  }
  return false;
}

// The SQL functions the migrations call: stint_export_names(text), an
// --export list with its values taken out (export_spec_names).
void register_migration_functions(sqlite3* db) {
  const auto export_names = [](sqlite3_context* context, int, sqlite3_value** args) {
    const auto* text = sqlite3_value_text(args[0]);
    if (text == nullptr) {
      sqlite3_result_null(context);
      return;
    }
    const std::string names =
        export_spec_names(std::string_view(reinterpret_cast<const char*>(text),
                                           static_cast<std::size_t>(sqlite3_value_bytes(args[0]))));
    sqlite3_result_text(context, names.data(), static_cast<int>(names.size()), SQLITE_TRANSIENT);
  };
  if (sqlite3_create_function_v2(db, "stint_export_names", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                 nullptr, export_names, nullptr, nullptr, nullptr) != SQLITE_OK)
    throw Error(Errc::store, fmt::format("sqlite: {}", sqlite3_errmsg(db)));
}

bool matches(const Job& job, const JobFilter& f) {
  if (f.active_only && is_terminal(job.state)) return false;
  if (!f.active_only && f.ended_after > 0 && is_terminal(job.state) && job.end_time < f.ended_after)
    return false;
  return matches_any(f.states, [&](JobState s) { return s == job.state; }) &&
         matches_any(f.users, [&](const std::string& u) { return u == job.user_name; }) &&
         matches_any(f.partitions, [&](const std::string& p) { return p == job.partition; }) &&
         matches_any(f.names, [&](const std::string& n) { return n == job.spec.name; }) &&
         matches_any(f.accounts, [&](const std::string& a) { return a == job.account; });
}

}  // namespace

bool Store::exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::shared_ptr<Store> Store::reader(const std::string& path) {
  // One per thread, not one per path: a tool reads one state directory, and a
  // process that reads many in turn (the tests) holds one connection at a time.
  struct Cached {
    std::string path;
    dev_t device = 0;
    ino_t inode = 0;
    std::shared_ptr<Store> store;
  };
  thread_local Cached cached;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    cached = {};
    return open(path, Mode::read_only);  // throws as open() does for a missing file
  }
  if (!cached.store || cached.path != path || cached.device != st.st_dev ||
      cached.inode != st.st_ino) {
    cached = {};
    cached.store = open(path, Mode::read_only);
    cached.path = path;
    cached.device = st.st_dev;
    cached.inode = st.st_ino;
  }
  return cached.store;
}

int Store::current_schema_version() { return static_cast<int>(store_schema::migrations().size()); }

std::unique_ptr<Store> Store::open(const std::string& path, Mode mode) {
  bool ro = mode == Mode::read_only;
  if (ro && !exists(path))
    throw Error(Errc::store, fmt::format("no database at {} (stintd has not run yet)", path));
  auto impl = std::make_unique<Impl>(path, ro);
  std::unique_ptr<Store> store(new Store(std::move(impl)));
  if (!ro) {
    // WAL lets the tools read while stintd writes; NORMAL syncs at checkpoints,
    // which keeps the database consistent across a crash of stintd.
    store->m_impl->conn.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    // A burst (100,000 jobs ending while tools read) grows the WAL to
    // hundreds of MiB; SQLite keeps a WAL file at its largest unless told
    // to cut it back when it starts over.
    store->m_impl->conn.exec("PRAGMA journal_size_limit=67108864");
    // The -wal and -shm files stay when stintd closes the database: a reader
    // that may not create files in the state directory (another user, in
    // system mode) can open a WAL database read-only only where they exist.
    int persist = 1;
    sqlite3_file_control(store->m_impl->conn.handle(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    // SQLite's automatic checkpoint runs inside the commit that fills the WAL
    // past 1,000 pages, before the commit returns: the client whose request
    // made that commit waited for the copy of every page (most of a
    // 10,000-task array's submission). The hook, which replaces it, only
    // counts; stintd checkpoints once it has answered (checkpoint_if_due).
    sqlite3_wal_hook(
        store->m_impl->conn.handle(),
        [](void* self, sqlite3*, const char*, int pages) {
          auto* writer = static_cast<Impl*>(self);
          writer->wal_pages = pages;
          writer->wal_rest.wrote();
          return SQLITE_OK;
        },
        store->m_impl.get());
    int have = store->schema_version();
    const auto& all = store_schema::migrations();
    if (have > static_cast<int>(all.size()))
      throw Error(Errc::store, fmt::format("database {} has schema version {}, newer than this "
                                           "stint ({}): upgrade stint",
                                           path, have, all.size()));
    // One transaction for every step: a reader sees the schema before or
    // after, never half of it.
    if (have < static_cast<int>(all.size())) {
      register_migration_functions(store->m_impl->conn.handle());
      Transaction tx(*store);
      for (std::size_t v = static_cast<std::size_t>(have); v < all.size(); ++v)
        store->m_impl->conn.exec(all[v]);
      store->m_impl->conn.exec(fmt::format("PRAGMA user_version={}", all.size()));
      tx.commit();
      // Migrations 14 and 16 emptied the values of runs' variables and of
      // --export, but the old pages
      // stay in the file until a checkpoint, and an SQLite built without
      // SECURE_DELETE (Debian's has it) leaves freed content in free pages: a
      // VACUUM rewrites every page, and the checkpoint copies them over the
      // old ones and empties the WAL. This once the file may shrink under a
      // tool's mapping; a tool of the old version refuses the new schema anyway.
      constexpr int k_export_names_only = 16;
      if (have > 0 && have < k_export_names_only) {
        store->m_impl->conn.exec("VACUUM");
        store->m_impl->conn.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      }
    }
  } else {
    // A tool reads the database once through: mapped, its pages are read
    // without a pread and a copy each (a sixth of sprio's time at 20,000
    // jobs). stintd never shrinks the file, which mapping would not survive.
    store->m_impl->conn.exec("PRAGMA mmap_size=1073741824");
    // Version 0 is a database stintd has just created and not yet committed
    // its schema to: a tool started with it waits for that (milliseconds).
    int have = store->schema_version();
    for (int waited_ms = 0; have == 0 && waited_ms < 5000; waited_ms += 5) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      have = store->schema_version();
    }
    if (have != current_schema_version())
      throw Error(Errc::store, fmt::format("database {} has schema version {}, this stint reads {}",
                                           path, have, current_schema_version()));
  }
  return store;
}

sql::Statement& Store::Impl::prepared(Sql which) {
  static constexpr std::array<std::string_view, static_cast<std::size_t>(Sql::count)> k_text = {
      "BEGIN IMMEDIATE",
      "COMMIT",
      "ROLLBACK",
      "PRAGMA synchronous=FULL",
      "PRAGMA synchronous=NORMAL",
      "SELECT value FROM meta WHERE key = ?",
      "REPLACE INTO meta (key, value) VALUES (?, ?)"};
  auto& slot = statements.at(static_cast<std::size_t>(which));
  if (!slot)
    slot = std::make_unique<sql::Statement>(conn, k_text.at(static_cast<std::size_t>(which)));
  slot->reset();  // in case a use threw between its bind and its reset
  return *slot;
}

Store::Store(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Store::~Store() = default;

int Store::schema_version() {
  sql::Statement st(m_impl->conn, "PRAGMA user_version");
  return st.step() ? static_cast<int>(st.int64(0)) : 0;
}

Store::Transaction::Transaction(Store& s, Sync sync) : m_store(s), m_sync(sync) {
  // SQLite takes the safety level only outside a transaction.
  Impl& impl = *m_store.m_impl;
  if (m_sync == Sync::durable) impl.prepared(Impl::Sql::sync_full).run();
  try {
    impl.prepared(Impl::Sql::begin).run();
  } catch (...) {
    if (m_sync == Sync::durable) impl.prepared(Impl::Sql::sync_normal).run();
    throw;
  }
}

Store::Transaction::~Transaction() {
  if (!m_done) {
    try {
      m_store.m_impl->prepared(Impl::Sql::rollback).run();
      m_store.m_impl->associations.reset();
      m_store.m_impl->shared = {};  // it may be an array's that is gone with the rollback
    } catch (...) {
      // Nothing more to do: SQLite rolls back an unfinished transaction on close.
    }
  }
  if (m_sync == Sync::durable) {
    try {
      m_store.m_impl->prepared(Impl::Sql::sync_normal).run();
    } catch (...) {
      // Left at FULL: slower commits, nothing lost.
    }
  }
}

void Store::Transaction::commit() {
  // With FULL, the WAL is synced before COMMIT returns.
  m_store.m_impl->prepared(Impl::Sql::commit).run();
  m_done = true;
}

bool Store::checkpoint_if_due(int min_pages) {
  Impl& impl = *m_impl;
  if (impl.read_only || impl.wal_pages < min_pages) return false;
  // Passive: a tool reading an older snapshot is not waited for; the pages it
  // still needs are copied by a later checkpoint.
  int log_pages = 0;
  int copied = 0;
  int rc = sqlite3_wal_checkpoint_v2(impl.conn.handle(), "main", SQLITE_CHECKPOINT_PASSIVE,
                                     &log_pages, &copied);
  // Counted again from the next commit; until then nothing is due. A failed
  // checkpoint (a full disk: the database file could not grow) is tried
  // again then, as SQLite's own would be; the WAL keeps every commit meanwhile.
  impl.wal_pages = 0;
  return rc == SQLITE_OK;
}

bool Store::empty_wal_when_quiet(std::chrono::milliseconds quiet) {
  Impl& impl = *m_impl;
  if (impl.read_only || !impl.wal_rest.empty_when_quiet(impl.conn, quiet)) return false;
  impl.wal_pages = 0;
  return true;
}

JobId Store::allocate_job_id() { return allocate_job_ids(1); }

JobId Store::allocate_job_ids(std::uint32_t count) {
  auto current = meta("next_job_id");
  JobId id = current ? static_cast<JobId>(std::stoul(*current)) : 1;
  set_meta("next_job_id", std::to_string(id + count));
  return id;
}

namespace {

// The cached statement for `verb` ("INSERT" or "REPLACE") into jobs, reset in
// case an earlier use threw between its bind and its step.
sql::Statement& job_write(std::unique_ptr<sql::Statement>& cached, sql::Connection& conn,
                          std::string_view verb) {
  if (!cached) {
    cached = std::make_unique<sql::Statement>(
        conn, fmt::format("{} INTO jobs ({}) VALUES ({})", verb, k_job_columns,
                          placeholders(k_job_column_count)));
  }
  cached->reset();
  return *cached;
}

}  // namespace

// Records the association a job names, unless it is known already.
void Store::record_association(const Job& job) {
  Impl& impl = *m_impl;
  if (!impl.associations) {
    impl.associations.emplace();
    sql::Statement st(impl.conn, "SELECT user_name, account FROM job_associations");
    while (st.step()) impl.associations->emplace(st.text(0), st.text(1));
  }
  std::pair<std::string, std::string> key{job.user_name, job.account};
  if (impl.associations->count(key) != 0) return;
  sql::Statement st(impl.conn,
                    "INSERT OR IGNORE INTO job_associations (user_name, account) VALUES (?, ?)");
  st.bind(1, key.first).bind(2, key.second);
  st.run();
  impl.associations->insert(std::move(key));
}

void Store::insert_job(const Job& job) {
  sql::Statement& st = job_write(m_impl->insert_job, m_impl->conn, "INSERT");
  const JobTexts texts = texts_of(job);  // bound unowned: kept until run() resets
  bind_job(st, job, texts);
  st.run();
  record_association(job);
}

void Store::insert_jobs(const std::vector<Job>& jobs) {
  JobTexts texts;            // what the rows hold
  JobId texts_of_array = 0;  // the array whose tasks' texts `texts` holds
  for (const Job& job : jobs) {
    if (!job.is_array_task() || job.array_job_id != texts_of_array) {
      texts = texts_of(job);
      texts_of_array = job.is_array_task() ? job.array_job_id : 0;
      record_association(job);  // an array's tasks share theirs
      if (job.is_array_task()) {
        sql::Statement st(m_impl->conn,
                          "INSERT INTO array_texts (array_job_id, request, spec) VALUES (?, ?, ?)");
        st.bind(1, static_cast<std::int64_t>(job.array_job_id))
            .bind(2, texts.request)
            .bind(3, texts.spec);
        st.run();
        texts.request = k_shared_text;
        texts.spec = k_shared_text;
      }
    }
    sql::Statement& st = job_write(m_impl->insert_job, m_impl->conn, "INSERT");
    bind_job(st, job, texts);
    st.run();
  }
}

void Store::remove_jobs(JobId first, std::uint32_t count) {
  sql::Statement jobs(m_impl->conn, "DELETE FROM jobs WHERE id >= ? AND id < ?");
  jobs.bind(1, static_cast<std::int64_t>(first)).bind(2, static_cast<std::int64_t>(first) + count);
  jobs.run();
  sql::Statement texts(m_impl->conn, "DELETE FROM array_texts WHERE array_job_id = ?");
  texts.bind(1, static_cast<std::int64_t>(first));
  texts.run();
}

void Store::update_job(const Job& job) {
  // A pass rewrites the rows of many jobs with the same request and spec
  // (an array's tasks, each given its reason): their JSON is serialised once.
  Impl::LastTexts& last = m_impl->last_texts;
  if (!last.texts || !(last.request == job.req) || !(last.spec == job.spec) ||
      !(last.dependency == job.dependency)) {
    last.texts = texts_of(job);
    last.request = job.req;
    last.spec = job.spec;
    last.dependency = job.dependency;
  }
  // A task whose request and spec are still its array's keeps the row short.
  const JobTexts* row = &*last.texts;
  JobTexts shared_row;
  if (job.is_array_task()) {
    const SharedTexts& shared = shared_texts(m_impl->conn, job.array_job_id, m_impl->shared);
    if (shared.found && shared.request == row->request && shared.spec == row->spec) {
      shared_row = {std::string(k_shared_text), std::string(k_shared_text), row->dependency};
      row = &shared_row;
    }
  }
  sql::Statement& st = job_write(m_impl->replace_job, m_impl->conn, "REPLACE");
  bind_job(st, job, *row);
  st.run();
  // scontrol update Account= changes it; a pass rewriting reasons does not.
  if (job.account != last.account || job.user_name != last.user_name) {
    record_association(job);
    last.account = job.account;
    last.user_name = job.user_name;
  }
}

void Store::set_meta(const std::string& key, const std::string& value) {
  m_impl->prepared(Impl::Sql::set_meta).bind(1, key).bind(2, value).run();
}

std::optional<std::string> Store::meta(const std::string& key) {
  sql::Statement& st = m_impl->prepared(Impl::Sql::get_meta);
  st.bind(1, key);
  std::optional<std::string> value;
  if (st.step()) value = st.text(0);
  st.reset();
  return value;
}

std::optional<Job> Store::job(JobId id) {
  sql::Statement st(m_impl->conn, fmt::format("SELECT {} FROM jobs WHERE id = ?", k_job_columns));
  st.bind(1, static_cast<std::int64_t>(id));
  if (!st.step()) return std::nullopt;
  return JobReader(m_impl->conn).read(st);
}

std::vector<Job> Store::array_tasks(JobId array_job_id) {
  sql::Statement st(m_impl->conn,
                    fmt::format("SELECT {} FROM jobs WHERE array_job_id = ? AND array_job_id != 0 "
                                "ORDER BY array_task_id",
                                k_job_columns));
  st.bind(1, static_cast<std::int64_t>(array_job_id));
  std::vector<Job> out;
  JobReader reader(m_impl->conn);
  while (st.step()) out.push_back(reader.read(st));
  return out;
}

// A run's project and number live in the spec's JSON (model/json.cpp).
std::vector<Job> Store::run_jobs(const std::string& project) {
  sql::Statement st(
      m_impl->conn,
      fmt::format("SELECT {} FROM jobs WHERE json_extract(spec, '$.run.project') IS NOT NULL "
                  "AND (? = '' OR json_extract(spec, '$.run.project') = ?) "
                  "AND NOT EXISTS (SELECT 1 FROM deleted_runs d "
                  "WHERE d.project = json_extract(spec, '$.run.project') "
                  "AND d.number = json_extract(spec, '$.run.number')) "
                  "ORDER BY json_extract(spec, '$.run.project'), "
                  "json_extract(spec, '$.run.number')",
                  k_job_columns));
  st.bind(1, std::string_view(project));
  st.bind(2, std::string_view(project));
  std::vector<Job> out;
  JobReader reader(m_impl->conn);
  while (st.step()) out.push_back(reader.read(st));
  return out;
}

std::size_t Store::longest_run_name(Seconds ended_after) {
  // A run's name has a '/': the spec is parsed only for such names.
  sql::Statement st(m_impl->conn,
                    "SELECT COALESCE(MAX(LENGTH(name)), 0) FROM jobs "
                    "WHERE (state IN (0, 1, 2, 3) OR end_time >= ?) AND instr(name, '/') > 0 "
                    "AND json_extract(spec, '$.run.project') IS NOT NULL");
  st.bind(1, ended_after);
  return st.step() ? static_cast<std::size_t>(st.int64(0)) : 0;
}

std::uint32_t Store::max_run_number(const std::string& project) {
  sql::Statement st(m_impl->conn,
                    "SELECT MAX((SELECT COALESCE(MAX(json_extract(spec, '$.run.number')), 0) "
                    "FROM jobs WHERE json_extract(spec, '$.run.project') = ?1), "
                    "(SELECT COALESCE(MAX(number), 0) FROM cluster_runs WHERE project = ?1))");
  st.bind(1, std::string_view(project));
  return st.step() ? static_cast<std::uint32_t>(st.int64(0)) : 0;
}

namespace {

// The states a filter reads, when it names some (its states, or the active
// ones); empty: any.
std::vector<JobState> filter_states(const JobFilter& filter) {
  std::vector<JobState> states = filter.states;
  if (filter.active_only) {
    if (states.empty())
      states = {JobState::pending, JobState::running, JobState::suspended, JobState::completing};
    std::erase_if(states, [](JobState s) { return is_terminal(s); });
    // None can match (matches() drops them all): read the fewest rows.
    if (states.empty()) states.push_back(JobState::pending);
  }
  std::sort(states.begin(), states.end());
  states.erase(std::unique(states.begin(), states.end()), states.end());
  return states;
}

// The SQL conditions of a filter; the remaining filters are applied to the
// decoded rows.
std::string job_conditions(const JobFilter& filter) {
  // The common queries (squeue: active jobs; one job id) use an index.
  std::vector<std::string> where;
  if (const std::vector<JobState> states = filter_states(filter); !states.empty()) {
    std::string list;
    for (JobState s : states)
      list += fmt::format("{}{}", list.empty() ? "" : ",", static_cast<int>(s));
    where.push_back(fmt::format("state IN ({})", list));
  }
  if (!filter.ids.empty()) {
    // Ids are numbers, so they can stand in the text; the primary key finds them.
    std::string ids;
    // Appended piece by piece: `(...) + std::to_string(id)` here trips GCC 12's
    // false -Wrestrict warning.
    for (JobId id : filter.ids) {
      if (!ids.empty()) ids += ',';
      ids += std::to_string(id);
    }
    where.push_back(fmt::format("id IN ({})", ids));
  }
  std::string conditions;
  for (std::size_t i = 0; i < where.size(); ++i)
    conditions += (i == 0 ? " WHERE " : " AND ") + where[i];
  return conditions;
}

std::int64_t count_of(sql::Connection& conn, const std::string& sql) {
  sql::Statement st(conn, sql);
  return st.step() ? st.int64(0) : 0;
}

// How many rows match the filter's conditions.
std::int64_t matching_rows(sql::Connection& conn, const JobFilter& filter) {
  return count_of(conn, fmt::format("SELECT count(*) FROM jobs{}", job_conditions(filter)));
}

// Steps through the rows that match the filter's conditions in id order,
// calling `row(reader, statement)` on each; `matching` is matching_rows if
// the caller has it.
template <typename Row>
void scan_jobs(sql::Connection& conn, const JobFilter& filter, std::optional<std::int64_t> matching,
               JobPart part, Row&& row) {
  static const std::string listing = listing_columns();
  const std::string_view columns = part == JobPart::whole ? k_job_columns : listing;
  const std::vector<JobState> states = filter_states(filter);
  const std::string conditions = job_conditions(filter);
  // Through the state index, each row is a lookup in the table (a third of
  // squeue -r's time at 100,000 pending); when the rows asked for are a
  // good part of the table, reading it through is cheaper.
  const bool by_state_index = !states.empty() && filter.ids.empty() &&
                              (matching ? *matching : matching_rows(conn, filter)) * 3 <
                                  count_of(conn, "SELECT count(*) FROM jobs");
  if (by_state_index) {
    // One statement per state, each in id order through the state index,
    // merged: SQLite sorting the rows by id spilled 20,000 of them to a
    // temporary file, and sorting the decoded jobs moved each of them.
    struct Run {
      std::unique_ptr<sql::Statement> st;
      std::unique_ptr<JobReader> reader;  // its own, so an array's texts stay cached within the run
      bool more = false;
    };
    std::vector<Run> runs;
    for (JobState state : states) {
      Run run;
      run.st = std::make_unique<sql::Statement>(
          conn, fmt::format("SELECT {} FROM jobs WHERE state = ? ORDER BY id", columns));
      run.reader = std::make_unique<JobReader>(conn, part);
      run.st->bind(1, static_cast<std::int64_t>(state));
      run.more = run.st->step();
      runs.push_back(std::move(run));
    }
    for (;;) {
      Run* next = nullptr;
      for (Run& run : runs) {
        if (run.more && (next == nullptr || run.st->int64(0) < next->st->int64(0))) next = &run;
      }
      if (next == nullptr) return;
      row(*next->reader, *next->st);
      next->more = next->st->step();
    }
  }
  // NOT INDEXED: by the state index, SQLite would sort the rows by id.
  sql::Statement st(conn, fmt::format("SELECT {} FROM jobs{}{} ORDER BY id", columns,
                                      states.empty() ? "" : " NOT INDEXED", conditions));
  JobReader reader(conn, part);
  while (st.step()) row(reader, st);
}

// Whether a decoded row is one the filter asks for; `ids` are its ids, sorted
// (checking each row against the list as given would be quadratic in the ids:
// the tasks of a 10,000-task array named by `squeue -j`).
bool wanted(const Job& job, const JobFilter& filter, const std::vector<JobId>& ids) {
  if (!ids.empty() && !std::binary_search(ids.begin(), ids.end(), job.id)) return false;
  return matches(job, filter);
}

std::vector<JobId> sorted_ids(const JobFilter& filter) {
  std::vector<JobId> ids = filter.ids;
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

std::vector<Job> Store::jobs(const JobFilter& filter) {
  // Reserved, since a Job is large: growing the vector moved every job
  // read so far, into fresh pages, each time.
  std::vector<Job> out;
  const std::int64_t matching = matching_rows(m_impl->conn, filter);
  out.reserve(static_cast<std::size_t>(matching));
  const std::vector<JobId> ids = sorted_ids(filter);
  scan_jobs(m_impl->conn, filter, matching, JobPart::whole,
            [&](JobReader& reader, const sql::Statement& st) {
              Job job = reader.read(st);
              if (wanted(job, filter, ids)) out.push_back(std::move(job));
            });
  return out;
}

void Store::each_job(const JobFilter& filter, const std::function<void(const Job&)>& visit,
                     JobPart part) {
  const std::vector<JobId> ids = sorted_ids(filter);
  scan_jobs(m_impl->conn, filter, std::nullopt, part,
            [&](JobReader& reader, const sql::Statement& st) {
              const Job& job = reader.next(st);
              if (wanted(job, filter, ids)) visit(job);
            });
}

void Store::insert_attempt(const Job& job) {
  sql::Statement st(m_impl->conn,
                    "REPLACE INTO job_attempts (job_id, attempt, state, reason, submit_time, "
                    "eligible_time, start_time, end_time, exit_status, exit_signal, user_cpu_us, "
                    "sys_cpu_us, max_rss_kb, alloc) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  int i = 1;
  st.bind(i++, static_cast<std::int64_t>(job.id));
  st.bind(i++, static_cast<std::int64_t>(job.restart_count));
  st.bind(i++, static_cast<std::int64_t>(job.state));
  st.bind(i++, static_cast<std::int64_t>(job.reason));
  st.bind(i++, job.submit_time);
  st.bind(i++, job.eligible_time);
  st.bind(i++, job.start_time);
  st.bind(i++, job.end_time);
  st.bind(i++, static_cast<std::int64_t>(job.exit_status));
  st.bind(i++, static_cast<std::int64_t>(job.exit_signal));
  st.bind(i++, static_cast<std::int64_t>(job.user_cpu_us));
  st.bind(i++, static_cast<std::int64_t>(job.sys_cpu_us));
  st.bind(i++, static_cast<std::int64_t>(job.max_rss_kb));
  st.bind(i++, to_json(job.alloc).dump());
  st.run();
}

std::vector<Job> Store::attempts(JobId id) {
  std::vector<Job> out;
  auto current = job(id);
  if (!current) return out;
  sql::Statement st(m_impl->conn,
                    "SELECT attempt, state, reason, submit_time, eligible_time, start_time, "
                    "end_time, exit_status, exit_signal, user_cpu_us, sys_cpu_us, max_rss_kb, "
                    "alloc FROM job_attempts WHERE job_id = ? ORDER BY attempt");
  st.bind(1, static_cast<std::int64_t>(id));
  while (st.step()) {
    Job a = *current;
    int i = 0;
    a.restart_count = static_cast<std::uint32_t>(st.int64(i++));
    a.state =
        enum_from(st.int64(i++), JobState::requeued, static_cast<std::int64_t>(JobState::deadline));
    a.reason = enum_from(st.int64(i++), Reason::none, last_reason());
    a.submit_time = st.int64(i++);
    a.eligible_time = st.int64(i++);
    a.start_time = st.int64(i++);
    a.end_time = st.int64(i++);
    a.exit_status = static_cast<int>(st.int64(i++));
    a.exit_signal = static_cast<int>(st.int64(i++));
    a.user_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
    a.sys_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
    a.max_rss_kb = static_cast<std::uint64_t>(st.int64(i++));
    try {
      a.alloc = alloc_from_json(nlohmann::json::parse(st.text(i++)));
    } catch (const nlohmann::json::exception& e) {
      throw Error(Errc::store, fmt::format("job {}: corrupt attempt: {}", id, e.what()));
    }
    out.push_back(std::move(a));
  }
  out.push_back(std::move(*current));
  return out;
}

std::size_t Store::job_count() {
  sql::Statement st(m_impl->conn, "SELECT count(*) FROM jobs");
  return st.step() ? static_cast<std::size_t>(st.int64(0)) : 0;
}

bool Store::has_unfinished_jobs() {
  JobFilter active;
  active.active_only = true;
  std::string list;
  for (JobState s : filter_states(active))
    list += fmt::format("{}{}", list.empty() ? "" : ",", static_cast<int>(s));
  sql::Statement st(m_impl->conn,
                    fmt::format("SELECT 1 FROM jobs WHERE state IN ({}) LIMIT 1", list));
  return st.step();
}

}  // namespace stint
