// run-plot's picture (run/plot.hpp). The look follows stint report's
// (format/report_svg.cpp): the same fonts, greys and escaping, so that the
// two pages read alike.

#include "run/plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <fmt/core.h>

#include "util/xml.hpp"

namespace stint::run {
namespace {

// Geometry in SVG user units (pixels at 100 %).
constexpr double k_width = 1000;
constexpr double k_margin = 10;
constexpr double k_top = 56;  // below the title lines
constexpr double k_gap = 16;  // between panels
// Inside a panel: room for its name above, the y labels left, the x labels below.
constexpr double k_pad_left = 62;
constexpr double k_pad_right = 14;
constexpr double k_pad_top = 24;
constexpr double k_pad_bottom = 36;
constexpr double k_legend_row = 18;
// An average character of the legend's 11px sans-serif is about 6 px wide;
// 7 leaves room, so that no label runs into the next swatch.
constexpr double k_char_w = 7;

// Colours told apart also by people with the commoner colour blindnesses
// in pairs that sit next to each other; past ten runs the lines are dashed.
constexpr std::array<std::string_view, 10> k_palette{"#1e88e5", "#e53935", "#43a047", "#fb8c00",
                                                     "#8e24aa", "#00acc1", "#6d4c41", "#d81b60",
                                                     "#7cb342", "#3949ab"};
constexpr std::array<std::string_view, 3> k_dashes{"", "6 3", "2 2"};

std::string num(double v) { return fmt::format("{:.1f}", v); }

std::string_view colour_of(std::size_t run_index) {
  return k_palette[run_index % k_palette.size()];
}

std::string dash_attr(std::size_t run_index) {
  const std::string_view dash = k_dashes[(run_index / k_palette.size()) % k_dashes.size()];
  return dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", dash);
}

// A tick step of 1, 2 or 5 times a power of ten giving about `count` ticks.
double nice_step(double span, int count) {
  const double raw = span / count;
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * magnitude;
}

// One axis of a panel: the data's range widened to whole ticks.
struct Axis {
  double lo = 0;
  double hi = 1;
  double step = 1;

