// sacct: accounting lines for jobs, read from the database without stintd.

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sacct";

struct SacctArgs {
  std::string accounts;
  bool all_users = false;
  bool allocations = false;
  bool brief = false;
  std::string delimiter;
  bool duplicates = false;
  std::string end;
  std::string format;
  bool helpformat = false;
  std::string jobs;
  bool json = false;
  bool no_header = false;
  bool parsable = false;
  bool parsable2 = false;
  std::string partitions;
  std::string start;
  std::string states;
  std::string units;
  std::string users;
  std::int64_t verbose = 0;
};

Seconds local_midnight(Seconds now) {
  std::time_t t = static_cast<std::time_t>(now);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  tm.tm_hour = 0;
  tm.tm_min = 0;
  tm.tm_sec = 0;
  tm.tm_isdst = -1;
  return static_cast<Seconds>(std::mktime(&tm));
}

/// "31", "31.batch", "12_3.batch", "12_[1-3]": the jobs; steps show with their job.
std::optional<std::vector<query::JobRef>> jobs_of(std::string_view text) {
  if (std::size_t dot = text.find('.'); dot != std::string_view::npos) text = text.substr(0, dot);
  return cli::job_refs_from_text(text);
}

/// Prints a fatal error the way Slurm's fatal() does.
int fatal(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: fatal: {}\n", k_tool, message);
  return 1;
}

/// Which records the time window [start, end] keeps.
struct Window {
  Seconds start = 0;
  Seconds end = 0;
  /// Without -j and -s, as in Slurm, a job that was never eligible (held
  /// since its submission, waiting for its --begin) is not shown.
  bool need_eligible = true;
  /// With -j, a job named is shown however late it becomes eligible, unless
  /// -E says otherwise.
  bool check_end = true;
};

/// Whether a record falls in the window: eligible (or, for one that never
/// was, submitted) before its end and not ended before its start.
bool in_window(const Job& job, const Window& w) {
  if (w.need_eligible && job.eligible_time == k_no_time) return false;
  const Seconds from = job.eligible_time != k_no_time ? job.eligible_time : job.submit_time;
  if (w.check_end && from > w.end) return false;
  return job.end_time == k_no_time || job.end_time >= w.start;
}

