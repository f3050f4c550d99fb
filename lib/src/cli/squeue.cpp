// squeue: the jobs in the queue, read from the database without stintd.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <optional>
#include <set>
#include <thread>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/option_dump.hpp"
#include "cli/read_common.hpp"
#include "cli/squeue_steps.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "squeue";

struct SqueueArgs {
  std::string accounts;
  bool all = false;
  bool array = false;
  bool array_unique = false;
  std::string clusters;
  bool federation = false;
  std::string format;
  std::string format_long;
  bool helpformat = false;
  std::string iterate;
  std::string jobs;
  bool jobs_given = false;
  bool json = false;
  std::string licenses;
  bool local = false;
  bool long_list = false;
  bool me = false;
  std::string names;
  std::string nodelist;
  bool no_convert = false;
  bool no_header = false;
  bool priority = false;
  std::string qos;
  bool sibling = false;
  bool start = false;
  std::string partitions;
  std::string reservation;
  std::string sort;
  std::string states;
  std::string steps;
  bool steps_given = false;
  std::string users;
  std::int64_t verbose = 0;
  bool yaml = false;
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

bool env_set(const char* name) { return std::getenv(name) != nullptr; }

// SQUEUE_* variables that fill an option the command line left empty.
void fill_from_env(std::string& value, const char* name) {
  if (!value.empty()) return;
  if (const char* env = std::getenv(name)) value = env;
}

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// -w: the named nodes, each one of this cluster's ("localhost" is this host).
std::optional<std::set<std::string>> wanted_nodes(const std::string& text, const Config& config) {
  std::vector<std::string> names;
  try {
    names = parse::expand_hostlist(text);
  } catch (const Error&) {
    error_line(fmt::format("'{}' invalid entry for --nodelist", text));
    return std::nullopt;
  }
  std::set<std::string> known;
  for (const NodeDef& n : config.nodes()) known.insert(n.name);
  std::set<std::string> out;
  for (std::string name : names) {
    const std::string given = name;
    if (name == "localhost") name = proc::short_hostname();
    if (!known.contains(name)) {
      error_line(fmt::format("Invalid node name {}", given));
      return std::nullopt;
    }
    out.insert(name);
  }
  return out;
}

// -L: whether the job asks for one of the licenses (names only, counts aside).
bool wants_license(const Job& job, const std::vector<std::string>& licenses) {
  for (const std::string& item : cli::split_list(job.spec.options().licenses)) {
    if (contains(licenses, item.substr(0, item.find(':')))) return true;
  }
  return false;
}

// What the database filter does not select by: the spec's reservation and
// licenses, the QOS and the nodes.
struct Selection {
  std::string reservation;
  std::vector<std::string> qos;
  std::vector<std::string> licenses;
  std::optional<std::set<std::string>> nodes;

