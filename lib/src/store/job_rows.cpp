// Encoding and decoding a job's row (store/job_rows.hpp).

#include "store/job_rows.hpp"

#include <algorithm>
#include <array>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "model/json.hpp"

namespace stint {
namespace {

constexpr int column_index(std::string_view column) {
  std::string_view rest = k_job_columns;
  for (int i = 0;; ++i) {
    const auto comma = rest.find(", ");
    if (rest.substr(0, comma) == column) return i;
    if (comma == std::string_view::npos) return -1;
    rest = rest.substr(comma + 2);
  }
}
constexpr int k_array_job_id_column = column_index("array_job_id");
static_assert(k_array_job_id_column > 0);
// What JobPart::listing leaves out, as JobReader::read_into skips them: NULL
// in their place costs SQLite next to nothing, and every column read is
// copied out of the row.
constexpr std::array<std::string_view, 7> k_listing_omits = {
    "user_cpu_us", "sys_cpu_us", "max_rss_kb",  "stdout_path",
    "stderr_path", "spec",       "cancelled_by"};

// The spec in the database leaves out what may be large or private: the
// environment and the script live in scripts.db, and so do the values of a
// run's variables and of --export.
std::string spec_for_db(const JobSpec& spec) {
  nlohmann::json j = to_json(spec);
  j.erase("environment");
  j.erase("script");
  drop_private_values(j);
  return j.dump();
}

std::string alloc_text(const std::vector<NodeAlloc>& alloc) {
  return alloc.empty() ? std::string("[]") : to_json(alloc).dump();
}

}  // namespace

std::string export_spec_names(std::string_view spec) {
  std::string out;
  out.reserve(spec.size());
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    const std::string_view token = spec.substr(start, comma - start);
    const std::size_t eq = token.find('=');
    if (start > 0) out += ',';
    if (eq == std::string_view::npos) {
      out += token;
    } else {
      out += token.substr(0, eq);
      out += "=***";
    }
    start = comma + 1;
  }
  return out;
}

void drop_private_values(nlohmann::json& spec) {
  if (const auto exported = spec.find("export_spec");
      exported != spec.end() && exported->is_string() &&
      exported->get_ref<const std::string&>().find('=') != std::string::npos)
    *exported = export_spec_names(exported->get_ref<const std::string&>());
  const auto run = spec.find("run");
  if (run == spec.end() || !run->is_object()) return;
  const auto env = run->find("env");
  if (env == run->end() || !env->is_array()) return;
  for (auto& pair : *env) {
    if (pair.is_array() && pair.size() == 2) pair[1] = "";
  }
}

// k_job_columns with NULL in place of k_listing_omits.
std::string listing_columns() {
  std::string out;
  std::string_view rest = k_job_columns;
  while (!rest.empty()) {
    const auto comma = rest.find(", ");
    const std::string_view column = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    if (!out.empty()) out += ", ";
    const bool omitted =
        std::find(k_listing_omits.begin(), k_listing_omits.end(), column) != k_listing_omits.end();
    out += omitted ? std::string_view("NULL") : column;
  }
  return out;
}

std::string placeholders(int n) {
  std::string out = "?";
  for (int i = 1; i < n; ++i) out += ",?";
  return out;
}

JobTexts texts_of(const Job& job) {
  return {to_json(job.req).dump(), spec_for_db(job.spec),
          job.dependency.empty() ? std::string() : to_json(job.dependency).dump()};
}

void bind_job(sql::Statement& st, const Job& job, const JobTexts& texts) {
  int i = 1;
  st.bind(i++, static_cast<std::int64_t>(job.id));
  st.bind_unowned(i++, job.spec.name);
  st.bind(i++, static_cast<std::int64_t>(job.user_id));
  st.bind(i++, static_cast<std::int64_t>(job.group_id));
  st.bind_unowned(i++, job.user_name);
  st.bind_unowned(i++, job.partition);
  st.bind_unowned(i++, job.account);
  st.bind_unowned(i++, job.qos);
  st.bind(i++, static_cast<std::int64_t>(job.state));
  st.bind(i++, static_cast<std::int64_t>(job.reason));
  st.bind(i++, static_cast<std::int64_t>(job.hold_reason));
  st.bind(i++, static_cast<std::int64_t>(job.priority));
  st.bind(i++, job.submit_time);
  st.bind(i++, job.eligible_time);
  st.bind(i++, job.start_time);
  st.bind(i++, job.end_time);
  st.bind(i++, job.time_limit);
  st.bind(i++, static_cast<std::int64_t>(job.exit_status));
  st.bind(i++, static_cast<std::int64_t>(job.exit_signal));
  st.bind(i++, static_cast<std::int64_t>(job.user_cpu_us));
  st.bind(i++, static_cast<std::int64_t>(job.sys_cpu_us));
  st.bind(i++, static_cast<std::int64_t>(job.max_rss_kb));
  st.bind(i++, static_cast<std::int64_t>(job.restart_count));
  st.bind_unowned(i++, job.stdout_path);
  st.bind_unowned(i++, job.stderr_path);
  st.bind_unowned(i++, texts.request);
  st.bind(i++, alloc_text(job.alloc));
  st.bind_unowned(i++, texts.spec);
  st.bind(i++, static_cast<std::int64_t>(job.array_job_id));
  st.bind(i++, static_cast<std::int64_t>(job.array_task_id));
  st.bind(i++, static_cast<std::int64_t>(job.array_throttle));
  st.bind_unowned(i++, texts.dependency);
  st.bind(i++, static_cast<std::int64_t>(job.requeue ? 1 : 0));
  st.bind(i++, static_cast<std::int64_t>(job.cancelled_by));
  st.bind(i++, static_cast<std::int64_t>(job.het_job_id));
  st.bind(i++, static_cast<std::int64_t>(job.het_job_offset));
  st.bind(i++, static_cast<std::int64_t>(job.het_job_size));
  st.bind(i++, static_cast<std::int64_t>(job.array_split ? 1 : 0));
  st.bind(i++, job.array_pending.store_text());
  st.bind_unowned(i++, job.state_desc);
}

