// squeue's columns (-o letters, -O names), its lines and its sort.

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"
#include "util/sort.hpp"

namespace stint::format {
Seconds expected_start(const Job& job, Seconds now) {
  if (job.state != JobState::pending) return job.start_time;
  if (job.start_time != k_no_time) return job.start_time;  // the backfill plan's
  if (job.eligible_time > now) return job.eligible_time;   // --begin, requeue delay
  return k_no_time;
}

namespace {

using detail::or_null;

/// One squeue column: its -o letter (0: -O only), its -O name (lower case;
/// "" for -o only), its header, whether a long value is cut to the width,
/// and its value; columns that differ for folded array tasks have a value
/// for the group as well.
struct JobColumn {
  char letter;
  std::string_view name;
  std::string_view header;
  bool cut;
  std::string (*value)(const Job&, const Context&);
  std::string (*group_value)(const JobGroup&, const Context&) = nullptr;
};

std::string time_left(const Job& job, const Context& ctx) {
  if (job.time_limit == k_infinite) return "UNLIMITED";
  return detail::squeue_secs(job.time_limit - time_used(job, ctx.now));
}

std::string reason_list(const Job& job, const Context&) {
  // Slurm shows the reason for jobs that are waiting or that ended without
  // running to completion, the nodes otherwise.
  const bool show_reason = job.state == JobState::pending || job.state == JobState::timeout ||
                           job.state == JobState::failed || job.state == JobState::out_of_memory ||
                           job.state == JobState::deadline;
  if (show_reason) return fmt::format("({})", reason_text(job));
  return detail::job_nodelist(job);
}

std::string end_time(const Job& job, const Context&) {
  Seconds end = job.end_time;
  // A running job's end is when its time limit runs out.
  if (end == k_no_time && job.start_time != k_no_time && job.time_limit != k_infinite &&
      !is_terminal(job.state))
    end = job.start_time + job.time_limit;
  return detail::timestamp_or(end, "N/A");
}

std::string pending_time(const Job& job, const Context& ctx) {
  if (job.submit_time == k_no_time) return "0";
  if (job.state == JobState::pending)
    return std::to_string(std::max<Seconds>(0, ctx.now - job.submit_time));
  if (job.start_time == k_no_time) return "0";
  return std::to_string(std::max<Seconds>(0, job.start_time - job.submit_time));
}

std::string min_memory(const Job& job, const Context& ctx) {
  const std::uint64_t mb = job.mem_per_cpu_mb().value_or(job.req.mem_per_node_mb);
  return ctx.no_convert ? fmt::format("{}M", mb) : parse::format_memory_mb(mb);
}

std::string tres_per_node(const Job& job, const Context&) {
  if (job.req.gpus_per_node == 0) return "N/A";
  if (job.req.gpu_type.empty()) return fmt::format("gres:gpu:{}", job.req.gpus_per_node);
  return fmt::format("gres:gpu:{}:{}", job.req.gpu_type, job.req.gpus_per_node);
}

std::string command(const Job& job, const Context&) {
  const std::string& s = job.spec.script_name;
  if (s.empty()) return "(null)";
  if (s.front() == '/' || job.spec.submit_dir.empty()) return s;
  return job.spec.submit_dir + "/" + s;
}

std::string user_name(const Job& job, const Context&) {
  return job.user_name.empty() ? std::to_string(job.user_id) : job.user_name;
}

std::string priority_norm(const Job& job, const Context&) {
  return fmt::format("{:16.14f}", static_cast<double>(job.priority) / 4294967295.0);
}

// clang-format off
const std::array k_columns = {
  JobColumn{'i', "jobarrayid", "JOBID", true, [](const Job& j, const Context&) { return j.display_id(); }, [](const JobGroup& g, const Context&) { return group_id_text(g); }},
  JobColumn{'A', "jobid", "JOBID", true, [](const Job& j, const Context&) { return std::to_string(j.id); }},
  JobColumn{'P', "partition", "PARTITION", true, [](const Job& j, const Context&) { return detail::job_partition(j); }},
  JobColumn{'j', "name", "NAME", true, [](const Job& j, const Context&) { return j.spec.name; }},
  JobColumn{'u', "username", "USER", true, user_name},
  JobColumn{'U', "userid", "UID", true, [](const Job& j, const Context&) { return std::to_string(j.user_id); }},
  JobColumn{'a', "account", "ACCOUNT", true, [](const Job& j, const Context&) { return j.account; }},
  JobColumn{'q', "qos", "QOS", true, [](const Job& j, const Context&) { return j.qos; }},
  JobColumn{'t', "statecompact", "ST", true, [](const Job& j, const Context&) { return std::string(detail::shown_state_code(j)); }},
  JobColumn{'T', "state", "STATE", true, [](const Job& j, const Context&) { return std::string(detail::shown_state_name(j)); }},
  JobColumn{'M', "timeused", "TIME", true, [](const Job& j, const Context& c) { return detail::squeue_secs(time_used(j, c.now)); }},
  JobColumn{'l', "timelimit", "TIME_LIMIT", true, [](const Job& j, const Context&) { return parse::format_time_limit(j.time_limit); }},
  JobColumn{'L', "timeleft", "TIME_LEFT", true, time_left},
  JobColumn{'D', "numnodes", "NODES", true, [](const Job& j, const Context&) { return std::to_string(detail::job_node_count(j)); }},
  JobColumn{'C', "numcpus", "CPUS", true, [](const Job& j, const Context&) { return std::to_string(detail::job_cpu_count(j)); }},
  JobColumn{'R', "reasonlist", "NODELIST(REASON)", false, reason_list},
  JobColumn{'r', "reason", "REASON", true, [](const Job& j, const Context&) { return reason_text(j); }},
  JobColumn{'N', "nodelist", "NODELIST", false, [](const Job& j, const Context&) { return detail::job_nodelist(j); }},
  JobColumn{'p', "priority", "PRIORITY", true, priority_norm},
  JobColumn{'Q', "prioritylong", "PRIORITY", true, [](const Job& j, const Context&) { return std::to_string(j.priority); }},
  JobColumn{'S', "starttime", "START_TIME", true, [](const Job& j, const Context& c) { return detail::timestamp_or(expected_start(j, c.now), "N/A"); }},
  JobColumn{'e', "endtime", "END_TIME", true, end_time},
  JobColumn{'V', "submittime", "SUBMIT_TIME", true, [](const Job& j, const Context&) { return detail::timestamp_or(j.submit_time, "N/A"); }},
  JobColumn{0, "eligibletime", "ELIGIBLE_TIME", true, [](const Job& j, const Context&) { return detail::timestamp_or(j.eligible_time, "N/A"); }},
  JobColumn{0, "accruetime", "ACCRUE_TIME", true, [](const Job& j, const Context&) { return detail::timestamp_or(j.eligible_time, "N/A"); }},
  JobColumn{0, "pendingtime", "PENDING_TIME", true, pending_time},
  JobColumn{'E', "dependency", "DEPENDENCY", true, [](const Job& j, const Context& c) { return dependency_text(j, c); }},
  JobColumn{'F', "arrayjobid", "ARRAY_JOB_ID", true, [](const Job& j, const Context&) { return std::to_string(j.is_array_task() ? j.array_job_id : j.id); }},
  JobColumn{'K', "arraytaskid", "ARRAY_TASK_ID", true, [](const Job& j, const Context&) { return j.is_array_task() ? std::to_string(j.array_task_id) : std::string("N/A"); }, [](const JobGroup& g, const Context&) { return group_task_text(g); }},
  JobColumn{'f', "feature", "FEATURES", true, [](const Job&, const Context&) { return std::string("(null)"); }},
  JobColumn{'v', "reservation", "RESERVATION", true, [](const Job& j, const Context&) { const std::string& r = j.spec.options().reservation; return r.empty() ? std::string("(null)") : r; }},
  JobColumn{'w', "wckey", "WCKEY", true, [](const Job&, const Context&) { return std::string("(null)"); }},
  JobColumn{'k', "comment", "COMMENT", true, [](const Job& j, const Context&) { return or_null(j.spec.comment); }},
  JobColumn{'o', "command", "COMMAND", true, command},
  JobColumn{'Z', "workdir", "WORK_DIR", true, [](const Job& j, const Context&) { return j.spec.work_dir; }},
  JobColumn{'m', "minmemory", "MIN_MEMORY", true, min_memory},
  JobColumn{'c', "mincpus", "MIN_CPUS", true, [](const Job& j, const Context&) { return std::to_string(j.req.cpus_per_node); }},
  JobColumn{'d', "mintmpdisk", "MIN_TMP_DISK", true, [](const Job&, const Context&) { return std::string("0"); }},
  JobColumn{'y', "nice", "NICE", true, [](const Job& j, const Context&) { return std::to_string(j.spec.nice); }},
  JobColumn{'g', "groupname", "GROUP", true, [](const Job& j, const Context& c) { return detail::group_name(c, j.group_id); }},
  JobColumn{'G', "groupid", "GROUP", true, [](const Job& j, const Context&) { return std::to_string(j.group_id); }},
  JobColumn{'h', "oversubscribe", "OVER_SUBSCRIBE", true, [](const Job&, const Context&) { return std::string("OK"); }},
  JobColumn{'b', "tres-per-node", "TRES_PER_NODE", true, tres_per_node},
  JobColumn{'B', "batchhost", "EXEC_HOST", true, [](const Job& j, const Context&) { return j.alloc.empty() ? std::string("n/a") : j.alloc.front().node; }},
  JobColumn{'z', "sct", "S:C:T", true, [](const Job&, const Context&) { return std::string("*:*:*"); }},
  JobColumn{'O', "contiguous", "CONTIGUOUS", true, [](const Job& j, const Context&) { return std::string(j.spec.options().contiguous ? "1" : "0"); }},
  JobColumn{'n', "reqnodes", "REQ_NODES", true, [](const Job&, const Context&) { return std::string(); }},
  JobColumn{'x', "excnodes", "EXC_NODES", true, [](const Job&, const Context&) { return std::string(); }},
  JobColumn{'Y', "schednodes", "SCHEDNODES", true, [](const Job&, const Context&) { return std::string("(null)"); }},
  JobColumn{0, "stdout", "STDOUT", true, [](const Job& j, const Context&) { return j.stdout_path; }},
  JobColumn{0, "stderr", "STDERR", true, [](const Job& j, const Context&) { return j.stderr_path; }},
  JobColumn{0, "stdin", "STDIN", true, [](const Job&, const Context&) { return std::string("/dev/null"); }},
  JobColumn{0, "exit_code", "EXIT_CODE", true, [](const Job& j, const Context&) { return exit_code_text(j.exit_status, j.exit_signal); }},
  JobColumn{0, "restartcnt", "RESTARTCNT", true, [](const Job& j, const Context&) { return std::to_string(j.restart_count); }},
  JobColumn{0, "numtasks", "NUM_TASKS", true, [](const Job& j, const Context&) { return std::to_string(j.req.tasks); }},
  JobColumn{0, "cpus-per-task", "CPUS_PER_TASK", true, [](const Job& j, const Context&) { return std::to_string(j.req.cpus_per_task); }},
  JobColumn{0, "cpuspertask", "CPUS_PER_TASK", true, [](const Job& j, const Context&) { return std::to_string(j.req.cpus_per_task); }},
  JobColumn{0, "tres-alloc", "TRES_ALLOC", true, [](const Job& j, const Context&) { return j.alloc.empty() ? std::string() : job_tres(j); }},
  JobColumn{0, "tres", "TRES_ALLOC", true, [](const Job& j, const Context&) { return j.alloc.empty() ? std::string() : job_tres(j); }},
  JobColumn{0, "cluster", "CLUSTER", true, [](const Job&, const Context& c) { return c.cluster_name; }},
  JobColumn{0, "batchflag", "BATCH_FLAG", true, [](const Job&, const Context&) { return std::string("1"); }},
  JobColumn{0, "requeue", "REQUEUE", true, [](const Job& j, const Context&) { return std::string(j.requeue ? "1" : "0"); }},
  JobColumn{0, "arraytaskthrottle", "ARRAY_TASK_THROTTLE", true, [](const Job& j, const Context&) { return std::to_string(j.array_throttle); }},
};
// clang-format on

// The columns whose value JobPart::listing leaves out: the spec's fields
// but its name, the output paths. A unit test (format) checks every column.
constexpr std::array<std::string_view, 8> k_whole_job_columns = {
    "comment", "command", "workdir", "minmemory", "nice", "stdout", "stderr", "reservation"};

std::optional<std::size_t> column_by_letter(char c) {
  for (std::size_t i = 0; i < k_columns.size(); ++i) {
    if (k_columns[i].letter == c) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> column_by_name(std::string_view name) {
  for (std::size_t i = 0; i < k_columns.size(); ++i) {
    if (detail::iequals(k_columns[i].name, name)) return i;
  }
  return std::nullopt;
}

}  // namespace

bool squeue_needs_whole_jobs(const Layout& layout) {
  return std::any_of(layout.fields.begin(), layout.fields.end(), [](const Field& f) {
    return std::find(k_whole_job_columns.begin(), k_whole_job_columns.end(),
                     k_columns.at(f.column).name) != k_whole_job_columns.end();
  });
}

Layout parse_squeue_format(std::string_view format) {
  return detail::parse_percent(format, column_by_letter, "job", false);
}

Layout parse_squeue_long_format(std::string_view format) {
  Layout out;
  std::size_t start = 0;
  while (start <= format.size()) {
    std::size_t comma = format.find(',', start);
    std::string_view token = format.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? format.size() + 1 : comma + 1;
    if (token.empty()) continue;
    Field f;
    std::string_view name = token;
    if (std::size_t colon = token.find(':'); colon != std::string_view::npos) {
      name = token.substr(0, colon);
      std::size_t i = colon + 1;
      if (i < token.size() && token[i] == '.') {
        f.align = Align::right;
        ++i;
      }
      std::size_t digits = i;
      while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i])) != 0) ++i;
      if (i - digits > 6)
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid job format specification: {}", token));
      f.width = i > digits ? std::stoi(std::string(token.substr(digits, i - digits))) : 0;
      f.suffix = std::string(token.substr(i));
    } else {
      f.width = 20;
    }
    auto column = column_by_name(name);
    if (!column)
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid job format specification: {}", name));
    f.column = *column;
    out.fields.push_back(std::move(f));
  }
  if (out.fields.empty())
    throw Error(Errc::invalid_argument, "Invalid job format specification: (empty)");
  return out;
}

