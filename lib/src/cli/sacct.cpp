// sacct: accounting lines for jobs, read from the database without stintd.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/core.h>
#include <grp.h>
#include <sys/stat.h>
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
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sacct";

// Slurm 22.05's LONG_FIELDS.
constexpr std::string_view k_long_fields =
    "JobID,JobIDRaw,JobName,Partition,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,"
    "MaxRSSNode,MaxRSSTask,AveRSS,MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,"
    "MinCPUTask,AveCPU,NTasks,AllocCPUS,Elapsed,State,ExitCode,AveCPUFreq,ReqCPUFreqMin,"
    "ReqCPUFreqMax,ReqCPUFreqGov,ReqMem,ConsumedEnergy,MaxDiskRead,MaxDiskReadNode,"
    "MaxDiskReadTask,AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite,"
    "ReqTRES,AllocTRES,TRESUsageInAve,TRESUsageInMax,TRESUsageInMaxNode,TRESUsageInMaxTask,"
    "TRESUsageInMin,TRESUsageInMinNode,TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutMax,"
    "TRESUsageOutMaxNode,TRESUsageOutMaxTask,TRESUsageOutAve,TRESUsageOutTot";

struct SacctArgs {
  std::string accounts;
  bool all_clusters = false;
  bool all_users = false;
  bool allocations = false;
  bool batch_script = false;
  bool brief = false;
  std::string clusters;
  bool completion = false;
  std::string constraints;
  std::string ncpus;
  std::string nnodes;
  std::string reasons;
  bool usage = false;
  // Slurm's options stint cannot honour: refused, each with what to use.
  bool long_format = false;
  bool truncate = false;
  bool noconvert = false;
  std::string associations;
  std::string flags;
  bool env_vars = false;
  bool federation = false;
  std::string file;
  std::string groups;
  bool local = false;
  std::string names;
  std::string nodelist;
  std::string qos;
  std::string timelimit_min;
  std::string timelimit_max;
  bool use_local_uid = false;
  std::string wckeys;
  std::optional<std::string> whole_hetjob;
  bool yaml = false;
  std::string delimiter;
  bool duplicates = false;
  std::string end;
  std::vector<std::string> format;  ///< each -o, in order: Slurm joins them
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

/// An option Slurm has that stint cannot honour: said, and exit 1.
int refuse(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, message);
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

/// -T: a record's times cut to the window, as slurmdbd cuts them: a start
/// before the window's start is its start, and an end after its end, or none
/// yet for one that started, is its end; so Elapsed is the time inside it.
template <class Record>
void truncate_to(Record& r, const Window& w) {
  if (r.start_time == k_no_time) return;
  r.start_time = std::max(r.start_time, w.start);
  if (r.end_time == k_no_time || r.end_time > w.end) r.end_time = w.end;
}

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// -g: group names or ids, as ids; an unknown name is Slurm's error.
std::optional<std::vector<std::uint32_t>> group_ids(const std::string& text) {
  std::vector<std::uint32_t> ids;
  for (const std::string& g : cli::split_list(text)) {
    if (const struct group* gr = ::getgrnam(g.c_str())) {
      ids.push_back(gr->gr_gid);
      continue;
    }
    std::uint32_t gid = 0;
    const auto [end, ec] = std::from_chars(g.data(), g.data() + g.size(), gid);
    if (ec != std::errc() || end != g.data() + g.size()) {
      std::fflush(stdout);
      fmt::print(stderr, "{}: error: Invalid group id: {}\n", k_tool, g);
      return std::nullopt;
    }
    ids.push_back(gid);
  }
  return ids;
}

// -i/-I: "N" or "N-M", as Slurm's get_resource_arg_range takes them.
bool range_of(const std::string& text,
              std::optional<std::pair<std::uint32_t, std::uint32_t>>& out) {
  if (text.empty()) return true;
  const std::size_t dash = text.find('-');
  auto number = [](std::string_view t, std::uint32_t& v) {
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && end == t.data() + t.size();
  };
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
  if (!number(std::string_view(text).substr(0, dash), lo)) return false;
  hi = lo;
  if (dash != std::string::npos && !number(std::string_view(text).substr(dash + 1), hi))
    return false;
  if (hi < lo) return false;
  out = std::pair{lo, hi};
  return true;
}

// -k/-K: minutes as sbatch -t takes them; false for what Slurm refuses (zero
// or less, or no time at all).
bool limit_of(const std::string& text, std::optional<Seconds>& out) {
  if (text.empty()) return true;
  try {
    out = parse::time_limit(text);
  } catch (const Error&) {
    return false;
  }
  return *out > 0;
}

// What the database filter does not select by: names, QOS, groups, wckeys,
// nodes and time limits.
struct Selection {
  std::vector<std::string> names;
  std::vector<std::string> qos;
  std::vector<std::uint32_t> groups;
  std::vector<std::string> wckeys;
  std::vector<std::string> nodes;
  std::optional<Seconds> limit_min;
  std::optional<Seconds> limit_max;
  std::vector<std::string> constraints;
  std::vector<Reason> reasons;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> nodes_range;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> cpus_range;

