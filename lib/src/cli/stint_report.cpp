// stint report: every attempt of every job, read from the database without
// stintd, drawn over a time window (format/report_svg.cpp does the drawing).

#include "cli/stint_report.hpp"

#include <optional>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/query.hpp>
#include <stint/report.hpp>

#include "util/clock.hpp"
#include "util/fs.hpp"

namespace stint::cli {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string html_path(const std::string& svg_path) {
  if (ends_with(svg_path, ".svg")) return svg_path.substr(0, svg_path.size() - 4) + ".html";
  return svg_path + ".html";
}

}  // namespace

int stint_report(const Paths& paths, const ReportArgs& args) {
  const Seconds now = wall_now();
  // Times as sacct -S/-E take them: "now-1hour", "14:00", "2026-11-29T10:00".
  std::optional<Seconds> start;
  std::optional<Seconds> end;
  // A time that does not parse is an error of the report (exit 1, as
  // stint(1) says), not of the command line.
  const auto time_of = [now](const std::string& text, std::string_view option) {
    try {
      return parse::date_time(text, now, parse::Resolve::past);
    } catch (const Error& e) {
      throw Error(Errc::invalid_argument, fmt::format("{}: {}", option, e.what()));
    }
  };
  if (!args.start.empty()) start = time_of(args.start, "--start");
  if (!args.end.empty()) end = time_of(args.end, "--end");
  if (start && end && *end <= *start)
    throw Error(Errc::invalid_argument,
                fmt::format("--end ({}) is not after --start ({})", parse::format_timestamp(*end),
                            parse::format_timestamp(*start)));

  const Config config = query::read_config(paths);
  // The whole machine, every user: a picture of what the scheduler did.
  JobFilter filter;
  if (start) filter.ended_after = *start;
  const std::vector<Job> jobs = query::with_attempts(paths, query::read_jobs(paths, filter));

  auto [lo, hi] = report::default_window(jobs, now);
  if (!start && !end && lo == 0)
    throw Error(Errc::invalid_argument,
                "no job has started yet, so there is no span to draw; give --start and --end");
  report::ReportOptions o;
  o.now = now;
  // One end given alone: the other from the jobs' span, else an hour's window.
  if (start)
    o.start = *start;
  else
    o.start = lo != 0 ? lo : *end - 3600;
  if (end)
    o.end = *end;
  else
    o.end = hi > o.start ? hi : now;
  if (o.end <= o.start) o.end = o.start + 1;
  o.title = args.title.empty() ? fmt::format("stint report: cluster {}", config.cluster_name)
                               : args.title;

  std::vector<report::ReportNode> nodes;
  for (const NodeDef& n : config.nodes()) nodes.push_back({n.name, n.cpus, n.gpus});
  const std::string svg = report::render_svg(nodes, jobs, o);
  if (args.output == "-") {
    fmt::print("{}", svg);
    return 0;
  }
  const std::string html = html_path(args.output);
  // The error names the file asked for, not the temporary one beside it
  // that the atomic write starts with.
  const auto write = [](const std::string& path, const std::string& text) {
    try {
      fs::write_file_atomic(path, text, 0644);
    } catch (const Error& e) {
      const std::string what = e.what();
      const std::size_t colon = what.rfind(": ");
      throw Error(e.code(),
                  fmt::format("Unable to write {}: {}", path,
                              colon == std::string::npos ? what : what.substr(colon + 2)));
    }
  };
  write(args.output, svg);
  write(html, report::render_html(svg, o.title));
  fmt::print("Wrote {} and {} ({} to {})\n", args.output, html, parse::format_timestamp(o.start),
             parse::format_timestamp(o.end));
  return 0;
}

}  // namespace stint::cli