Layout squeue_default_layout(bool long_list) {
  // The -O forms Slurm itself uses for these defaults; the " " after each
  // width is the suffix that separates the columns.
  return parse_squeue_long_format(
      long_list ? "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,state:.8 ,timeused:.10 ,"
                  "timelimit:.9 ,numnodes:.6 ,reasonlist:0"
                : "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,statecompact:.2 ,"
                  "timeused:.10 ,numnodes:.6 ,reasonlist:0");
}

std::string squeue_header(const Layout& layout) {
  return detail::render_layout(layout, [](const Field& f) {
    const JobColumn& c = k_columns.at(f.column);
    return std::pair<std::string, bool>(std::string(c.header), c.cut);
  });
}

namespace {

// squeue_line, appended to `line`: squeue -r renders 100,000 of them.
void append_squeue_line(std::string& line, const Layout& layout, const Job& job,
                        const Context& ctx) {
  line += layout.prefix;
  for (const Field& f : layout.fields) {
    const JobColumn& c = k_columns.at(f.column);
    detail::append_padded(line, c.value(job, ctx), f.width, f.align, c.cut);
    line += f.suffix;
  }
  line += '\n';
}

}  // namespace

std::string squeue_line(const Layout& layout, const Job& job, const Context& ctx) {
  std::string line;
  append_squeue_line(line, layout, job, ctx);
  return line;
}

