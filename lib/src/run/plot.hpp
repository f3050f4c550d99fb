#pragma once
// run-plot's picture: the learning curves of runs, one panel per metric
// (x the step, y the value), one colour per run across every panel, and a
// legend that names each run by the variables that set it apart from the
// others. Pure: curves in, SVG and HTML text out (cli/run_plot.cpp reads
// the runs and writes the files).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/run.hpp>

#include "run/metrics.hpp"

namespace stint::run {

/// One run's points of one metric.
struct PlotCurve {
  std::string run;     ///< "P/3": the run's colour is chosen by it
  std::string legend;  ///< what the legend says of the run ("P/3 LR=0.1")
  std::string metric;
  std::vector<MetricPoint> points;  ///< in the order written; non-finite ones are skipped
};

/// A run as the legend names it.
struct PlotRun {
  std::string name;  ///< "P/3"
  RunEnvironment env;
};

/// Each run's legend text, in order: its name, then NAME=VALUE for every
/// variable whose value differs among `runs` (in the order the names first
/// appear; "NAME=" where a run lacks it). The name alone when none differs.
std::vector<std::string> legend_texts(const std::vector<PlotRun>& runs);

struct PlotOptions {
  std::string title = "run-plot";
  std::string subtitle;  ///< a second, smaller line (the runs, when it was written)
};

/// The SVG: a panel per metric in the order the curves first name them, a
/// path per curve (class "curve", data-run, data-metric), axes with tick
/// labels, the legend below. No curves: a picture that says there are no
/// records yet.
std::string render_plot_svg(const std::vector<PlotCurve>& curves, const PlotOptions& options);

/// An HTML page holding `svg`; with `refresh_seconds` the browser reloads it
/// that often (run-plot --follow rewrites the files meanwhile).
std::string render_plot_html(std::string_view svg, const std::string& title,
                             std::optional<unsigned> refresh_seconds);

}  // namespace stint::run
