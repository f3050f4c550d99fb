// sacct: its fields (--format names), job and ".batch" step lines, and the
// fixed-width and parsable outputs.

#include <algorithm>
#include <array>
#include <cstdlib>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

/// Which line of a job: the job (allocation) itself or its batch step.
enum class Line : std::uint8_t { job, batch };

/// How a field prints when it does not fit: a string is cut with a '+', a
/// date is cut, a number is never cut.
enum class Kind : std::uint8_t { str, date, num };

struct SacctColumn {
  std::string_view name;
  int width;  ///< negative: left-aligned
  Kind kind;
  std::string (*value)(const Job&, Line, const Context&);
};

bool started(const Job& job) { return job.start_time != k_no_time; }

std::string job_only(Line line, std::string value) {
  return line == Line::job ? std::move(value) : std::string();
}

std::string job_id(const Job& job, Line line, const Context&) {
  return line == Line::job ? std::to_string(job.id) : fmt::format("{}.batch", job.id);
}

/// The batch step's state: a step killed by a signal (scancel, time limit,
/// preemption, kill -9) reads CANCELLED, as Slurm records it.
JobState batch_state(const Job& job) {
  switch (job.state) {
    case JobState::failed:
      return job.exit_signal != 0 ? JobState::cancelled : JobState::failed;
    case JobState::timeout:
    case JobState::preempted:
    case JobState::requeued:
    case JobState::cancelled:
      return JobState::cancelled;
    default:
      return job.state;
  }
}

std::string state(const Job& job, Line line, const Context&) {
  if (line == Line::batch) return std::string(state_name(batch_state(job)));
  // Slurm names who cancelled; stint records no canceller, and the owner is
  // the one who may cancel their job.
  if (job.state == JobState::cancelled) return fmt::format("CANCELLED by {}", job.user_id);
  return std::string(state_name(job.state));
}

std::string exit_code(const Job& job, Line line, const Context&) {
  if (line == Line::job) {
    // The job line of a job ended from outside (time limit, scancel,
    // preemption) shows 0:0; the signal is on its batch step.
    switch (job.state) {
      case JobState::timeout:
      case JobState::cancelled:
      case JobState::preempted:
      case JobState::requeued:
      case JobState::pending:
        return "0:0";
      default:
        break;
    }
  }
  return exit_code_text(job.exit_status, job.exit_signal);
}

std::string elapsed(const Job& job, Line, const Context& ctx) {
  return parse::format_duration_fixed(time_used(job, ctx.now));
}

/// sacct's CPU time form: "MM:SS.mmm" under an hour, else "[D-]HH:MM:SS".
std::string cpu_time_text(std::uint64_t usec) {
  const std::uint64_t secs = usec / 1000000;
  const std::uint64_t ms = (usec % 1000000) / 1000;
  const std::uint64_t d = secs / 86400, h = (secs / 3600) % 24, m = (secs / 60) % 60, s = secs % 60;
  if (d > 0) return fmt::format("{}-{:02}:{:02}:{:02}", d, h, m, s);
  if (h > 0) return fmt::format("{:02}:{:02}:{:02}", h, m, s);
  return fmt::format("{:02}:{:02}.{:03}", m, s, ms);
}

std::string timelimit(const Job& job, Line line, const Context&) {
  if (line == Line::batch) return "";
  if (job.time_limit == k_infinite) return "UNLIMITED";
  return parse::format_duration_fixed(job.time_limit);
}

std::string node_list(const Job& job, Line line, const Context&) {
  if (job.alloc.empty()) return line == Line::job ? "None assigned" : "";
  if (line == Line::batch) return job.alloc.front().node;
  return detail::job_nodelist(job);
}

std::string alloc_cpus(const Job& job, Line line, const Context&) {
  if (line == Line::batch) return job.alloc.empty() ? "0" : std::to_string(job.alloc.front().cpus);
  return std::to_string(detail::job_cpu_count(job));
}

