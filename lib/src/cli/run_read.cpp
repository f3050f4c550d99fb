// run-list, run-show and run-logs: read straight from the database, as
// squeue does, without stintd.

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

#include <fmt/core.h>
#include <fmt/format.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "backend/slurm.hpp"
#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "cli/run_common.hpp"
#include "cli/run_metrics.hpp"
#include "daemon/job_env.hpp"
#include "daemon/node_hosts.hpp"
#include "model/json.hpp"
#include "run/idle.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"

namespace stint::cli {

std::string run_state(const Job& job) {
  const bool stopped = job.spec.run && job.spec.run->stopped;
  if (job.spec.run && !job.spec.run->lost.empty()) return "LOST";
  if (job.state == JobState::pending) return "PENDING";
  if (is_active(job.state)) {
    // run-stop asked, the nodes not let go yet (their commands still ending).
    if (stopped) return "STOPPING";
    const bool kept = !job.alloc.empty() && std::all_of(job.alloc.begin(), job.alloc.end(),
                                                        [](const auto& a) { return a.task_ended; });
    if (kept) return "KEPT_ALIVE";
    // Its nodes have used nothing for StintIdleRunAfter (run/idle.hpp).
    if (run::is_idle(job)) return "IDLE";
    return std::string(state_name(job.state));
  }
  if (stopped || job.state == JobState::cancelled) return "STOPPED";
  return std::string(state_name(job.state));
}

RunSettings run_settings(const Job& job) {
  RunSettings s;
  const RunInfo& r = *job.spec.run;
  s.project = r.project;
  s.server_type = job.partition;
  s.nodes = job.req.nodes;
  if (job.req.gpus_per_node) s.gpus = job.req.gpus_per_node;
  s.cpus = job.req.cpus_per_task;
  s.mem_mb = job.spec.mem_per_node_mb;
  s.time_limit = job.spec.time_limit;
  s.keep_alive = r.keep_alive;
  s.ports_per_node = r.ports_per_node;
  s.image = r.image;
  for (const auto& [name, mount] : r.storages) s.storages.push_back({name, mount});
  s.env = r.env;
  s.name = job.spec.name == RunName{r.project, r.number}.text() ? std::string() : job.spec.name;
  s.description = r.description;
  s.command = r.command;
  s.metrics_files = r.metrics_files;
  s.metrics_all_ranks = r.metrics_all_ranks;
  return s;
}

}  // namespace stint::cli

