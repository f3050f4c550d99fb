// scontrol: show jobs, nodes, partitions and the config (read directly, no
// stintd needed), and hold, release, requeue, top and update jobs through stintd.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <set>

#include <fmt/core.h>
#include <pwd.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "cli/scontrol_assoc_mgr.hpp"
#include "cli/scontrol_common.hpp"
#include "cli/scontrol_config.hpp"
#include "cli/scontrol_help.hpp"
#include "cli/scontrol_partition.hpp"
#include "cli/scontrol_resv.hpp"
#include "cli/scontrol_step.hpp"
#include "cli/scontrol_update.hpp"
#include "cli/words.hpp"
#include "rpc/client.hpp"
#include "util/clock.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "scontrol";

using scontrol_common::fail;
using scontrol_common::is;
using scontrol_common::lower;
using scontrol_common::ref_json;
using scontrol_common::refused_by_stintd;
using scontrol_common::send_admin;

struct ScontrolArgs {
  std::int64_t details = 0;
  bool one_liner = false;
  bool quiet = false;
  std::int64_t verbose = 0;
  std::vector<std::string> words;
  // Slurm's options with nothing to act on here, with the same result as on a
  // Slurm cluster without the facility: no partition is hidden (-a, --hide),
  // no node is FUTURE (-F), there is no federation (--federation, --local,
  // --sibling). Read so that a script that gives them runs.
  bool all = false;
  bool hide = false;
  bool future = false;
  bool federation = false;
  bool local = false;
  bool sibling = false;
  std::string clusters;
  std::string uid;
  bool json = false;
  bool yaml = false;
};

/// -v's first line before a record listing (Slurm's quiet_flag -1): when the
/// records were read and how many there are.
void verbose_header(const ScontrolArgs& a, std::size_t records) {
  if (a.verbose > 0 && !a.quiet)
    fmt::print("last_update_time={}, records={}\n", parse::format_timestamp(wall_now()), records);
}

// "0" or "0_N": every job, as Slurm's scontrol reads job id 0.
bool every_job(const std::string& text) {
  const std::size_t underscore = text.find('_');
  const std::string id = text.substr(0, underscore);
  const std::string task = underscore == std::string::npos ? "1" : text.substr(underscore + 1);
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(id) && std::stoul(id) == 0 && digits(task);
}

int show_job(const ScontrolArgs& a, const std::vector<std::string>& ids) {
  const Paths paths = default_paths();
  const Config config = query::read_config(paths);
  format::Context ctx = cli::read_context(config);
  std::vector<Job> jobs;
  if (ids.empty()) {
    // Like slurmctld, finished jobs stay visible for MinJobAge seconds.
    JobFilter filter;
    filter.ended_after = ctx.now - cli::min_job_age(config);
    jobs = query::read_jobs(paths, filter);
    if (jobs.empty()) {
      fmt::print("No jobs in the system\n");
      return 0;
    }
  } else if (ids.size() == 1 && every_job(ids.front())) {
    // Slurm's scontrol reads job id 0 as every job, "0_3" as every job's
    // task 3 (an array's or a task's of that number).
    const std::string& text = ids.front();
    const std::size_t underscore = text.find('_');
    JobFilter filter;
    filter.ended_after = ctx.now - cli::min_job_age(config);
    jobs = query::read_jobs(paths, filter);
    if (underscore != std::string::npos) {
      const auto task = static_cast<std::uint32_t>(std::stoul(text.substr(underscore + 1)));
      // A task still in its array's record is shown as that task.
      std::vector<Job> tasks;
      for (Job& j : jobs) {
        if (j.array_task_id == task)
          tasks.push_back(std::move(j));
        else if (j.is_array_record() && j.array_pending.contains(task))
          tasks.push_back(array_task_of(j, task));
      }
      jobs = std::move(tasks);
    }
    if (jobs.empty()) {
      fmt::print("Job {} not found\n", text);
      return 1;
    }
  } else {
    std::vector<query::JobRef> refs;
    for (const std::string& text : ids) {
      for (const std::string& one : cli::split_job_list(text)) {
        auto these = cli::job_refs_from_text(one);
        if (!these)
          return fail(
              fmt::format("slurm_load_jobs error: {}", errc_slurm_message(Errc::invalid_job_id)));
        refs.insert(refs.end(), these->begin(), these->end());
      }
    }
    jobs = query::read_jobs(paths, JobFilter{}, refs);
    if (jobs.empty())
      return fail(
          fmt::format("slurm_load_jobs error: {}", errc_slurm_message(Errc::invalid_job_id)));
  }
  if (a.json || a.yaml) {
    // Slurm's scontrol prints the document squeue --json prints for them.
    const std::string json = format::squeue_json(jobs, ctx, true);
    fmt::print("{}", a.yaml ? format::yaml_from_json(json) : json);
    return 0;
  }
  ctx.array_jobs = query::dependency_arrays(paths, jobs);
  verbose_header(a, jobs.size());
  fmt::print("{}", format::scontrol_jobs(std::move(jobs), ctx, a.one_liner, a.details > 0));
  return 0;
}

