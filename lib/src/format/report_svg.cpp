// stint report's picture: lanes of job bars per node and per GPU, pending
// spans, preemption marks, and CPU (and GPU) utilisation over the window.
// Pure: jobs in, SVG text out.

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

#include <fmt/core.h>

#include <stint/parse.hpp>
#include <stint/report.hpp>

#include "util/xml.hpp"

namespace stint::report {
namespace {

// Geometry in SVG user units (pixels at 100 %).
constexpr double k_width = 1000;
constexpr double k_x0 = 150;  // the plot's left edge, past the lane names
constexpr double k_x1 = k_width - 20;
constexpr double k_top = 56;  // below the title lines
constexpr double k_row_h = 14;
constexpr double k_lane_pad = 3;
constexpr double k_util_h = 90;

struct Lane {
  std::string label;
  std::string node;
  int gpu = -1;  // -1: the node's lane, else a GPU index
  int rows = 1;
  double y = 0;
  double height = 0;
};

// One bar on one lane: the part of an attempt inside the window.
struct Segment {
  const Job* job = nullptr;
  std::size_t lane = 0;
  Seconds pending_from = 0;  // clipped to the window; == start when none shows
  Seconds start = 0;
  Seconds end = 0;
  bool marked = false;  // ended PREEMPTED or REQUEUED inside the window
  int row = 0;
};

// An attempt that held resources, with the times its bar spans.
struct Attempt {
  const Job* job = nullptr;
  Seconds pending_from = 0;
  Seconds start = 0;
  Seconds end = 0;
};

bool started(const Job& j) {
  // A pending job may carry the backfill plan's expected start: not a start.
  return j.start_time != k_no_time && j.state != JobState::pending;
}

Seconds end_of(const Job& j, Seconds now) {
  Seconds e = is_terminal(j.state) && j.end_time != k_no_time ? j.end_time : now;
  return std::max(e, j.start_time);
}

// Every attempt that ran; an attempt after a requeue waits from the end of the
// one before it, not from the job's first submission.
std::vector<Attempt> attempts_that_ran(const std::vector<Job>& jobs, Seconds now) {
  std::vector<Attempt> out;
  std::map<JobId, Seconds> last_end;
  for (const Job& j : jobs) {
    Seconds waited_from = j.submit_time;
    if (auto it = last_end.find(j.id); it != last_end.end()) waited_from = it->second;
    if (!started(j)) continue;
    Attempt a{&j, waited_from == k_no_time ? j.start_time : waited_from, j.start_time,
              end_of(j, now)};
    a.pending_from = std::min(a.pending_from, a.start);
    last_end[j.id] = a.end;
    out.push_back(a);
  }
  return out;
}

struct Scale {
  Seconds start = 0;
  Seconds end = 1;
  double x(Seconds t) const {
    const double span = static_cast<double>(std::max<Seconds>(end - start, 1));
    return k_x0 + (k_x1 - k_x0) * static_cast<double>(t - start) / span;
  }
};

std::string num(double v) { return fmt::format("{:.1f}", v); }

std::string duration_text(Seconds s) {
  if (s >= 86400)
    return fmt::format("{}-{:02}:{:02}:{:02}", s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60);
  return fmt::format("{:02}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60);
}

// A tick step giving at most about ten ticks over the window.
Seconds tick_step(Seconds span) {
  static constexpr std::array<Seconds, 19> steps{1,     2,     5,     10,    15,    30,   60,
                                                 120,   300,   600,   900,   1800,  3600, 7200,
                                                 10800, 21600, 43200, 86400, 604800};
  for (Seconds s : steps)
    if (span / s <= 10) return s;
  return steps.back() * ((span / steps.back()) / 10 + 1);
}

std::string tick_label(Seconds t, Seconds step, Seconds span) {
  std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  if (span >= Seconds{2} * 86400)
    return fmt::format("{:02}-{:02} {:02}:{:02}", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
  if (step < 60) return fmt::format("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec);
  return fmt::format("{:02}:{:02}", tm.tm_hour, tm.tm_min);
}

// Greedy interval packing: each segment takes the first row of its lane that
// is free from its pending start on, so overlapping jobs sharing a node's CPUs
// stack instead of hiding each other.
void assign_rows(std::vector<Segment>& segs, std::vector<Lane>& lanes) {
  std::stable_sort(segs.begin(), segs.end(), [](const Segment& a, const Segment& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.pending_from < b.pending_from;
  });
  std::vector<std::vector<Seconds>> row_end(lanes.size());
  for (Segment& s : segs) {
    auto& ends = row_end[s.lane];
    std::size_t r = 0;
    // A row is free once its last bar has ended (touching bars share a row).
    while (r < ends.size() && ends[r] > s.pending_from) ++r;
    if (r == ends.size()) ends.push_back(s.end);
    ends[r] = std::max(s.end, s.pending_from + 1);
    s.row = static_cast<int>(r);
  }
  for (std::size_t i = 0; i < lanes.size(); ++i)
    lanes[i].rows = std::max<int>(1, static_cast<int>(row_end[i].size()));
}

void style(std::string& out) {
  out +=
      "<style>\n"
      "text{font-family:sans-serif;font-size:11px;fill:#212121}\n"
      ".title{font-size:15px;font-weight:bold}\n"
      ".lane-bg{fill:#fafafa}.lane-bg.odd{fill:#f0f0f0}\n"
      ".grid{stroke:#d0d0d0;stroke-width:0.5}\n"
      ".axis{stroke:#616161;stroke-width:1}\n"
      ".bar{stroke:#ffffff;stroke-width:0.5}\n"
      ".pending{stroke:#9e9e9e;stroke-width:2;stroke-dasharray:3 2}\n"
      ".mark{fill:#000000}\n"
      ".label{font-size:9px;fill:#ffffff}\n"
      ".util-cpu{fill:#90caf9;stroke:#1e88e5;stroke-width:1}\n"
      ".util-gpu{fill:none;stroke:#8e24aa;stroke-width:1.5}\n"
      ".small{font-size:10px;fill:#616161}\n"
      "</style>\n";
}

// The utilisation step curve of one resource: (time, amount in use) at every
// change inside the window, starting and ending at the window's edges.
std::vector<std::pair<Seconds, double>> usage_steps(
    const std::vector<std::pair<Seconds, double>>& deltas, const Scale& sc) {
  std::map<Seconds, double> change;
  double before = 0;
  for (const auto& [t, d] : deltas) {
    if (t <= sc.start)
      before += d;
    else if (t < sc.end)
      change[t] += d;
  }
  std::vector<std::pair<Seconds, double>> steps{{sc.start, before}};
  double level = before;
  for (const auto& [t, d] : change) {
    level += d;
    steps.emplace_back(t, level);
  }
  return steps;
}

std::string step_path(const std::vector<std::pair<Seconds, double>>& steps, double total,
                      const Scale& sc, double y_base, bool closed) {
  auto y = [&](double v) { return y_base - k_util_h * std::clamp(v / total, 0.0, 1.0); };
  std::string d = closed ? fmt::format("M{},{}", num(k_x0), num(y_base))
                         : fmt::format("M{},{}", num(k_x0), num(y(steps.front().second)));
  double prev = steps.front().second;
  if (closed) d += fmt::format(" L{},{}", num(k_x0), num(y(prev)));
  for (std::size_t i = 1; i < steps.size(); ++i) {
    const double x = sc.x(steps[i].first);
    d += fmt::format(" L{},{} L{},{}", num(x), num(y(prev)), num(x), num(y(steps[i].second)));
    prev = steps[i].second;
  }
  d += fmt::format(" L{},{}", num(k_x1), num(y(prev)));
  if (closed) d += fmt::format(" L{},{} Z", num(k_x1), num(y_base));
  return d;
}

}  // namespace

std::string xml_escape(std::string_view text) { return xml::escape(text); }

std::string_view state_colour(JobState state) {
  switch (state) {
    case JobState::pending:
      return "#bdbdbd";
    case JobState::running:
      return "#1e88e5";
    case JobState::suspended:
      return "#90caf9";
    case JobState::completing:
      return "#64b5f6";
    case JobState::completed:
      return "#43a047";
    case JobState::failed:
      return "#e53935";
    case JobState::cancelled:
      return "#757575";
    case JobState::timeout:
      return "#fb8c00";
    case JobState::node_fail:
      return "#6d4c41";
    case JobState::preempted:
      return "#8e24aa";
    case JobState::out_of_memory:
      return "#c2185b";
    case JobState::requeued:
      return "#3949ab";
    case JobState::deadline:
      return "#a1887f";
  }
  return "#000000";
}

std::pair<Seconds, Seconds> default_window(const std::vector<Job>& attempts, Seconds now) {
  Seconds lo = 0;
  Seconds hi = 0;
  for (const Attempt& a : attempts_that_ran(attempts, now)) {
    lo = lo == 0 ? a.pending_from : std::min(lo, a.pending_from);
    hi = std::max(hi, a.end);
  }
  return {lo, hi};
}

std::string render_svg(const std::vector<ReportNode>& nodes, const std::vector<Job>& attempts,
                       const ReportOptions& options) {
  const Scale sc{options.start, std::max(options.end, options.start + 1)};

  std::vector<Lane> lanes;
  std::map<std::pair<std::string, int>, std::size_t> lane_of;
  for (const ReportNode& n : nodes) {
    lane_of[{n.name, -1}] = lanes.size();
    lanes.push_back({n.name, n.name, -1});
    for (std::uint32_t g = 0; g < n.gpus; ++g) {
      lane_of[{n.name, static_cast<int>(g)}] = lanes.size();
      lanes.push_back({fmt::format("{} gpu{}", n.name, g), n.name, static_cast<int>(g)});
    }
  }

  const std::vector<Attempt> ran = attempts_that_ran(attempts, options.now);
  std::vector<Segment> segs;
  std::vector<std::pair<Seconds, double>> cpu_deltas;
  std::vector<std::pair<Seconds, double>> gpu_deltas;
  std::set<JobState> states_shown;
  std::size_t ran_in_window = 0;
  for (const Attempt& a : ran) {
    for (const NodeAlloc& na : a.job->alloc) {
      cpu_deltas.emplace_back(a.start, na.cpus);
      cpu_deltas.emplace_back(a.end, -static_cast<double>(na.cpus));
      gpu_deltas.emplace_back(a.start, static_cast<double>(na.gpu_ids.size()));
      gpu_deltas.emplace_back(a.end, -static_cast<double>(na.gpu_ids.size()));
    }
    if (a.end < sc.start || a.pending_from > sc.end) continue;
    // The attempts counted are those that ran in the window, not those that
    // only waited in it.
    if (a.end >= sc.start && a.start <= sc.end) ++ran_in_window;
    Segment s;
    s.job = a.job;
    s.pending_from = std::max(a.pending_from, sc.start);
    s.start = std::clamp(a.start, sc.start, sc.end);
    s.end = std::clamp(a.end, sc.start, sc.end);
    s.marked = (a.job->state == JobState::preempted || a.job->state == JobState::requeued) &&
               a.end <= sc.end;
    bool shown = false;
    for (const NodeAlloc& na : a.job->alloc) {
      if (auto it = lane_of.find({na.node, -1}); it != lane_of.end()) {
        s.lane = it->second;
        segs.push_back(s);
        shown = true;
      }
      for (std::uint32_t g : na.gpu_ids) {
        if (auto it = lane_of.find({na.node, static_cast<int>(g)}); it != lane_of.end()) {
          s.lane = it->second;
          segs.push_back(s);
        }
      }
    }
    if (shown) states_shown.insert(a.job->state);
  }
  assign_rows(segs, lanes);

  double y = k_top;
  for (Lane& l : lanes) {
    l.y = y;
    l.height = l.rows * k_row_h + 2 * k_lane_pad;
    y += l.height;
  }
  const double lanes_bottom = y;
  const double axis_y = lanes_bottom + 4;
  const double util_top = axis_y + 40;
  const double util_base = util_top + k_util_h;
  const double legend_y = util_base + 36;
  const double height = legend_y + 24;

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" class=\"stint-report\">\n",
      num(k_width), num(height));
  style(out);
  out +=
      fmt::format("<text class=\"title\" x=\"10\" y=\"20\">{}</text>\n", xml_escape(options.title));
  out += fmt::format(
      "<text class=\"small\" x=\"10\" y=\"38\">{} to {} ({}); {} job attempt{}{}, {} "
      "lanes</text>\n",
      parse::format_timestamp(sc.start), parse::format_timestamp(sc.end),
      duration_text(sc.end - sc.start), ran_in_window, ran_in_window == 1 ? "" : "s",
      ran_in_window == 0 ? " (no job ran in this window)" : "", lanes.size());

  // Lanes, with grid lines under the bars.
  out += "<g class=\"lanes\">\n";
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const Lane& l = lanes[i];
    out += fmt::format(
        "<rect class=\"lane-bg{}\" data-lane=\"{}\" x=\"0\" y=\"{}\" width=\"{}\" "
        "height=\"{}\"/>\n",
        i % 2 ? " odd" : "", xml_escape(l.label), num(l.y), num(k_width), num(l.height));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", num(l.gpu < 0 ? 8 : 20),
                       num(l.y + k_lane_pad + 10), xml_escape(l.label));
  }
  out += "</g>\n";
  const Seconds span = sc.end - sc.start;
  const Seconds step = tick_step(span);
  out += "<g class=\"axis-ticks\">\n";
  for (Seconds t = (sc.start + step - 1) / step * step; t <= sc.end; t += step) {
    const double x = sc.x(t);
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n",
                       num(x), num(k_top), num(util_base));
    out += fmt::format("<text class=\"small\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       num(x), num(axis_y + 12), tick_label(t, step, span));
  }
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n",
                     num(k_x0), num(k_x1), num(axis_y));
  out += "</g>\n";

