// scontrol: show jobs, nodes, partitions and the config (read directly, no
// stintd needed), and hold, release and update jobs through stintd.

#include <algorithm>
#include <cstdio>

#include <fmt/core.h>

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
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "scontrol";

struct ScontrolArgs {
  std::int64_t details = 0;
  bool one_liner = false;
  bool quiet = false;
  std::int64_t verbose = 0;
  std::vector<std::string> words;
};

/// Prints a message the way scontrol prints its plain errors (no prefix).
int fail(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}\n", message);
  return 1;
}

bool is(std::string_view word, std::string_view name, std::size_t min_len) {
  // Slurm takes abbreviations of its keywords ("sh j" for "show job").
  return word.size() >= min_len && word.size() <= name.size() &&
         std::equal(word.begin(), word.end(), name.begin(),
                    [](char a, char b) { return std::tolower(a) == std::tolower(b); });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int show_job(const ScontrolArgs& a, const std::vector<std::string>& ids) {
  const Paths paths = default_paths();
  const Config config = query::read_config(paths);
  const format::Context ctx = cli::read_context(config);
  std::vector<Job> jobs;
  if (ids.empty()) {
    // Like slurmctld, finished jobs stay visible for MinJobAge seconds.
    JobFilter filter;
    filter.ended_after = ctx.now - cli::min_job_age(config);
    jobs = query::read_jobs(paths, filter);
    std::reverse(jobs.begin(), jobs.end());
    if (jobs.empty()) {
      fmt::print("No jobs in the system\n");
      return 0;
    }
  } else {
    JobFilter filter;
    for (const std::string& text : ids) {
      for (const std::string& one : cli::split_list(text)) {
        auto id = cli::job_id_from_text(one);
        if (!id)
          return fail(
              fmt::format("slurm_load_jobs error: {}", errc_slurm_message(Errc::invalid_job_id)));
        filter.ids.push_back(*id);
      }
    }
    jobs = query::read_jobs(paths, filter);
    if (jobs.empty())
      return fail(
          fmt::format("slurm_load_jobs error: {}", errc_slurm_message(Errc::invalid_job_id)));
  }
  for (const Job& job : jobs)
    fmt::print("{}", format::scontrol_job(job, ctx, a.one_liner, a.details > 0));
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
  for (const query::NodeInfo& n : view.nodes) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), n.name) == wanted.end())
      continue;
    out += format::scontrol_node(n, ctx, a.one_liner);
  }
  if (out.empty()) {
    if (wanted.empty()) return fail("No nodes in the system");
    return fail(fmt::format("Node {} not found", names.front()));
  }
  fmt::print("{}", out);
  return 0;
}

int show_partition(const ScontrolArgs& a, const std::vector<std::string>& names) {
  const Config config = query::read_config(default_paths());
  const std::string preempt = config.conf("PreemptMode").value_or("OFF");
  std::string out;
  for (const query::PartitionInfo& p : query::partitions(config)) {
    if (!names.empty() && std::find(names.begin(), names.end(), p.name) == names.end()) continue;
    out += format::scontrol_partition(p, preempt, a.one_liner);
  }
  if (out.empty()) {
    if (names.empty()) return fail("No partitions in the system");
    return fail(fmt::format("Partition {} not found", names.front()));
  }
  fmt::print("{}", out);
  return 0;
}

int show(const ScontrolArgs& a, const std::vector<std::string>& w) {
  if (w.size() < 2) throw Error(Errc::usage, "too few arguments for keyword:show");
  const std::string& what = w[1];
  const std::vector<std::string> rest(w.begin() + 2, w.end());
  if (is(what, "jobs", 1) || is(what, "jobid", 4)) return show_job(a, rest);
  if (is(what, "nodes", 1)) return show_node(a, rest);
  if (is(what, "partitions", 1)) return show_partition(a, rest);
  if (is(what, "config", 1)) {
    const Config config = query::read_config(default_paths());
    fmt::print("{}", show_config_text(config, cli::read_context(config).now));
    return 0;
  }
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

/// Job ids of hold/release arguments: "22", "22,23", "jobid=22".
std::vector<std::string> id_words(const std::vector<std::string>& w) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < w.size(); ++i) {
    std::string word = w[i];
    if (auto eq = word.find('='); eq != std::string::npos) word = word.substr(eq + 1);
    for (const std::string& one : cli::split_list(word)) out.push_back(one);
  }
  return out;
}

/// Prints each refused job of a hold/release reply as Slurm does.
int report_results(const nlohmann::json& reply, std::vector<std::string> bad_ids) {
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
      fmt::print(stderr, "{} for job {}\n", last, r.value("job_id", JobId{0}));
    }
  }
  if (last.empty()) return 0;
  // Slurm names its hold and release call this way in the last line.
  fmt::print(stderr, "slurm_suspend error: {}\n", last);
  return 1;
}