int show_node(const ScontrolArgs& a, const std::vector<std::string>& names) {
  const query::ClusterView view = query::read_cluster(default_paths());
  const format::Context ctx = cli::read_context(view.config);
  std::vector<std::string> wanted;
  for (const std::string& n : names) {
    for (const std::string& one : parse::expand_hostlist(n)) wanted.push_back(one);
  }
  std::string out;
  std::vector<query::NodeInfo> shown;
  for (const query::NodeInfo& n : view.nodes) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), n.name) == wanted.end())
      continue;
    out += format::scontrol_node(n, ctx, a.one_liner);
    shown.push_back(n);
  }
  if ((a.json || a.yaml) && !shown.empty()) {
    const std::string json = format::sinfo_json(shown, ctx);
    fmt::print("{}", a.yaml ? format::yaml_from_json(json) : json);
    return 0;
  }
  if (out.empty()) {
    if (wanted.empty()) return fail("No nodes in the system");
    return fail(fmt::format("Node {} not found", names.front()));
  }
  verbose_header(a, view.nodes.size());
  fmt::print("{}", out);
  return 0;
}

int show_partition(const ScontrolArgs& a, const std::vector<std::string>& names) {
  const Config config = query::read_config(default_paths());
  const std::string preempt = config.conf("PreemptMode").value_or("OFF");
  std::string out;
  const std::vector<query::PartitionInfo> partitions = query::partitions(config);
  for (const query::PartitionInfo& p : partitions) {
    if (!names.empty() && std::find(names.begin(), names.end(), p.name) == names.end()) continue;
    out += format::scontrol_partition(p, preempt, a.one_liner);
  }
  if (out.empty()) {
    if (names.empty()) return fail("No partitions in the system");
    return fail(fmt::format("Partition {} not found", names.front()));
  }
  verbose_header(a, partitions.size());
  fmt::print("{}", out);
  return 0;
}

int show(const ScontrolArgs& a, const std::vector<std::string>& w) {
  if (w.size() < 2) throw Error(Errc::usage, "too few arguments for keyword:show");
  // "show partition=debug" is "show partition debug", as _show_it splits it.
  std::string what = w[1];
  std::vector<std::string> rest(w.begin() + 2, w.end());
  if (const auto eq = what.find('='); eq != std::string::npos) {
    rest.insert(rest.begin(), what.substr(eq + 1));
    what.resize(eq);
  }
  // The views read from the database; config asks stintd itself, hostnames
  // and the like need nothing.
  if (is(what, "jobs", 1) || is(what, "jobid", 4) || is(what, "nodes", 1) ||
      is(what, "partitions", 1) || is(what, "partitionname", 2) || is(what, "assoc_mgr", 2) ||
      is(what, "cache", 2) || is(what, "steps", 4) || is(what, "reservations", 1) ||
      is(what, "reservationname", 1))
    cli::warn_if_stale("scontrol", default_paths());
  if (is(what, "jobs", 1) || is(what, "jobid", 4)) return show_job(a, rest);
  if (is(what, "nodes", 1)) return show_node(a, rest);
  if (a.json || a.yaml)
    return fail(fmt::format(
        "scontrol: error: --{} is supported here for show job and show node, not for show {}; "
        "leave it out for Slurm's text",
        a.json ? "json" : "yaml", what));
  if (is(what, "partitions", 1) || is(what, "partitionname", 2)) return show_partition(a, rest);
  if (is(what, "assoc_mgr", 2) || is(what, "cache", 2))
    return scontrol_assoc_mgr::show(rest, a.one_liner);
  if (is(what, "steps", 4)) return scontrol_step::show(rest, a.one_liner);
  // Both run here, as one stintd.
  if (is(what, "daemons", 2)) {
    fmt::print("slurmctld slurmd\n");
    return 0;
  }
  if (is(what, "reservations", 1) || is(what, "reservationname", 1))
    return scontrol_resv::show(rest, a.one_liner);
  // Slurm prints the whole configuration whatever follows "config".
  if (is(what, "config", 1)) return cli::show_config();
  if (is(what, "hostnames", 5)) {
    for (const std::string& list : rest) {
      for (const std::string& host : parse::expand_hostlist(list)) fmt::print("{}\n", host);
    }
    return 0;
  }
  if (is(what, "hostlist", 5)) {
    std::vector<std::string> hosts;
    for (const std::string& list : rest) {
      for (const std::string& one : cli::split_list(list)) hosts.push_back(one);
    }
    fmt::print("{}\n", parse::compress_hostlist(hosts));
    return 0;
  }
  return fail(fmt::format("invalid entity:{} for keyword:show", what));
}

