// sprio: the priority factors of pending jobs, read from the database without
// stintd and computed by the scheduler's own functions (cli/priority_read).

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/paths.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/priority_read.hpp"
#include "cli/read_common.hpp"
#include "util/clock.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sprio";

struct SprioArgs {
  std::string format;
  std::vector<std::string> jobs;  ///< -j: with no list, every job (the default)
  bool long_list = false;
  bool no_header = false;
  bool normalized = false;
  std::string partitions;
  std::string sort;
  std::string users;
  bool weights = false;
  bool json = false;
  std::int64_t verbose = 0;
};

// The jobs sprio lists: pending ones that could start (not held, past their
// begin time, not waiting on a dependency); running ones too with
// PriorityFlags=CALCULATE_RUNNING.
bool listed(const Job& job, const sched::PriorityParams& params, Seconds now) {
  if (job.state == JobState::running) return params.flags.calculate_running;
  if (job.state != JobState::pending) return false;
  if (job.hold_reason != Reason::none || job.priority == 0) return false;
  if (job.eligible_time > now) return false;
  return job.reason != Reason::dependency && job.reason != Reason::dependency_never_satisfied;
}

format::SprioRecord record_of(const Job& job, const sched::PriorityFactors& f) {
  format::SprioRecord r;
  r.id = job.id;
  r.partition = job.partition;
  r.user = job.user_name;
  r.account = job.account;
  r.qos = job.qos;
  r.priority = f.total;
  r.site = f.site;
  r.nice = f.nice;
  r.age = f.age;
  r.assoc = f.assoc;
  r.fairshare = f.fairshare;
  r.job_size = f.job_size;
  r.partition_factor = f.partition;
  r.qos_factor = f.qos;
  r.tres = f.tres;
  return r;
}

format::SprioWeights weights_of(const sched::PriorityParams& p) {
  format::SprioWeights w;
  w.age = p.weight_age;
  w.assoc = p.weight_assoc;
  w.fairshare = p.weight_fairshare;
  w.job_size = p.weight_job_size;
  w.partition = p.weight_partition;
  w.qos = p.weight_qos;
  for (const auto& t : p.weight_tres) w.tres.emplace_back(t.name, t.weight);
  w.tres_text = p.weight_tres_text;
  return w;
}

// sprio --json (Slurm 22.05's sprio has none): the weights, and each job's
// factors both normalized (0 to 1) and weighted (what the columns print).
std::string sprio_json(std::vector<format::SprioRecord> records, const format::SprioWeights& w) {
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.id < y.id; });
  nlohmann::ordered_json weights = {
      {"age", w.age},           {"assoc", w.assoc},         {"fairshare", w.fairshare},
      {"job_size", w.job_size}, {"partition", w.partition}, {"qos", w.qos}};
  nlohmann::ordered_json tres_weights = nlohmann::ordered_json::object();
  for (const auto& [name, weight] : w.tres) tres_weights[name] = weight;
  weights["tres"] = std::move(tres_weights);
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  const auto factor = [](double normalized, double weight) {
    return nlohmann::ordered_json{{"normalized", normalized}, {"weighted", normalized * weight}};
  };
  for (const format::SprioRecord& r : records) {
    nlohmann::ordered_json factors = {{"age", factor(r.age, w.age)},
                                      {"assoc", factor(r.assoc, w.assoc)},
                                      {"fairshare", factor(r.fairshare, w.fairshare)},
                                      {"job_size", factor(r.job_size, w.job_size)},
                                      {"partition", factor(r.partition_factor, w.partition)},
                                      {"qos", factor(r.qos_factor, w.qos)}};
    nlohmann::ordered_json tres = nlohmann::ordered_json::object();
    for (const auto& [name, f] : r.tres) {
      double weight = 0;
      for (const auto& [n, tw] : w.tres) {
        if (n == name) weight = tw;
      }
      tres[name] = factor(f, weight);
    }
    factors["tres"] = std::move(tres);
    jobs.push_back({{"job_id", r.id},
                    {"partition", r.partition},
                    {"user", r.user},
                    {"account", r.account},
                    {"qos", r.qos},
                    {"priority", static_cast<std::int64_t>(r.priority)},
                    {"site", r.site},
                    {"nice", r.nice},
                    {"factors", std::move(factors)}});
  }
  const nlohmann::ordered_json out = {{"weights", std::move(weights)}, {"jobs", std::move(jobs)}};
  return out.dump(2) + "\n";
}

