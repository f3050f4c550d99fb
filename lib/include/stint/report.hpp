#pragma once
/// `stint report`: a picture of what the scheduler did over a time window, as
/// a self-contained SVG (and an HTML page around it). Pure rendering: the
/// caller reads the jobs and their attempts (query::with_attempts) and the
/// nodes; nothing here does I/O, so tests render a fixed set of jobs.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint::report {

/// A node as the picture needs it: one lane, and one more per GPU.
struct ReportNode {
  std::string name;
  std::uint32_t cpus = 0;
  std::uint32_t gpus = 0;
};

struct ReportOptions {
  Seconds start = 0;  ///< the window, [start, end]
  Seconds end = 0;
  /// Where a job still running ends its bar (the time the report was made).
  Seconds now = 0;
  std::string title = "stint report";
};

/// The span of the attempts that ran (first submit to last end, or `now` for
/// one still running); nullopt-like {0, 0} when none ever started.
std::pair<Seconds, Seconds> default_window(const std::vector<Job>& attempts, Seconds now);

/// The SVG document. `attempts` are every attempt of every job, oldest first
/// per job (as query::with_attempts gives them); attempts that never started
/// or lie outside the window draw nothing. Each bar is a <rect> of class
/// "bar" with data-job and data-state attributes, each pending span a <line>
/// of class "pending", each preemption or requeue a <path> of class "mark".
std::string render_svg(const std::vector<ReportNode>& nodes, const std::vector<Job>& attempts,
                       const ReportOptions& options);

/// An HTML page showing `svg` under a heading with `title`.
std::string render_html(const std::string& svg, const std::string& title);

/// `text` with &, <, >, " and ' replaced by XML entities.
std::string xml_escape(std::string_view text);

/// The fill colour of a bar for a job in this state ("#2e7d32").
std::string_view state_colour(JobState state);

}  // namespace stint::report
STINT_API_END
