// sacctmgr: view and change accounts, users, associations and QOS. Listings
// read the database (stintd need not run); changes go through stintd, which
// checks who asks. Without -i the changes are shown first and committed only
// after a yes on standard input.

#include "cli/sacctmgr.hpp"

#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/config_show.hpp>
#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "config/purge_age.hpp"
#include "daemon/slurm_conf_file.hpp"
#include "rpc/client.hpp"
#include "util/clock.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sacctmgr";
constexpr int k_commit_wait_s = 30;

struct SacctmgrArgs {
  bool immediate = false;
  bool no_header = false;
  bool parsable = false;
  bool parsable2 = false;
  bool quiet = false;
  bool readonly = false;
  bool associations = false;
  std::int64_t verbose = 0;
  std::vector<std::string> words;
};

// Slurm's commit question (common.c, commit_check), asked of whatever
// standard input is: a terminal or a script's pipe ("echo y | sacctmgr
// ..."). The answer is read a character at a time: y or Y commits; n, N or
// an empty line does not; anything else asks again. 30 seconds without an
// answer is no ("timeout"), and so is the end of input, where Slurm would
// ask for ever.
bool confirm() {
  fmt::print("Would you like to commit changes? (You have {} seconds to decide)\n",
             k_commit_wait_s);
  char c = '\0';
  for (;;) {
    if (c != '\0') fmt::print("Y or N please\n");
    fmt::print("(N/y): ");
    std::fflush(stdout);
    pollfd p{STDIN_FILENO, POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, k_commit_wait_s * 1000);
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) {
      fmt::print("timeout\n");
      return false;
    }
    ssize_t n = 0;
    do {
      n = ::read(STDIN_FILENO, &c, 1);
    } while (n < 0 && errno == EINTR);
    fmt::print("\n");
    if (n <= 0) return false;
    if (c == 'y' || c == 'Y') return true;
    if (c == 'n' || c == 'N' || c == '\n') return false;
  }
}