std::string squeue_line(const Layout& layout, const JobGroup& group, const Context& ctx) {
  return detail::render_layout(layout, [&](const Field& f) {
    const JobColumn& c = k_columns.at(f.column);
    std::string v = c.group_value != nullptr ? c.group_value(group, ctx) : c.value(group.job, ctx);
    return std::pair<std::string, bool>(std::move(v), c.cut);
  });
}

namespace {

// Sorting compares each job's sort keys many times (17 comparisons a job at
// 100,000 jobs); they are worked out once per job instead, each as an
// unsigned number in the letter's order (a text by its rank among the texts
// the jobs have), and the jobs are sorted by those rows of numbers.

/// A signed number as an unsigned one in the same order.
std::uint64_t ordered(std::int64_t v) {
  return static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << 63);
}

std::uint64_t pair_key(std::uint32_t high, std::uint32_t low) {
  return (std::uint64_t{high} << 32) | low;
}

bool is_text_key(char key) {
  return std::string_view("PjuaqtTNg").find(key) != std::string_view::npos;
}

/// A text sort letter's value for one job; `scratch` holds it where it is
/// worked out.
std::string_view text_key(char key, const Job& j, const Context& ctx, std::string& scratch) {
  switch (key) {
    case 'P':
      return scratch = detail::job_partition(j);
    case 'j':
      return j.spec.name;
    case 'u':
      return j.user_name;
    case 'a':
      return j.account;
    case 'q':
      return j.qos;
    case 't':
      return detail::shown_state_code(j);
    case 'T':
      return detail::shown_state_name(j);
    case 'N':
      return scratch = detail::job_nodelist(j);
    case 'g':
      return scratch = detail::group_name(ctx, j.group_id);
    default:
      return {};
  }
}

