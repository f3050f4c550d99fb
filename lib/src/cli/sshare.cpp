// sshare: the fair share of the associations, read from the database without
// stintd and computed by the scheduler's own functions (cli/priority_read).

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/priority_read.hpp"
#include "cli/read_common.hpp"
#include "util/clock.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sshare";

struct SshareArgs {
  bool all = false;
  std::string accounts;
  bool helpformat = false;
  bool long_list = false;
  bool partitions = false;
  bool no_header = false;
  std::string format;
  bool parsable = false;
  bool parsable2 = false;
  std::string users;
  bool users_only = false;
  std::int64_t verbose = 0;
};

// TRES-minutes still to run of the running jobs of one association: each
// TRES times the minutes left of its time limit (none for an unlimited one).
std::vector<std::pair<std::string, std::uint64_t>> run_mins(const std::vector<const Job*>& jobs,
                                                            Seconds now, bool gpus) {
  double cpu = 0, mem = 0, node = 0, billing = 0, gpu = 0;
  for (const Job* j : jobs) {
    if (j->time_limit == k_infinite || j->start_time == k_no_time) continue;
    const double left = std::max<double>(0, j->start_time + j->time_limit - now) / 60.0;
    const sched::TresCounts c = sched::job_tres_counts(*j);
    cpu += c.cpu * left;
    mem += c.mem_mb * left;
    node += c.node * left;
    billing += c.cpu * left;
    gpu += c.gpu * left;
  }
  auto u = [](double v) { return static_cast<std::uint64_t>(v); };
  std::vector<std::pair<std::string, std::uint64_t>> out = {
      {"cpu", u(cpu)},         {"mem", u(mem)}, {"energy", 0}, {"node", u(node)},
      {"billing", u(billing)}, {"fs/disk", 0},  {"vmem", 0},   {"pages", 0}};
  if (gpus) out.emplace_back("gres/gpu", u(gpu));
  return out;
}

// What -v prints on standard error before the table, as sshare.c does.
void print_request(bool all_users, const std::vector<std::string>& users,
                   const std::vector<std::string>& accounts) {
  std::string out = "Users requested:\n";
  if (all_users) out += "\t: all\n";
  for (const std::string& u : users) out += fmt::format("\t: {}\n", u);
  out += "Accounts requested:\n";
  if (accounts.empty()) out += "\t: all\n";
  for (const std::string& acct : accounts) out += fmt::format("\t: {}\n", acct);
  std::fflush(stdout);
  fmt::print(stderr, "{}", out);
}

int show(const SshareArgs& a) {
  if (a.helpformat) {
    fmt::print("{}", format::sshare_helpformat());
    return 0;
  }
  const Paths paths = default_paths();
  cli::warn_if_stale("sshare", paths);
  const Seconds now = wall_now();
  cli::PriorityView view = cli::read_priority_view(paths, now);

  // Which user lines: every user with -a (or -u -1), the ones -u names, else
  // the caller's own. Account lines are always shown; -A keeps the lines of
  // the accounts it names.
  bool all_users = a.all || a.users == "-1";
  std::vector<std::string> users;
  if (!all_users) {
    users = cli::split_list(a.users);
    if (users.empty()) users.push_back(proc::user_name(static_cast<std::uint32_t>(::getuid())));
  }
  // Slurm lowercases the account names it is given (slurm_addto_char_list).
  std::vector<std::string> accounts = cli::split_list(a.accounts);
  for (std::string& acct : accounts) {
    std::transform(acct.begin(), acct.end(), acct.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  if (a.verbose > 0) print_request(all_users, users, accounts);

  JobFilter running_only;
  running_only.states = {JobState::running};
  const std::vector<Job> running_jobs = query::read_jobs(paths, running_only);
  std::vector<const Job*> running;
  bool gpus = false;
  for (const auto& n : view.config.nodes()) gpus = gpus || n.gpus > 0;
  for (const Job& j : running_jobs) running.push_back(&j);

  const auto& rows = view.ctx.fair_share.rows;
  std::vector<format::SshareRecord> records;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const sched::ShareRow& row = rows[i];
    const std::string& user = row.assoc.key.user;
    const std::string& account = row.assoc.key.account;
    if (!user.empty() && !all_users && std::find(users.begin(), users.end(), user) == users.end())
      continue;
    if (!accounts.empty() && std::find(accounts.begin(), accounts.end(), account) == accounts.end())
      continue;
    // The running jobs beneath: the rows after this one that are deeper.
    std::vector<const Job*> beneath;
    for (std::size_t k = i; k < rows.size() && (k == i || rows[k].depth > row.depth); ++k) {
      const auto& key = rows[k].assoc.key;
      if (key.user.empty()) continue;
      for (const Job* j : running) {
        if (j->user_name == key.user && j->account == key.account) beneath.push_back(j);
      }
    }
    format::SshareRecord r;
    r.account = account;
    r.user = user;
    r.depth = row.depth;
    r.is_root = row.is_root;
    if (!row.is_root) r.raw_shares = row.assoc.shares;
    r.shares_parent = row.assoc.shares == sched::k_fairshare_parent;
    r.norm_shares = row.norm_shares;
    r.raw_usage = row.raw_usage;
    r.norm_usage = row.norm_usage;
    r.effective_usage = row.effective_usage;
    r.fairshare = row.fairshare;
    if (!row.is_root) r.level_fs = row.level_fs;
    r.tres_run_mins = run_mins(beneath, view.calc_time, gpus);
    records.push_back(std::move(r));
  }

  format::SshareOptions o;
  o.format = a.format;
  o.long_list = a.long_list;
  o.fair_tree = !view.ctx.params.flags.no_fair_tree;
  o.partitions = a.partitions;
  o.users_only = a.users_only;
  o.no_header = a.no_header;
  o.parsable = a.parsable2 ? format::Parsable::no_trailing
                           : (a.parsable ? format::Parsable::trailing : format::Parsable::no);
  o.cluster_name = view.config.cluster_name;
  fmt::print("{}", format::render_sshare(records, o));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sshare: list the shares of associations to the cluster"};
  cli::configure_app(app, k_tool);
  app.set_help_flag("--help", "display this usage description");
  SshareArgs a;
  app.add_flag("-a,--all", a.all, "list all users");
  app.add_option("-A,--accounts", a.accounts, "display specific accounts (comma separated list)");
  app.add_flag("-e,--helpformat", a.helpformat,
               "print a list of fields that can be specified with the '--format' option");
  app.add_flag("-l,--long", a.long_list, "include normalized usage in output");
  app.add_flag("-m,--partition", a.partitions, "print the partition part of the association");
  app.add_flag("-n,-h,--noheader", a.no_header, "omit header from output");
  app.add_option("-o,--format", a.format,
                 "comma separated list of fields (use \"--helpformat\" for a list of available "
                 "fields)");
  app.add_flag("-p,--parsable", a.parsable, "'|' delimited output with a trailing '|'");
  app.add_flag("-P,--parsable2", a.parsable2, "'|' delimited output without a trailing '|'");
  app.add_option("-u,--users", a.users, "display specific users (comma separated list)");
  app.add_flag("-U,--Users", a.users_only, "display only user information");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "display more information");
  // "-u -1" (all users) starts with '-'.
  if (const int rc = cli::parse_args_joining(app, k_tool, argc, argv, {{"-u", "--users"}}); rc >= 0)
    return rc;
  return show(a);
}

}  // namespace

int sshare(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
