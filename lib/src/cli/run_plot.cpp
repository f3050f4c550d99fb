// run-plot: the learning curves of runs, read straight from the database
// and each run's metric records (cli/run_metrics.hpp), as run-list reads
// them; run/plot.cpp draws them. --follow rewrites the files while the runs
// go on, for a browser that reloads the page.

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "cli/run_common.hpp"
#include "cli/run_metrics.hpp"
#include "run/plot.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "run-plot";
// How often --follow rewrites the files, and the page reloads itself.
constexpr unsigned k_follow_seconds = 10;

struct PlotArgs {
  std::vector<std::string> runs;  ///< PROJECT/N, as given
  std::string project;            ///< --project: every run of it
  std::vector<std::string> metrics;
  std::string output = "run-plot.svg";  ///< "-": the SVG on standard output
  bool follow = false;
};

std::string run_name(const Job& job) {
  return RunName{job.spec.run->project, job.spec.run->number}.text();
}

// Whether run-plot can read the run's records: a run of the slurm backend
// writes them on the cluster's nodes (cli::read_run_metrics reads none).
bool records_readable(const Job& job) { return job.spec.run->backend.empty(); }

// The runs named, then those of --project not named already, each once.
std::vector<Job> chosen_runs(Store* store, const PlotArgs& args) {
  std::vector<Job> out;
  std::set<std::string> taken;
  std::map<std::string, std::vector<Job>> by_project;
  const auto runs_of = [&](const std::string& project) -> const std::vector<Job>& {
    auto it = by_project.find(project);
    if (it == by_project.end())
      it = by_project
               .emplace(project, store ? cli::all_run_jobs(*store, project) : std::vector<Job>{})
               .first;
    return it->second;
  };
  for (const std::string& text : args.runs) {
    const RunName name = run::parse_run_name(text);
    const auto& jobs = runs_of(name.project);
    const auto it = std::find_if(jobs.begin(), jobs.end(),
                                 [&](const Job& j) { return j.spec.run->number == name.number; });
    if (it == jobs.end())
      throw Error(Errc::invalid_argument, fmt::format("No run {}", name.text()));
    if (taken.insert(name.text()).second) out.push_back(*it);
  }
  if (!args.project.empty()) {
    const auto& jobs = runs_of(args.project);
    if (jobs.empty())
      throw Error(Errc::invalid_argument, fmt::format("Project {} has no runs", args.project));
    for (const Job& j : jobs)
      if (taken.insert(run_name(j)).second) out.push_back(j);
  }
  return out;
}

// The chosen runs read again (their state now), in the same order; one
// deleted meanwhile is left out.
std::vector<Job> read_again(Store& store, const std::vector<std::string>& names) {
  std::map<std::string, Job> found;
  std::set<std::string> projects;
  for (const std::string& n : names) projects.insert(run::parse_run_name(n).project);
  for (const std::string& project : projects)
    for (Job& j : cli::all_run_jobs(store, project)) found.emplace(run_name(j), std::move(j));
  std::vector<Job> out;
  for (const std::string& n : names)
    if (auto it = found.find(n); it != found.end()) out.push_back(std::move(it->second));
  return out;
}

// What one read of the runs gives the picture.
struct PlotData {
  std::vector<run::PlotCurve> curves;
  std::vector<std::string> without_records;  ///< runs with no record yet
  std::vector<std::string> cluster_runs;     ///< runs whose records are on a cluster
  std::set<std::string> metrics;             ///< every metric some run has
  std::size_t runs_plotted = 0;
};