  bool keeps(const Job& job) const {
    if (!constraints.empty() && !contains(constraints, job.spec.options().constraint)) return false;
    if (!reasons.empty() && std::find(reasons.begin(), reasons.end(), job.reason) == reasons.end())
      return false;
    auto within = [](const auto& range, std::uint32_t n) {
      return !range || (n >= range->first && n <= range->second);
    };
    const auto node_count =
        job.alloc.empty() ? job.req.nodes : static_cast<std::uint32_t>(job.alloc.size());
    if (!within(nodes_range, node_count) || !within(cpus_range, job.total_cpus())) return false;
    if (!names.empty() && !contains(names, job.spec.name)) return false;
    if (!qos.empty() && !contains(qos, job.qos)) return false;
    if (!groups.empty() && std::find(groups.begin(), groups.end(), job.group_id) == groups.end())
      return false;
    if (!wckeys.empty() && !contains(wckeys, job.spec.options().wckey)) return false;
    if (!nodes.empty()) {
      const auto ran_on = job.node_names();
      if (std::none_of(ran_on.begin(), ran_on.end(),
                       [this](const std::string& n) { return contains(nodes, n); }))
        return false;
    }
    // As Slurm's: with -K a range, with -k alone that limit exactly.
    const bool limit_kept = limit_min && limit_max
                                ? job.time_limit >= *limit_min && job.time_limit <= *limit_max
                            : limit_min ? job.time_limit == *limit_min
                            : limit_max ? job.time_limit <= *limit_max
                                        : true;
    return limit_kept;
  }
};

// -B and --env-vars: what each job was submitted with, as stintd keeps it,
// under Slurm's title and rule: the script for its owner and operators only,
// the environment with every value "***" for anyone else.
int print_submitted(const std::vector<Job>& jobs, bool environment) {
  const std::string rule(80, '-');
  for (const Job& job : jobs) {
    nlohmann::json reply;
    std::string text;
    try {
      if (environment) {
        reply =
            rpc::call(default_paths(),
                      {{"op", "job_env"}, {"job_ids", nlohmann::json::array({job.display_id()})}});
        const auto found = reply.find("jobs");
        reply = found != reply.end() && found->is_array() && !found->empty() &&
                        found->front().is_object()
                    ? found->front()
                    : nlohmann::json::object();
      } else {
        reply = rpc::call(default_paths(), {{"op", "batch_script"}, {"job_id", job.display_id()}});
      }
    } catch (const Error&) {
      reply = nlohmann::json::object();
    }
    if (environment) {
      const auto env = reply.find("environment");
      if (env != reply.end() && env->is_array()) {
        for (const auto& kv : *env) {
          if (kv.is_array() && kv.size() == 2 && kv[0].is_string() && kv[1].is_string())
            text += kv[0].get<std::string>() + "=" + kv[1].get<std::string>() + "\n";
        }
      }
      fmt::print("Environment used for {} (must be batch to display)\n{}\n{}\n", job.display_id(),
                 rule, text.empty() ? "NONE\n" : text);
    } else {
      text = reply.value("script", std::string());
      fmt::print("Batch Script for {}\n{}\n{}\n", job.display_id(), rule,
                 text.empty() ? "NONE\n" : text);
    }
  }
  return 0;
}

int report(const SacctArgs& a) {
  if (a.helpformat) {
    fmt::print("{}", format::sacct_helpformat());
    return 0;
  }
  if ((a.batch_script || a.env_vars) && a.jobs.empty()) {
    return fatal(
        fmt::format("When requesting {} you must also request specific jobs with the '-j' option.",
                    a.env_vars ? "job environment" : "job scripts"));
  }
  if (a.batch_script && a.env_vars)
    return fatal("Options --batch-script and --env-vars are mutually exclusive");
  if (a.whole_hetjob && !a.whole_hetjob->empty()) {
    std::string v = *a.whole_hetjob;
    for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (v != "yes" && v != "y" && v != "no" && v != "n") {
      std::fflush(stdout);
      fmt::print(stderr,
                 "{}: error: Invalid --whole-hetjob value \"{}\". Valid values: [yes|no].\n",
                 k_tool, *a.whole_hetjob);
      return 1;
    }
  }
  if (!a.associations.empty())
    return refuse("--associations is not available: select by --accounts and --user");
  if (!a.flags.empty())
    return refuse("--flags is not available: stint keeps no scheduling flags of jobs");
  Selection selection;
  selection.constraints = cli::split_list(a.constraints);
  for (const std::string& r : cli::split_list(a.reasons)) {
    const std::optional<Reason> reason = reason_from_name(r);
    if (!reason) return fatal(fmt::format("Invalid reason: {}", r));
    selection.reasons.push_back(*reason);
  }
  if (!range_of(a.nnodes, selection.nodes_range)) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: invalid node range -i '{}'\n", k_tool, a.nnodes);
    return 1;
  }
  if (!range_of(a.ncpus, selection.cpus_range)) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: invalid cpu range -i '{}'\n", k_tool, a.ncpus);
    return 1;
  }
  if (!limit_of(a.timelimit_min, selection.limit_min) ||
      !limit_of(a.timelimit_max, selection.limit_max))
    return fatal("Invalid time limit specification");
  if (!a.groups.empty()) {
    auto ids = group_ids(a.groups);
    if (!ids) return 1;
    selection.groups = std::move(*ids);
  }
  selection.names = cli::split_list(a.names);
  for (std::string q : cli::split_list(a.qos)) {
    for (char& c : q) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    selection.qos.push_back(std::move(q));
  }
  selection.wckeys = cli::split_list(a.wckeys);
  if (!a.nodelist.empty()) {
    try {
      selection.nodes = parse::expand_hostlist(a.nodelist);
    } catch (const Error&) {
      return fatal(fmt::format("Invalid node list: {}", a.nodelist));
    }
    for (std::string& n : selection.nodes) {
      if (n == "localhost") n = proc::short_hostname();
    }
  }
  if (a.completion) {
    // Job completion records need a JobCompType; stint keeps none.
    std::fflush(stdout);
    fmt::print(stderr, "Slurm job completion is disabled\n");
    return 1;
  }
  format::SacctOptions o;
  std::string fields;
  // As Slurm's sacct: the -o lists, then -b's fields, then -l's; the default
  // only when none of them gave any.
  for (const std::string& f : a.format) fields += (fields.empty() ? "" : ",") + f;
  if (a.brief) fields += std::string(fields.empty() ? "" : ",") + "JobID,State,ExitCode";
  if (a.long_format) {
    if (!fields.empty()) fields += ',';
    fields += k_long_fields;
  }
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
  } else if (a.noconvert) {
    o.units = '*';
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
  o.task_query = std::any_of(refs.begin(), refs.end(), [](const query::JobRef& r) {
    return r.array_task != k_no_array_task;
  });
  if (!a.states.empty()) {
    std::string bad;
    auto states = cli::states_from_list(a.states, bad);
    if (!states)
      throw Error(Errc::invalid_argument, fmt::format("Invalid job state specified: {}", bad));
    filter.states = *states;
  }
  filter.partitions = cli::split_list(a.partitions);
  filter.accounts = cli::split_list(a.accounts);
  for (const std::string& user : cli::split_list(a.users))
    filter.users.push_back(cli::user_name_of(user));
  // Like Slurm, a plain user sees their own jobs unless -a or -u says otherwise.
  const auto uid = static_cast<std::uint32_t>(::getuid());
  // -N looks at what ran on those nodes, whoever's it was.
  if (filter.users.empty() && !a.all_users && uid != 0 && a.nodelist.empty())
    filter.users = {proc::user_name(uid)};

  // -v: the line Slurm's sacct logs as it loads its storage plugin (stint's
  // show config says accounting_storage/slurmdbd: the accounting it keeps
  // answers as slurmdbd would).
  if (a.verbose > 0)
    fmt::print(stderr,
               "sacct: accounting_storage/slurmdbd: init: Accounting storage SLURMDBD "
               "plugin loaded\n");
  const Paths paths = default_paths();
  cli::warn_if_stale("sacct", paths);
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
  if (w.start > w.end)
    return refuse(fmt::format("Start time ({}) requested is after end time ({}).",
                              parse::format_timestamp(w.start), parse::format_timestamp(w.end)));
  w.need_eligible = refs.empty() && filter.states.empty();
  w.check_end = refs.empty() || !a.end.empty();
  filter.ended_after = w.start;
  // --whole-hetjob: yes shows every component of a het job one of whose
  // components is named; no only those named; unset, as Slurm, the whole job
  // for its leader's id and one component for its own.
  std::optional<bool> whole_hetjob;
  if (a.whole_hetjob)
    whole_hetjob = a.whole_hetjob->empty() ||
                   std::tolower(static_cast<unsigned char>(a.whole_hetjob->front())) == 'y';
  if (whole_hetjob.value_or(false)) {
    for (const Job& named : query::read_jobs(paths, JobFilter{}, refs)) {
      if (named.is_het_component() && !named.is_het_leader())
        refs.push_back(query::JobRef{named.het_job_id});
    }
  }
  std::vector<Job> jobs = query::read_jobs(paths, filter, refs);
  if (whole_hetjob == false) {
    std::erase_if(jobs, [&refs](const Job& j) {
      return j.is_het_component() && !j.is_het_leader() &&
             std::none_of(refs.begin(), refs.end(),
                          [&j](const query::JobRef& r) { return r.id == j.id; });
    });
  }
  if (a.duplicates) jobs = query::with_attempts(paths, jobs);
  std::erase_if(jobs, [&](const Job& j) { return !in_window(j, w) || !selection.keeps(j); });
  // -M: records are kept for this cluster only; another's has none.
  if (!a.all_clusters && !a.clusters.empty() && a.clusters != "-1") {
    const auto named = cli::split_list(a.clusters);
    if (!contains(named, "all") && !contains(named, config.cluster_name)) jobs.clear();
  }
  if (a.batch_script || a.env_vars) return print_submitted(jobs, a.env_vars);
  if (a.truncate) {
    for (Job& j : jobs) truncate_to(j, w);
  }
  if (a.json) {
    fmt::print("{}", format::sacct_json(std::move(jobs), ctx));
    return 0;
  }
  if (a.yaml) {
    fmt::print("{}", format::yaml_from_json(format::sacct_json(std::move(jobs), ctx)));
    return 0;
  }
  std::vector<JobStep> steps;
  if (!o.allocations_only) steps = query::job_steps(paths, jobs);
  if (a.truncate) {
    for (JobStep& step : steps) truncate_to(step, w);
  }
  fmt::print("{}", format::render_sacct(std::move(jobs), o, ctx, steps));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sacct: display accounting data for jobs"};
  cli::configure_app(app, k_tool);
  SacctArgs a;
  a.federation = std::getenv("SACCT_FEDERATION") != nullptr;
  a.local = std::getenv("SACCT_LOCAL") != nullptr;
  app.add_option("-A,--accounts", a.accounts, "comma separated list of accounts");
  app.add_flag("-a,--allusers", a.all_users, "display jobs of all users");
  app.add_flag("-B,--batch-script", a.batch_script, "print the batch script of the jobs -j names");
  app.add_flag("-b,--brief", a.brief, "JobID, State and ExitCode only");
  app.add_flag("-c,--completion", a.completion,
               "use job completion records (this cluster keeps none: an error)");
  app.add_option("-C,--constraints", a.constraints,
                 "comma separated list of constraints the jobs asked for");
  app.add_option("--delimiter", a.delimiter, "field separator of -p and -P (default '|')");
  app.add_flag("-D,--duplicates", a.duplicates, "show every attempt of requeued jobs");
  app.add_option("-E,--endtime", a.end, "end of the time window");
  app.add_flag("-e,--helpformat", a.helpformat, "print the fields --format takes");
  app.add_flag("--env-vars", a.env_vars, "print the environment of the batch jobs -j names");
  app.add_option("-f,--file", a.file, "job completion file, read with -c");
  app.add_flag("--federation", a.federation,
               "report the jobs of the federation (this cluster is in none: its own)");
  app.add_option("-F,--flags", a.flags, "scheduling flags (not recorded here: refused)");
  app.add_option("-g,--gid,--group", a.groups, "comma separated list of groups or group ids");
  app.add_option("-I,--ncpus", a.ncpus, "jobs with this many CPUs, N or N-M");
  app.add_option("-i,--nnodes", a.nnodes, "jobs with this many nodes, N or N-M");
  app.add_option("-j,--jobs", a.jobs, "comma separated list of job ids (12, 12_3, 12.batch)");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_option("-K,--timelimit-max", a.timelimit_max,
                 "jobs whose time limit is at most this (with -k: the range)");
  app.add_option("-k,--timelimit-min", a.timelimit_min,
                 "jobs whose time limit is this (with -K: at least this)");
  app.add_flag("-l,--long", a.long_format,
               "Slurm's long field list, with each step's usage (memory and CPU time "
               "measured here; virtual size, pages, disk and energy blank or 0)");
  app.add_flag("-L,--allclusters", a.all_clusters, "report the jobs of all clusters (this one)");
  app.add_flag("--local", a.local, "report the jobs of this cluster only");
  app.add_option("-M,--clusters", a.clusters,
                 "comma separated list of clusters (only this one has records)");
  app.add_option("--name", a.names, "comma separated list of job names");
  app.add_option("-N,--nodelist", a.nodelist, "jobs that ran on any of these nodes");
  app.add_flag("-n,--noheader", a.no_header, "no header line");
  app.add_flag("--noconvert", a.noconvert,
               "memory fields in the unit they are kept in (K for RSS, M for ReqMem)");
  app.add_option("-o,--format", a.format, "comma separated list of fields (each -o adds more)")
      ->take_all();
  app.add_flag("-p,--parsable", a.parsable, "'|' after every field");
  app.add_flag("-P,--parsable2", a.parsable2, "'|' between fields");
  app.add_option("-q,--qos", a.qos, "comma separated list of QOS names");
  app.add_option("-R,--reason", a.reasons, "comma separated list of reasons jobs waited for");
  app.add_option("-r,--partition", a.partitions, "comma separated list of partitions");
  app.add_option("-S,--starttime", a.start, "start of the time window");
  app.add_option("-s,--state", a.states, "comma separated list of states");
  app.add_flag("-T,--truncate", a.truncate,
               "truncate Start and End to the window (-S, -E): Elapsed is the time within it");
  app.add_flag("-U", a.usage, "display brief usage message (as --usage)");
  app.add_option("--units", a.units, "memory fields in this unit: K, M, G, T or P");
  app.add_flag("--use-local-uid", a.use_local_uid,
               "user names from this machine's passwd (stint's always are)");
  app.add_option("-u,--user", a.users, "comma separated list of users");
  app.add_option("-W,--wckeys", a.wckeys, "comma separated list of wckeys");
  app.add_option("--whole-hetjob", a.whole_hetjob,
                 "=yes|no: all components of heterogeneous jobs (there are none here)");
  app.add_option("-x,--associations", a.associations,
                 "association ids (none here: refused, use -A and -u)");
  app.add_flag("-X,--allocations", a.allocations, "only the jobs, not their steps");
  app.add_flag("--yaml", a.yaml, "produce YAML output");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  // Slurm's own getopt table: its long names, in its order.
  static const cli::GetoptRules rules{{{"allusers", "--allusers"},
                                       {"accounts", "--accounts"},
                                       {"allocations", "--allocations"},
                                       {"brief", "--brief"},
                                       {"batch-script", "--batch-script"},
                                       {"completion", "--completion"},
                                       {"constraints", "--constraints"},
                                       {"delimiter", "--delimiter"},
                                       {"duplicates", "--duplicates"},
                                       {"federation", "--federation"},
                                       {"helpformat", "--helpformat"},
                                       {"help-fields", "--helpformat"},
                                       {"endtime", "--endtime"},
                                       {"env-vars", "--env-vars"},
                                       {"file", "--file"},
                                       {"flags", "--flags"},
                                       {"gid", "--gid"},
                                       {"group", "--gid"},
                                       {"help", "--help"},
                                       {"local", "--local"},
                                       {"name", "--name"},
                                       {"nnodes", "--nnodes"},
                                       {"ncpus", "--ncpus"},
                                       {"jobs", "--jobs"},
                                       {"timelimit-min", "--timelimit-min"},
                                       {"timelimit-max", "--timelimit-max"},
                                       {"long", "--long"},
                                       {"allclusters", "--allclusters"},
                                       {"cluster", "--clusters"},
                                       {"clusters", "--clusters"},
                                       {"nodelist", "--nodelist"},
                                       {"noconvert", "--noconvert"},
                                       {"units", "--units"},
                                       {"noheader", "--noheader"},
                                       {"fields", "--format"},
                                       {"format", "--format"},
                                       {"parsable", "--parsable"},
                                       {"parsable2", "--parsable2"},
                                       {"qos", "--qos"},
                                       {"partition", "--partition"},
                                       {"reason", "--reason"},
                                       {"state", "--state"},
                                       {"starttime", "--starttime"},
                                       {"truncate", "--truncate"},
                                       {"uid", "--user"},
                                       {"use-local-uid", "--use-local-uid"},
                                       {"usage", "--usage"},
                                       {"user", "--user"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"},
                                       {"wckeys", "--wckeys"},
                                       {"whole-hetjob", "--whole-hetjob"},
                                       {"associations", "--associations"},
                                       {"json", "--json"},
                                       {"yaml", "--yaml"}},
                                      {"--whole-hetjob"},
                                      1};
  std::vector<std::string> operands;
  if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, operands); rc >= 0)
    return rc;
  if (!operands.empty()) {
    // Slurm's words: a line, then one per argument left over.
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: Unknown arguments:\n", k_tool);
    for (const std::string& w : operands) fmt::print(stderr, "{}: error:  {}\n", k_tool, w);
    return 1;
  }
  if (a.usage) {
    // -U is Slurm's short name for --usage.
    std::string name(k_tool);
    std::string usage = "--usage";
    std::array<char*, 2> args{name.data(), usage.data()};
    return cli::parse_args(app, k_tool, 2, args.data());
  }
  if (app.count("--federation") > 0 || app.count("--local") > 0) a.all_clusters = false;
  if (!a.file.empty()) {
    struct stat st {};
    if (::stat(a.file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      std::fflush(stdout);
      fmt::print(stderr, "{} is not a valid file\n", a.file);
      return 1;
    }
  }
  return report(a);
}

}  // namespace

int sacct(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
