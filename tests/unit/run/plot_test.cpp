// run-plot's picture: a panel per metric, a path per run and metric in the
// run's colour, a legend naming runs by the variables that differ, and the
// awkward data (one point, one value, NaN, a metric only some runs have).

#include "run/plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "util/xml.hpp"

using stint::run::MetricPoint;
using stint::run::PlotCurve;
using stint::run::PlotRun;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

// The attribute `name` of each curve path, in order. By hand, not with
// std::regex: its matcher recurses once per character, and a thinned path of
// thousands of points overflows the stack under AddressSanitizer.
std::vector<std::string> curve_attributes(const std::string& svg, const std::string& name) {
  std::vector<std::string> out;
  const std::string open = "<path class=\"curve\"";
  const std::string key = " " + name + "=\"";
  for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    const std::string tag = svg.substr(at, svg.find('>', at) - at);
    const std::size_t value = tag.find(key);
    if (value == std::string::npos) continue;
    const std::size_t from = value + key.size();
    out.push_back(tag.substr(from, tag.find('"', from) - from));
  }
  return out;
}

// The y coordinates of a path's points ("M1.0,2.0 L3.0,4.0").
std::vector<double> ys_of(const std::string& d) {
  std::vector<double> out;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] != 'M' && d[i] != 'L') continue;
    const std::size_t comma = d.find(',', i);
    if (comma == std::string::npos) break;
    out.push_back(std::stod(d.substr(comma + 1)));
  }
  return out;
}

std::vector<MetricPoint> line(std::initializer_list<double> values) {
  std::vector<MetricPoint> out;
  double step = 100;
  for (double v : values) {
    out.push_back({step, v});
    step += 100;
  }
  return out;
}

}  // namespace

TEST_CASE("plot: a path per run and metric, one colour per run", "[run][plot]") {
  const std::vector<PlotCurve> curves{
      {"P/3", "P/3 LR=0.1", "loss", line({0.9, 0.5, 0.3})},
      {"P/3", "P/3 LR=0.1", "val_acc", line({0.5, 0.7, 0.8})},
      {"P/5", "P/5 LR=0.01", "loss", line({0.8, 0.6, 0.55})},
      {"P/5", "P/5 LR=0.01", "val_acc", line({0.4, 0.6, 0.65})},
  };
  const std::string svg = stint::run::render_plot_svg(curves, {});
  CHECK(svg.starts_with("<?xml"));
  CHECK(count_of(svg, "<path class=\"curve\"") == 4);
  CHECK(count_of(svg, "<g class=\"panel\"") == 2);
  CHECK(count_of(svg, "data-run=\"P/3\" data-metric=\"loss\"") == 1);
  CHECK(count_of(svg, "data-run=\"P/5\" data-metric=\"val_acc\"") == 1);
  const auto runs = curve_attributes(svg, "data-run");
  const auto colours = curve_attributes(svg, "stroke");
  REQUIRE(colours.size() == 4);
  // Panel by panel: loss, then val_acc.
  CHECK(runs == std::vector<std::string>{"P/3", "P/5", "P/3", "P/5"});
  CHECK(colours[0] == colours[2]);  // the same run in both panels
  CHECK(colours[1] == colours[3]);
  CHECK(colours[0] != colours[1]);
  // The legend names each run once.
  CHECK(count_of(svg, "class=\"legend-label\"") == 2);
  CHECK(svg.find(">P/5 LR=0.01</text>") != std::string::npos);
  // Falling loss: its first point is drawn lower on the page (larger y) than its last.
  const auto loss = ys_of(curve_attributes(svg, "d").at(0));
  REQUIRE(loss.size() == 3);
  CHECK(loss.front() < loss.back());
}

TEST_CASE("plot: the legend names the variables that differ", "[run][plot]") {
  using stint::run::legend_texts;
  CHECK(legend_texts({{"P/3", {{"LR", "0.1"}, {"BATCH", "64"}}},
                      {"P/5", {{"LR", "0.01"}, {"BATCH", "64"}}}}) ==
        std::vector<std::string>{"P/3 LR=0.1", "P/5 LR=0.01"});
  // None differs: the names alone.
  CHECK(legend_texts({{"P/1", {{"LR", "0.1"}}}, {"P/2", {{"LR", "0.1"}}}}) ==
        std::vector<std::string>{"P/1", "P/2"});
  CHECK(legend_texts({{"P/1", {}}}) == std::vector<std::string>{"P/1"});
  // A variable one run lacks differs; names in the order they first appear.
  CHECK(legend_texts({{"P/1", {{"LR", "0.1"}}}, {"P/2", {{"LR", "0.2"}, {"WD", "0.5"}}}}) ==
        std::vector<std::string>{"P/1 LR=0.1 WD=", "P/2 LR=0.2 WD=0.5"});
  CHECK(legend_texts({}).empty());
}

