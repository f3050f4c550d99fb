// Cell padding, format-string parsing and value forms shared by the formatters.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <optional>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"

namespace stint::format {

std::string pad(std::string_view value, int width, Align align, bool cut) {
  std::string out;
  detail::append_padded(out, value, width, align, cut);
  return out;
}

std::string date_line(Seconds t) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  char buf[64];
  // ctime's layout: the day of the month is space-padded ("Nov  5").
  std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
  return buf;
}

Reason effective_reason(const Job& job) {
  if (job.state == JobState::pending && job.hold_reason != Reason::none) return job.hold_reason;
  return job.reason;
}

std::string reason_text(const Job& job) {
  // A job ends DEADLINE only past its deadline, and then always with
  // slurmctld's FAIL_DEADLINE: the state says the reason.
  if (job.state == JobState::deadline) return "DeadLine";
  // Slurm prints the description it keeps with these reasons instead of
  // their names (squeue %r, scontrol's Reason= with '_' for ' ').
  switch (Reason r = effective_reason(job)) {
    case Reason::req_node_not_avail:
      return "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority "
             "partitions";
    case Reason::reserved_for_maintenance:
      return "ReqNodeNotAvail, Reserved for maintenance";
    case Reason::reservation_deleted:
      // Held when its reservation ended or went (slurmctld's state_desc).
      return job.state == JobState::pending && !job.spec.options().reservation.empty()
                 ? fmt::format("Reservation {} was deleted", job.spec.options().reservation)
                 : std::string(reason_name(r));
    case Reason::launch_failed:
      return job.state == JobState::pending ? "launch failed requeued held"
                                            : std::string(reason_name(r));
    case Reason::special_exit:
      return job.state == JobState::pending ? "job requeued in special exit state"
                                            : std::string(reason_name(r));
    default:
      return std::string(reason_name(r));
  }
}

namespace detail {

namespace {
bool held_for_reservation(const Job& job) {
  return job.state == JobState::pending && job.hold_reason == Reason::reservation_deleted;
}
}  // namespace

bool special_exit(const Job& job) {
  return job.state == JobState::pending && job.hold_reason == Reason::special_exit;
}

std::string_view shown_state_code(const Job& job) {
  if (special_exit(job)) return "SE";
  return held_for_reservation(job) ? "RD" : state_code(job.state);
}

std::string_view shown_state_name(const Job& job) {
  if (special_exit(job)) return "SPECIAL_EXIT";
  return held_for_reservation(job) ? "RESV_DEL_HOLD" : state_name(job.state);
}

}  // namespace detail

Seconds time_used(const Job& job, Seconds now) {
  if (job.start_time == k_no_time) return 0;
  if (is_terminal(job.state) || job.state == JobState::completing) {
    if (job.end_time == k_no_time) return 0;
    return job.end_time - job.start_time;
  }
  if (job.state == JobState::pending) return 0;
  return now - job.start_time;
}

std::string job_tres(const Job& job) {
  std::string s = fmt::format("cpu={}", detail::job_cpu_count(job));
  if (std::uint64_t mem = detail::job_memory_mb(job); mem > 0)
    s += ",mem=" + parse::format_memory_mb(mem);
  s += fmt::format(",node={},billing={}", detail::job_node_count(job), detail::job_cpu_count(job));
  if (std::uint32_t gpus = detail::job_gpu_count(job); gpus > 0)
    s += fmt::format(",gres/gpu={}", gpus);
  return s;
}

std::string id_ranges(const std::vector<std::uint32_t>& ids) {
  std::vector<std::uint32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string out;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]);
    i = j + 1;
  }
  return out;
}