PlotData gather(const std::vector<Job>& jobs, const std::map<std::string, RunEnvironment>& env_of,
                const std::vector<std::string>& wanted) {
  PlotData data;
  std::vector<run::PlotRun> plotted;
  std::vector<run::RunMetrics> records;
  for (const Job& job : jobs) {
    const std::string name = run_name(job);
    if (!records_readable(job)) {
      data.cluster_runs.push_back(name);
      continue;
    }
    run::RunMetrics m = cli::read_run_metrics(job);
    if (m.empty()) {
      data.without_records.push_back(name);
      continue;
    }
    for (const auto& [metric, points] : m.series) data.metrics.insert(metric);
    // Only runs with a curve to draw are in the legend, and only their
    // variables decide which ones it names.
    const bool has_wanted =
        wanted.empty() || std::any_of(wanted.begin(), wanted.end(),
                                      [&](const std::string& w) { return m.series.count(w) != 0; });
    if (!has_wanted) continue;
    const auto env = env_of.find(name);
    plotted.push_back({name, env == env_of.end() ? RunEnvironment{} : env->second});
    records.push_back(std::move(m));
  }
  const std::vector<std::string> legends = run::legend_texts(plotted);
  for (std::size_t i = 0; i < plotted.size(); ++i) {
    const auto add = [&](const std::string& metric, const std::vector<run::MetricPoint>& points) {
      data.curves.push_back({plotted[i].name, legends[i], metric, points});
    };
    if (wanted.empty()) {
      for (const auto& [metric, points] : records[i].series) add(metric, points);
    } else {
      // Panels in the order --metric named them.
      for (const std::string& w : wanted)
        if (auto it = records[i].series.find(w); it != records[i].series.end()) add(w, it->second);
    }
  }
  data.runs_plotted = plotted.size();
  return data;
}

std::string html_path(const std::string& svg_path) {
  if (svg_path.ends_with(".svg")) return svg_path.substr(0, svg_path.size() - 4) + ".html";
  return svg_path + ".html";
}