  Axis(double min, double max, int ticks) {
    if (!(max > min)) {
      // One value (a flat line, a single point): a band around it, so that
      // nothing divides by zero and the line sits in the middle.
      const double pad = min != 0 ? std::abs(min) * 0.1 : 1;
      min -= pad;
      max += pad;
    }
    step = nice_step(max - min, ticks);
    lo = std::floor(min / step) * step;
    hi = std::ceil(max / step) * step;
    if (!(hi > lo) || !std::isfinite(hi - lo)) {
      lo = min;
      hi = max;
    }
  }
  // Where `v` falls, 0 at lo and 1 at hi.
  double fraction(double v) const {
    const double f = (v - lo) / (hi - lo);
    return std::isfinite(f) ? std::clamp(f, 0.0, 1.0) : 0.0;
  }
  std::vector<double> ticks() const {
    std::vector<double> out;
    // A bounded count: a range too wide for its step in doubles ends here.
    for (int i = 0; i <= 20; ++i) {
      double t = lo + i * step;
      if (t > hi + step * 1e-9) break;
      // 0.1 * 3 is 0.30000000000000004, and lo + k * step may miss 0 by a hair.
      if (std::abs(t) < step * 1e-9) t = 0;
      out.push_back(t);
    }
    return out;
  }
};

std::string tick_text(double v) { return fmt::format("{:g}", v); }

// The curve's points to draw: finite ones, in step order (a run resumed from
// a checkpoint writes some steps again; in step order the line still goes
// forward). Past a few per pixel column only each column's lowest and
// highest remain: the line looks the same, and a run of a million steps
// does not make a file of a million points, rewritten every 10 s by --follow.
std::vector<MetricPoint> drawn_points(const std::vector<MetricPoint>& points, const Axis& x,
                                      double width_px) {
  std::vector<MetricPoint> out;
  for (const MetricPoint& p : points)
    if (std::isfinite(p.step) && std::isfinite(p.value)) out.push_back(p);
  std::stable_sort(out.begin(), out.end(),
                   [](const MetricPoint& a, const MetricPoint& b) { return a.step < b.step; });
  const auto columns = static_cast<std::size_t>(std::max(1.0, width_px));
  if (out.size() <= 4 * columns) return out;
  std::vector<MetricPoint> thinned;
  std::size_t i = 0;
  while (i < out.size()) {
    const auto column = static_cast<std::size_t>(x.fraction(out[i].step) * (width_px - 1));
    std::size_t lowest = i;
    std::size_t highest = i;
    std::size_t j = i;
    for (; j < out.size() &&
           static_cast<std::size_t>(x.fraction(out[j].step) * (width_px - 1)) == column;
         ++j) {
      if (out[j].value < out[lowest].value) lowest = j;
      if (out[j].value > out[highest].value) highest = j;
    }
    thinned.push_back(out[std::min(lowest, highest)]);
    if (lowest != highest) thinned.push_back(out[std::max(lowest, highest)]);
    i = j;
  }
  return thinned;
}

void style(std::string& out) {
  out +=
      "<style>\n"
      "text{font-family:sans-serif;font-size:11px;fill:#212121}\n"
      ".title{font-size:15px;font-weight:bold}\n"
      ".panel-title{font-size:12px;font-weight:bold}\n"
      ".panel-bg{fill:#fafafa;stroke:#e0e0e0;stroke-width:1}\n"
      ".grid{stroke:#d0d0d0;stroke-width:0.5}\n"
      ".axis{stroke:#616161;stroke-width:1}\n"
      ".curve{fill:none;stroke-width:1.5;stroke-linejoin:round;stroke-linecap:round}\n"
      ".legend-swatch{stroke-width:3;stroke-linecap:round}\n"
      ".small{font-size:10px;fill:#616161}\n"
      "</style>\n";
}

struct Panel {
  std::string metric;
  std::vector<const PlotCurve*> curves;
};

// A panel's frame, its name, and its grid with tick labels.
void draw_frame(std::string& out, const Panel& panel, double x0, double y0, double w, double h,
                const Axis& xs, const Axis& ys) {
  const double left = x0 + k_pad_left;
  const double right = x0 + w - k_pad_right;
  const double top = y0 + k_pad_top;
  const double bottom = y0 + h - k_pad_bottom;
  out += fmt::format(
      "<rect class=\"panel-bg\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n"
      "<text class=\"panel-title\" x=\"{}\" y=\"{}\">{}</text>\n",
      num(x0), num(y0), num(w), num(h), num(left), num(y0 + 16), xml::escape(panel.metric));
  for (double t : ys.ticks()) {
    const double y = bottom - (bottom - top) * ys.fraction(t);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n"
        "<text class=\"small\" x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>\n",
        num(left), num(right), num(y), num(left - 4), num(y + 3.5), tick_text(t));
  }
  for (double t : xs.ticks()) {
    const double x = left + (right - left) * xs.fraction(t);
    out += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n"
        "<text class=\"small\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        num(x), num(top), num(bottom), num(bottom + 13), tick_text(t));
  }
  out += fmt::format(
      "<line class=\"axis\" x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\"/>\n"
      "<line class=\"axis\" x1=\"{0}\" y1=\"{3}\" x2=\"{0}\" y2=\"{2}\"/>\n"
      "<text class=\"small\" x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">step</text>\n",
      num(left), num(right), num(bottom), num(top), num((left + right) / 2), num(bottom + 28));
}

// The panel of one metric: its frame, then a path per run that has it.
void draw_panel(std::string& out, const Panel& panel, double x0, double y0, double w, double h,
                const std::map<std::string, std::size_t>& run_index) {
  constexpr double k_inf = std::numeric_limits<double>::infinity();
  double x_min = k_inf, x_max = -k_inf, y_min = k_inf, y_max = -k_inf;
  for (const PlotCurve* c : panel.curves) {
    for (const MetricPoint& p : c->points) {
      if (!std::isfinite(p.step) || !std::isfinite(p.value)) continue;
      x_min = std::min(x_min, p.step);
      x_max = std::max(x_max, p.step);
      y_min = std::min(y_min, p.value);
      y_max = std::max(y_max, p.value);
    }
  }
  // A metric whose every value was skipped still gets its (empty) panel.
  if (x_min > x_max) x_min = x_max = y_min = y_max = 0;
  const Axis xs(x_min, x_max, 6);
  const Axis ys(y_min, y_max, 5);
  const double left = x0 + k_pad_left;
  const double right = x0 + w - k_pad_right;
  const double top = y0 + k_pad_top;
  const double bottom = y0 + h - k_pad_bottom;

  out += fmt::format("<g class=\"panel\" data-metric=\"{}\">\n", xml::escape(panel.metric));
  draw_frame(out, panel, x0, y0, w, h, xs, ys);
  for (const PlotCurve* c : panel.curves) {
    const std::vector<MetricPoint> pts = drawn_points(c->points, xs, right - left);
    if (pts.empty()) continue;
    const std::size_t index = run_index.at(c->run);
    const auto px = [&](const MetricPoint& p) {
      return left + (right - left) * xs.fraction(p.step);
    };
    const auto py = [&](const MetricPoint& p) {
      return bottom - (bottom - top) * ys.fraction(p.value);
    };
    std::string d;
    if (pts.size() == 1) {
      // A line of one point has no length: a short stroke across it, and a dot.
      d = fmt::format("M{},{} L{},{}", num(px(pts[0]) - 3), num(py(pts[0])), num(px(pts[0]) + 3),
                      num(py(pts[0])));
    } else {
      for (const MetricPoint& p : pts)
        d += fmt::format("{}{},{}", d.empty() ? "M" : " L", num(px(p)), num(py(p)));
    }
    // The last record written that is drawn, whatever its step.
    MetricPoint last = pts.back();
    for (auto it = c->points.rbegin(); it != c->points.rend(); ++it) {
      if (std::isfinite(it->step) && std::isfinite(it->value)) {
        last = *it;
        break;
      }
    }
    const std::string run = xml::escape(c->run);
    const std::string metric = xml::escape(c->metric);
    out += fmt::format(
        "<path class=\"curve\" data-run=\"{}\" data-metric=\"{}\" stroke=\"{}\"{} d=\"{}\">"
        "<title>{}: {} {} at step {} ({} record{})</title></path>\n",
        run, metric, colour_of(index), dash_attr(index), d, xml::escape(c->legend), metric,
        format_metric(last.value), format_metric(last.step), c->points.size(),
        c->points.size() == 1 ? "" : "s");
    if (pts.size() == 1)
      out += fmt::format(
          "<circle class=\"point\" data-run=\"{}\" data-metric=\"{}\" cx=\"{}\" cy=\"{}\" "
          "r=\"3\" fill=\"{}\"/>\n",
          run, metric, num(px(pts[0])), num(py(pts[0])), colour_of(index));
  }
  out += "</g>\n";
}

}  // namespace