/// The jobs named by the arguments of hold, release, requeue and top: "22",
/// "22,23", "jobid=22", "12_3", "12_[1-3]" (expanded here). Words that are not
/// job ids go to `bad`.
std::vector<query::JobRef> job_words(const std::vector<std::string>& w,
                                     std::vector<std::string>& bad) {
  std::vector<query::JobRef> out;
  for (std::size_t i = 1; i < w.size(); ++i) {
    std::string word = w[i];
    if (auto eq = word.find('='); eq != std::string::npos) word = word.substr(eq + 1);
    for (const std::string& one : cli::split_job_list(word)) {
      if (auto refs = cli::job_refs_from_text(one))
        out.insert(out.end(), refs->begin(), refs->end());
      else
        bad.push_back(one);
    }
  }
  return out;
}

/// The id a result names: a number or a "12_3" string.
std::string result_id(const nlohmann::json& r) {
  auto id = r.find("job_id");
  if (id == r.end()) return "0";
  return id->is_string() ? id->get<std::string>() : id->dump();
}

/// Prints each refused job of a reply ("<message> for job <id>", as Slurm);
/// returns the last message, empty when nothing was refused.
std::string report_results(const nlohmann::json& reply, const std::vector<std::string>& bad_ids) {
  std::string last;
  for (const std::string& id : bad_ids) {
    last = std::string(errc_slurm_message(Errc::invalid_job_id));
    fmt::print(stderr, "{} for job {}\n", last, id);
  }
  if (auto results = reply.find("results"); results != reply.end() && results->is_array()) {
    for (const auto& r : *results) {
      auto err = r.find("error");
      if (err == r.end() || !err->is_string()) continue;
      const Errc code = errc_from_name(err->get<std::string>());
      last = r.value("message", std::string(errc_slurm_message(code)));
      fmt::print(stderr, "{} for job {}\n", last, result_id(r));
    }
  }
  return last;
}

/// Sends `request` with the named jobs as `job_ids` and reports what stintd
/// refused. `final_error` names the Slurm call in a last "<call> error:" line
/// when something failed (hold, release and top print one; requeue does not).
int act_on_jobs(const std::vector<std::string>& w, nlohmann::json request,
                std::string_view final_error) {
  std::vector<std::string> bad;
  const std::vector<query::JobRef> refs = job_words(w, bad);
  if (refs.empty() && bad.empty())
    throw Error(Errc::usage, fmt::format("too few arguments for keyword:{}", w[0]));
  nlohmann::json reply = nlohmann::json::object();
  if (!refs.empty()) {
    nlohmann::json ids = nlohmann::json::array();
    for (const query::JobRef& r : refs) ids.push_back(ref_json(r));
    request["job_ids"] = std::move(ids);
    reply = rpc::call(default_paths(), request);
  }
  std::fflush(stdout);
  const std::string last = report_results(reply, bad);
  if (last.empty()) return 0;
  if (!final_error.empty()) fmt::print(stderr, "{} error: {}\n", final_error, last);
  return 1;
}

