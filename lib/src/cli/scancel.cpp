// scancel: cancel or signal jobs.

#include "cli/scancel.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <pwd.h>
#include <sys/types.h>
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
#include "cli/read_common.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::cli {
namespace {

// The largest array a task range may name: Slurm's ceiling on MaxArraySize.
constexpr std::uint32_t k_max_array_size = 4000001;

std::size_t digit_run(std::string_view s, std::size_t from) {
  std::size_t i = from;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i - from;
}

template <typename T>
std::optional<T> number(std::string_view digits) {
  T value{};
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<CancelTarget> parse_cancel_targets(const std::vector<std::string>& args) {
  std::vector<CancelTarget> out;
  for (const auto& arg : args) {
    std::string_view s = arg;
    for (;;) {
      auto invalid = [&s]() {
        return Error(Errc::invalid_argument, fmt::format("Invalid job id {}", s));
      };
      const std::size_t digits = digit_run(s, 0);
      const std::optional<JobId> id = number<JobId>(s.substr(0, digits));
      if (digits == 0 || !id || *id == 0) throw invalid();
      std::size_t i = digits;
      // The targets of this item: one, or one per task of a "_[...]" range.
      std::vector<CancelTarget> item;
      if (s.substr(i, 2) == "_[") {
        // "12_[1-3,5]": Slurm's scancel reads the list with bit_unfmt, so no
        // "%" throttle; steps (":2") are taken as sbatch --array takes them.
        const std::size_t close = s.find(']', i + 2);
        if (close == std::string_view::npos) throw invalid();
        const std::string_view list = s.substr(i + 2, close - i - 2);
        if (list.find('%') != std::string_view::npos) throw invalid();
        parse::ArraySpec tasks;
        try {
          tasks = parse::array_spec(list, k_max_array_size);
        } catch (const Error&) {
          throw invalid();
        }
        for (std::uint32_t task : tasks.tasks.ids()) {
          item.push_back(
              CancelTarget{*id, task, fmt::format("{}_{}", *id, task), false, std::nullopt});
        }
        i = close + 1;
      } else {
        CancelTarget target{*id, k_no_array_task, "", false, std::nullopt};
        if (s.substr(i, 2) == "_*") {
          i += 2;  // every task: the array's id alone says so
        } else if (i < s.size() && s[i] == '_') {
          const std::size_t n = digit_run(s, i + 1);
          const auto task = number<std::uint32_t>(s.substr(i + 1, n));
          if (n == 0 || !task || *task >= k_no_array_task) throw invalid();
          target.array_task = *task;
          i += 1 + n;
        } else if (i < s.size() && s[i] == '+') {
          // "12+1": component 1 of het job 12, whose id is 13 (components
          // have consecutive ids).
          const std::size_t n = digit_run(s, i + 1);
          const auto offset = number<std::uint32_t>(s.substr(i + 1, n));
          if (n == 0 || !offset || *offset > k_no_array_task - *id) throw invalid();
          target.job_id = *id + *offset;
          i += 1 + n;
        }
        if (i < s.size() && s[i] == '.') {
          // A step: a number, or Slurm's names for the batch and extern steps.
          std::size_t n = digit_run(s, i + 1);
          for (std::string_view name : {"batch", "extern"}) {
            if (n == 0 && s.substr(i + 1, name.size()) == name) n = name.size();
          }
          if (n == 0) throw invalid();
          const auto step = number<std::uint32_t>(s.substr(i + 1, n));
          if (step) {
            target.step = *step;
          } else {
            target.unsupported = true;
          }
          i += 1 + n;
        }
        target.text = std::string(s.substr(0, i));
        item.push_back(std::move(target));
      }
      if (i < s.size() && s[i] != ',') throw invalid();
      out.insert(out.end(), std::make_move_iterator(item.begin()),
                 std::make_move_iterator(item.end()));
      if (i >= s.size()) break;
      s.remove_prefix(i + 1);  // "12,13": the next id follows the comma
    }
  }
  return out;
}

JobState cancel_state_from_name(std::string_view text) {
  if (auto state = state_from_name(text)) return *state;
  throw PlainError(
      fmt::format("Invalid job state specified: {}\n"
                  "Valid job states are PENDING, RUNNING, and SUSPENDED",
                  text));
}

}  // namespace stint::cli

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "scancel";

struct ScancelArgs {
  std::string account;
  bool batch = false;
  std::string clusters;
  bool ctld = false;
  bool full = false;
  bool hurry = false;
  bool interactive = false;
  bool me = false;
  std::string name;
  std::string nodelist;
  std::string partition;
  std::string qos;
  bool quiet = false;
  std::string reservation;
  std::string sibling;
  std::string signal;
  std::string state;
  std::string user;
  std::int64_t verbose = 0;
  std::string wckey;
  std::vector<std::string> job_ids;
  bool clusters_from_env = false;
};

// Slurm's SCANCEL_* switches take true/T/false/F; anything else is said and
// left as it was.
void env_switch(bool& value, const char* name) {
  const char* env = std::getenv(name);
  if (env == nullptr) return;
  const std::string v = env;
  auto is = [&v](std::string_view w) {
    return v.size() == w.size() && std::equal(v.begin(), v.end(), w.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  };
  if (is("true") || is("t")) {
    value = true;
  } else if (is("false") || is("f")) {
    value = false;
  } else {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: Unrecognized {} value: {}\n", k_tool, name, v);
  }
}

void env_text(std::string& value, const char* name) {
  if (const char* env = std::getenv(name)) value = env;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The SCANCEL_* variables, read before the command line, which overrides them.
void read_env(ScancelArgs& a) {
  env_text(a.account, "SCANCEL_ACCOUNT");
  env_switch(a.batch, "SCANCEL_BATCH");
  if (std::getenv("SCANCEL_CTLD") != nullptr) a.ctld = true;
  env_switch(a.full, "SCANCEL_FULL");
  if (std::getenv("SCANCEL_HURRY") != nullptr) a.hurry = true;
  env_switch(a.interactive, "SCANCEL_INTERACTIVE");
  env_text(a.name, "SCANCEL_NAME");
  env_text(a.partition, "SCANCEL_PARTITION");
  env_text(a.qos, "SCANCEL_QOS");
  env_text(a.state, "SCANCEL_STATE");
  env_text(a.user, "SCANCEL_USER");
  bool verbose = false;
  env_switch(verbose, "SCANCEL_VERBOSE");
  if (verbose) a.verbose = 1;
  env_text(a.wckey, "SCANCEL_WCKEY");
}

// -M: this machine is the only cluster slurmdbd would know.
bool clusters_ok(const std::string& clusters, bool from_env) {
  const Config config = query::read_config(default_paths());
  const auto unknown = cli::unknown_clusters(clusters, config.cluster_name, from_env);
  if (!unknown) return true;
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, *unknown);
  return false;
}

// -w: the node names, "localhost" being this host; a malformed list is
// Slurm's hostlist error.
std::vector<std::string> wanted_nodes(const std::string& text) {
  std::vector<std::string> names;
  try {
    names = parse::expand_hostlist(text);
  } catch (const Error&) {
    throw cli::PlainError(fmt::format("{}: error: Invalid node list: {}", k_tool, text));
  }
  for (std::string& n : names) {
    if (n == "localhost") n = proc::short_hostname();
  }
  return names;
}

// -u: a user name or uid known to the system (Slurm's uid_from_string).
std::string checked_user(const std::string& user) {
  if (::getpwnam(user.c_str()) != nullptr) return user;
  std::uint32_t uid = 0;
  const auto [end, ec] = std::from_chars(user.data(), user.data() + user.size(), uid);
  if (ec == std::errc() && end == user.data() + user.size() && ::getpwuid(uid) != nullptr) {
    return user;
  }
  throw Error(Errc::invalid_argument, fmt::format("Invalid user name: {}", user));
}

// A job as the cancel request names it: an array task as "A_T", else its id.
nlohmann::json request_id(JobId id, std::uint32_t array_task) {
  if (array_task == k_no_array_task) return id;
  return fmt::format("{}_{}", id, array_task);
}

// -i: asks about each job and gives the ones confirmed, as the request
// names them. As Slurm's _confirmation, the answer is read from standard
// input whatever it is (a terminal, a pipe) a line at a time, and a line
// that starts with neither y nor n asks again. At the end of input the
// answer is no, to this job and the ones after it (Slurm asks forever).
// The pending tasks of an array are one question, as Slurm's array record
// ("Cancel job_id=28_[1-2,6-10%2] ...").
std::vector<nlohmann::json> confirm(std::vector<Job> jobs) {
  std::vector<nlohmann::json> yes;
  bool input_ended = false;
  for (const format::JobGroup& group : format::array_groups(std::move(jobs))) {
    const Job& job = group.job;
    for (;;) {
      fmt::print("Cancel job_id={} name={} partition={} [y/n]? ", format::group_id_text(group),
                 job.spec.name, job.partition);
      std::fflush(stdout);
      std::string line;
      if (input_ended || !std::getline(std::cin, line)) {
        input_ended = true;
        break;
      }
      if (!line.empty() && (line.front() == 'y' || line.front() == 'Y')) {
        if (group.tasks.empty()) {
          yes.push_back(
              request_id(job.is_array_task() ? job.array_job_id : job.id, job.array_task_id));
        }
        for (std::uint32_t task : group.tasks.ids())
          yes.push_back(request_id(job.array_job_id, task));
        break;
      }
      if (!line.empty() && (line.front() == 'n' || line.front() == 'N')) break;
    }
  }
  return yes;
}

// Whether a named target is `job`: the job itself, a task of the array it
// names, or the one task it names.
bool names_job(const cli::CancelTarget& t, const Job& job) {
  if (t.array_task != k_no_array_task) {
    return job.is_array_task() && job.array_job_id == t.job_id && job.array_task_id == t.array_task;
  }
  return job.id == t.job_id || (job.is_array_task() && job.array_job_id == t.job_id);
}

// The live jobs the filters select. A plain user's filters without -u reach
// only their own jobs, as in stintd.
std::vector<Job> live_jobs(const ScancelArgs& a, const std::string& user,
                           const std::optional<JobState>& state, bool named) {
  const Paths paths = default_paths();
  if (!Store::exists(paths.db())) return {};
  const auto store = Store::reader(paths.db());
  JobFilter filter;
  filter.active_only = true;
  if (!user.empty()) filter.users = {user};
  if (!a.partition.empty()) filter.partitions = {a.partition};
  if (!a.name.empty()) filter.names = {a.name};
  if (!a.account.empty()) filter.accounts = {a.account};
  if (state) filter.states = {*state};
  std::vector<Job> jobs = store->jobs(filter);
  const std::vector<std::string> nodes =
      a.nodelist.empty() ? std::vector<std::string>{} : wanted_nodes(a.nodelist);
  std::erase_if(jobs, [&](const Job& j) {
    if (!a.qos.empty() && j.qos != lower(a.qos)) return true;
    if (!a.reservation.empty() && j.spec.options().reservation != a.reservation) return true;
    if (!a.wckey.empty() && j.spec.options().wckey != a.wckey) return true;
    if (a.nodelist.empty()) return false;
    const auto names = j.node_names();
    return std::none_of(names.begin(), names.end(), [&nodes](const std::string& n) {
      return std::find(nodes.begin(), nodes.end(), n) != nodes.end();
    });
  });
  const uid_t uid = ::getuid();
  if (!named && user.empty() && uid != 0) {
    std::erase_if(jobs, [uid](const Job& j) { return j.user_id != uid; });
  }
  return jobs;
}

// -i: the jobs to cancel, asked about one by one. Named jobs that are not
// live go along unasked, so stintd reports them as Slurm would.
nlohmann::json interactive_ids(const ScancelArgs& a, const std::string& user,
                               const std::optional<JobState>& state,
                               const std::vector<cli::CancelTarget>& targets) {
  std::vector<Job> live = live_jobs(a, user, state, !targets.empty());
  nlohmann::json ids = nlohmann::json::array();
  if (!targets.empty()) {
    std::vector<Job> asked;
    for (const auto& t : targets) {
      if (t.unsupported || t.step) continue;
      bool found = false;
      for (const Job& job : live) {
        if (!names_job(t, job)) continue;
        found = true;
        const bool seen = std::any_of(asked.begin(), asked.end(),
                                      [&job](const Job& j) { return j.id == job.id; });
        if (!seen) asked.push_back(job);
      }
      if (!found) ids.push_back(request_id(t.job_id, t.array_task));
    }
    live = std::move(asked);
  }
  for (auto& id : confirm(std::move(live))) ids.push_back(std::move(id));
  return ids;
}

void print_kill_error(std::string_view id, std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: Kill job error on job id {}: {}\n", k_tool, id, message);
}

// scancel exits with the largest Slurm error number its kill requests got,
// as exit() keeps it: modulo 256. ESLURM_ACCESS_DENIED is 2002 (exit 210),
// SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT 5004 (exit 140, seen on Slurm 22.05.8
// with slurmctld stopped); the rest exit 1, as the lookup of unknown jobs does.
int kill_error_status(Errc code) {
  constexpr int k_access_denied = 2002;
  constexpr int k_socket_timeout = 5004;
  switch (code) {
    case Errc::access_denied:
      return k_access_denied % 256;
    case Errc::timed_out:
      return k_socket_timeout % 256;
    default:
      return 1;
  }
}

// "12.0": the step srun runs is ended (stintd closes its record CANCELLED,
// and its srun, which watches it, ends the tasks as slurmstepd would).
// Asked about first with -i, as Slurm's "Cancel step_id=12.0 ...".
int cancel_step(const ScancelArgs& a, int signal, const cli::CancelTarget& t) {
  const std::string& step = t.text;
  if (signal != 0 && signal != SIGKILL) {
    std::fflush(stdout);
    fmt::print(stderr,
               "{}: error: --signal to job step {} is not available: a step's tasks are srun's "
               "children; signal that srun (kill -s SIG <pid>) or the whole job (scancel "
               "--signal=SIG {})\n",
               k_tool, step, t.job_id);
    return 1;
  }
  // The job the step belongs to: an array task's own ("12_3.0").
  const std::vector<Job> jobs =
      query::read_jobs(default_paths(), JobFilter{}, {query::JobRef{t.job_id, t.array_task}});
  const JobId job_id = jobs.size() == 1 ? jobs.front().id : t.job_id;
  if (a.interactive) {
    if (!jobs.empty()) {
      fmt::print("Cancel step_id={} name={} partition={} [y/n]? ", step, jobs.front().spec.name,
                 jobs.front().partition);
      std::fflush(stdout);
      std::string line;
      if (!std::getline(std::cin, line) || line.empty() || (line[0] != 'y' && line[0] != 'Y'))
        return 0;
    }
  }
  if (a.verbose > 0) fmt::print(stderr, "{}: Terminating step {}\n", k_tool, step);
  try {
    rpc::call(default_paths(), {{"op", "step_cancel"}, {"job_id", job_id}, {"step_id", *t.step}});
  } catch (const Error& e) {
    // Slurm's message names the job alone.
    if (!a.quiet) {
      std::fflush(stdout);
      fmt::print(stderr, "{}: error: Kill job error on job step id {}: {}\n", k_tool, t.job_id,
                 e.what());
    }
    return 1;
  }
  return 0;
}

void print_verbose(const ScancelArgs& a, int signal, std::string_view id) {
  if (a.verbose <= 0) return;
  // --full wins over --batch, as in scancel.c.
  const std::string_view kind = a.full ? "full " : a.batch ? "batch " : "";
  if (signal == 0) {
    fmt::print(stderr, "{}: Terminating {}job {}\n", k_tool, kind, id);
  } else {
    fmt::print(stderr, "{}: Signal {} to {}job {}\n", k_tool, signal, kind, id);
  }
}

// A result's job as the user wrote it: stintd gives back each entry of the
// request as it was sent ("12", "12_3"), and an array task it found through a
// filter as "A_T".
std::string result_id(const nlohmann::json& r) {
  const auto it = r.find("job_id");
  if (it == r.end()) return "?";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

// --sibling: a federated job's copy on another cluster. A cluster outside a
// federation has no such copies: controller refuses each live job, and an
// unknown one is what it is without a sibling.
int remove_sibling(const ScancelArgs& a, int signal, const std::vector<cli::CancelTarget>& targets,
                   bool plain) {
  std::vector<Job> live;
  if (const Paths paths = default_paths(); Store::exists(paths.db())) {
    JobFilter filter;
    filter.active_only = true;
    live = Store::reader(paths.db())->jobs(filter);
  }
  int rc = 0;
  for (const auto& t : targets) {
    const std::string id = t.text.empty() ? fmt::format("{}", t.job_id) : t.text;
    print_verbose(a, signal, id);
    const bool found =
        !t.unsupported && !t.step &&
        std::any_of(live.begin(), live.end(), [&t](const Job& j) { return names_job(t, j); });
    if (found) {
      if (!a.quiet) print_kill_error(id, "Job not part of a federation");
      rc = 1;
    } else if (plain) {
      // As for any plain scancel: no such job is said only with -v.
      if (a.verbose > 0) print_kill_error(id, errc_slurm_message(Errc::invalid_job_id));
    } else {
      if (!a.quiet) print_kill_error(id, errc_slurm_message(Errc::invalid_job_id));
      rc = 1;
    }
  }
  return rc;
}

int cancel(const ScancelArgs& a) {
  int signal = 0;
  if (!a.signal.empty()) {
    const std::optional<int> s = parse::signal_number(a.signal);
    if (!s) throw cli::PlainError(fmt::format("Unknown job signal: {}", a.signal));
    signal = *s;
  }
  std::optional<JobState> state;
  if (!a.state.empty()) state = cli::cancel_state_from_name(a.state);
  const std::vector<cli::CancelTarget> targets = cli::parse_cancel_targets(a.job_ids);
  std::string user;
  if (a.me) {
    user = proc::user_name(::getuid());
  } else if (!a.user.empty()) {
    user = checked_user(a.user);
  }
  if (!a.clusters.empty() && !clusters_ok(a.clusters, a.clusters_from_env)) return 1;
  std::vector<std::string> nodes;
  if (!a.nodelist.empty()) nodes = wanted_nodes(a.nodelist);
  const bool filtered = !a.account.empty() || !a.name.empty() || !a.partition.empty() || state ||
                        !user.empty() || !a.qos.empty() || !a.reservation.empty() ||
                        !a.wckey.empty() || !a.nodelist.empty();
  if (targets.empty() && !filtered) {
    throw Error(Errc::invalid_argument, "No job identification provided");
  }
  // Slurm's has_default_opt: nothing but job ids (and -v, -Q, -f, -H, -M).
  const bool plain = !filtered && !a.batch && !a.interactive && a.signal.empty();
  if (!a.sibling.empty()) return remove_sibling(a, signal, targets, plain);

  int rc = 0;
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& t : targets) {
    if (t.step) {
      rc = std::max(rc, cancel_step(a, signal, t));
      continue;
    }
    if (!t.unsupported) {
      // A het job's component as written ("12+1"), so that an error names it so.
      ids.push_back(t.text.find('+') != std::string::npos ? nlohmann::json(t.text)
                                                          : request_id(t.job_id, t.array_task));
      continue;
    }
    // Steps are not jobs: no such job.
    print_verbose(a, signal, t.text);
    if (!a.quiet) print_kill_error(t.text, errc_slurm_message(Errc::invalid_job_id));
    rc = 1;
  }
  if (!targets.empty() && ids.empty()) return rc;

  nlohmann::json request = {
      {"op", "cancel"}, {"signal", signal}, {"batch_only", a.batch}, {"full", a.full}};
  if (a.interactive) {
    // Ask first, then cancel exactly what was confirmed.
    request["job_ids"] = interactive_ids(a, user, state, targets);
    if (request["job_ids"].empty()) return rc;
  } else {
    request["job_ids"] = std::move(ids);
    if (!user.empty()) request["user"] = user;
    if (!a.partition.empty()) request["partition"] = a.partition;
    if (!a.name.empty()) request["name"] = a.name;
    if (!a.account.empty()) request["account"] = a.account;
    if (state) request["states"] = nlohmann::json::array({std::string(state_name(*state))});
    if (!a.qos.empty()) request["qos"] = lower(a.qos);
    if (!a.reservation.empty()) request["reservation"] = a.reservation;
    if (!a.wckey.empty()) request["wckey"] = a.wckey;
    if (!a.nodelist.empty()) request["nodes"] = nodes;
  }

  nlohmann::json reply;
  try {
    reply = rpc::call(default_paths(), request);
  } catch (const Error& e) {
    // Unanswered (MessageTimeout): Slurm's scancel says so for each job it
    // named, as each of its kill requests fails.
    if (e.code() != Errc::timed_out || targets.empty()) throw;
    if (!a.quiet) {
      for (const auto& t : targets)
        if (!t.step && !t.unsupported) print_kill_error(t.text, e.what());
    }
    return kill_error_status(e.code());
  }
  const auto results = reply.find("results");
  if (results == reply.end() || !results->is_array()) return rc;
  if (targets.empty() && results->empty() && a.verbose > 0) {
    // scancel.c's _filter_job_records, said with -v only; not a failure.
    std::string filters;
    auto add = [&filters](std::string_view key, const std::string& value) {
      if (!value.empty()) filters += fmt::format("{}={} ", key, value);
    };
    add("account", a.account);
    add("job_name", a.name);
    add("nodelist", a.nodelist);
    add("partition", a.partition);
    add("qos", a.qos);
    add("reservation", a.reservation);
    add("state", state ? std::string(state_name(*state)) : std::string());
    add("user_name", user);
    add("wckey", a.wckey);
    if (!filters.empty())
      fmt::print(stderr, "{}: error: No active jobs match ALL job filters, including: {}\n", k_tool,
                 filters);
  }
  for (const auto& r : *results) {
    const std::string id = result_id(r);
    print_verbose(a, signal, id);
    const auto err = r.find("error");
    if (err == r.end() || !err->is_string()) continue;
    const Errc code = errc_from_name(err->get<std::string>());
    const std::string message = r.value("message", std::string(errc_slurm_message(code)));
    const bool already_done =
        code == Errc::job_state_invalid && message == errc_slurm_message(Errc::job_state_invalid);
    if (already_done) {
      // Slurm mentions an ended job only with -v or -i (it could not be
      // asked about), and it is not a failure.
      if (a.verbose > 0 || a.interactive) print_kill_error(id, message);
      continue;
    }
    if (code == Errc::invalid_job_id && plain) {
      // Slurm's plain scancel (job ids alone, no signal or filter) asks the
      // controller to kill each and takes "no such job" for done: said only
      // with -v, and no failure.
      if (a.verbose > 0) print_kill_error(id, message);
      continue;
    }
    // With a signal or a filter, scancel looks the jobs up first and reports
    // an unknown one as an error (_verify_job_ids); -Q silences the report.
    if (!(a.quiet && code == Errc::invalid_job_id)) print_kill_error(id, message);
    rc = std::max(rc, kill_error_status(code));
  }
  return rc;
}

int run(int argc, char** argv) {
  CLI::App app{"scancel: signal or cancel jobs, job arrays or job steps"};
  cli::configure_app(app, k_tool);
  ScancelArgs a;
  read_env(a);
  const std::string env_state = a.state;
  app.add_option("-A,--account", a.account, "act only on jobs charging this account");
  app.add_flag("-b,--batch", a.batch, "signal batch shell for specified job");
  app.add_flag("--ctld", a.ctld,
               "send the request to the controller (stint always does: accepted for Slurm's "
               "scripts)");
  app.add_flag("-f,--full", a.full, "signal batch shell and all steps for specified job");
  app.add_flag("-H,--hurry", a.hurry,
               "avoid burst buffer stage out (this cluster has no burst buffers)");
  app.add_flag("-i,--interactive", a.interactive, "require response from user for each job");
  app.add_option("-M,--clusters", a.clusters,
                 "clusters to issue commands to: only this cluster's name (or all)");
  app.add_flag("--me", a.me, "act only on your own jobs");
  app.add_option("-n,--name,--jobname", a.name, "act only on jobs with this name");
  app.add_option("-p,--partition", a.partition, "act only on jobs in this partition");
  app.add_flag("-Q,--quiet", a.quiet, "disable warnings");
  app.add_option("-q,--qos", a.qos, "act only on jobs with this quality of service");
  app.add_option("-R,--reservation", a.reservation, "act only on jobs with this reservation");
  app.add_option("--sibling", a.sibling,
                 "remove an active sibling job from a federated job (this cluster is in no "
                 "federation)");
  app.add_option("-s,--signal", a.signal, "signal to send to job, default is SIGKILL");
  app.add_option("-t,--state", a.state, "act only on jobs in this state");
  app.add_option("-u,--user", a.user, "act only on jobs of this user");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose += n; }, "verbosity level");
  app.add_option("-w,--nodelist", a.nodelist, "act only on jobs on these nodes");
  app.add_option("--wckey", a.wckey, "act only on jobs with this workload characterization key");
  app.add_option("job_id", a.job_ids, "job_id[_array_id][.step_id]");
  // Slurm's own getopt table: its long names, in its order.
  static const cli::GetoptRules rules{{{"account", "--account"},
                                       {"batch", "--batch"},
                                       {"ctld", "--ctld"},
                                       {"full", "--full"},
                                       {"help", "--help"},
                                       {"hurry", "--hurry"},
                                       {"interactive", "--interactive"},
                                       {"cluster", "--clusters"},
                                       {"clusters", "--clusters"},
                                       {"jobname", "--name"},
                                       {"me", "--me"},
                                       {"name", "--name"},
                                       {"nodelist", "--nodelist"},
                                       {"partition", "--partition"},
                                       {"qos", "--qos"},
                                       {"quiet", "--quiet"},
                                       {"reservation", "--reservation"},
                                       {"sibling", "--sibling"},
                                       {"signal", "--signal"},
                                       {"state", "--state"},
                                       {"usage", "--usage"},
                                       {"user", "--user"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"},
                                       {"wckey", "--wckey"}},
                                      {},
                                      1};
  std::vector<std::string> operands;
  if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, operands); rc >= 0)
    return rc == 255 ? 1 : rc;  // scancel's getopt errors exit 1, not 255
  a.job_ids.insert(a.job_ids.end(), operands.begin(), operands.end());
  if (app.count("--clusters") == 0) {
    if (const char* env = std::getenv("SLURM_CLUSTERS")) {
      a.clusters = env;
      a.clusters_from_env = true;
    }
  }
  try {
    if (!a.state.empty() && a.state == env_state && app.count("--state") == 0 &&
        !state_from_name(a.state)) {
      throw cli::PlainError(fmt::format(
          "Unrecognized SCANCEL_STATE value: {}\nValid job states are PENDING, RUNNING, and "
          "SUSPENDED",
          a.state));
    }
    return cancel(a);
  } catch (const cli::PlainError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
}

}  // namespace

int scancel(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