/// TRES in sacct's order (sorted by name).
std::string tres_sorted(std::uint32_t cpus, std::uint64_t mem_mb, std::uint32_t nodes,
                        std::uint32_t gpus, bool billing) {
  std::string s;
  if (billing) s += fmt::format("billing={},", cpus);
  s += fmt::format("cpu={},", cpus);
  if (gpus > 0) s += fmt::format("gres/gpu={},", gpus);
  if (mem_mb > 0) s += "mem=" + parse::format_memory_mb(mem_mb) + ",";
  s += fmt::format("node={}", nodes);
  return s;
}

std::string alloc_tres(const Job& job, Line line, const Context&) {
  if (job.alloc.empty()) return "";
  if (line == Line::batch) {
    const NodeAlloc& a = job.alloc.front();
    return tres_sorted(a.cpus, a.mem_mb, 1, static_cast<std::uint32_t>(a.gpu_ids.size()), false);
  }
  return tres_sorted(job.total_cpus(), detail::job_memory_mb(job),
                     static_cast<std::uint32_t>(job.alloc.size()), job.total_gpus(), true);
}

std::string req_tres(const Job& job, Line line, const Context&) {
  if (line == Line::batch) return "";
  const std::uint32_t nodes = std::max<std::uint32_t>(job.req.nodes, 1);
  const std::uint32_t cpus =
      std::max({job.req.tasks * job.req.cpus_per_task, job.req.cpus_per_node * nodes, 1U});
  return tres_sorted(cpus, job.req.mem_per_node_mb * nodes, nodes, job.req.gpus_per_node * nodes,
                     true);
}

std::string req_mem(const Job& job, Line line, const Context&) {
  if (line == Line::batch) return "";
  if (job.spec.mem_per_cpu_mb) return parse::format_memory_mb(*job.spec.mem_per_cpu_mb);
  return parse::format_memory_mb(job.req.mem_per_node_mb);
}

std::string max_rss(const Job& job, Line line, const Context&) {
  // No sample (a job too short to measure) prints blank, as in Slurm.
  if (line == Line::job || !started(job) || job.max_rss_kb == 0) return "";
  return fmt::format("{}K", job.max_rss_kb);
}

std::string total_cpu(const Job& job, Line, const Context&) {
  return cpu_time_text(job.user_cpu_us + job.sys_cpu_us);
}

std::string cpu_time(const Job& job, Line line, const Context& ctx) {
  const std::uint64_t cpus = line == Line::batch ? (job.alloc.empty() ? 0 : job.alloc.front().cpus)
                                                 : detail::job_cpu_count(job);
  return parse::format_duration_fixed(static_cast<Seconds>(cpus) * time_used(job, ctx.now));
}

std::string submit(const Job& job, Line line, const Context&) {
  // A batch step is submitted when its job starts.
  return detail::timestamp_or(line == Line::batch ? job.start_time : job.submit_time, "Unknown");
}