namespace stint::tools {
namespace {

std::shared_ptr<Store> open_store(std::string_view tool) {
  const Paths paths = default_paths();
  if (!Store::exists(paths.db())) return nullptr;
  cli::warn_if_stale(tool, paths);
  return Store::reader(paths.db());
}

Job find_run(Store& store, const RunName& name) {
  for (auto& job : cli::all_run_jobs(store, name.project)) {
    if (job.spec.run->number == name.number) return job;
  }
  throw Error(Errc::invalid_argument, fmt::format("No run {}", name.text()));
}

// A run's output is its owner's (and operators'): run-logs of another user's
// run is refused, as scontrol write batch_script is, whatever the file's mode.
void check_may_read(Store& store, const Job& job) {
  if (::getuid() == job.user_id || cli::may_read_any_run(store)) return;
  throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
}

std::string age(Seconds since, Seconds now) {
  if (since == k_no_time) return "-";
  return parse::format_duration(std::max<Seconds>(0, now - since));
}

std::string ports_text(const NodeAlloc& a) {
  return a.ports.empty() ? std::string("-") : fmt::format("{}", fmt::join(a.ports, ","));
}

// When a run was made, started and ended, as Slurm writes times; a pending
// run's start is the scheduler's plan (squeue --start), "-" when it has none.
struct RunTimes {
  std::string created, started, ended;
  bool expected = false;            ///< started is the plan's start of a pending run
  std::optional<Seconds> duration;  ///< started to ended (or now)
};

RunTimes run_times(const Job& job, Seconds now) {
  const auto stamp = [](Seconds t) {
    return t == k_no_time ? std::string("-") : parse::format_timestamp(t);
  };
  RunTimes t;
  t.created = stamp(job.submit_time);
  const bool ran = job.state != JobState::pending && job.start_time != k_no_time;
  t.started = stamp(job.start_time);
  t.expected = job.state == JobState::pending;
  t.ended = is_terminal(job.state) ? stamp(job.end_time) : std::string("-");
  if (ran) {
    const Seconds until = is_terminal(job.state) ? job.end_time : now;
    t.duration = std::max<Seconds>(0, until - job.start_time);
  }
  return t;
}

// The run's exit code once its command has ended everywhere (kept alive or
// not): the first rank that did not exit 0, as the run's state is; "-" before.
std::string command_exit(const Job& job) {
  const auto text = [](int status, int signal) { return fmt::format("{}:{}", status, signal); };
  if (is_terminal(job.state)) return text(job.exit_status, job.exit_signal);
  if (job.alloc.empty() || !std::all_of(job.alloc.begin(), job.alloc.end(),
                                        [](const NodeAlloc& a) { return a.task_ended; }))
    return "-";
  for (const NodeAlloc& a : job.alloc) {
    if (a.exit_status != 0 || a.exit_signal != 0) return text(a.exit_status, a.exit_signal);
  }
  return text(0, 0);
}

std::string rank_state(const Job& job, const NodeAlloc& a) {
  std::string state = a.task_ended
                          ? (a.exit_status == 0 && a.exit_signal == 0 ? "COMPLETED" : "FAILED")
                          : std::string(state_name(job.state));
  if (a.task_ended && is_active(job.state)) state = "KEPT_ALIVE";
  if (!a.task_ended && job.state == JobState::running && a.idle_since != k_no_time) state = "IDLE";
  // Stopped by run-stop or by scancel of the run's job: the same to the run.
  const bool stopped = job.spec.run->stopped || job.state == JobState::cancelled;
  if (a.task_ended && stopped && (a.exit_status != 0 || a.exit_signal != 0)) state = "STOPPED";
  return state;
}

// The cluster's hosts file (daemon/node_hosts.hpp); "" for a cluster
// without one (the machine itself as its one node).
std::string cluster_hosts() {
  try {
    return fs::read_file(daemon::node_hosts_path(default_paths().state_dir));
  } catch (const Error&) {
    return {};
  }
}

// Where a rank's node is reached from this machine (ssh -p, its TCP ports):
// a declared node's own address, else the node's name.
std::string host_of(const std::string& hosts, const std::string& node) {
  std::string addr = daemon::address_of(hosts, node);
  return addr.empty() ? node : addr;
}

// A run as run-list --json and run-show --json print it. The keys sort "run"
// just before "state", which scripts grep for ("run":"p/3","state":"RUNNING").
nlohmann::json run_json(const Job& job, const RunSettings& s, Seconds now,
                        const std::string& hosts) {
  const RunInfo& r = *job.spec.run;
  const RunTimes t = run_times(job, now);
  const auto or_null = [](const std::string& text) {
    return text == "-" ? nlohmann::json(nullptr) : nlohmann::json(text);
  };
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : s.env) env[k] = v;
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t i = 0; i < job.alloc.size(); ++i) {
    const NodeAlloc& a = job.alloc[i];
    ranks.push_back(
        {{"rank", i},
         {"node", a.node},
         {"host", host_of(hosts, a.node)},
         {"state", rank_state(job, a)},
         {"exit_code", a.task_ended || is_terminal(job.state)
                           ? nlohmann::json(fmt::format("{}:{}", a.exit_status, a.exit_signal))
                           : nlohmann::json(nullptr)},
         {"ports", a.ports}});
  }
  nlohmann::json out = {
      {"run", RunName{r.project, r.number}.text()},
      {"job_id", job.id},
      {"name", job.spec.name},
      {"description", r.description},
      {"state", cli::run_state(job)},
      {"nodes", job.req.nodes},
      {"partition", job.partition},
      {"per_node",
       {{"cpus", job.req.cpus_per_node},
        {"gpus", job.req.gpus_per_node},
        {"mem_mb", job.req.mem_per_node_mb}}},
      {"keep_alive", r.keep_alive},
      {"image", r.image},
      {"command", r.command},
      {"env", std::move(env)},
      {"exit_code", is_terminal(job.state)
                        ? nlohmann::json(fmt::format("{}:{}", job.exit_status, job.exit_signal))
                        : nlohmann::json(nullptr)},
      {"ranks", std::move(ranks)},
      {"times",
       {{"created", or_null(t.created)},
        {"started", t.expected ? nlohmann::json(nullptr) : or_null(t.started)},
        {"expected_start", t.expected ? or_null(t.started) : nlohmann::json(nullptr)},
        {"ended", or_null(t.ended)},
        {"duration_s", t.duration ? nlohmann::json(*t.duration) : nlohmann::json(nullptr)}}}};
  if (job.state == JobState::pending) out["reason"] = format::reason_text(job);
  // Why it ended, when more than its state says: a failed launch, the nodes
  // released after StintKeepAliveMax unused.
  if (!job.state_desc.empty()) out["reason"] = job.state_desc;
  if (!r.cloned_from.empty()) out["cloned_from"] = r.cloned_from;
  if (const Seconds since = run::idle_since(job); since != k_no_time) {
    out["idle"] = {{"since", parse::format_timestamp(since)},
                   {"on", run::idle_on_gpus(job) ? "gpus" : "cpus"}};
  }
  return out;
}

