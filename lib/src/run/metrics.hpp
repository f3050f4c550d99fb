#pragma once
// A run's metrics, read from what training code already writes: JSON lines
// appended to STINT_METRICS ({"step": 100, "loss": 0.42}), PyTorch
// Lightning's CSVLogger files (metrics.csv: a header, then a row per log
// call with empty cells for what it did not log) and Hugging Face Trainer's
// trainer_state.json (its log_history). Pure: the caller reads the files.
// Malformed records are skipped and counted; a training script killed in
// the middle of a line loses that line only.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stint::run {

struct MetricPoint {
  double step = 0;
  double value = 0;
  bool operator==(const MetricPoint&) const = default;
};

/// Each metric's points in the order they were written.
struct RunMetrics {
  std::map<std::string, std::vector<MetricPoint>> series;
  std::size_t skipped = 0;  ///< records that did not parse

  bool empty() const { return series.empty(); }
};

/// Where rank `rank` of the run that is job `job_id` appends its JSON lines
/// (its STINT_METRICS): beside its output, in its working directory.
std::string metrics_file(const std::string& work_dir, std::uint64_t job_id, std::uint32_t rank);

/// JSON lines, one object each: every number but the step is a metric. The
/// step is "step", else "global_step", else the record's place among the
/// records read so far.
void add_json_lines(RunMetrics& m, std::string_view text);
/// A CSV file with a header row (Lightning's metrics.csv): the step column
/// is "step", else the row's place; "epoch" is a metric like the others.
void add_csv(RunMetrics& m, std::string_view text);
/// Hugging Face Trainer's trainer_state.json: each log_history entry's
/// numbers, at its "step".
void add_trainer_state(RunMetrics& m, std::string_view text);

enum class MetricPick { max, min, last };

/// "val_acc", "val_acc:max", "loss:min", "loss:last". Throws
/// Errc::invalid_argument for another suffix or an empty name.
std::pair<std::string, MetricPick> parse_metric_spec(std::string_view text);

/// The point a pick chooses (the first of equal best values); nullopt when
/// the run has no such metric.
std::optional<MetricPoint> pick_metric(const RunMetrics& m, const std::string& name,
                                       MetricPick pick);

/// A value as run-list and run-show print it: up to 6 significant digits.
std::string format_metric(double value);

}  // namespace stint::run
