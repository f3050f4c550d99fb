#pragma once
// A job's row in the jobs table: its columns, how a Job is written into them
// (bind_job) and read back (JobReader). store.cpp's queries use these;
// nothing outside store/ sees a row.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>  // DecodedText parses; store/ only

#include <stint/store.hpp>

#include "model/reason_table.hpp"
#include "store/impl.hpp"
#include "store/sqlite.hpp"

namespace stint {

/// Takes the values a user gave out of a spec's JSON: those of a run's
/// variables (`spec.run.env`, emptied) and of sbatch's --export (NAME=VALUE
/// becomes NAME=***). stint.db is every local user's to read, and a value
/// may be a token. The job's environment in scripts.db keeps them.
void drop_private_values(nlohmann::json& spec);
/// An --export list with each NAME=VALUE as NAME=***; the rest (ALL, NONE,
/// bare names) as it was.
std::string export_spec_names(std::string_view spec);

// Column order shared by INSERT, UPDATE and SELECT.
constexpr std::string_view k_job_columns =
    "id, name, user_id, group_id, user_name, partition, account, qos, state, reason, "
    "hold_reason, priority, submit_time, eligible_time, start_time, end_time, time_limit, "
    "exit_status, exit_signal, user_cpu_us, sys_cpu_us, max_rss_kb, restart_count, "
    "stdout_path, stderr_path, request, alloc, spec, array_job_id, array_task_id, "
    "array_throttle, dependency, requeue, cancelled_by, het_job_id, het_job_offset, "
    "het_job_size, array_split, array_tasks, state_desc";
constexpr int k_job_column_count = 40;

/// k_job_columns with NULL in place of what JobPart::listing leaves out.
std::string listing_columns();
/// n SQL placeholders: "?,?,...".
std::string placeholders(int n);
/// A job's JSON columns as text.
JobTexts texts_of(const Job& job);
/// Binds every column of `job`'s row, in k_job_columns' order, with `texts`
/// for its JSON columns. The texts are bound unowned (not copied: 10,000 rows
/// of an array copied 4 MB): the caller steps and resets the statement while
/// `job` and `texts` stand. The allocation's text is made here, so it is copied.
void bind_job(sql::Statement& st, const Job& job, const JobTexts& texts);

// The last Reason value: a stored reason above it (a newer stint's) reads as none.
inline std::int64_t last_reason() { return model_detail::last_reason_value(); }

template <typename E>
E enum_from(std::int64_t v, E fallback, std::int64_t max) {
  return (v >= 0 && v <= max) ? static_cast<E>(v) : fallback;
}

// The last text of one JSON column and what it decodes to. A listing reads
// thousands of rows whose JSON columns are often the same text (the tasks of
// an array share their spec and request): a run of equal ones is parsed once.
template <typename T>
class DecodedText {
 public:
  /// Sets `field` to what `text` decodes to. `field_holds_last`: `field`
  /// already holds the value set last (a job read into again), so an
  /// unchanged text copies nothing.
  template <typename Decode>
  void assign(std::string_view text, T& field, bool field_holds_last, Decode&& decode) {
    if (!m_value || text != m_text) {
      m_value = decode(nlohmann::json::parse(text));
      m_text.assign(text);
    } else if (field_holds_last) {
      return;
    }
    field = *m_value;
  }

 private:
  std::string m_text;
  std::optional<T> m_value;
};

// Decodes job rows.
class JobReader {
 public:
  explicit JobReader(sql::Connection& conn, JobPart part = JobPart::whole)
      : m_conn(conn), m_whole(part == JobPart::whole) {}
  Job read(const sql::Statement& st) {
    m_job_read = false;  // the texts' values may no longer be next()'s job's
    Job job;
    read_into(st, job, false);
    return job;
  }
  /// The row, in the reader's own job, overwritten by the next: the values an
  /// array's tasks share stay in it, not copied again (a tenth of squeue -r).
  const Job& next(const sql::Statement& st) {
    read_into(st, m_job, m_job_read);
    m_job_read = true;
    return m_job;
  }

 private:
  // Overwrites every field of `job`; `again`: `job` is what this reader
  // read last.
  void read_into(const sql::Statement& st, Job& job, bool again);

  // A task row's request or spec when it is k_shared_text: its array's.
  enum class Text { request, spec };
  std::string_view own_or_shared(std::string_view text, const sql::Statement& st, Text which);

  sql::Connection& m_conn;
  bool m_whole;  // else JobPart::listing: k_listing_omits are not read
  SharedTexts m_shared;
  DecodedText<ResourceRequest> m_request;
  DecodedText<JobSpec> m_spec;
  DecodedText<Dependency> m_dependency;
  bool m_dependency_set = false;  // the last job read has a dependency
  Job m_job;
  bool m_job_read = false;
};

}  // namespace stint