/// A partition's PriorityTier, the last one looked up kept (a listing's
/// jobs come in runs of one partition).
class TierCache {
 public:
  std::uint32_t of(const std::string& partition, const Context& ctx) {
    if (!m_known || partition != m_partition) {
      auto it = ctx.partition_tier.find(partition);
      m_tier = it == ctx.partition_tier.end() ? 1U : it->second;
      m_partition = partition;
      m_known = true;
    }
    return m_tier;
  }

 private:
  bool m_known = false;
  std::string m_partition;
  std::uint32_t m_tier = 1;
};

/// A numeric sort letter's value for one job, ascending.
std::uint64_t number_key(char key, const Job& j, const Context& ctx, TierCache& tier) {
  switch (key) {
    case 'i':
      return pair_key(detail::array_key(j), j.array_task_id);
    case 'A':
      return j.id;
    case 'F':
      return detail::array_key(j);
    case 'U':
      return j.user_id;
    case 'p':
    case 'Q':
      // Partition PriorityTier first, then the job's priority, as Slurm does.
      return pair_key(tier.of(j.partition, ctx), j.priority);
    case 'M':
      return ordered(time_used(j, ctx.now));
    case 'l':
      return static_cast<std::uint64_t>(j.time_limit);
    case 'D':
      return detail::job_node_count(j);
    case 'C':
      return detail::job_cpu_count(j);
    case 'S':
      return ordered(expected_start(j, ctx.now));
    case 'e':
      return ordered(j.end_time);
    case 'V':
      return ordered(j.submit_time);
    case 'm':
      return j.req.mem_per_node_mb;
    case 'G':
      return j.group_id;
    default:
      return 0;
  }
}