std::vector<std::string> legend_texts(const std::vector<PlotRun>& runs) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const PlotRun& r : runs)
    for (const auto& [name, value] : r.env)
      if (seen.insert(name).second) names.push_back(name);
  std::vector<std::string> differing;
  for (const std::string& name : names) {
    const std::string first = env_value(runs.front().env, name);
    if (std::any_of(runs.begin(), runs.end(),
                    [&](const PlotRun& r) { return env_value(r.env, name) != first; }))
      differing.push_back(name);
  }
  std::vector<std::string> out;
  for (const PlotRun& r : runs) {
    std::string text = r.name;
    for (const std::string& name : differing)
      text += fmt::format(" {}={}", name, env_value(r.env, name));
    out.push_back(std::move(text));
  }
  return out;
}

std::string render_plot_svg(const std::vector<PlotCurve>& curves, const PlotOptions& options) {
  // Runs and metrics in the order the curves first name them.
  std::vector<const PlotCurve*> runs;
  std::map<std::string, std::size_t> run_index;
  std::vector<Panel> panels;
  std::map<std::string, std::size_t> panel_index;
  for (const PlotCurve& c : curves) {
    if (run_index.emplace(c.run, runs.size()).second) runs.push_back(&c);
    auto [it, added] = panel_index.emplace(c.metric, panels.size());
    if (added) panels.push_back({c.metric, {}});
    panels[it->second].curves.push_back(&c);
  }

  // Panels side by side in two columns, or one wide one for a single metric.
  const std::size_t columns = panels.size() > 1 ? 2 : 1;
  const double panel_w =
      (k_width - 2 * k_margin - k_gap * static_cast<double>(columns - 1)) / columns;
  const double panel_h = columns == 1 ? 380 : 280;
  const std::size_t rows = (panels.size() + columns - 1) / columns;
  const double panels_bottom = k_top + rows * (panel_h + k_gap);

  // The legend's entries, wrapped into rows that fit the width.
  struct Entry {
    const PlotCurve* run;
    double x;
    double y;
  };
  std::vector<Entry> entries;
  double x = k_margin;
  double y = panels_bottom + 12;
  for (const PlotCurve* r : runs) {
    const double w = 30 + k_char_w * static_cast<double>(r->legend.size());
    if (x > k_margin && x + w > k_width - k_margin) {
      x = k_margin;
      y += k_legend_row;
    }
    entries.push_back({r, x, y});
    x += w + 12;
  }
  const double height = runs.empty() ? k_top + 40 : y + k_legend_row;

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" class=\"stint-run-plot\">\n",
      num(k_width), num(height));
  style(out);
  out += fmt::format("<text class=\"title\" x=\"{}\" y=\"20\">{}</text>\n", num(k_margin),
                     xml::escape(options.title));
  if (!options.subtitle.empty())
    out += fmt::format("<text class=\"small\" x=\"{}\" y=\"38\">{}</text>\n", num(k_margin),
                       xml::escape(options.subtitle));
  if (runs.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"{}\">No metric records yet.</text>\n</svg>\n",
                       num(k_margin), num(k_top + 14));
    return out;
  }

  for (std::size_t i = 0; i < panels.size(); ++i) {
    const std::size_t column = i % columns;
    const std::size_t row = i / columns;  // whole rows above this panel
    const double px = k_margin + static_cast<double>(column) * (panel_w + k_gap);
    const double py = k_top + static_cast<double>(row) * (panel_h + k_gap);
    draw_panel(out, panels[i], px, py, panel_w, panel_h, run_index);
  }

  out += "<g class=\"legend\">\n";
  for (const Entry& e : entries) {
    const std::size_t index = run_index.at(e.run->run);
    const std::string run = xml::escape(e.run->run);
    out += fmt::format(
        "<line class=\"legend-swatch\" data-run=\"{0}\" x1=\"{1}\" y1=\"{3}\" x2=\"{2}\" "
        "y2=\"{3}\" stroke=\"{4}\"{5}/>\n"
        "<text class=\"legend-label\" data-run=\"{0}\" x=\"{6}\" y=\"{7}\">{8}</text>\n",
        run, num(e.x), num(e.x + 22), num(e.y), colour_of(index), dash_attr(index), num(e.x + 28),
        num(e.y + 4), xml::escape(e.run->legend));
  }
  out += "</g>\n</svg>\n";
  return out;
}

std::string render_plot_html(std::string_view svg, const std::string& title,
                             std::optional<unsigned> refresh_seconds) {
  // An XML declaration is not allowed inside an HTML document.
  if (svg.starts_with("<?xml")) svg.remove_prefix(std::min(svg.size(), svg.find('\n') + 1));
  const std::string refresh =
      refresh_seconds
          ? fmt::format("<meta http-equiv=\"refresh\" content=\"{}\">\n", *refresh_seconds)
          : std::string();
  const std::string follow =
      refresh_seconds
          ? fmt::format(" The page reloads itself every {} s while run-plot --follow rewrites it.",
                        *refresh_seconds)
          : std::string();
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n{0}"
      "<title>{1}</title>\n<style>body{{font-family:sans-serif;margin:1em}}"
      "svg{{max-width:100%;height:auto}}</style>\n"
      "</head>\n<body>\n<h1>{1}</h1>\n<p>One panel per metric, the step across; one colour per "
      "run in every panel. Hover a curve for its last value.{2}</p>\n{3}</body>\n</html>\n",
      refresh, xml::escape(title), follow, svg);
}

}  // namespace stint::run