// A metric run-list was asked for: its name and pick, and each run's point.
struct MetricColumn {
  std::string spec;  ///< as given: "val_acc:max"
  std::string name;
  run::MetricPick pick = run::MetricPick::max;
  std::vector<std::optional<run::MetricPoint>> points;  ///< one per run listed
};

std::string_view pick_name(run::MetricPick p) {
  switch (p) {
    case run::MetricPick::max:
      return "max";
    case run::MetricPick::min:
      return "min";
    case run::MetricPick::last:
      return "last";
  }
  return "max";
}

}  // namespace

int run_list(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-list";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-list: the runs of a project, with one column per environment variable"};
    cli::configure_app(app, k_tool);
    std::string project;
    bool json = false;
    app.add_option("--project", project, "the project (default: every project)");
    app.add_flag("--json", json, "print JSON");
    std::vector<std::string> metric_specs;
    bool sort = false;
    app.add_option("--metric", metric_specs,
                   "a metric's best or last value as a column: NAME[:max|min|last] "
                   "(default max; repeatable)");
    app.add_flag("--sort", sort, "best first by the first --metric (runs without it last)");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    std::vector<MetricColumn> metrics;
    for (const std::string& spec : metric_specs) {
      auto [name, pick] = run::parse_metric_spec(spec);
      metrics.push_back({spec, std::move(name), pick, {}});
    }
    if (sort && metrics.empty())
      throw Error(Errc::invalid_argument,
                  "--sort orders by a metric: give one with --metric NAME[:max|min|last]");
    auto store = open_store(k_tool);
    if (store) cli::refresh_cluster_runs(*store, project, k_tool);
    std::vector<Job> jobs = store ? cli::all_run_jobs(*store, project) : std::vector<Job>{};
    if (store) cli::reveal_run_env(*store, jobs, k_tool);
    if (!metrics.empty()) {
      for (const Job& j : jobs) {
        const run::RunMetrics m = cli::read_run_metrics(j);
        for (MetricColumn& c : metrics) c.points.push_back(run::pick_metric(m, c.name, c.pick));
      }
    }
    if (sort) {
      // The best first: highest for max and last, lowest for min; ties and
      // runs without the metric keep their order.
      const MetricColumn& by = metrics.front();
      std::vector<std::size_t> order(jobs.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& pa = by.points[a];
        const auto& pb = by.points[b];
        if (!pa || !pb) return pa.has_value() && !pb.has_value();
        return by.pick == run::MetricPick::min ? pa->value < pb->value : pa->value > pb->value;
      });
      std::vector<Job> sorted;
      for (std::size_t i : order) sorted.push_back(std::move(jobs[i]));
      jobs = std::move(sorted);
      for (MetricColumn& c : metrics) {
        std::vector<std::optional<run::MetricPoint>> points;
        for (std::size_t i : order) points.push_back(c.points[i]);
        c.points = std::move(points);
      }
    }
    std::vector<const RunSettings*> settings;
    std::vector<RunSettings> owned;
    owned.reserve(jobs.size());
    for (const auto& j : jobs) owned.push_back(cli::run_settings(j));
    for (const auto& s : owned) settings.push_back(&s);
    const auto vars = run::variable_set(settings);
    const Seconds now = SystemClock().now();
    if (json) {
      nlohmann::json out = nlohmann::json::array();
      const std::string hosts = cluster_hosts();
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        const Job& j = jobs[i];
        nlohmann::json run = run_json(j, owned[i], now, hosts);
        // One column per variable of the runs listed, as the table's: "" where
        // a run has none.
        nlohmann::json env = nlohmann::json::object();
        for (const auto& v : vars) env[v] = run::env_value(owned[i].env, v);
        run["env"] = std::move(env);
        if (!metrics.empty()) {
          nlohmann::json values = nlohmann::json::object();
          for (const MetricColumn& c : metrics) {
            const auto& p = c.points[i];
            values[c.spec] = p ? nlohmann::json{{"name", c.name},
                                                {"pick", pick_name(c.pick)},
                                                {"value", p->value},
                                                {"step", p->step}}
                               : nlohmann::json(nullptr);
          }
          run["metrics"] = std::move(values);
        }
        out.push_back(std::move(run));
      }
      fmt::print("{}\n", out.dump());
      return 0;
    }
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"RUN", "STATE", "NODES", "AGE", "DURATION", "EXIT"});
    for (const auto& v : vars) rows.front().push_back(v);
    for (const MetricColumn& c : metrics) rows.front().push_back(c.spec);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const Job& j = jobs[i];
      const RunTimes times = run_times(j, now);
      std::vector<std::string> row{
          RunName{j.spec.run->project, j.spec.run->number}.text(),
          cli::run_state(j),
          std::to_string(j.req.nodes),
          age(j.submit_time, now),
          times.duration ? parse::format_duration(*times.duration) : std::string("-"),
          command_exit(j)};
      for (const auto& v : vars) row.push_back(run::env_value(owned[i].env, v));
      for (const MetricColumn& c : metrics)
        row.push_back(c.points[i] ? run::format_metric(c.points[i]->value) : std::string("-"));
      rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& r : rows)
      for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (const auto& r : rows) {
      std::string line;
      for (std::size_t c = 0; c < r.size(); ++c)
        line += fmt::format("{:<{}}{}", r[c], width[c], c + 1 < r.size() ? "  " : "");
      while (!line.empty() && line.back() == ' ') line.pop_back();
      fmt::print("{}\n", line);
    }
    return 0;
  });
}

