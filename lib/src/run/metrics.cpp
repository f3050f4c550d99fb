#include "run/metrics.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>

namespace stint::run {
namespace {

// The step of a record: its "step", else "global_step", else `place`.
double step_of(const nlohmann::json& record, double place) {
  for (const char* key : {"step", "global_step"}) {
    if (auto it = record.find(key); it != record.end() && it->is_number()) return it->get<double>();
  }
  return place;
}

bool is_step_key(const std::string& key) { return key == "step" || key == "global_step"; }

// Adds every finite number of `record` but its step as a point at `step`.
void add_record(RunMetrics& m, const nlohmann::json& record, double step) {
  for (const auto& [key, value] : record.items()) {
    if (is_step_key(key) || !value.is_number()) continue;
    const double v = value.get<double>();
    if (std::isfinite(v)) m.series[key].push_back({step, v});
  }
}

// The next line of `text` from `pos`, without its line end.
std::string_view next_line(std::string_view text, std::size_t& pos) {
  std::size_t end = text.find('\n', pos);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

// A CSV row's cells: commas split them, double quotes enclose a cell with
// commas ("" is a quote within one).
std::vector<std::string> csv_cells(std::string_view line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

std::optional<double> number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

}  // namespace

std::string metrics_file(const std::string& work_dir, std::uint64_t job_id, std::uint32_t rank) {
  return fmt::format("{}/run-{}.{}.metrics.jsonl", work_dir, job_id, rank);
}

void add_json_lines(RunMetrics& m, std::string_view text) {
  std::size_t pos = 0;
  double place = 0;
  while (pos < text.size()) {
    const std::string_view line = next_line(text, pos);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (!record.is_object()) {
      ++m.skipped;
      continue;
    }
    add_record(m, record, step_of(record, place));
    ++place;
  }
}

void add_csv(RunMetrics& m, std::string_view text) {
  std::size_t pos = 0;
  std::vector<std::string> header;
  while (pos < text.size() && header.empty()) {
    const std::string_view line = next_line(text, pos);
    if (!line.empty()) header = csv_cells(line);
  }
  std::optional<std::size_t> step_column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (is_step_key(header[i]) && !step_column) step_column = i;
  }
  double place = 0;
  while (pos < text.size()) {
    const std::string_view line = next_line(text, pos);
    if (line.empty()) continue;
    const std::vector<std::string> cells = csv_cells(line);
    if (cells.size() != header.size()) {
      ++m.skipped;
      continue;
    }
    double step = place++;
    if (step_column) {
      if (const auto s = number(cells[*step_column])) step = *s;
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (step_column && i == *step_column) continue;
      if (const auto v = number(cells[i])) m.series[header[i]].push_back({step, *v});
    }
  }
}

void add_trainer_state(RunMetrics& m, std::string_view text) {
  const nlohmann::json state = nlohmann::json::parse(text, nullptr, false);
  const auto history = state.is_object() ? state.find("log_history") : state.end();
  if (!state.is_object() || history == state.end() || !history->is_array()) {
    ++m.skipped;
    return;
  }
  double place = 0;
  for (const nlohmann::json& entry : *history) {
    if (!entry.is_object()) {
      ++m.skipped;
      continue;
    }
    add_record(m, entry, step_of(entry, place));
    ++place;
  }
}

std::pair<std::string, MetricPick> parse_metric_spec(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  const std::string name(text.substr(0, colon));
  MetricPick pick = MetricPick::max;
  if (colon != std::string_view::npos) {
    const std::string_view how = text.substr(colon + 1);
    if (how == "max")
      pick = MetricPick::max;
    else if (how == "min")
      pick = MetricPick::min;
    else if (how == "last")
      pick = MetricPick::last;
    else
      throw Error(Errc::invalid_argument,
                  fmt::format("--metric {}: \"{}\" is not max, min or last", text, how));
  }
  if (name.empty())
    throw Error(Errc::invalid_argument,
                fmt::format("--metric {}: no metric named (e.g. val_acc:max, loss:min)", text));
  return {name, pick};
}

std::optional<MetricPoint> pick_metric(const RunMetrics& m, const std::string& name,
                                       MetricPick pick) {
  const auto it = m.series.find(name);
  if (it == m.series.end() || it->second.empty()) return std::nullopt;
  const std::vector<MetricPoint>& points = it->second;
  if (pick == MetricPick::last) return points.back();
  MetricPoint best = points.front();
  for (const MetricPoint& p : points) {
    if (pick == MetricPick::max ? p.value > best.value : p.value < best.value) best = p;
  }
  return best;
}

std::string format_metric(double value) { return fmt::format("{:.6g}", value); }

}  // namespace stint::run