/// requeue [incomplete] JOBS, requeuehold [incomplete] [State=SpecialExit]
/// JOBS: the words before the first job id are flags (parse_requeue_flags).
int requeue(const std::vector<std::string>& w, bool hold) {
  nlohmann::json request = {{"op", "requeue"}, {"hold", hold}};
  std::vector<std::string> jobs{w[0]};
  std::size_t i = 1;
  for (; i < w.size(); ++i) {
    const std::string word = lower(w[i]);
    if (!word.empty() && std::string_view("incomplete").starts_with(word)) {
      request["incomplete"] = true;  // only the jobs still running
    } else if (word.starts_with("state=") &&
               (word.substr(6).starts_with("specialexit") || word.substr(6).starts_with("se"))) {
      request["special_exit"] = true;
    } else {
      break;
    }
  }
  jobs.insert(jobs.end(), w.begin() + static_cast<std::ptrdiff_t>(i), w.end());
  if (request.contains("special_exit") && !hold)
    return fail("State=SpecialExit is requeuehold's: use scontrol requeuehold State=SpecialExit");
  return act_on_jobs(jobs, std::move(request), "");
}

int hold_release(const std::vector<std::string>& w, std::string_view op, bool user_hold) {
  nlohmann::json request = {{"op", op}};
  if (op == "hold") request["user_hold"] = user_hold;
  // Slurm names its hold and release call this way in the last line.
  return act_on_jobs(w, std::move(request), "slurm_suspend");
}

/// scontrol write batch_script JOBID [FILE]: the script into FILE
/// (slurm-JOBID.sh by default, "-" for standard output), written by this
/// process as its user. stintd gives it to the job's owner and operators only.
int write_batch_script(const ScontrolArgs& a, const std::vector<std::string>& w) {
  if (w.size() >= 2 && is(w[1], "config", 6)) {
    if (w.size() > 3) return fail("too many arguments for keyword:write");
    return cli::write_config(w.size() == 3 ? std::optional<std::string>(w[2]) : std::nullopt);
  }
  if (w.size() < 2 || !is(w[1], "batch_script", 5))
    return fail(fmt::format("invalid write option: {}", w.size() < 2 ? "" : w[1]));
  if (w.size() < 3) throw Error(Errc::usage, "too few arguments for keyword:write batch_script");
  const auto refs = cli::job_refs_from_text(w[2]);
  if (!refs || refs->size() != 1)
    return fail(
        fmt::format("job script retrieval failed: {}", errc_slurm_message(Errc::invalid_job_id)));
  const std::string file = w.size() > 3 ? w[3] : fmt::format("slurm-{}.sh", refs->front().id);
  std::string script;
  try {
    script =
        rpc::call(default_paths(), {{"op", "batch_script"}, {"job_id", ref_json(refs->front())}})
            .at("script")
            .get<std::string>();
  } catch (const Error& e) {
    if (!refused_by_stintd(e)) throw;
    return fail(fmt::format("job script retrieval failed: {}", e.what()));
  }
  if (file == "-") {
    fmt::print("{}", script);
    return 0;
  }
  std::FILE* out = std::fopen(file.c_str(), "w");
  if (!out) return fail(fmt::format("failed to open file `{}`: {}", file, std::strerror(errno)));
  const bool written = std::fwrite(script.data(), 1, script.size(), out) == script.size();
  if (std::fclose(out) != 0 || !written)
    return fail(fmt::format("failed to write file `{}`: {}", file, std::strerror(errno)));
  if (!a.quiet)
    fmt::print("batch script for job {} written to {}\n", query::job_ref_text(refs->front()), file);
  return 0;
}

// A personal stintd is started by whichever tool needs an answer from it,
// ping included: scripts (and Slurm's test suite) ask it first.
int ping() {
  bool up = false;
  try {
    (void)rpc::call(default_paths(), {{"op", "ping"}});
    up = true;
  } catch (const Error&) {
    // DOWN: not running, and it could not be started here
  }
  fmt::print("Slurmctld(primary) at {} is {}\n", proc::short_hostname(), up ? "UP" : "DOWN");
  return up ? 0 : 1;
}

/// scontrol shutdown [slurmctld|controller]: stintd stops (it is both); the
/// jobs keep running under their stepds, as under slurmstepd. Not started to
/// be stopped.
int shutdown(const std::vector<std::string>& w) {
  if (w.size() > 2) throw Error(Errc::usage, "too many arguments for keyword:shutdown");
  if (w.size() == 2 && !is(w[1], "slurmctld", 9) && !is(w[1], "controller", 10))
    return fail(fmt::format("invalid shutdown specification: {}", w[1]));
  return send_admin({{"op", "shutdown"}}, "slurm_shutdown", rpc::AutoStart::no);
}