std::string_view JobReader::own_or_shared(std::string_view text, const sql::Statement& st,
                                          Text which) {
  if (text != k_shared_text) return text;
  const auto array = static_cast<JobId>(st.int64(k_array_job_id_column));
  const SharedTexts& shared = shared_texts(m_conn, array, m_shared);
  if (!shared.found)
    throw Error(Errc::store,
                fmt::format("job {}: corrupt row: array {} has no texts", st.int64(0), array));
  return which == Text::request ? shared.request : shared.spec;
}

void JobReader::read_into(const sql::Statement& st, Job& job, bool again) {
  int i = 0;
  job.id = static_cast<JobId>(st.int64(i++));
  std::string_view name = st.text_view(i++);
  job.user_id = static_cast<std::uint32_t>(st.int64(i++));
  job.group_id = static_cast<std::uint32_t>(st.int64(i++));
  job.user_name = st.text_view(i++);
  job.partition = st.text_view(i++);
  job.account = st.text_view(i++);
  job.qos = st.text_view(i++);
  job.state =
      enum_from(st.int64(i++), JobState::failed, static_cast<std::int64_t>(JobState::deadline));
  job.reason = enum_from(st.int64(i++), Reason::none, last_reason());
  job.hold_reason = enum_from(st.int64(i++), Reason::none, last_reason());
  job.priority = static_cast<std::uint32_t>(st.int64(i++));
  job.submit_time = st.int64(i++);
  job.eligible_time = st.int64(i++);
  job.start_time = st.int64(i++);
  job.end_time = st.int64(i++);
  job.time_limit = st.int64(i++);
  job.exit_status = static_cast<int>(st.int64(i++));
  job.exit_signal = static_cast<int>(st.int64(i++));
  if (m_whole) {
    job.user_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
    job.sys_cpu_us = static_cast<std::uint64_t>(st.int64(i++));
    job.max_rss_kb = static_cast<std::uint64_t>(st.int64(i++));
  } else {
    i += 3;
  }
  job.restart_count = static_cast<std::uint32_t>(st.int64(i++));
  if (m_whole) {
    job.stdout_path = st.text_view(i++);
    job.stderr_path = st.text_view(i++);
  } else {
    i += 2;
  }
  try {
    m_request.assign(own_or_shared(st.text_view(i++), st, Text::request), job.req, again,
                     [](const nlohmann::json& j) { return resource_request_from_json(j); });
    std::string_view alloc = st.text_view(i++);
    if (alloc != "[]")
      job.alloc = alloc_from_json(nlohmann::json::parse(alloc));
    else
      job.alloc.clear();
    if (m_whole) {
      m_spec.assign(own_or_shared(st.text_view(i++), st, Text::spec), job.spec, again,
                    [](const nlohmann::json& j) { return job_spec_from_json(j); });
    } else {
      ++i;  // the spec stays as it was, but for its name (below)
    }
    job.array_job_id = static_cast<JobId>(st.int64(i++));
    job.array_task_id = static_cast<std::uint32_t>(st.int64(i++));
    job.array_throttle = static_cast<std::uint32_t>(st.int64(i++));
    std::string_view dep = st.text_view(i++);
    if (!dep.empty()) {
      m_dependency.assign(dep, job.dependency, again && m_dependency_set,
                          [](const nlohmann::json& j) { return dependency_from_json(j); });
    } else if (!again || m_dependency_set) {
      job.dependency = Dependency{};
    }
    m_dependency_set = !dep.empty();
    job.requeue = st.int64(i++) != 0;
    if (m_whole) job.cancelled_by = static_cast<std::uint32_t>(st.int64(i));
    ++i;
    job.het_job_id = static_cast<JobId>(st.int64(i++));
    job.het_job_offset = static_cast<std::uint32_t>(st.int64(i++));
    job.het_job_size = static_cast<std::uint32_t>(st.int64(i++));
    job.array_split = st.int64(i++) != 0;
    const std::string_view tasks = st.text_view(i++);
    if (tasks.empty()) {
      job.array_pending = TaskSet();
    } else if (auto set = TaskSet::parse(tasks)) {
      job.array_pending = std::move(*set);
    } else {
      throw Error(Errc::store, fmt::format("job {}: corrupt row: array tasks '{}'", job.id, tasks));
    }
    job.state_desc = st.text_view(i++);
  } catch (const nlohmann::json::exception& e) {
    throw Error(Errc::store, fmt::format("job {}: corrupt row: {}", job.id, e.what()));
  }
  job.spec.name = name;
}

const SharedTexts& shared_texts(sql::Connection& conn, JobId array, SharedTexts& out) {
  if (out.array_job_id == array) return out;
  sql::Statement st(conn, "SELECT request, spec FROM array_texts WHERE array_job_id = ?");
  st.bind(1, static_cast<std::int64_t>(array));
  out.array_job_id = array;
  out.found = st.step();
  out.request = out.found ? st.text(0) : std::string();
  out.spec = out.found ? st.text(1) : std::string();
  return out;
}

}  // namespace stint