constexpr std::string_view k_sort_keys = "iAFPjuUaqtTpQMlDCNSeVmgG";

struct SortKey {
  char key;
  bool reverse;
};

std::vector<SortKey> parse_sort(std::string_view spec) {
  std::vector<SortKey> keys;
  bool reverse = false;
  for (char c : spec) {
    if (c == ',' || c == '+') {
      reverse = false;
      continue;
    }
    if (c == '-') {
      reverse = true;
      continue;
    }
    if (k_sort_keys.find(c) == std::string_view::npos)
      throw Error(Errc::invalid_argument, fmt::format("Invalid sort specification: {}", c));
    keys.push_back({c, reverse});
    reverse = false;
  }
  return keys;
}

/// The order to print jobs in, built one job at a time: the sort letters of
/// `spec` (default P,t,-p), then Slurm's order before its sort keys apply:
/// the controller's list (newest job first, an array's tasks in task order
/// where its job id is), then a stable sort by start time, latest first,
/// where a pending job without a start counts as starting soon. With
/// `start_first`, squeue --start's order comes before all of them: the jobs
/// with an expected start first, soonest first.
class SqueueOrder {
 public:
  SqueueOrder(std::string_view spec, bool start_first, const Context& ctx)
      : m_keys(parse_sort(spec.empty() ? std::string_view("P,t,-p") : spec)),
        m_start_first(start_first),
        m_width(m_keys.size() + (start_first ? 3 : 2)),
        m_ctx(ctx) {
    for (const SortKey& k : m_keys) {
      if (is_text_key(k.key)) m_texts.emplace_back();
    }
  }