// The error names the file asked for, not the temporary one beside it that
// the atomic write starts with (as stint report's does).
void write_output(const std::string& path, const std::string& text) {
  try {
    fs::write_file_atomic(path, text, 0644);
  } catch (const Error& e) {
    const std::string what = e.what();
    const std::size_t colon = what.rfind(": ");
    throw Error(e.code(), fmt::format("Unable to write {}: {}", path,
                                      colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

std::string title_of(const std::vector<std::string>& names) {
  std::vector<std::string> projects;
  for (const std::string& n : names) {
    std::string project = run::parse_run_name(n).project;
    if (std::find(projects.begin(), projects.end(), project) == projects.end())
      projects.push_back(std::move(project));
  }
  return fmt::format("run-plot: {}", fmt::join(projects, ", "));
}

}  // namespace

int run_plot(int argc, char** argv) {
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-plot: the learning curves of runs, one panel per metric (SVG and HTML)"};
    cli::configure_app(app, k_tool);
    PlotArgs args;
    app.add_option("runs", args.runs, "runs to plot (PROJECT/N)");
    app.add_option("--project", args.project, "plot every run of this project");
    // One name each time, so that a run named after it is not taken for a metric.
    app.add_option("--metric", args.metrics,
                   "plot this metric only (repeatable; default: every metric of the runs)")
        ->allow_extra_args(false)
        ->type_name("NAME");
    app.add_option("-o,--output", args.output,
                   "write the SVG to FILE and the HTML page beside it (default run-plot.svg; "
                   "'-': the SVG on standard output)")
        ->type_name("FILE");
    app.add_flag("--follow", args.follow,
                 "rewrite both files every 10 s while a run plotted is not over, then exit "
                 "(the page reloads itself)");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    if (args.runs.empty() && args.project.empty())
      throw Error(Errc::invalid_argument,
                  "give the runs to plot (PROJECT/N ...) or --project PROJECT");
    if (args.follow && args.output == "-")
      throw Error(Errc::invalid_argument,
                  "--follow rewrites files: give -o FILE.svg, not standard output");

    const Paths paths = default_paths();
    std::shared_ptr<Store> store;
    if (Store::exists(paths.db())) {
      cli::warn_if_stale(k_tool, paths);
      store = Store::reader(paths.db());
    }
    // Without a database no run exists: chosen_runs throws, so `store` is set below.
    std::vector<Job> jobs = chosen_runs(store.get(), args);
    // The variables' values are stintd's to give (stint.db keeps their
    // names only); they do not change, so they are asked for once.
    cli::reveal_run_env(*store, jobs, k_tool);
    std::vector<std::string> names;
    std::map<std::string, RunEnvironment> env_of;
    for (const Job& j : jobs) {
      names.push_back(run_name(j));
      env_of.emplace(names.back(), j.spec.run->env);
    }

    const std::string html = html_path(args.output);
    std::set<std::string> warned;
    const auto warn_once = [&](const std::string& key, const std::string& text) {
      if (warned.insert(key).second) fmt::print(stderr, "{}: warning: {}\n", k_tool, text);
    };
    for (int pass = 0;; ++pass) {
      if (pass > 0) jobs = read_again(*store, names);
      // Whether another pass follows this one is decided on the states read
      // before the records: records written before a run ended are then all read.
      const bool following = args.follow && std::any_of(jobs.begin(), jobs.end(), [](const Job& j) {
                               return records_readable(j) && !is_terminal(j.state);
                             });
      const PlotData data = gather(jobs, env_of, args.metrics);
      for (const std::string& n : data.cluster_runs)
        warn_once(n,
                  fmt::format("{} runs on the slurm backend: its metric records are not read", n));
      for (const std::string& n : data.without_records)
        warn_once(n, fmt::format("{} has no metric records yet", n));
      std::vector<std::string> missing;
      for (const std::string& m : args.metrics)
        if (!data.metrics.count(m)) missing.push_back(m);
      // While runs go on, records may still come: said once, then drawn as
      // they come. Once they are over, it is an error as without --follow.
      if (data.metrics.empty()) {
        const std::string text = fmt::format(
            "no run has metric records yet ({}): a run's command appends them to "
            "$STINT_METRICS, see run-create(1)",
            fmt::join(names, ", "));
        if (!following) throw Error(Errc::invalid_argument, text);
      } else if (!missing.empty()) {
        const std::string text =
            fmt::format("no run has metric {}; the runs have: {}", fmt::join(missing, ", "),
                        fmt::join(data.metrics, ", "));
        if (!following) throw Error(Errc::invalid_argument, text);
        warn_once(fmt::format("metric:{}", fmt::join(missing, ",")), text + " (yet)");
      }

      run::PlotOptions options;
      options.title = title_of(names);
      std::set<std::string> metrics_drawn;
      for (const run::PlotCurve& c : data.curves) metrics_drawn.insert(c.metric);
      options.subtitle = fmt::format(
          "{} run{}, {} metric{}; written {}{}", data.runs_plotted,
          data.runs_plotted == 1 ? "" : "s", metrics_drawn.size(),
          metrics_drawn.size() == 1 ? "" : "s", parse::format_timestamp(wall_now()),
          following ? fmt::format("; rewritten every {} s while a run goes on", k_follow_seconds)
                    : std::string());
      const std::string svg = run::render_plot_svg(data.curves, options);
      if (args.output == "-") {
        fmt::print("{}", svg);
        return 0;
      }
      write_output(args.output, svg);
      // The last page written stops reloading: nothing will change any more.
      write_output(html, run::render_plot_html(
                             svg, options.title,
                             following ? std::optional<unsigned>(k_follow_seconds) : std::nullopt));
      if (pass == 0)
        fmt::print("Wrote {} and {}{}\n", args.output, html,
                   following
                       ? fmt::format(" (again every {} s while a run goes on)", k_follow_seconds)
                       : std::string());
      else if (!following)
        fmt::print("Wrote {} and {} (every run has ended)\n", args.output, html);
      std::fflush(stdout);
      if (!following) return 0;
      std::this_thread::sleep_for(std::chrono::seconds(k_follow_seconds));
    }
  });
}

}  // namespace stint::tools