int run_show(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-show";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-show: a run's settings and its node table"};
    cli::configure_app(app, k_tool);
    std::string name;
    bool json = false;
    app.add_option("run", name, "the run (PROJECT/N)")->required();
    app.add_flag("--json", json, "print JSON: settings, state, times, each rank's exit code");
    bool files = false;
    app.add_flag("--files", files,
                 "list the checkpoints the run wrote (StintCheckpointGlob), size and time");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    auto store = open_store(k_tool);
    if (!store) throw Error(Errc::invalid_argument, fmt::format("No run {}", name));
    const RunName rn = run::parse_run_name(name);
    cli::refresh_cluster_runs(*store, rn.project, k_tool);
    std::vector<Job> found{find_run(*store, rn)};
    cli::reveal_run_env(*store, found, k_tool);
    const Job& job = found.front();
    const RunSettings s = cli::run_settings(job);
    const RunInfo& r = *job.spec.run;
    const Seconds now = SystemClock().now();
    if (files) {
      const Paths paths = default_paths();
      const std::vector<std::string> patterns =
          cli::split_list(query::read_config(paths).conf("StintCheckpointGlob").value_or(""));
      const std::vector<cli::RunFile> found_files =
          cli::run_checkpoints(job, patterns, paths.state_dir);
      if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const cli::RunFile& f : found_files)
          list.push_back({{"path", f.path},
                          {"bytes", f.bytes},
                          {"modified", parse::format_timestamp(f.modified)}});
        fmt::print("{}\n", nlohmann::json{{"run", RunName{r.project, r.number}.text()},
                                          {"files", std::move(list)}}
                               .dump());
        return 0;
      }
      fmt::print("{:>12}  {:<19}  {}\n", "SIZE", "MODIFIED", "FILE");
      for (const cli::RunFile& f : found_files)
        fmt::print("{:>12}  {:<19}  {}\n", f.bytes, parse::format_timestamp(f.modified), f.path);
      return 0;
    }
    const run::RunMetrics metrics = cli::read_run_metrics(job);
    if (json) {
      nlohmann::json out = run_json(job, s, now, cluster_hosts());
      nlohmann::json last = nlohmann::json::object();
      for (const auto& [metric, points] : metrics.series)
        last[metric] = {{"last", points.back().value}, {"step", points.back().step}};
      out["metrics"] = std::move(last);
      fmt::print("{}\n", out.dump());
      return 0;
    }
    const RunTimes times = run_times(job, now);
    fmt::print("Run:          {}\n", RunName{r.project, r.number}.text());
    fmt::print("Job ID:       {}\n", job.id);
    if (const auto cluster = r.backend.empty() ? std::nullopt : cli::find_cluster_run(*store, rn)) {
      fmt::print("Backend:      {} (job {}, partition {}, via {})\n", r.backend, job.id,
                 cluster->partition.empty() ? "-" : cluster->partition,
                 cluster->login.empty() ? "this machine" : cluster->login);
      fmt::print("Cluster:      {}\n", r.lost.empty() ? cluster->cluster_state : r.lost);
    }
    fmt::print("Name:         {}\n", job.spec.name);
    fmt::print("Description:  {}\n", r.description);
    fmt::print("State:        {}\n", cli::run_state(job));
    if (job.state == JobState::pending) fmt::print("Reason:       {}\n", format::reason_text(job));
    if (!job.state_desc.empty()) fmt::print("Reason:       {}\n", job.state_desc);
    if (const Seconds since = run::idle_since(job); since != k_no_time)
      fmt::print("Idle:         since {} ({}, StintIdleRunAfter)\n", parse::format_timestamp(since),
                 run::idle_on_gpus(job) ? "its GPUs at 0%" : "no CPU time used");
    fmt::print("Created:      {}\n", times.created);
    fmt::print("Started:      {}{}\n", times.started,
               times.expected && times.started != "-" ? " (expected)" : "");
    fmt::print("Ended:        {}\n", times.ended);
    fmt::print("Duration:     {}\n",
               times.duration ? parse::format_duration(*times.duration) : std::string("-"));
    fmt::print("Server type:  {}\n", job.partition);
    fmt::print("Nodes:        {}\n", job.req.nodes);
    fmt::print("Per node:     cpus={} gpus={} mem={}M\n", job.req.cpus_per_node,
               job.req.gpus_per_node, job.req.mem_per_node_mb);
    fmt::print("Keep alive:   {}\n", r.keep_alive ? "ON" : "OFF");
    fmt::print("Image:        {}\n", r.image.empty() ? "-" : r.image);
    fmt::print("Command:      {}\n", fmt::join(r.command, " "));
    if (!r.cloned_from.empty()) fmt::print("Cloned from:  {}\n", r.cloned_from);
    fmt::print("Environment:\n");
    for (const auto& [k, v] : s.env) fmt::print("  {}={}\n", k, v);
    if (!metrics.empty()) {
      // Each metric's last value, as rank 0 wrote it (STINT_METRICS).
      fmt::print("Metrics:\n");
      std::size_t width = 0;
      for (const auto& [metric, points] : metrics.series) width = std::max(width, metric.size());
      for (const auto& [metric, points] : metrics.series)
        fmt::print("  {:<{}}  {} (step {})\n", metric, width,
                   run::format_metric(points.back().value), run::format_metric(points.back().step));
    }
    const std::string hosts = cluster_hosts();
    fmt::print("\n{:>4}  {:<12}  {:<10}  {:>9}  {:<15}  {:<8}  {}\n", "Rank", "Node ID", "State",
               "Exit Code", "Host", "SSH Port", "TCP Ports");
    for (std::size_t i = 0; i < job.alloc.size(); ++i) {
      const NodeAlloc& a = job.alloc[i];
      const std::string state = rank_state(job, a);
      std::string exit = a.task_ended || is_terminal(job.state)
                             ? fmt::format("{}:{}", a.exit_status, a.exit_signal)
                             : "-";
      fmt::print("{:>4}  {:<12}  {:<10}  {:>9}  {:<15}  {:<8}  {}\n", i,
                 fmt::format("{}-{}", job.id, i), state, exit, host_of(hosts, a.node),
                 a.ssh_port != 0 && is_active(job.state) ? std::to_string(a.ssh_port) : "-",
                 ports_text(a));
    }
    if (job.alloc.empty()) fmt::print("(no nodes yet: {})\n", cli::run_state(job));
    return 0;
  });
}