namespace detail {

Layout parse_percent(std::string_view format,
                     const std::function<std::optional<std::size_t>(char)>& lookup,
                     std::string_view what, bool allow_widest) {
  Layout out;
  std::size_t pos = format.find('%');
  out.prefix = std::string(format.substr(0, pos));
  auto append_literal = [&](std::string_view text) {
    if (out.fields.empty())
      out.prefix += text;
    else
      out.fields.back().suffix += text;
  };
  while (pos != std::string_view::npos) {
    std::size_t next = format.find('%', pos + 1);
    if (next == pos + 1) {
      // "%%" prints a percent sign.
      append_literal("%");
      pos = format.find('%', next + 1);
      if (pos == std::string_view::npos)
        append_literal(format.substr(next + 1));
      else
        append_literal(format.substr(next + 1, pos - next - 1));
      continue;
    }
    std::string_view token = format.substr(
        pos + 1, next == std::string_view::npos ? std::string_view::npos : next - pos - 1);
    pos = next;
    Field f;
    std::size_t i = 0;
    if (i < token.size() && token[i] == '.') {
      f.align = Align::right;
      ++i;
    } else if (i < token.size() && token[i] == '-') {
      // printf's explicit left alignment ("%-10j"); Slurm's default anyway.
      ++i;
    }
    if (allow_widest && i < token.size() && token[i] == '#') {
      f.width = -1;
      ++i;
    }
    while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i])) != 0) {
      f.width = std::max(f.width, 0) * 10 + (token[i] - '0');
      if (f.width > 100000)
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid {} format specification: %{}", what, token));
      ++i;
    }
    if (i >= token.size())
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid {} format specification: %{}", what, token));
    const char letter = token[i++];
    auto column = lookup(letter);
    if (!column)
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid {} format specification: {}", what, letter));
    f.column = *column;
    f.suffix = std::string(token.substr(i));
    out.fields.push_back(std::move(f));
  }
  return out;
}

void append_padded(std::string& out, std::string_view value, int width, Align align, bool cut) {
  if (width <= 0) {
    out += value;
    return;
  }
  const auto w = static_cast<std::size_t>(width);
  if (align == Align::right) {
    if (value.size() >= w) {
      out += cut ? value.substr(0, w) : value;
      return;
    }
    out.append(w - value.size(), ' ');
    out += value;
    return;
  }
  const std::string_view kept = value.substr(0, std::min(value.size(), w));
  out += kept;
  out.append(w - kept.size(), ' ');
}

std::string render_layout(const Layout& layout,
                          const std::function<std::pair<std::string, bool>(const Field&)>& cell) {
  std::string line = layout.prefix;
  for (const Field& f : layout.fields) {
    auto [text, cut] = cell(f);
    append_padded(line, text, f.width, f.align, cut);
    line += f.suffix;
  }
  line += '\n';
  return line;
}

std::string timestamp_or(Seconds t, std::string_view none) {
  if (t == k_no_time) return std::string(none);
  return parse::format_timestamp(t);
}

std::string squeue_secs(Seconds s) {
  if (s < 0 || s > Seconds{365} * 24 * 3600) return "INVALID";
  return parse::format_duration(s);
}

std::string cpu_load_text(const Context& ctx) {
  return ctx.cpu_load ? fmt::format("{:.2f}", *ctx.cpu_load) : std::string("N/A");
}

std::string job_partition(const Job& job) {
  // slurmctld keeps a pending job's partitions as it was given them; once it
  // runs, the one it runs in.
  if (job.state == JobState::pending && job.spec.partition &&
      job.spec.partition->find(',') != std::string::npos)
    return *job.spec.partition;
  return job.partition;
}

std::string job_nodelist(const Job& job) {
  if (job.alloc.empty()) return {};
  return parse::compress_hostlist(job.node_names());
}

std::uint32_t job_node_count(const Job& job) {
  if (!job.alloc.empty()) return static_cast<std::uint32_t>(job.alloc.size());
  return std::max<std::uint32_t>(job.req.nodes, 1);
}

std::uint32_t job_cpu_count(const Job& job) {
  if (!job.alloc.empty()) return job.total_cpus();
  return std::max(
      {job.req.tasks * job.req.cpus_per_task, job.req.cpus_per_node * job.req.nodes, 1U});
}

std::uint64_t job_memory_mb(const Job& job) {
  if (!job.alloc.empty()) {
    std::uint64_t total = 0;
    for (const auto& a : job.alloc) total += a.mem_mb;
    return total;
  }
  return job.req.mem_per_node_mb * job_node_count(job);
}

std::uint32_t job_gpu_count(const Job& job) {
  if (!job.alloc.empty()) return job.total_gpus();
  return job.req.gpus_per_node * job_node_count(job);
}

std::string group_name(const Context& ctx, std::uint32_t gid) {
  if (ctx.group_name) {
    std::string name = ctx.group_name(gid);
    if (!name.empty()) return name;
  }
  return std::to_string(gid);
}

std::string or_null(std::string_view s) { return s.empty() ? "(null)" : std::string(s); }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace detail
}  // namespace stint::format
