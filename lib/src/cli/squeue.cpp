// squeue: the jobs in the queue, read from the database without stintd.

#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "squeue";

struct SqueueArgs {
  std::string accounts;
  bool all = false;
  bool array = false;
  std::string format;
  std::string format_long;
  bool helpformat = false;
  std::string jobs;
  bool json = false;
  bool long_list = false;
  bool me = false;
  std::string names;
  bool no_header = false;
  bool start = false;
  std::string partitions;
  std::string reservation;
  std::string sort;
  std::string states;
  std::string users;
  std::int64_t verbose = 0;
};

void error_line(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, message);
}

// `squeue -j N` for a job that never was.
int no_such_job() {
  std::fflush(stdout);
  fmt::print(stderr, "slurm_load_jobs error: {}\n", errc_slurm_message(Errc::invalid_job_id));
  return 1;
}

int list(const SqueueArgs& a) {
  if (a.helpformat) {
    fmt::print("{}", format::squeue_helpformat());
    return 0;
  }
  const Paths paths = default_paths();
  JobFilter filter;
  filter.active_only = true;

  if (!a.states.empty()) {
    std::string bad;
    auto states = cli::states_from_list(a.states, bad);
    if (!states) {
      error_line(fmt::format("Invalid job state specified: {}", bad));
      error_line(fmt::format("Valid job states include: {}\n", cli::slurm_job_state_names()));
      return 1;
    }
    // "-t all" and any explicit list include ended jobs.
    filter.active_only = false;
    filter.states = *states;
  } else if (a.start) {
    filter.states = {JobState::pending};  // --start reports pending jobs only
  }
  std::vector<query::JobRef> refs;
  for (const std::string& text : cli::split_job_list(a.jobs)) {
    auto these = cli::job_refs_from_text(text);
    if (!these) throw Error(Errc::invalid_argument, fmt::format("Invalid job id: {}", text));
    refs.insert(refs.end(), these->begin(), these->end());
  }
  if (a.me) filter.users.push_back(proc::user_name(static_cast<std::uint32_t>(::getuid())));
  for (const std::string& user : cli::split_list(a.users)) {
    // Slurm reports an unknown user and goes on; nothing matches that name.
    if (!cli::user_exists(user)) error_line(fmt::format("Invalid user: {}\n", user));
    filter.users.push_back(user);
  }
  filter.partitions = cli::split_list(a.partitions);
  filter.names = cli::split_list(a.names);
  filter.accounts = cli::split_list(a.accounts);

  const Config config = query::read_config(paths);
  format::Context ctx = cli::read_context(config);
  // Ended jobs show as long as slurmctld would still hold them (MinJobAge),
  // not the whole history the database keeps: that is sacct's.
  filter.ended_after = ctx.now - cli::min_job_age(config);
  // -R: the jobs of one reservation (it is in the spec, which a listing
  // otherwise skips).
  auto in_reservation = [&](const Job& job) {
    return a.reservation.empty() || job.spec.options().reservation == a.reservation;
  };
  if (a.json) {
    std::vector<Job> jobs = query::read_jobs(paths, filter, refs);
    if (jobs.empty() && refs.size() == 1 && !query::job_exists(paths, refs.front()))
      return no_such_job();
    std::erase_if(jobs, [&](const Job& job) { return !in_reservation(job); });
    ctx.array_jobs = query::dependency_arrays(paths, jobs);
    // Unlike Slurm 22.05, the JSON honours -j, -u, -t and the other filters.
    fmt::print("{}", format::squeue_json(jobs, ctx, a.array));
    return 0;
  }
  format::SqueueOptions o;
  o.long_list = a.long_list;
  o.no_header = a.no_header;
  o.expand_arrays = a.array;
  o.sort = a.sort;
  o.start = a.start;
  if (o.sort.empty()) {
    if (const char* env = std::getenv("SQUEUE_SORT")) o.sort = env;
  }
  const char* env_format = std::getenv("SQUEUE_FORMAT");
  const char* env_format_long = std::getenv("SQUEUE_FORMAT2");
  if (!a.format_long.empty())
    o.layout = format::parse_squeue_long_format(a.format_long);
  else if (!a.format.empty())
    o.layout = format::parse_squeue_format(a.format);
  else if (env_format_long != nullptr && *env_format_long != '\0')
    o.layout = format::parse_squeue_long_format(env_format_long);
  else if (env_format != nullptr && *env_format != '\0')
    o.layout = format::parse_squeue_format(env_format);
  else if (a.start)
    o.layout = format::parse_squeue_format(std::string(format::k_squeue_start_format));
  else
    o.layout = format::squeue_default_layout(a.long_list);

  if (refs.empty()) {
    // Built as the jobs are read, without holding them (bench/RESULTS.md:
    // squeue at 100,000 pending).
    format::SqueueLines lines(o, ctx);
    query::each_job(
        paths, filter,
        [&](const Job& job) {
          if (in_reservation(job)) lines.add(job);
        },
        format::squeue_needs_whole_jobs(o.layout) || !a.reservation.empty() ? JobPart::whole
                                                                            : JobPart::listing);
    lines.print(stdout, query::dependency_arrays(paths, lines.with_dependencies()));
    return 0;
  }
  std::vector<Job> jobs = query::read_jobs(paths, filter, refs);
  if (jobs.empty() && refs.size() == 1 && !query::job_exists(paths, refs.front()))
    return no_such_job();
  std::erase_if(jobs, [&](const Job& job) { return !in_reservation(job); });
  ctx.array_jobs = query::dependency_arrays(paths, jobs);
  fmt::print("{}", format::render_squeue(std::move(jobs), o, ctx));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"squeue: view information about jobs located in the scheduling queue"};
  cli::configure_app(app, k_tool);
  // -h is --noheader, as in Slurm; help is --help only.
  app.set_help_flag("--help", "show this help message");
  SqueueArgs a;
  app.add_option("-A,--account", a.accounts, "comma separated list of accounts to view");
  app.add_flag("-a,--all", a.all, "display jobs in hidden partitions");
  app.add_flag("-r,--array", a.array, "display one job array element per line");
  app.add_option("-o,--format", a.format, "format specification");
  app.add_option("-O,--Format", a.format_long, "long format specification");
  app.add_flag("--helpformat", a.helpformat,
               "print a list of fields that can be specified with the '--Format' option");
  app.add_flag("-h,--noheader", a.no_header, "no headers on output");
  app.add_option("-j,--jobs", a.jobs, "comma separated list of jobs IDs to view");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_flag("-l,--long", a.long_list, "long report");
  app.add_flag("--me", a.me, "equivalent to --user=<my username>");
  app.add_option("-n,--name", a.names, "comma separated list of job names to view");
  app.add_option("-p,--partition", a.partitions, "comma separated list of partitions to view");
  app.add_option("-R,--reservation", a.reservation, "reservation to view, default is all");
  app.add_option("-S,--sort", a.sort, "comma separated list of fields to sort on");
  app.add_flag("--start", a.start, "print expected start times of pending jobs");
  app.add_option("-t,--states", a.states, "comma separated list of states to view");
  app.add_option("-u,--user", a.users, "comma separated list of users to view");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");

  // "-S -p,i": a sort key list may start with '-', which CLI11 would take for
  // an option.
  if (const int rc = cli::parse_args_joining(app, k_tool, argc, argv, {{"-S", "--sort"}}); rc >= 0)
    return rc;
  return list(a);
}

}  // namespace

int squeue(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