// clang-format off
const std::array k_columns = {
  SacctColumn{"Account", 10, Kind::str, [](const Job& j, Line, const Context&) { return j.account; }},
  SacctColumn{"AllocCPUS", 10, Kind::num, alloc_cpus},
  SacctColumn{"AllocNodes", 10, Kind::str, [](const Job& j, Line l, const Context&) { return l == Line::batch ? std::string("1") : std::to_string(j.alloc.size()); }},
  SacctColumn{"AllocTRES", 10, Kind::str, alloc_tres},
  SacctColumn{"AveRSS", 10, Kind::str, max_rss},
  SacctColumn{"Cluster", 10, Kind::str, [](const Job&, Line, const Context& c) { return c.cluster_name; }},
  SacctColumn{"Comment", 14, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.spec.comment); }},
  SacctColumn{"CPUTime", 10, Kind::num, cpu_time},
  SacctColumn{"CPUTimeRAW", 10, Kind::num, [](const Job& j, Line l, const Context& c) { return std::to_string((l == Line::batch ? (j.alloc.empty() ? 0U : j.alloc.front().cpus) : detail::job_cpu_count(j)) * time_used(j, c.now)); }},
  SacctColumn{"DerivedExitCode", 15, Kind::str, [](const Job&, Line l, const Context&) { return job_only(l, "0:0"); }},
  SacctColumn{"Elapsed", 10, Kind::num, elapsed},
  SacctColumn{"ElapsedRaw", 10, Kind::num, [](const Job& j, Line, const Context& c) { return std::to_string(time_used(j, c.now)); }},
  SacctColumn{"Eligible", 19, Kind::date, [](const Job& j, Line l, const Context&) { return detail::timestamp_or(l == Line::batch ? j.start_time : j.eligible_time, "Unknown"); }},
  SacctColumn{"End", 19, Kind::date, [](const Job& j, Line, const Context&) { return detail::timestamp_or(j.end_time, "Unknown"); }},
  SacctColumn{"ExitCode", 8, Kind::str, exit_code},
  SacctColumn{"GID", 6, Kind::num, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(j.group_id)); }},
  SacctColumn{"Group", 9, Kind::str, [](const Job& j, Line l, const Context& c) { return job_only(l, detail::group_name(c, j.group_id)); }},
  SacctColumn{"JobID", -12, Kind::str, job_id},
  SacctColumn{"JobIDRaw", -12, Kind::str, job_id},
  SacctColumn{"JobName", 10, Kind::str, [](const Job& j, Line l, const Context&) { return l == Line::batch ? std::string("batch") : j.spec.name; }},
  SacctColumn{"MaxRSS", 10, Kind::str, max_rss},
  SacctColumn{"NCPUS", 10, Kind::num, alloc_cpus},
  SacctColumn{"NNodes", 8, Kind::num, [](const Job& j, Line l, const Context&) { return l == Line::batch ? std::string("1") : std::to_string(detail::job_node_count(j)); }},
  SacctColumn{"NodeList", 15, Kind::str, node_list},
  SacctColumn{"NTasks", 8, Kind::num, [](const Job&, Line l, const Context&) { return l == Line::batch ? std::string("1") : std::string(); }},
  SacctColumn{"Partition", 10, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.partition); }},
  SacctColumn{"Priority", 10, Kind::num, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(j.priority)); }},
  SacctColumn{"QOS", 10, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.qos); }},
  SacctColumn{"Reason", 22, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, std::string(reason_name(effective_reason(j)))); }},
  SacctColumn{"ReqCPUS", 8, Kind::num, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(std::max({j.req.tasks * j.req.cpus_per_task, j.req.cpus_per_node * std::max<std::uint32_t>(j.req.nodes, 1), 1U}))); }},
  SacctColumn{"ReqMem", 10, Kind::str, req_mem},
  SacctColumn{"ReqNodes", 8, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(std::max<std::uint32_t>(j.req.nodes, 1))); }},
  SacctColumn{"ReqTRES", 10, Kind::str, req_tres},
  SacctColumn{"Restarts", 8, Kind::num, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(j.restart_count)); }},
  SacctColumn{"Start", 19, Kind::date, [](const Job& j, Line, const Context&) { return detail::timestamp_or(j.start_time, "Unknown"); }},
  SacctColumn{"State", 10, Kind::str, state},
  SacctColumn{"StdErr", 20, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.stderr_path); }},
  SacctColumn{"StdIn", 20, Kind::str, [](const Job&, Line l, const Context&) { return job_only(l, "/dev/null"); }},
  SacctColumn{"StdOut", 20, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.stdout_path); }},
  SacctColumn{"Submit", 19, Kind::date, submit},
  SacctColumn{"SystemCPU", 10, Kind::str, [](const Job& j, Line, const Context&) { return cpu_time_text(j.sys_cpu_us); }},
  SacctColumn{"Timelimit", 10, Kind::str, timelimit},
  SacctColumn{"TimelimitRaw", 10, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.time_limit == k_infinite ? std::string("UNLIMITED") : std::to_string((j.time_limit + 59) / 60)); }},
  SacctColumn{"TotalCPU", 10, Kind::str, total_cpu},
  SacctColumn{"UID", 6, Kind::num, [](const Job& j, Line l, const Context&) { return job_only(l, std::to_string(j.user_id)); }},
  SacctColumn{"User", 9, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.user_name); }},
  SacctColumn{"UserCPU", 10, Kind::str, [](const Job& j, Line, const Context&) { return cpu_time_text(j.user_cpu_us); }},
  SacctColumn{"WorkDir", 20, Kind::str, [](const Job& j, Line l, const Context&) { return job_only(l, j.spec.work_dir); }},
};
// clang-format on