  bool keeps(const Job& job) const {
    if (!reservation.empty() && job.spec.options().reservation != reservation) return false;
    if (!qos.empty() && !contains(qos, job.qos)) return false;
    if (!licenses.empty() && !wants_license(job, licenses)) return false;
    if (nodes) {
      const auto names = job.node_names();
      if (std::none_of(names.begin(), names.end(),
                       [&](const std::string& n) { return nodes->contains(n); }))
        return false;
    }
    return true;
  }
  bool needs_spec() const { return !reservation.empty() || !licenses.empty(); }
};

// The default NAME column is 8 wide, as Slurm's; a run's name (project/N)
// cut there loses its number, so the column grows to the longest run name
// listed. Jobs of sbatch alone keep Slurm's layout byte for byte.
void widen_for_runs(format::Layout& layout, const Paths& paths, Seconds ended_after) {
  if (!Store::exists(paths.db())) return;
  const std::size_t longest = Store::reader(paths.db())->longest_run_name(ended_after);
  const std::size_t name_column = format::parse_squeue_long_format("name").fields.front().column;
  for (format::Field& f : layout.fields) {
    if (f.column == name_column && f.width > 0 && longest > static_cast<std::size_t>(f.width))
      f.width = static_cast<int>(longest);
  }
}

int report(const SqueueArgs& a, const Paths& paths, const Config& config, JobFilter filter,
           const std::vector<query::JobRef>& refs, const Selection& selection) {
  format::Context ctx = cli::read_context(config);
  ctx.no_convert = a.no_convert;
  // Ended jobs show as long as slurmctld would still hold them (MinJobAge),
  // not the whole history the database keeps: that is sacct's.
  filter.ended_after = ctx.now - cli::min_job_age(config);
  // -P lists a pending job once per partition it was submitted to, so the
  // partition filter applies to each of those lines rather than to the job.
  const std::vector<std::string> partitions = filter.partitions;
  if (a.priority) filter.partitions.clear();
  auto keep = [&selection](const Job& job) { return selection.keeps(job); };
  // Each line a job prints as: one, or with -P one per partition of a pending job.
  auto each_line = [&](const Job& job, const std::function<void(const Job&)>& emit) {
    if (!keep(job)) return;
    if (!a.priority || job.state != JobState::pending || !job.spec.partition ||
        job.spec.partition->find(',') == std::string::npos) {
      if (partitions.empty() || contains(partitions, job.partition)) emit(job);
      return;
    }
    for (const std::string& p : cli::split_list(*job.spec.partition)) {
      if (!partitions.empty() && !contains(partitions, p)) continue;
      Job copy = job;
      copy.partition = p;
      copy.spec.partition = p;
      emit(copy);
    }
  };

  if (a.steps_given) {
    // Accounts, names and states select jobs, not steps: Slurm ignores them here.
    JobFilter step_filter;
    step_filter.active_only = true;
    step_filter.users = filter.users;
    step_filter.partitions = partitions;
    std::vector<Job> jobs = query::read_jobs(paths, step_filter, refs);
    std::erase_if(jobs, [&](const Job& job) { return !keep(job); });
    const std::vector<JobStep> steps = query::job_steps(paths, jobs);
    std::string layout = a.format;
    if (layout.empty() && a.format_long.empty()) {
      if (const char* env = std::getenv("SQUEUE_FORMAT")) layout = env;
    }
    if (!a.format_long.empty())
      throw Error(Errc::invalid_argument,
                  "-O (--Format) does not apply to job steps here; "
                  "use -o (--format) with step fields");
    std::string sort = a.sort;
    if (sort.empty()) {
      if (const char* env = std::getenv("SQUEUE_SORT")) sort = env;
    }
    if (a.long_list && !a.no_header) fmt::print("{}\n", format::date_line(ctx.now));
    fmt::print("{}", cli::render_squeue_steps(jobs, steps, layout, sort, a.no_header,
                                              cli::split_list(a.steps), ctx.now));
    return 0;
  }

  format::SqueueOptions o;
  o.long_list = a.long_list;
  o.no_header = a.no_header;
  o.expand_arrays = a.array || a.array_unique;
  o.task_query = std::any_of(refs.begin(), refs.end(), [](const query::JobRef& r) {
    return r.array_task != k_no_array_task;
  });
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
  else {
    o.layout = format::squeue_default_layout(a.long_list);
    widen_for_runs(o.layout, paths, filter.ended_after);
  }

  const bool filtered = selection.needs_spec() || a.priority;
  if (refs.empty()) {
    // Built as the jobs are read, without holding them (bench/RESULTS.md:
    // squeue at 100,000 pending).
    format::SqueueLines lines(o, ctx);
    query::each_job(
        paths, filter, [&](const Job& job) { each_line(job, [&](const Job& j) { lines.add(j); }); },
        format::squeue_needs_whole_jobs(o.layout) || filtered ? JobPart::whole : JobPart::listing);
    lines.print(stdout, query::dependency_arrays(paths, lines.with_dependencies()));
    return 0;
  }
  std::vector<Job> read = query::read_jobs(paths, filter, refs);
  if (read.empty() && refs.size() == 1 && !query::job_exists(paths, refs.front()))
    return no_such_job();
  std::vector<Job> jobs;
  for (const Job& job : read) each_line(job, [&](const Job& j) { jobs.push_back(j); });
  // A task named by its own job id (not its array's) is named too.
  o.task_query = o.task_query || std::any_of(jobs.begin(), jobs.end(), [&](const Job& j) {
                   return j.is_array_task() && j.id != j.array_job_id &&
                          std::any_of(refs.begin(), refs.end(),
                                      [&](const query::JobRef& r) { return r.id == j.id; });
                 });
  ctx.array_jobs = query::dependency_arrays(paths, jobs);
  fmt::print("{}", format::render_squeue(std::move(jobs), o, ctx));
  return 0;
}

int list(SqueueArgs a, std::vector<std::string> operands) {
  if (a.helpformat) {
    fmt::print("{}", format::squeue_helpformat());
    return 0;
  }
  if (!a.format.empty() && !a.format_long.empty()) {
    error_line("-O (--Format) is incompatible with -o (--format)");
    return 1;
  }
  if (a.long_list && !a.format.empty()) {
    std::fflush(stdout);
    fmt::print(stderr,
               "{}: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please "
               "remove one and retry.\n",
               k_tool);
    return 1;
  }
  // "-j 12" and "-s 12.0": the option's value is optional, so it is the
  // operand after it.
  if (!operands.empty() && a.jobs_given && a.jobs.empty()) {
    a.jobs = operands.front();
    operands.erase(operands.begin());
  } else if (!operands.empty() && a.steps_given && a.steps.empty()) {
    a.steps = operands.front();
    operands.erase(operands.begin());
  }
  if (!operands.empty()) {
    error_line(fmt::format("Unrecognized option: {}", operands.front()));
    fmt::print(
        "Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]\n"
        "              [-n name] [-o format] [-p partitions] [--qos qos]\n"
        "              [--reservation reservation] [--sort fields] [--start]\n"
        "              [--step step_id] [-t states] [-u user_name] [--usage]\n"
        "              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]\n"
        "              [-ahjlrsv]\n");
    return 1;
  }
  if (a.jobs_given && a.steps_given) {
    if (a.jobs.empty()) {
      error_line("Incompatible options --jobs and --steps");
      return 1;
    }
  }
  int iterate = 0;
  if (!a.iterate.empty()) {
    iterate = std::atoi(a.iterate.c_str());
    if (iterate <= 0) {
      error_line(fmt::format("--iterate={}\n", a.iterate));
      return 1;
    }
  }
  fill_from_env(a.accounts, "SQUEUE_ACCOUNT");
  fill_from_env(a.names, "SQUEUE_NAMES");
  fill_from_env(a.licenses, "SQUEUE_LICENSES");
  fill_from_env(a.partitions, "SQUEUE_PARTITION");
  fill_from_env(a.qos, "SQUEUE_QOS");
  fill_from_env(a.states, "SQUEUE_STATES");
  fill_from_env(a.users, "SQUEUE_USERS");

  const Paths paths = default_paths();
  cli::warn_if_stale("squeue", paths);
  const Config config = query::read_config(paths);
  bool clusters_from_env = false;
  if (a.clusters.empty()) {
    fill_from_env(a.clusters, "SLURM_CLUSTERS");
    clusters_from_env = !a.clusters.empty();
  }
  if (const auto unknown =
          cli::unknown_clusters(a.clusters, config.cluster_name, clusters_from_env)) {
    error_line(*unknown);
    return 1;
  }

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
    filter.users.push_back(cli::user_name_of(user));
  }
  filter.partitions = cli::split_list(a.partitions);
  filter.names = cli::split_list(a.names);
  filter.accounts = cli::split_list(a.accounts);