// stintd's refusals in sacctmgr's words; anything else goes to the boundary.
int report(const cli::SacctmgrCommand& cmd, const Error& e) {
  std::fflush(stdout);
  if (e.code() == Errc::access_denied) {
    std::string_view what = " Error with request: ";
    if (cmd.verb == cli::SacctmgrVerb::add) {
      what = cmd.entity == cli::SacctmgrEntity::user  ? " Problem adding users: "
             : cmd.entity == cli::SacctmgrEntity::qos ? " Problem adding QOS: "
                                                      : " Problem adding accounts: ";
    }
    fmt::print(stderr, "{}{}\n", what, errc_slurm_message(Errc::access_denied));
    return 1;
  }
  if (e.code() == Errc::invalid_argument) {
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
  throw e;
}

int show(const cli::SacctmgrCommand& cmd, const SacctmgrArgs& a, const Paths& paths) {
  const Config config = query::read_config(paths);
  // A state directory where stintd never ran has what stintd would create.
  const Accounting data = Store::exists(paths.db()) ? Store::reader(paths.db())->accounting()
                                                    : cli::default_accounting();
  cli::SacctmgrTable t;
  t.no_header = a.no_header;
  t.parsable = a.parsable;
  t.parsable2 = a.parsable2;
  for (const auto& n : config.nodes()) t.gres_gpu = t.gres_gpu || n.gpus > 0;
  fmt::print("{}", cli::sacctmgr_show(cmd, data, config.cluster_name, t));
  return 0;
}

// `sacctmgr show config`: read here, as scontrol's is, without starting
// stintd (BOOT_TIME is known only while it runs).
int show_config(const Paths& paths) {
  const Config config = query::read_config(paths);
  const format::Context ctx = cli::read_context(config);
  std::optional<std::int64_t> pid;
  try {
    const nlohmann::json reply = rpc::call(paths, {{"op", "ping"}}, rpc::AutoStart::no);
    pid = reply.value("pid", std::int64_t{0});
  } catch (const Error& e) {
    if (e.code() != Errc::daemon_unavailable) throw;
  }
  ControllerFacts f;
  f.now = ctx.now;
  f.controller_up = pid.has_value();
  f.host = proc::short_hostname();
  f.machine = ctx.arch;
  f.state_dir = paths.state_dir;
  f.config_file = daemon::slurm_conf_path(paths.state_dir);
  // Who stintd runs as: the running one's user, else the state directory's
  // owner (who a personal stintd runs as).
  std::optional<std::uint32_t> uid = pid ? proc::real_uid(*pid) : std::nullopt;
  struct stat st {};
  if (!uid && ::stat(paths.state_dir.c_str(), &st) == 0) uid = st.st_uid;
  f.uid = uid.value_or(::geteuid());
  f.user_name = proc::user_name(f.uid);

  cli::SacctmgrDbdFacts d;
  d.now = ctx.now;
  d.boot_time = k_no_time;
  if (pid) {
    const std::optional<std::uint64_t> ticks = proc::start_ticks(*pid);
    const long per_second = ::sysconf(_SC_CLK_TCK);
    if (ticks && per_second > 0 && ctx.boot_time != k_no_time)
      d.boot_time =
          ctx.boot_time + static_cast<Seconds>(*ticks / static_cast<std::uint64_t>(per_second));
  }
  d.database = paths.db();
  d.config_file = config.source_path.empty() ? paths.config() : config.source_path;
  d.host = f.host;
  for (auto [key, into] : {std::pair{"PurgeJobAfter", &d.purge_job_after},
                           std::pair{"PurgeStepAfter", &d.purge_step_after}})
    *into = config::purge_age_text(config::purge_age(config.conf(key).value_or("")));
  fmt::print("{}", cli::sacctmgr_config_text(slurm_config_pairs(config, f), d));
  return 0;
}

// `sacctmgr show stats` and `clear stats`: stintd's request counts.
int stats(const cli::SacctmgrCommand& cmd, const Paths& paths) {
  if (cmd.verb == cli::SacctmgrVerb::clear) {
    rpc::call(paths, {{"op", "acct_clear_stats"}});
    return 0;
  }
  cli::StatsOrder order = cli::StatsOrder::count;
  if (!cmd.names.empty())
    order = cmd.names.front().starts_with("a") ? cli::StatsOrder::ave_time
                                               : cli::StatsOrder::total_time;
  const nlohmann::json reply = rpc::call(paths, {{"op", "acct_stats"}});
  fmt::print("{}", cli::sacctmgr_stats_text(reply, wall_now(), order, [](std::uint32_t uid) {
               return proc::user_name(uid);
             }));
  return 0;
}

// stint has the one cluster stint.yaml names: adding it is "nothing new",
// and it cannot be deleted.
int cluster_write(const cli::SacctmgrCommand& cmd, const std::string& cluster) {
  for (const auto& name : cmd.names) {
    if (name != cluster)
      throw cli::SacctmgrError(
          fmt::format(" stint has one cluster, '{}' (ClusterName in stint.yaml); '{}' is not it",
                      cluster, name));
  }
  if (cmd.verb == cli::SacctmgrVerb::add) {
    fmt::print(" This cluster {} already exists.  Not adding.\n Nothing new added.\n", cluster);
    return 1;
  }
  throw cli::SacctmgrError(fmt::format(
      " Error with request: the cluster '{}' is stint.yaml's ClusterName; it cannot be deleted",
      cluster));
}

int write(const cli::SacctmgrCommand& cmd, const SacctmgrArgs& a, const Paths& paths) {
  if (a.readonly) throw cli::SacctmgrError("Can't run this command in readonly mode.");
  const std::string cluster = query::read_config(paths).cluster_name;
  if (cmd.entity == cli::SacctmgrEntity::cluster && cmd.verb != cli::SacctmgrVerb::modify)
    return cluster_write(cmd, cluster);
  if (cmd.entity == cli::SacctmgrEntity::cluster) {
    for (const auto& name : cmd.names) {
      if (name != cluster) {
        fmt::print(" Nothing modified\n");
        return 1;
      }
    }
  }
  nlohmann::json reply;
  try {
    reply = rpc::call(paths, cli::sacctmgr_request(cmd, a.immediate));
  } catch (const Error& e) {
    return report(cmd, e);
  }
  bool nothing = false;
  const std::string summary = cli::sacctmgr_summary(cmd, reply, cluster, nothing);
  if (!a.quiet || nothing) fmt::print("{}", summary);
  if (nothing) return 1;
  if (a.immediate) return 0;
  if (!confirm()) {
    fmt::print(" Changes Discarded\n");
    return 0;
  }
  try {
    rpc::call(paths, cli::sacctmgr_request(cmd, true));
  } catch (const Error& e) {
    return report(cmd, e);
  }
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sacctmgr: view and modify accounts, users, associations and QOS"};
  cli::configure_app(app, k_tool);
  SacctmgrArgs a;
  app.add_flag("-i,--immediate", a.immediate, "commit changes immediately without asking");
  app.add_flag("-n,--noheader", a.no_header, "no header will be added to the beginning of output");
  app.add_flag("-p,--parsable", a.parsable, "output will be '|' delimited with a '|' at the end");
  app.add_flag("-P,--parsable2", a.parsable2,
               "output will be '|' delimited without a '|' at the end");
  app.add_flag("-Q,--quiet", a.quiet, "print no messages other than error messages");
  app.add_flag("-r,--readonly", a.readonly, "cannot modify accounting data");
  app.add_flag("-s,--associations", a.associations,
               "show associations with the entity (withassoc)");
  app.add_flag("-v,--verbose", a.verbose, "print more information");
  app.add_option("command", a.words,
                 "add|modify|delete|show ENTITY [NAME...] [where KEY=VALUE...] [set KEY=VALUE...], "
                 "or dump CLUSTER [File=PATH]");
  if (int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;

  if (auto rc = cli::sacctmgr_dump(a.words, default_paths())) return *rc;
  cli::SacctmgrCommand cmd;
  try {
    cmd = cli::parse_sacctmgr(a.words);
  } catch (const cli::SacctmgrError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
  if (a.associations) cmd.with_assoc = true;
  const Paths paths = default_paths();
  try {
    if (cmd.entity == cli::SacctmgrEntity::config) return show_config(paths);
    if (cmd.entity == cli::SacctmgrEntity::stats) {
      try {
        return stats(cmd, paths);
      } catch (const Error& e) {
        return report(cmd, e);
      }
    }
    if (cmd.verb == cli::SacctmgrVerb::show) return show(cmd, a, paths);
    return write(cmd, a, paths);
  } catch (const cli::SacctmgrError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
}

}  // namespace

int sacctmgr(int argc, char** argv) {
  return cli::run_tool(k_tool, [&] { return run(argc, argv); });
}

}  // namespace stint::tools