  void reserve(std::size_t n) { m_rows.reserve(n * m_width); }

  void add(const Job& j) {
    if (m_start_first) {
      const Seconds s = expected_start(j, m_ctx.now);
      m_rows.push_back(s == k_no_time ? ~std::uint64_t{0} : ordered(s));
    }
    std::size_t text = 0;
    for (const SortKey& k : m_keys) {
      if (is_text_key(k.key)) {
        // The text's number among the texts seen; its rank among them is
        // known once every job is in.
        m_rows.push_back(m_texts[text++].number(text_key(k.key, j, m_ctx, m_scratch)));
      } else {
        m_rows.push_back(number_key(k.key, j, m_ctx, m_tier) ^ flip(k));
      }
    }
    Seconds start = j.start_time;
    if (start == k_no_time)
      start = m_ctx.now + 100;
    else if (j.state == JobState::pending && start < m_ctx.now)
      start = m_ctx.now;
    m_rows.push_back(~ordered(start));                                   // latest first
    m_rows.push_back(pair_key(~detail::array_key(j), j.array_task_id));  // newest first
  }

  /// The jobs' indices in the order to print them.
  std::vector<std::size_t> order() {
    const std::size_t n = m_rows.size() / m_width;
    std::size_t text = 0;
    for (std::size_t c = 0; c < m_keys.size(); ++c) {
      if (!is_text_key(m_keys[c].key)) continue;
      const std::map<std::string, std::uint64_t, std::less<>>& seen = m_texts[text++].numbers;
      std::vector<std::uint64_t> rank_of(seen.size());  // by number, in text order
      std::uint64_t rank = 0;
      for (const auto& entry : seen) rank_of[entry.second] = rank++;
      const std::size_t column = c + (m_start_first ? 1 : 0);
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t& v = m_rows[i * m_width + column];
        v = rank_of[v] ^ flip(m_keys[c]);
      }
    }
    // A value every job shares orders nothing (the partition and state of a
    // queue of one partition's pending jobs): compared only where they vary.
    std::vector<std::size_t> varying;
    for (std::size_t c = 0; c < m_width; ++c) {
      for (std::size_t i = 1; i < n; ++i) {
        if (m_rows[i * m_width + c] != m_rows[c]) {
          varying.push_back(c);
          break;
        }
      }
    }
    // The last value (array key, then task) is unique, so one unstable sort
    // gives the order of the stable sorts it stands for.
    std::vector<std::size_t> order = detail::identity_order(n);
    util::sort_runs(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const std::uint64_t* ra = &m_rows[a * m_width];
      const std::uint64_t* rb = &m_rows[b * m_width];
      for (std::size_t c : varying) {
        if (ra[c] != rb[c]) return ra[c] < rb[c];
      }
      return false;
    });
    return order;
  }

 private:
  static std::uint64_t flip(const SortKey& k) { return k.reverse ? ~std::uint64_t{0} : 0; }

  std::vector<SortKey> m_keys;
  bool m_start_first;
  std::size_t m_width;
  const Context& m_ctx;
  /// The texts one letter's values take, each with the number it was given
  /// when first seen; the last one looked up kept (a listing has runs of
  /// equal texts: an array's tasks).
  struct Texts {
    std::uint64_t number(std::string_view text) {
      if (!has_last || text != last) {
        auto it = numbers.find(text);
        if (it == numbers.end()) it = numbers.emplace(std::string(text), numbers.size()).first;
        last.assign(text);
        last_number = it->second;
        has_last = true;
      }
      return last_number;
    }
    std::map<std::string, std::uint64_t, std::less<>> numbers;
    std::string last;
    std::uint64_t last_number = 0;
    bool has_last = false;
  };

  std::vector<std::uint64_t> m_rows;  // m_width values a job
  std::vector<Texts> m_texts;         // for each text letter
  std::string m_scratch;
  TierCache m_tier;
};

