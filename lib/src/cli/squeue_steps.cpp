#include "cli/squeue_steps.hpp"

#include <algorithm>
#include <ctime>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>

namespace stint::cli {
namespace {

constexpr std::string_view k_default_format = "%.15i %.8j %.9P %.8u %.9M %N";

struct StepRow {
  JobId job_id = 0;
  std::string id;  // "12.0", "12.batch"
  std::uint32_t order = 0;
  std::string name;
  std::string partition;
  std::string user;
  std::uint32_t uid = 0;
  Seconds start = k_no_time;
  Seconds limit = k_infinite;
  std::string nodes;
  std::uint32_t tasks = 0;
};

std::string iso_time(Seconds t) {
  if (t == k_no_time) return "N/A";
  const std::time_t tt = t;
  std::tm tm{};
  localtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

// One field of the format: its letter, header and value.
std::string field_value(char type, const StepRow& r, Seconds now) {
  switch (type) {
    case 'A':
      return std::to_string(r.tasks);
    case 'i':
      return r.id;
    case 'j':
      return r.name;
    case 'l':
      return parse::format_time_limit(r.limit);
    case 'M':
      return parse::format_duration(now - r.start);
    case 'N':
      return r.nodes;
    case 'P':
      return r.partition;
    case 'S':
      return iso_time(r.start);
    case 'u':
      return r.user;
    case 'U':
      return std::to_string(r.uid);
    default:
      return {};
  }
}

std::string_view field_header(char type) {
  switch (type) {
    case 'A':
      return "TASKS";
    case 'i':
      return "STEPID";
    case 'j':
      return "NAME";
    case 'l':
      return "TIME_LIMIT";
    case 'M':
      return "TIME";
    case 'N':
      return "NODELIST";
    case 'P':
      return "PARTITION";
    case 'S':
      return "START_TIME";
    case 'u':
      return "USER";
    case 'U':
      return "UID";
    default:
      return {};
  }
}

struct StepField {
  char type = 0;
  format::Field f;
};

// Slurm's "%[.][size]type[suffix]", the text before the first '%' a prefix.
std::vector<StepField> parse_step_format(std::string_view text, std::string& prefix) {
  std::vector<StepField> out;
  std::size_t pos = text.find('%');
  prefix = std::string(text.substr(0, pos));
  while (pos != std::string_view::npos) {
    std::size_t i = pos + 1;
    StepField sf;
    if (i < text.size() && text[i] == '.') {
      sf.f.align = format::Align::right;
      ++i;
    }
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
      sf.f.width = sf.f.width * 10 + (text[i++] - '0');
    if (i >= text.size()) break;
    sf.type = text[i++];
    pos = text.find('%', i);
    sf.f.suffix = std::string(text.substr(i, pos == std::string_view::npos ? pos : pos - i));
    if (field_header(sf.type).empty()) {
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid job step format specification: {}", sf.type));
    }
    out.push_back(std::move(sf));
  }
  return out;
}

bool is_wanted(const StepRow& r, const std::vector<std::string>& wanted) {
  if (wanted.empty()) return true;
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
    return w == r.id || w == std::to_string(r.job_id);
  });
}

}  // namespace

std::string render_squeue_steps(const std::vector<Job>& jobs, const std::vector<JobStep>& steps,
                                std::string_view format, std::string_view sort, bool no_header,
                                const std::vector<std::string>& wanted, Seconds now) {
  std::string prefix;
  const std::vector<StepField> fields =
      parse_step_format(format.empty() ? k_default_format : format, prefix);
  std::vector<StepRow> rows;
  for (const Job& job : jobs) {
    if (job.state != JobState::running || job.alloc.empty()) continue;
    StepRow base{
        job.id,         job.display_id(), 0,  {}, job.partition, job.user_name, job.user_id,
        job.start_time, job.time_limit,   {}, 0};
    // The batch step runs the script on the allocation's first node.
    StepRow batch = base;
    batch.id += ".batch";
    batch.order = UINT32_MAX;
    batch.name = "batch";
    batch.nodes = job.node_names().front();
    batch.tasks = 1;
    batch.limit = k_infinite;
    if (is_wanted(batch, wanted)) rows.push_back(batch);
    for (const JobStep& s : steps) {
      if (s.job_id != job.id || s.attempt != job.restart_count || s.state != JobState::running)
        continue;
      StepRow r = base;
      r.id += fmt::format(".{}", s.step_id);
      r.order = s.step_id;
      r.name = s.name;
      r.start = s.start_time;
      r.nodes = s.nodes;
      r.tasks = s.tasks;
      if (is_wanted(r, wanted)) rows.push_back(std::move(r));
    }
  }
  // Slurm's default step order: partition, then step id; -S's keys before it.
  std::vector<std::pair<char, bool>> keys;
  for (std::size_t i = 0; i < sort.size(); ++i) {
    bool descending = false;
    if (sort[i] == '+' || sort[i] == '-') {
      descending = sort[i] == '-';
      if (++i >= sort.size()) break;
    }
    if (sort[i] == ',') continue;
    if (field_header(sort[i]).empty()) {
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid job step sort specification: {}", sort[i]));
    }
    keys.emplace_back(sort[i], descending);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const StepRow& a, const StepRow& b) {
    if (a.partition != b.partition) return a.partition < b.partition;
    if (a.job_id != b.job_id) return a.job_id < b.job_id;
    return a.order < b.order;
  });
  if (!keys.empty()) {
    std::stable_sort(rows.begin(), rows.end(), [&](const StepRow& a, const StepRow& b) {
      for (const auto& [type, descending] : keys) {
        // Numbers and times as numbers, the rest as text.
        int c = 0;
        if (type == 'i') {
          c = a.job_id != b.job_id ? (a.job_id < b.job_id ? -1 : 1)
                                   : (a.order == b.order ? 0 : (a.order < b.order ? -1 : 1));
        } else if (type == 'M' || type == 'S') {
          c = a.start == b.start ? 0 : (a.start > b.start) == (type == 'M') ? -1 : 1;
        } else if (type == 'A' || type == 'U' || type == 'l') {
          const auto na = type == 'A' ? a.tasks : type == 'U' ? a.uid : a.limit;
          const auto nb = type == 'A' ? b.tasks : type == 'U' ? b.uid : b.limit;
          c = na == nb ? 0 : (na < nb ? -1 : 1);
        } else {
          c = field_value(type, a, now).compare(field_value(type, b, now));
        }
        if (c != 0) return descending ? c > 0 : c < 0;
      }
      return false;
    });
  }
  auto line = [&](auto&& value_of) {
    std::string out = prefix;
    for (const StepField& sf : fields) {
      const std::string value = value_of(sf.type);
      out += sf.f.width == 0 ? value : format::pad(value, sf.f.width, sf.f.align, sf.type != 'N');
      out += sf.f.suffix;
    }
    return out + "\n";
  };
  std::string out;
  if (!no_header) out += line([](char t) { return std::string(field_header(t)); });
  for (const StepRow& r : rows) out += line([&](char t) { return field_value(t, r, now); });
  return out;
}

}  // namespace stint::cli