TEST_CASE("plot: text is escaped", "[run][plot]") {
  const std::vector<PlotCurve> curves{
      {"P/1", "P/1 NOTE=<b>&'x'", "a<b&\"c\"", line({1, 2})},
  };
  stint::run::PlotOptions options;
  options.title = "curves & <more>";
  const std::string svg = stint::run::render_plot_svg(curves, options);
  CHECK(svg.find("a&lt;b&amp;&quot;c&quot;") != std::string::npos);
  CHECK(svg.find("P/1 NOTE=&lt;b&gt;&amp;&apos;x&apos;") != std::string::npos);
  CHECK(svg.find("curves &amp; &lt;more&gt;") != std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find("a<b") == std::string::npos);
  CHECK(stint::xml::escape("a\x01"
                           "b\tc") == "a?b\tc");
  const std::string html = stint::run::render_plot_html(svg, options.title, std::nullopt);
  CHECK(html.find("<title>curves &amp; &lt;more&gt;</title>") != std::string::npos);
}

TEST_CASE("plot: a single point is a dot", "[run][plot]") {
  const std::string svg = stint::run::render_plot_svg({{"P/1", "P/1", "loss", {{5, 0.25}}}}, {});
  const auto d = curve_attributes(svg, "d");
  REQUIRE(d.size() == 1);
  // A short stroke across the point, not a path of no length.
  const auto ys = ys_of(d[0]);
  REQUIRE(ys.size() == 2);
  CHECK(ys[0] == ys[1]);
  CHECK(count_of(svg, "<circle class=\"point\" data-run=\"P/1\"") == 1);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("plot: equal values draw a flat line", "[run][plot]") {
  const std::string svg =
      stint::run::render_plot_svg({{"P/1", "P/1", "lr", line({0.001, 0.001, 0.001, 0.001})},
                                   {"P/2", "P/2", "zero", line({0, 0})}},
                                  {});
  const auto d = curve_attributes(svg, "d");
  REQUIRE(d.size() == 2);
  for (const std::string& path : d) {
    const auto ys = ys_of(path);
    REQUIRE(ys.size() >= 2);
    CHECK(std::all_of(ys.begin(), ys.end(), [&](double y) { return y == ys.front(); }));
  }
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("plot: non-finite points are skipped", "[run][plot]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<PlotCurve> curves{
      {"P/1", "P/1", "loss", {{1, 0.5}, {2, nan}, {3, 0.4}, {4, inf}, {nan, 0.1}, {5, 0.3}}},
      {"P/2", "P/2", "loss", {{1, nan}}},  // nothing to draw: no path
  };
  const std::string svg = stint::run::render_plot_svg(curves, {});
  const auto d = curve_attributes(svg, "d");
  REQUIRE(d.size() == 1);
  CHECK(ys_of(d[0]).size() == 3);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
  // Its hover text is the last finite record.
  CHECK(svg.find("loss 0.3 at step 5") != std::string::npos);
}

TEST_CASE("plot: a metric only some runs have", "[run][plot]") {
  const std::vector<PlotCurve> curves{
      {"P/1", "P/1", "loss", line({3, 2, 1})},
      {"P/1", "P/1", "val_acc", line({0.1, 0.2})},
      {"P/2", "P/2", "loss", line({4, 3})},
  };
  const std::string svg = stint::run::render_plot_svg(curves, {});
  CHECK(count_of(svg, "<g class=\"panel\"") == 2);
  CHECK(count_of(svg, "data-metric=\"val_acc\" stroke") == 1);
  CHECK(count_of(svg, "data-metric=\"loss\" stroke") == 2);
  CHECK(count_of(svg, "class=\"legend-label\"") == 2);
}

TEST_CASE("plot: many points are thinned to the pixels", "[run][plot]") {
  std::vector<MetricPoint> points;
  for (int i = 0; i < 100000; ++i) points.push_back({double(i), std::sin(i / 1000.0)});
  const std::string svg = stint::run::render_plot_svg({{"P/1", "P/1", "loss", points}}, {});
  const auto d = curve_attributes(svg, "d");
  REQUIRE(d.size() == 1);
  const auto ys = ys_of(d[0]);
  CHECK(ys.size() < 4000);
  CHECK(ys.size() > 500);
  // The whole range is still there.
  const auto [lo, hi] = std::minmax_element(ys.begin(), ys.end());
  CHECK(*hi - *lo > 300);
  CHECK(svg.find("(100000 records)") != std::string::npos);
}

TEST_CASE("plot: no curves, and the HTML page", "[run][plot]") {
  const std::string empty = stint::run::render_plot_svg({}, {});
  CHECK(empty.find("No metric records yet.") != std::string::npos);
  CHECK(empty.find("</svg>") != std::string::npos);

  const std::string svg = stint::run::render_plot_svg({{"P/1", "P/1", "loss", line({1, 2})}}, {});
  const std::string still = stint::run::render_plot_html(svg, "t", std::nullopt);
  CHECK(still.starts_with("<!DOCTYPE html>"));
  CHECK(still.find("<?xml") == std::string::npos);
  CHECK(still.find("<svg ") != std::string::npos);
  CHECK(still.find("http-equiv") == std::string::npos);
  const std::string live = stint::run::render_plot_html(svg, "t", 10u);
  CHECK(live.find("<meta http-equiv=\"refresh\" content=\"10\">") != std::string::npos);
}