std::vector<std::size_t> squeue_order(const std::vector<Job>& jobs, std::string_view spec,
                                      bool start_first, const Context& ctx) {
  SqueueOrder order(spec, start_first, ctx);
  order.reserve(jobs.size());
  for (const Job& j : jobs) order.add(j);
  return order.order();
}

bool start_first(const SqueueOptions& options) { return options.start && options.sort.empty(); }

std::string squeue_top(const SqueueOptions& options, const Context& ctx) {
  std::string out;
  if (!options.no_header) {
    if (options.long_list) out += date_line(ctx.now) + "\n";
    out += squeue_header(options.layout);
  }
  return out;
}

}  // namespace

void sort_squeue(std::vector<Job>& jobs, std::string_view spec, const Context& ctx) {
  detail::apply_order(jobs, squeue_order(jobs, spec, false, ctx));
}

std::string render_squeue(std::vector<Job> jobs, const SqueueOptions& options, const Context& ctx) {
  if (options.expand_arrays) jobs = expand_array_records(std::move(jobs));
  const std::vector<std::size_t> order =
      squeue_order(jobs, options.sort, start_first(options), ctx);
  std::string out = squeue_top(options, ctx);
  if (options.expand_arrays) {
    // One line per job, in order (a job alone prints as its group of one
    // would), without moving the jobs into order first.
    for (std::size_t i : order) out += squeue_line(options.layout, jobs[i], ctx);
    return out;
  }
  detail::apply_order(jobs, order);
  for (const JobGroup& g : array_groups(std::move(jobs), !options.task_query))
    out += squeue_line(options.layout, g, ctx);
  return out;
}

struct SqueueLines::State {
  State(SqueueOptions o, Context c)
      : options(std::move(o)), ctx(std::move(c)), order(options.sort, start_first(options), ctx) {}