int hold_release(const std::vector<std::string>& w, std::string_view op, bool user_hold) {
  std::vector<JobId> ids;
  std::vector<std::string> bad;
  for (const std::string& text : id_words(w)) {
    if (auto id = cli::job_id_from_text(text))
      ids.push_back(*id);
    else
      bad.push_back(text);
  }
  if (ids.empty() && bad.empty())
    throw Error(Errc::usage, fmt::format("too few arguments for keyword:{}", w[0]));
  nlohmann::json reply = nlohmann::json::object();
  if (!ids.empty()) {
    nlohmann::json request = {{"op", op}, {"job_ids", ids}};
    if (op == "hold") request["user_hold"] = user_hold;
    reply = rpc::call(default_paths(), request);
  }
  std::fflush(stdout);
  return report_results(reply, bad);
}

/// scontrol's update keys that stintd takes, in its spelling.
std::optional<std::string> update_key(std::string_view key) {
  const std::string k = lower(key);
  if (k == "timelimit") return "TimeLimit";
  if (k == "nice") return "Nice";
  if (k == "jobname" || k == "name") return "JobName";
  if (k == "partition") return "Partition";
  if (k == "comment") return "Comment";
  return std::nullopt;
}

int update(const std::vector<std::string>& w) {
  std::optional<std::string> job_text;
  nlohmann::json fields = nlohmann::json::object();
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string& word = w[i];
    const auto eq = word.find('=');
    if (eq == std::string::npos) {
      // "update job 22 ...": the id follows the keyword.
      if (is(word, "job", 3) && i + 1 < w.size()) {
        job_text = w[++i];
        continue;
      }
      throw Error(Errc::invalid_argument, fmt::format("Invalid input: {}", word));
    }
    const std::string key = lower(word.substr(0, eq));
    const std::string value = word.substr(eq + 1);
    if (key == "jobid" || key == "job") {
      job_text = value;
      continue;
    }
    if (key == "nodename" || key == "partitionname")
      throw Error(Errc::invalid_argument,
                  fmt::format("Update of this parameter is not supported: {}", word));
    auto canonical = update_key(key);
    if (!canonical)
      throw Error(Errc::invalid_argument,
                  fmt::format("Update of this parameter is not supported: {}", word));
    fields[*canonical] = value;
  }
  if (!job_text) throw Error(Errc::usage, "No valid entity in update command");
  const auto id = cli::job_id_from_text(*job_text);
  if (!id)
    return fail(fmt::format("{} for job {}", errc_slurm_message(Errc::invalid_job_id), *job_text));
  if (fields.empty()) throw Error(Errc::usage, "No changes specified");
  try {
    rpc::call(default_paths(), {{"op", "update_job"}, {"job_id", *id}, {"fields", fields}});
  } catch (const Error& e) {
    switch (e.code()) {
      case Errc::daemon_unavailable:
      case Errc::protocol:
      case Errc::io:
      case Errc::internal:
        throw;
      default:
        return fail(fmt::format("{} for job {}", e.what(), *id));
    }
  }
  return 0;
}

int ping() {
  const bool up = rpc::daemon_running(default_paths());
  fmt::print("Slurmctld(primary) at {} is {}\n", proc::short_hostname(), up ? "UP" : "DOWN");
  return up ? 0 : 1;
}

int dispatch(const ScontrolArgs& a) {
  const std::vector<std::string>& w = a.words;
  if (w.empty()) throw Error(Errc::usage, "no command given (interactive mode is not supported)");
  const std::string& verb = w[0];
  if (is(verb, "show", 3)) return show(a, w);
  if (is(verb, "hold", 4)) return hold_release(w, "hold", false);
  if (is(verb, "uhold", 5)) return hold_release(w, "hold", true);
  if (is(verb, "release", 3)) return hold_release(w, "release", false);
  if (is(verb, "update", 1)) return update(w);
  if (is(verb, "ping", 4)) return ping();
  if (is(verb, "version", 4)) {
    fmt::print("stint {}\n", stint::version());
    return 0;
  }
  return fail(fmt::format("invalid keyword: {}", verb));
}

int run(int argc, char** argv) {
  CLI::App app{"scontrol: view and modify Slurm-style configuration and state"};
  cli::configure_app(app, k_tool);
  ScontrolArgs a;
  app.add_flag_function(
      "-d,--details", [&a](std::int64_t n) { a.details = n; }, "show more details");
  app.add_flag("-o,--oneliner", a.one_liner, "print one record per line");
  app.add_flag("-Q,--quiet", a.quiet, "print no messages other than error messages");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_option("command", a.words, "command and its arguments");
  if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
  return dispatch(a);
}

}  // namespace

int scontrol(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