  // Bars: a pending line, then the bar, then a mark where it was preempted.
  out += "<g class=\"jobs\">\n";
  for (const Segment& s : segs) {
    const Job& j = *s.job;
    const Lane& l = lanes[s.lane];
    const double top = l.y + k_lane_pad + s.row * k_row_h + 1;
    const double mid = top + (k_row_h - 2) / 2;
    const double x0 = sc.x(s.start);
    const double w = std::max(1.0, sc.x(s.end) - x0);
    const std::string id = xml_escape(j.display_id());
    const std::string_view state = state_name(j.state);
    out += fmt::format("<g data-job=\"{}\"><title>{} {} ({}) {} on {}, {}{}</title>\n", id, id,
                       xml_escape(j.spec.name), xml_escape(j.user_name), state, xml_escape(l.label),
                       duration_text(end_of(j, options.now) - j.start_time),
                       j.restart_count ? fmt::format(", restart {}", j.restart_count) : "");
    if (s.pending_from < s.start)
      out += fmt::format(
          "<line class=\"pending\" data-job=\"{0}\" x1=\"{1}\" y1=\"{2}\" x2=\"{3}\" "
          "y2=\"{2}\"/>\n",
          id, num(sc.x(s.pending_from)), num(mid), num(x0));
    if (s.start < s.end || (j.start_time >= sc.start && j.start_time <= sc.end)) {
      out += fmt::format(
          "<rect class=\"bar\" data-job=\"{}\" data-state=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
          "height=\"{}\" fill=\"{}\"/>\n",
          id, state, num(x0), num(top), num(w), num(k_row_h - 2), state_colour(j.state));
      if (w > 7.0 * static_cast<double>(id.size()) + 4)
        out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>\n", num(x0 + 2),
                           num(top + 9), id);
    }
    if (s.marked) {
      const double xe = sc.x(s.end);
      out += fmt::format(
          "<path class=\"mark\" data-job=\"{}\" data-state=\"{}\" d=\"M{},{} L{},{} L{},{} Z\"/>\n",
          id, state, num(xe - 4), num(top - 1), num(xe + 4), num(top - 1), num(xe), num(top + 6));
    }
    out += "</g>\n";
  }
  out += "</g>\n";

  // Utilisation: CPUs in use as a filled step curve, GPUs as a line.
  double total_cpus = 0;
  double total_gpus = 0;
  for (const ReportNode& n : nodes) {
    total_cpus += n.cpus;
    total_gpus += n.gpus;
  }
  out += "<g class=\"utilisation\">\n";
  out += fmt::format(
      "<text x=\"8\" y=\"{}\">Utilisation</text>\n<text class=\"small\" x=\"8\" y=\"{}\">CPUs in "
      "use / {}</text>\n",
      num(util_top + 10), num(util_top + 24), total_cpus);
  if (total_gpus > 0)
    out += fmt::format("<text class=\"small\" x=\"8\" y=\"{}\">GPUs in use / {} (line)</text>\n",
                       num(util_top + 38), total_gpus);
  for (int pct : {0, 50, 100}) {
    const double yy = util_base - k_util_h * pct / 100.0;
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n",
                       num(k_x0), num(k_x1), num(yy));
    out += fmt::format("<text class=\"small\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}%</text>\n",
                       num(k_x0 - 4), num(yy + 4), pct);
  }
  if (total_cpus > 0)
    out += fmt::format("<path class=\"util-cpu\" d=\"{}\"/>\n",
                       step_path(usage_steps(cpu_deltas, sc), total_cpus, sc, util_base, true));
  if (total_gpus > 0)
    out += fmt::format("<path class=\"util-gpu\" d=\"{}\"/>\n",
                       step_path(usage_steps(gpu_deltas, sc), total_gpus, sc, util_base, false));
  out += "</g>\n";

  // Legend: the states shown, the pending line and the mark.
  out += "<g class=\"legend\">\n";
  double x = 10;
  for (JobState st : states_shown) {
    out += fmt::format(
        "<rect class=\"legend-state\" data-state=\"{}\" x=\"{}\" y=\"{}\" width=\"12\" "
        "height=\"10\" fill=\"{}\"/>\n<text x=\"{}\" y=\"{}\">{}</text>\n",
        state_name(st), num(x), num(legend_y - 9), state_colour(st), num(x + 16), num(legend_y),
        state_name(st));
    // Capitals of the legend's 11px sans-serif run up to 8 px wide: room
    // for the widest, so that no label runs into the next swatch.
    x += 28 + 8.5 * static_cast<double>(state_name(st).size());
  }
  out += fmt::format(
      "<line class=\"pending\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n"
      "<text x=\"{3}\" y=\"{4}\">pending</text>\n",
      num(x), num(x + 20), num(legend_y - 4), num(x + 24), num(legend_y));
  x += 90;
  out += fmt::format(
      "<path class=\"mark\" d=\"M{},{} L{},{} L{},{} Z\"/>\n"
      "<text x=\"{}\" y=\"{}\">preempted / requeued</text>\n",
      num(x), num(legend_y - 9), num(x + 8), num(legend_y - 9), num(x + 4), num(legend_y - 2),
      num(x + 12), num(legend_y));
  out += "</g>\n</svg>\n";
  return out;
}

std::string render_html(const std::string& svg, const std::string& title) {
  std::string_view body = svg;
  // An XML declaration is not allowed inside an HTML document.
  if (body.starts_with("<?xml")) body.remove_prefix(body.find('\n') + 1);
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{0}</title>\n<style>body{{font-family:sans-serif;margin:1em}}</style>\n"
      "</head>\n<body>\n<h1>{0}</h1>\n<p>Hover a bar for the job. Bars are coloured by the state "
      "each attempt ended in; dashed lines are time spent pending; a triangle marks an attempt "
      "preempted or requeued.</p>\n{1}</body>\n</html>\n",
      xml_escape(title), body);
}

}  // namespace stint::report