  /// Keeps a line; its place among the kept ones.
  void keep(std::size_t at, std::string_view line) {
    // In blocks that never move: one string grown to megabytes copied
    // itself, into fresh pages, at each doubling.
    constexpr std::size_t k_block = std::size_t{1} << 20;
    if (blocks.empty() || blocks.back().size() + line.size() > blocks.back().capacity()) {
      blocks.emplace_back();
      blocks.back().reserve(std::max(k_block, line.size()));
    }
    lines[at].block = static_cast<std::uint32_t>(blocks.size() - 1);
    lines[at].offset = static_cast<std::uint32_t>(blocks.back().size());
    lines[at].size = static_cast<std::uint32_t>(line.size());
    blocks.back() += line;
  }

  struct Where {
    std::uint32_t block = 0, offset = 0, size = 0;
  };
  SqueueOptions options;
  Context ctx;
  SqueueOrder order;
  std::vector<std::string> blocks;  // the lines, one after another
  std::vector<Where> lines;         // each job's line
  std::vector<Job> with_dependencies;
  std::vector<std::size_t> dependent_index;  // each of those jobs' place among all
  std::string rendering;                     // the line being rendered
};

SqueueLines::SqueueLines(SqueueOptions options, Context ctx)
    : m_state(std::make_unique<State>(std::move(options), std::move(ctx))) {}
SqueueLines::~SqueueLines() = default;

void SqueueLines::add(const Job& job) {
  State& s = *m_state;
  if (job.is_array_record() && s.options.expand_arrays) {
    // squeue -r: a line per task of the record.
    detail::for_each_record_task(job, [this](const Job& task) { add(task); });
    return;
  }
  s.order.add(job);
  const std::size_t at = s.lines.size();
  s.lines.emplace_back();
  if (!job.dependency.empty()) {
    // Its line names the arrays its dependency waits on (Context::array_jobs).
    s.dependent_index.push_back(at);
    s.with_dependencies.push_back(job);
    return;
  }
  s.rendering.clear();
  if (job.is_array_record()) {
    // The record's one line, as Slurm prints it (array_groups).
    for (const JobGroup& g : array_groups({job}, !s.options.task_query))
      s.rendering = squeue_line(s.options.layout, g, s.ctx);
  } else {
    append_squeue_line(s.rendering, s.options.layout, job, s.ctx);
  }
  s.keep(at, s.rendering);
}

std::vector<Job> SqueueLines::with_dependencies() const { return m_state->with_dependencies; }

void SqueueLines::print(std::FILE* out, std::set<JobId> array_jobs) {
  State& s = *m_state;
  s.ctx.array_jobs = std::move(array_jobs);
  for (std::size_t k = 0; k < s.with_dependencies.size(); ++k) {
    const Job& job = s.with_dependencies[k];
    std::string line;
    for (const JobGroup& g : array_groups({job}, !s.options.task_query))
      line = squeue_line(s.options.layout, g, s.ctx);
    s.keep(s.dependent_index[k], line);
  }
  // Straight to the stream (the whole text in one string, then in fmt's
  // buffer, was two more copies of megabytes), in writes of a megabyte
  // (through stdio's buffer, one write(2) of 4 KB each).
  constexpr std::size_t k_chunk = std::size_t{1} << 20;
  std::string chunk = squeue_top(s.options, s.ctx);
  chunk.reserve(k_chunk);
  auto append = [&](std::string_view text) {
    if (chunk.size() + text.size() > k_chunk) {
      std::fwrite(chunk.data(), 1, chunk.size(), out);
      chunk.clear();
    }
    chunk += text;
  };
  for (std::size_t i : s.order.order()) {
    const State::Where& w = s.lines[i];
    append(std::string_view(s.blocks[w.block]).substr(w.offset, w.size));
  }
  std::fwrite(chunk.data(), 1, chunk.size(), out);
}

std::string squeue_helpformat() {
  std::vector<std::string_view> names;
  for (const JobColumn& c : k_columns) names.push_back(c.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += fmt::format("{:<19}", names[i]);
    out += (i % 4 == 3 || i + 1 == names.size()) ? "\n" : " ";
  }
  return out;
}

}  // namespace stint::format