namespace {

// The last `count` lines of `text` (a last line without its newline counts).
std::string last_lines(const std::string& text, std::uint32_t count) {
  if (count == 0) return {};
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::uint32_t n = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++n == count) break;
  }
  return text.substr(pos);
}

// One rank's output as run-logs prints it: from where it got to, with its
// rank before each line under --all (as srun -l labels a task's lines).
struct RankOutput {
  std::uint32_t rank = 0;
  std::size_t offset = 0;
  bool seen = false;    ///< its file was read once (--tail applies then)
  std::string partial;  ///< a labelled line not ended yet

  void print(std::string chunk, bool label, std::optional<std::uint32_t> tail) {
    if (!seen && tail) chunk = last_lines(chunk, *tail);
    seen = true;
    if (!label) {
      fmt::print("{}", chunk);
      return;
    }
    partial += chunk;
    std::size_t start = 0;
    for (std::size_t nl; (nl = partial.find('\n', start)) != std::string::npos; start = nl + 1)
      fmt::print("{}: {}\n", rank, std::string_view(partial).substr(start, nl - start));
    partial.erase(0, start);
  }
  void finish(bool label) {
    if (label && !partial.empty()) fmt::print("{}: {}\n", rank, partial);
    partial.clear();
  }
};

}  // namespace