int dispatch(const ScontrolArgs& a) {
  const std::vector<std::string>& w = a.words;
  if (w.empty()) throw Error(Errc::usage, "no command given");
  const std::string& verb = w[0];
  if (is(verb, "show", 3)) return show(a, w);
  if (is(verb, "hold", 4)) return hold_release(w, "hold", false);
  if (is(verb, "uhold", 5)) return hold_release(w, "hold", true);
  if (is(verb, "release", 3)) return hold_release(w, "release", false);
  if (is(verb, "requeuehold", 8)) return requeue(w, true);
  if (is(verb, "requeue", 3)) return requeue(w, false);
  if (is(verb, "top", 3)) return act_on_jobs(w, {{"op", "top"}}, "slurm_top_job");
  // Operators only; each refusal is "<why> for job <id>", as scontrol_suspend prints.
  if (is(verb, "suspend", 2)) return act_on_jobs(w, {{"op", "suspend"}}, "");
  if (is(verb, "resume", 3)) return act_on_jobs(w, {{"op", "suspend"}, {"resume", true}}, "");
  if (is(verb, "update", 1)) return scontrol_update::update(w);
  // "d" and "de" are scontrol's "details": delete needs three letters.
  if (is(verb, "create", 2) || is(verb, "delete", 3)) {
    if (w.size() < 2) return fail(fmt::format("too few arguments for {} keyword", verb));
    const std::vector<std::string> rest(w.begin() + 1, w.end());
    return is(verb, "create", 2) ? scontrol_resv::create(rest) : scontrol_resv::remove(rest);
  }
  if (is(verb, "ping", 4)) return ping();
  if (is(verb, "write", 5)) return write_batch_script(a, w);
  if (is(verb, "reconfigure", 3)) return send_admin({{"op", "reconfigure"}}, "slurm_reconfigure");
  if (is(verb, "shutdown", 8)) return shutdown(w);
  if (is(verb, "version", 4)) {
    fmt::print("{}\n", stint::version_line());
    return 0;
  }
  if (is(verb, "pidinfo", 3)) return scontrol_step::pidinfo(w, a.quiet);
  if (is(verb, "completing", 2)) return scontrol_step::completing();
  if (is(verb, "listpids", 5)) return scontrol_step::listpids(w);
  if (is(verb, "help", 2)) {
    fmt::print("{}", scontrol_help::text());
    return 0;
  }
  return fail(fmt::format("invalid keyword: {}", verb));
}

/// scontrol with no command: Slurm's interactive mode. Commands are read
/// from standard input at the "scontrol: " prompt until exit, quit or its
/// end; "!!" repeats the last command, and oneliner, quiet, verbose,
/// details and all set the options for the commands after them. An error
/// is reported and the next command read; the exit status is 1 when any
/// command failed.
int interactive(ScontrolArgs a) {
  // Where the input is not a terminal, the line read is echoed after the
  // prompt, as readline does in Slurm's scontrol.
  const bool echo = ::isatty(0) == 0;
  std::vector<std::string> last;
  int status = 0;
  std::string line;
  for (;;) {
    fmt::print("{}: ", k_tool);
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) {
      fmt::print("\n");
      return status;
    }
    if (echo) fmt::print("{}\n", line);
    std::vector<std::string> words = cli::quoted_words(line);
    if (words.empty()) continue;
    if (words.size() == 1 && words[0] == "!!") {
      if (last.empty()) continue;
      words = last;
    }
    last = words;
    const std::string& verb = words[0];
    if (is(verb, "exit", 4) || is(verb, "quit", 4)) return status;
    if (is(verb, "oneliner", 1) && words.size() == 1) {
      a.one_liner = true;
    } else if (is(verb, "quiet", 4) && words.size() == 1) {
      a.quiet = true;
    } else if (is(verb, "verbose", 4) && words.size() == 1) {
      a.verbose = 1;
    } else if (is(verb, "details", 1) && words.size() == 1) {
      a.details = 1;
    } else if (is(verb, "all", 3) && words.size() == 1) {
      a.all = true;
    } else {
      a.words = std::move(words);
      int rc = 0;
      try {
        rc = dispatch(a);
      } catch (const Error& e) {
        std::fflush(stdout);
        fmt::print(stderr, "{}: error: {}\n", k_tool, e.what());
        rc = 1;
      }
      if (rc != 0) status = 1;
    }
  }
}