std::string fixed_cell(const SacctColumn& c, const SacctField& f, std::string value) {
  const auto w = static_cast<std::size_t>(std::abs(f.width));
  if (w == 0) return value + ' ';
  if (value.size() > w && c.kind != Kind::num) {
    value.resize(w);
    if (c.kind == Kind::str) value[w - 1] = '+';
  }
  return pad(value, static_cast<int>(w), f.align) + ' ';
}

std::string render_line(const std::vector<SacctField>& fields, Parsable parsable,
                        const std::function<std::string(const SacctColumn&)>& value, bool header) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const SacctField& f = fields[i];
    const SacctColumn& c = k_columns.at(f.column);
    std::string v = value(c);
    if (parsable == Parsable::no) {
      if (header) {
        const auto w = static_cast<std::size_t>(std::abs(f.width));
        if (v.size() > w) v.resize(w);
        line += pad(v, static_cast<int>(w), f.align) + ' ';
      } else {
        line += fixed_cell(c, f, std::move(v));
      }
    } else {
      line += v;
      if (parsable == Parsable::trailing || i + 1 < fields.size()) line += '|';
    }
  }
  line += '\n';
  return line;
}

}  // namespace

std::string_view sacct_default_format() {
  return "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";
}

std::vector<SacctField> parse_sacct_format(std::string_view format) {
  std::vector<SacctField> out;
  std::size_t start = 0;
  while (start <= format.size()) {
    std::size_t comma = format.find(',', start);
    std::string_view token = format.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? format.size() + 1 : comma + 1;
    if (token.empty()) continue;
    std::string_view name = token;
    std::optional<int> width;
    if (std::size_t pct = token.find('%'); pct != std::string_view::npos) {
      name = token.substr(0, pct);
      std::string digits(token.substr(pct + 1));
      char* end = nullptr;
      long w = std::strtol(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || w <= 0 || w > 100000)
        throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", token));
      width = static_cast<int>(w);
    }
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < k_columns.size() && !found; ++i) {
      if (detail::iequals(k_columns[i].name, name)) found = i;
    }
    // Slurm also takes a leading part of a name ("jobn" for JobName).
    for (std::size_t i = 0; i < k_columns.size() && !found && !name.empty(); ++i) {
      const std::string_view n = k_columns[i].name;
      if (n.size() > name.size() && detail::iequals(n.substr(0, name.size()), name)) found = i;
    }
    if (!found)
      throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", name));
    SacctField f;
    f.column = *found;
    f.align = k_columns[*found].width < 0 ? Align::left : Align::right;
    f.width = width.value_or(std::abs(k_columns[*found].width));
    out.push_back(f);
  }
  if (out.empty()) throw Error(Errc::invalid_argument, "Invalid field requested: \"\"");
  return out;
}

std::string render_sacct(const std::vector<Job>& jobs, const SacctOptions& options,
                         const Context& ctx) {
  std::string out;
  if (!options.no_header) {
    out += render_line(
        options.fields, options.parsable, [](const SacctColumn& c) { return std::string(c.name); },
        true);
    if (options.parsable == Parsable::no) {
      for (const SacctField& f : options.fields)
        out += std::string(static_cast<std::size_t>(std::abs(f.width)), '-') + ' ';
      out += '\n';
    }
  }
  for (const Job& job : jobs) {
    out += render_line(
        options.fields, options.parsable,
        [&](const SacctColumn& c) { return c.value(job, Line::job, ctx); }, false);
    // A batch step exists once the job has started on its nodes.
    if (!options.allocations_only && started(job) && !job.alloc.empty()) {
      out += render_line(
          options.fields, options.parsable,
          [&](const SacctColumn& c) { return c.value(job, Line::batch, ctx); }, false);
    }
  }
  return out;
}

std::string sacct_helpformat() {
  std::vector<std::string_view> names;
  for (const SacctColumn& c : k_columns) names.push_back(c.name);
  std::sort(names.begin(), names.end(), [](std::string_view a, std::string_view b) {
    return detail::lower(a) < detail::lower(b);
  });
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += fmt::format("{:<19}", names[i]);
    out += (i % 4 == 3 || i + 1 == names.size()) ? "\n" : " ";
  }
  return out;
}

}  // namespace stint::format