int list(const SprioArgs& a) {
  if (a.long_list && !a.format.empty()) {
    std::fflush(stdout);
    fmt::print(stderr,
               "sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. "
               "Please remove one and retry.\n");
    return 1;
  }
  const Paths paths = default_paths();
  cli::warn_if_stale("sprio", paths);
  const Seconds now = wall_now();
  cli::PriorityView view = cli::read_priority_view(paths, now);
  const sched::PriorityParams& params = view.ctx.params;
  if (!params.multifactor) {
    std::fflush(stdout);
    fmt::print(stderr,
               "You are not running a supported priority plugin\n(priority/basic).\n"
               "Only 'priority/multifactor' is supported.\n");
    return 1;
  }

  std::vector<query::JobRef> refs;
  for (const std::string& list : a.jobs) {
    for (const std::string& text : cli::split_job_list(list)) {
      auto these = cli::job_refs_from_text(text);
      if (!these) throw Error(Errc::invalid_argument, fmt::format("Invalid job id: {}", text));
      refs.insert(refs.end(), these->begin(), these->end());
    }
  }
  std::vector<std::string> users;
  for (const std::string& user : cli::split_list(a.users)) {
    if (!cli::user_exists(user)) {
      std::fflush(stdout);
      fmt::print(stderr, "sprio: error: Invalid user: {}\n\n", user);
      continue;
    }
    users.push_back(user);
  }
  const std::vector<std::string> partitions = cli::split_list(a.partitions);

  // One job at a time: what sprio keeps of each is its record.
  std::vector<format::SprioRecord> records;
  JobFilter listable;
  listable.states = {JobState::pending};
  if (params.flags.calculate_running) listable.states.push_back(JobState::running);
  query::each_job(paths, listable, [&](const Job& job) {
    if (!listed(job, params, now)) return;
    if (!refs.empty() && std::none_of(refs.begin(), refs.end(), [&](const query::JobRef& r) {
          return query::matches(r, job);
        }))
      return;
    if (!a.users.empty() && std::find(users.begin(), users.end(), job.user_name) == users.end())
      return;
    if (!partitions.empty() &&
        std::find(partitions.begin(), partitions.end(), job.partition) == partitions.end())
      return;
    records.push_back(record_of(job, sched::priority_factors(job, view.ctx, view.calc_time)));
  });

  if (a.json) {
    fmt::print("{}", sprio_json(std::move(records), weights_of(params)));
    return 0;
  }
  format::SprioOptions o;
  o.format = a.format;
  if (o.format.empty() && !a.long_list) {
    if (const char* env = std::getenv("SPRIO_FORMAT"); env != nullptr && *env != '\0')
      o.format = env;
  }
  o.sort = a.sort;
  o.long_list = a.long_list;
  o.normalized = a.normalized;
  o.weights = a.weights;
  o.no_header = a.no_header;
  o.show_user = !a.users.empty();
  format::Context ctx = cli::read_context(view.config);
  const format::SprioWeights weights = weights_of(params);
  // As Slurm: only a job list that matches nothing says so (and exits 0).
  if (!a.jobs.empty() && records.empty()) {
    fmt::print("Unable to find jobs matching user/id(s) specified\n");
    return 0;
  }
  fmt::print("{}", format::render_sprio(std::move(records), o, weights, ctx));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sprio: view the factors that comprise a job's scheduling priority"};
  cli::configure_app(app, k_tool);
  // -h is --noheader, as in Slurm; help is --help only.
  app.set_help_flag("--help", "show this help message");
  SprioArgs a;
  app.add_option("-o,--format", a.format, "format specification");
  app.add_flag("-h,--noheader", a.no_header, "no headers on output");
  app.add_option("-j,--jobs", a.jobs, "comma separated list of jobs to view, default is all")
      ->expected(0, 1);
  app.add_flag("-l,--long", a.long_list, "long report");
  app.add_flag("-n,--norm", a.normalized, "display normalized values");
  app.add_option("-p,--partition", a.partitions, "comma separated list of partitions to view");
  app.add_option("-S,--sort", a.sort, "comma separated list of fields to sort on");
  app.add_option("-u,--user,--users", a.users, "comma separated list of users to view");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_flag("-w,--weights", a.weights, "display the configured weights");
  app.add_flag("--json", a.json, "print the weights and each job's factors as JSON");

  // "-S -y": a sort key list may start with '-', which CLI11 would take for
  // an option.
  if (const int rc = cli::parse_args_joining(app, k_tool, argc, argv, {{"-S", "--sort"}}); rc >= 0)
    return rc;
  return list(a);
}

}  // namespace

int sprio(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