/// -M (or SLURM_CLUSTERS) and -u, checked as Slurm's scontrol checks them
/// before any command; returns the exit status of a refusal, or -1.
int check_options(const ScontrolArgs& a, bool clusters_from_env) {
  if (!a.clusters.empty()) {
    const Config config = query::read_config(default_paths());
    if (const auto unknown =
            cli::unknown_clusters(a.clusters, config.cluster_name, clusters_from_env)) {
      std::fflush(stdout);
      fmt::print(stderr, "{}: error: {}\n", k_tool, *unknown);
      return 1;
    }
  }
  if (!a.uid.empty()) {
    // Slurm's uid_from_string: a user name or a number.
    std::optional<uid_t> uid;
    if (const passwd* pw = ::getpwnam(a.uid.c_str())) {
      uid = pw->pw_uid;
    } else if (a.uid.find_first_not_of("0123456789") == std::string::npos) {
      uid = static_cast<uid_t>(std::strtoul(a.uid.c_str(), nullptr, 10));
    }
    std::fflush(stdout);
    // Slurm exits 0 here; a refusal that exits 0 hides the mistake from scripts.
    if (!uid) {
      fmt::print(stderr, "{}: error: --uid=\"{}\" invalid\n", k_tool, a.uid);
      return 1;
    }
    if (*uid != ::getuid()) {
      fmt::print(stderr,
                 "{}: error: --uid: acting as another user is not supported here; run the "
                 "command as that user (su or sudo -u)\n",
                 k_tool);
      return 1;
    }
  }
  return -1;
}

int run(int argc, char** argv) {
  CLI::App app{"scontrol: view and modify Slurm-style configuration and state"};
  cli::configure_app(app, k_tool);
  ScontrolArgs a;
  app.add_flag("-a,--all", a.all, "show all partitions (none is hidden here)");
  app.add_option("-M,--clusters", a.clusters,
                 "cluster to issue commands to (this cluster's name, or all)");
  app.add_flag_function(
      "-d,--details", [&a](std::int64_t n) { a.details = n; }, "show more details");
  app.add_flag("--federation", a.federation, "report the federated view (no federation here)");
  app.add_flag("-F,--future", a.future, "report nodes in FUTURE state (none here)");
  app.add_flag("--hide", a.hide, "do not display hidden partitions (none is hidden here)");
  app.add_flag("--json", a.json, "produce JSON output (show job, show node)");
  app.add_flag("--local", a.local, "report the local cluster only (the only one here)");
  app.add_flag("-o,--oneliner", a.one_liner, "print one record per line");
  app.add_flag("-Q,--quiet", a.quiet, "print no messages other than error messages");
  app.add_flag("--sibling", a.sibling, "report sibling jobs of a federation (none here)");
  app.add_option("-u,--uid", a.uid, "act as this user (only the invoking one here)");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_flag("--yaml", a.yaml, "produce YAML output (show job, show node)");
  // Slurm's own getopt table: its long names, in its order.
  static const cli::GetoptRules rules{{{"all", "--all"},
                                       {"cluster", "--clusters"},
                                       {"clusters", "--clusters"},
                                       {"details", "--details"},
                                       {"federation", "--federation"},
                                       {"future", "--future"},
                                       {"help", "--help"},
                                       {"hide", "--hide"},
                                       {"json", "--json"},
                                       {"local", "--local"},
                                       {"oneliner", "--oneliner"},
                                       {"quiet", "--quiet"},
                                       {"sibling", "--sibling"},
                                       {"uid", "--uid"},
                                       {"usage", "--usage"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"},
                                       {"yaml", "--yaml"}},
                                      {},
                                      1};
  if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, a.words); rc >= 0)
    return rc;
  bool clusters_from_env = false;
  if (a.clusters.empty()) {
    if (const char* env = std::getenv("SLURM_CLUSTERS"); env != nullptr && *env != '\0') {
      a.clusters = env;
      clusters_from_env = true;
    }
  }
  if (const int rc = check_options(a, clusters_from_env); rc >= 0) return rc;
  if (a.words.empty()) return interactive(a);
  return dispatch(a);
}

}  // namespace

int scontrol(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