  Selection selection{a.reservation, cli::split_list(a.qos), cli::split_list(a.licenses), {}};
  if (!a.nodelist.empty()) {
    selection.nodes = wanted_nodes(a.nodelist, config);
    if (!selection.nodes) return 1;
  }
  if (a.json || a.yaml) {
    format::Context ctx = cli::read_context(config);
    filter.ended_after = ctx.now - cli::min_job_age(config);
    std::vector<Job> jobs = query::read_jobs(paths, filter, refs);
    if (jobs.empty() && refs.size() == 1 && !query::job_exists(paths, refs.front()))
      return no_such_job();
    std::erase_if(jobs, [&](const Job& job) { return !selection.keeps(job); });
    ctx.array_jobs = query::dependency_arrays(paths, jobs);
    // Unlike Slurm 22.05, the JSON honours -j, -u, -t and the other filters.
    const std::string json = format::squeue_json(jobs, ctx, a.array);
    fmt::print("{}", a.yaml ? format::yaml_from_json(json) : json);
    return 0;
  }
  if (a.verbose > 0) {
    option_dump::SqueueOptions o;
    o.all = a.all;
    o.array = a.array;
    o.federation = a.federation;
    o.format = !a.format.empty() ? a.format : a.format_long;
    if (o.format.empty() && a.start && a.steps.empty() && !a.steps_given)
      o.format = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";
    o.iterate = iterate;
    o.job_flag = a.jobs_given;
    o.jobs = a.jobs;
    o.licenses = a.licenses;
    o.local = a.local;
    o.names = a.names;
    o.nodes = a.nodelist;
    o.partitions = a.partitions;
    o.priority = a.priority;
    o.reservation = a.reservation;
    o.sibling = a.sibling;
    o.sort = a.sort;
    o.start = a.start;
    o.states = a.states;
    o.steps_flag = a.steps_given;
    o.steps = a.steps;
    o.users = a.users;
    o.verbose = a.verbose;
    fmt::print("{}", option_dump::squeue(o));
  }
  for (;;) {
    // -l prints its own date line; -i and -v print one too.
    if (!a.no_header && !a.long_list && (iterate > 0 || a.verbose > 0))
      fmt::print("{}\n", format::date_line(static_cast<Seconds>(std::time(nullptr))));
    if (!a.clusters.empty() && !a.no_header) fmt::print("CLUSTER: {}\n", config.cluster_name);
    if (const int rc = report(a, paths, config, filter, refs, selection); rc != 0 || iterate == 0)
      return rc;
    fmt::print("\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(iterate));
  }
}

int run(int argc, char** argv) {
  CLI::App app{"squeue: view information about jobs located in the scheduling queue"};
  cli::configure_app(app, k_tool);
  // -h is --noheader, as in Slurm; help is --help only.
  app.set_help_flag("--help", "show this help message");
  SqueueArgs a;
  // Slurm's SQUEUE_* switches, before the command line (which --hide undoes).
  a.all = env_set("SQUEUE_ALL");
  a.array = env_set("SQUEUE_ARRAY");
  a.array_unique = env_set("SQUEUE_ARRAY_UNIQUE");
  a.federation = env_set("SQUEUE_FEDERATION");
  a.local = env_set("SQUEUE_LOCAL");
  a.priority = env_set("SQUEUE_PRIORITY");
  a.sibling = env_set("SQUEUE_SIB") || env_set("SQUEUE_SIBLING");
  app.add_option("-A,--account", a.accounts, "comma separated list of accounts to view");
  // Slurm's old spelling of -A, kept out of its --help as Slurm keeps it.
  app.add_option("-U", a.accounts)->group("");
  app.add_flag("-a,--all", a.all, "display jobs in hidden partitions");
  app.add_flag("--array-unique", a.array_unique,
               "display one unique pending job array element per line");
  app.add_flag("--federation", a.federation,
               "report federated information if a member of one (none here)");
  app.add_flag("-r,--array", a.array, "display one job array element per line");
  app.add_option("-o,--format", a.format, "format specification");
  app.add_option("-O,--Format", a.format_long, "long format specification");
  app.add_flag("--helpformat", a.helpformat,
               "print a list of fields that can be specified with the '--Format' option");
  app.add_flag("-h,--noheader", a.no_header, "no headers on output");
  app.add_flag_callback(
      "--hide", [&a] { a.all = false; }, "do not display jobs in hidden partitions");
  app.add_option("-i,--iterate", a.iterate, "report again every this many seconds");
  app.add_option("-j,--jobs", a.jobs, "comma separated list of jobs IDs to view");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_option("-L,--licenses", a.licenses, "comma separated list of license names to view");
  app.add_flag("--local", a.local, "report only jobs of the local cluster (the only one here)");
  app.add_flag("-l,--long", a.long_list, "long report");
  app.add_option("-M,--clusters", a.clusters,
                 "cluster to issue commands to (this cluster's name, or all)");
  app.add_flag("--me", a.me, "equivalent to --user=<my username>");
  app.add_option("-n,--name", a.names, "comma separated list of job names to view");
  app.add_flag("--noconvert", a.no_convert,
               "don't convert units from their original type (e.g. 2048M won't be converted to "
               "2G)");
  app.add_option("-w,--nodelist", a.nodelist, "list of nodes to view, default is all nodes");
  app.add_option("-p,--partition", a.partitions, "comma separated list of partitions to view");
  app.add_flag("-P,--priority", a.priority,
               "list a pending job once per partition it was submitted to");
  app.add_option("-q,--qos", a.qos, "comma separated list of qos's to view");
  app.add_option("-R,--reservation", a.reservation, "reservation to view, default is all");
  app.add_flag("--sibling", a.sibling,
               "report all sibling jobs on a federated cluster (none here); implies "
               "--federation");
  app.add_option("-s,--steps", a.steps, "comma separated list of job steps to view");
  app.add_option("-S,--sort", a.sort, "comma separated list of fields to sort on");
  app.add_flag("--start", a.start, "print expected start times of pending jobs");
  app.add_option("-t,--states", a.states, "comma separated list of states to view");
  app.add_option("-u,--user", a.users, "comma separated list of users to view");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_flag("--yaml", a.yaml, "produce YAML output");

  // Slurm's own getopt table: its long names, in its order.
  static const cli::GetoptRules rules{{{"accounts", "--account"},
                                       {"all", "--all"},
                                       {"array", "--array"},
                                       {"array-unique", "--array-unique"},
                                       {"Format", "--Format"},
                                       {"format", "--format"},
                                       {"federation", "--federation"},
                                       {"help", "--help"},
                                       {"hide", "--hide"},
                                       {"iterate", "--iterate"},
                                       {"jobs", "--jobs"},
                                       {"local", "--local"},
                                       {"long", "--long"},
                                       {"licenses", "--licenses"},
                                       {"cluster", "--clusters"},
                                       {"clusters", "--clusters"},
                                       {"me", "--me"},
                                       {"name", "--name"},
                                       {"noconvert", "--noconvert"},
                                       {"node", "--nodelist"},
                                       {"nodes", "--nodelist"},
                                       {"nodelist", "--nodelist"},
                                       {"noheader", "--noheader"},
                                       {"partitions", "--partition"},
                                       {"priority", "--priority"},
                                       {"qos", "--qos"},
                                       {"reservation", "--reservation"},
                                       {"sib", "--sibling"},
                                       {"sibling", "--sibling"},
                                       {"sort", "--sort"},
                                       {"start", "--start"},
                                       {"steps", "--steps"},
                                       {"states", "--states"},
                                       {"usage", "--usage"},
                                       {"user", "--user"},
                                       {"users", "--user"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"},
                                       {"json", "--json"},
                                       {"yaml", "--yaml"}},
                                      {"--jobs", "--steps"},
                                      1};
  std::vector<std::string> operands;
  if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, operands); rc >= 0)
    return rc;
  a.jobs_given = app.count("--jobs") > 0;
  a.steps_given = app.count("--steps") > 0;
  return list(std::move(a), std::move(operands));
}

}  // namespace

int squeue(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