int report(const SacctArgs& a) {
  if (a.helpformat) {
    fmt::print("{}", format::sacct_helpformat());
    return 0;
  }
  format::SacctOptions o;
  std::string fields = a.format;
  if (fields.empty() && a.brief) fields = "JobID,State,ExitCode";
  if (fields.empty()) {
    if (const char* env = std::getenv("SACCT_FORMAT")) fields = env;
  }
  if (fields.empty()) fields = format::sacct_default_format();
  o.fields = format::parse_sacct_format(fields);
  o.no_header = a.no_header;
  o.allocations_only = a.allocations;
  if (a.parsable) o.parsable = format::Parsable::trailing;
  if (a.parsable2) o.parsable = format::Parsable::no_trailing;
  if (!a.delimiter.empty()) o.delimiter = a.delimiter;
  if (!a.units.empty()) {
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(a.units[0])));
    if (std::string_view("KMGTP").find(unit) == std::string_view::npos) {
      std::fflush(stdout);
      fmt::print(stderr, "{}: error: Invalid unit type '{}'. Possible options are 'KMGTP'\n",
                 k_tool, a.units[0]);
      return fatal("Invalid unit type");
    }
    o.units = unit;
  }

  JobFilter filter;
  std::vector<query::JobRef> refs;
  for (const std::string& text : cli::split_job_list(a.jobs)) {
    auto these = jobs_of(text);
    if (!these) return fatal(fmt::format("Bad job/step specified: {}", text));
    refs.insert(refs.end(), these->begin(), these->end());
    if (const std::size_t dot = text.find('.'); dot != std::string::npos) {
      const std::string step = text.substr(dot + 1);
      if (step.empty() ||
          (step != "batch" && step.find_first_not_of("0123456789") != std::string::npos))
        return fatal(fmt::format("Bad job/step specified: {}", text));
      for (const query::JobRef& r : *these) o.only_steps[r.id].insert(step);
    }
  }
  if (!a.states.empty()) {
    std::string bad;
    auto states = cli::states_from_list(a.states, bad);
    if (!states)
      throw Error(Errc::invalid_argument, fmt::format("Invalid job state specified: {}", bad));
    filter.states = *states;
  }
  filter.partitions = cli::split_list(a.partitions);
  filter.accounts = cli::split_list(a.accounts);
  filter.users = cli::split_list(a.users);
  // Like Slurm, a plain user sees their own jobs unless -a or -u says otherwise.
  const auto uid = static_cast<std::uint32_t>(::getuid());
  if (filter.users.empty() && !a.all_users && uid != 0) filter.users = {proc::user_name(uid)};

  const Paths paths = default_paths();
  const Config config = query::read_config(paths);
  format::Context ctx = cli::read_context(config);
  for (const Reservation& r : query::read_reservations(paths)) ctx.reservation_ids[r.name] = r.id;
  // The window (sacct(1), DEFAULT TIME WINDOW): from midnight, or from the
  // beginning with -j, until now. Unlike Slurm, --state alone keeps the
  // midnight start rather than "now" (slurm-reference/README.md).
  Window w;
  w.start = refs.empty() ? local_midnight(ctx.now) : 0;
  if (!a.start.empty()) w.start = parse::date_time(a.start, ctx.now, parse::Resolve::past);
  w.end = a.end.empty() ? ctx.now : parse::date_time(a.end, ctx.now, parse::Resolve::past);
  w.need_eligible = refs.empty() && filter.states.empty();
  w.check_end = refs.empty() || !a.end.empty();
  filter.ended_after = w.start;
  std::vector<Job> jobs = query::read_jobs(paths, filter, refs);
  if (a.duplicates) jobs = query::with_attempts(paths, jobs);
  std::erase_if(jobs, [&](const Job& j) { return !in_window(j, w); });
  if (a.json) {
    fmt::print("{}", format::sacct_json(std::move(jobs), ctx));
    return 0;
  }
  std::vector<JobStep> steps;
  if (!o.allocations_only) steps = query::job_steps(paths, jobs);
  fmt::print("{}", format::render_sacct(std::move(jobs), o, ctx, steps));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sacct: display accounting data for jobs"};
  cli::configure_app(app, k_tool);
  SacctArgs a;
  app.add_option("-A,--accounts", a.accounts, "comma separated list of accounts");
  app.add_flag("-a,--allusers", a.all_users, "display jobs of all users");
  app.add_flag("-b,--brief", a.brief, "JobID, State and ExitCode only");
  app.add_option("--delimiter", a.delimiter, "field separator of -p and -P (default '|')");
  app.add_flag("-D,--duplicates", a.duplicates, "show every attempt of requeued jobs");
  app.add_option("-E,--endtime", a.end, "end of the time window");
  app.add_flag("-e,--helpformat", a.helpformat, "print the fields --format takes");
  app.add_option("-j,--jobs", a.jobs, "comma separated list of job ids (12, 12_3, 12.batch)");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_flag("-n,--noheader", a.no_header, "no header line");
  app.add_option("-o,--format", a.format, "comma separated list of fields");
  app.add_flag("-p,--parsable", a.parsable, "'|' after every field");
  app.add_flag("-P,--parsable2", a.parsable2, "'|' between fields");
  app.add_option("-r,--partition", a.partitions, "comma separated list of partitions");
  app.add_option("-S,--starttime", a.start, "start of the time window");
  app.add_option("-s,--state", a.states, "comma separated list of states");
  app.add_option("--units", a.units, "memory fields in this unit: K, M, G, T or P");
  app.add_option("-u,--user", a.users, "comma separated list of users");
  app.add_flag("-X,--allocations", a.allocations, "only the jobs, not their steps");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
  return report(a);
}

}  // namespace

int sacct(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