int run_logs(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-logs";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-logs: the output of a run's nodes"};
    cli::configure_app(app, k_tool);
    std::string name;
    std::uint32_t node = 0;
    bool follow = false;
    bool all = false;
    std::optional<std::uint32_t> tail;
    app.add_option("run", name, "the run (PROJECT/N)")->required();
    auto* node_option = app.add_option("--node", node, "the node's rank (default 0)");
    app.add_flag("--all", all, "every node's output, each line after its rank (as srun -l)")
        ->excludes(node_option);
    app.add_option("--tail", tail, "only the last N lines (of each node with --all)");
    app.add_flag("-f,--follow", follow,
                 "keep printing until the run's command ends (kept alive or not)");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    auto store = open_store(k_tool);
    if (!store) throw Error(Errc::invalid_argument, fmt::format("No run {}", name));
    const RunName rn = run::parse_run_name(name);
    Job job = find_run(*store, rn);
    check_may_read(*store, job);
    if (!all && node >= job.req.nodes)
      throw Error(Errc::invalid_argument,
                  fmt::format("Run {} has no node of rank {}", rn.text(), node));
    const bool slurm = job.spec.run->backend == "slurm";
    const auto cluster = slurm ? cli::find_cluster_run(*store, rn) : std::nullopt;
    // A rank's output from `offset` on; nullopt when there is none (yet).
    const auto read_from = [&](std::uint32_t rank,
                               std::size_t offset) -> std::optional<std::string> {
      if (cluster) return cli::read_cluster_output(*cluster, rank, offset);
      std::ifstream in(daemon::output_paths(job, rank).first, std::ios::binary);
      if (!in) return std::nullopt;
      in.seekg(static_cast<std::streamoff>(offset));
      return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const auto output_path = [&](std::uint32_t rank) {
      return cluster ? backend::rank_output_path(*cluster, rank)
                     : daemon::output_paths(job, rank).first;
    };
    std::vector<RankOutput> ranks;
    for (std::uint32_t r = all ? 0 : node; r < (all ? job.req.nodes : node + 1); ++r)
      ranks.push_back(RankOutput{.rank = r, .offset = 0, .seen = false, .partial = {}});
    // The command has ended on every rank shown: a run kept alive holds its
    // nodes on, but there is nothing more to print.
    const auto commands_ended = [&] {
      if (is_terminal(job.state)) return true;
      return std::all_of(ranks.begin(), ranks.end(), [&](const RankOutput& r) {
        return r.rank < job.alloc.size() && job.alloc[r.rank].task_ended;
      });
    };
    bool said_pending = false;
    for (int polls = 0;; ++polls) {
      // Whether this pass's reads can be the last is decided on the state
      // read before them: output written before the end is then all read.
      const bool last = !follow || commands_ended();
      for (RankOutput& r : ranks) {
        if (auto chunk = read_from(r.rank, r.offset)) {
          r.offset += chunk->size();
          r.print(std::move(*chunk), all, tail);
        } else if (!follow && !all && job.state != JobState::pending) {
          throw Error(Errc::io, fmt::format("No output for {} node {} ({})", rn.text(), r.rank,
                                            output_path(r.rank)));
        }
        // A last line without its newline ends with its rank's output.
        if (last) r.finish(all);
      }
      std::fflush(stdout);
      if (last) return 0;
      if (job.state == JobState::pending && !said_pending) {
        fmt::print(stderr, "{}: {} is pending ({}): waiting for it to start\n", k_tool, rn.text(),
                   format::reason_text(job));
        said_pending = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(cluster ? 500 : 200));
      if (cluster && polls % 10 == 9) cli::refresh_cluster_runs(*store, rn.project, k_tool);
      job = find_run(*store, rn);
    }
  });
}

}  // namespace stint::tools
