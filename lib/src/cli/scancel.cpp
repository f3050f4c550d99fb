// scancel: cancel or signal jobs.

#include "cli/scancel.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <pwd.h>
#include <sys/types.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::cli {
namespace {

struct SignalName {
  std::string_view name;
  int number;
};

// Slurm's sig_name_num table (src/common/proc_args.c), Linux numbers.
constexpr std::array k_signals = {
    SignalName{"HUP", 1},   SignalName{"INT", 2},   SignalName{"QUIT", 3},  SignalName{"ABRT", 6},
    SignalName{"KILL", 9},  SignalName{"ALRM", 14}, SignalName{"TERM", 15}, SignalName{"USR1", 10},
    SignalName{"USR2", 12}, SignalName{"URG", 23},  SignalName{"CONT", 18}, SignalName{"STOP", 19},
    SignalName{"TSTP", 20}, SignalName{"TTIN", 21}, SignalName{"TTOU", 22}, SignalName{"XCPU", 24},
};
constexpr int k_max_signal = 64;  // SIGRTMAX on Linux

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) ==
                  std::toupper(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::size_t digit_run(std::string_view s, std::size_t from) {
  std::size_t i = from;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i - from;
}

}  // namespace

std::optional<int> signal_from_name(std::string_view text) {
  const std::string_view s = trim(text);
  if (s.empty()) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(s.front()))) {
    int n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || n < 1 || n > k_max_signal) {
      return std::nullopt;
    }
    return n;
  }
  std::string_view name = s;
  if (name.size() > 3 && iequals(name.substr(0, 3), "SIG")) name.remove_prefix(3);
  for (const auto& sig : k_signals) {
    if (iequals(name, sig.name)) return sig.number;
  }
  return std::nullopt;
}

std::vector<CancelTarget> parse_cancel_targets(const std::vector<std::string>& args) {
  std::vector<CancelTarget> out;
  for (const auto& arg : args) {
    std::string_view s = arg;
    for (;;) {
      auto invalid = [&s]() {
        return Error(Errc::invalid_argument, fmt::format("Invalid job id {}", s));
      };
      const std::size_t digits = digit_run(s, 0);
      JobId id = 0;
      if (digits == 0) throw invalid();
      if (std::from_chars(s.data(), s.data() + digits, id).ec != std::errc() || id == 0) {
        throw invalid();
      }
      CancelTarget target{id, "", true};
      std::size_t i = digits;
      if (s.substr(i, 2) == "_[") {
        // An array range must close the argument: "12_[1-3,5%2]".
        const std::size_t close = s.find(']', i + 2);
        if (close == std::string_view::npos || close + 1 != s.size() || close == i + 2) {
          throw invalid();
        }
        target.whole_job = false;
        target.text = std::string(s);
        out.push_back(std::move(target));
        break;
      }
      if (s.substr(i, 2) == "_*") {
        i += 2;
        target.whole_job = false;
      } else if (i < s.size() && (s[i] == '_' || s[i] == '+')) {
        ++i;
        i += digit_run(s, i);
        target.whole_job = false;
      }
      if (i < s.size() && s[i] == '.') {
        ++i;
        i += digit_run(s, i);
        target.whole_job = false;
      }
      if (i < s.size() && s[i] != ',') throw invalid();
      target.text = std::string(s.substr(0, i));
      out.push_back(std::move(target));
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
  bool interactive = false;
  bool me = false;
  std::string name;
  std::string partition;
  bool quiet = false;
  std::string signal;
  std::string state;
  std::string user;
  std::int64_t verbose = 0;
  std::vector<std::string> job_ids;
};

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

// -i: asks about each job on the terminal. Without a terminal, or at the end
// of input, the answer is no: Slurm re-prompts forever there.
std::vector<JobId> confirm(const std::vector<Job>& jobs) {
  std::vector<JobId> yes;
  if (::isatty(STDIN_FILENO) == 0) return yes;
  for (const Job& job : jobs) {
    fmt::print("Cancel job_id={} name={} partition={} [y/n]? ", job.id, job.spec.name,
               job.partition);
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) break;
    if (!line.empty() && (line.front() == 'y' || line.front() == 'Y')) yes.push_back(job.id);
  }
  return yes;
}

// The live jobs -i asks about: those named, or those the filters match.
std::vector<Job> interactive_candidates(const ScancelArgs& a, const std::string& user,
                                        const std::optional<JobState>& state,
                                        const std::vector<JobId>& ids) {
  const Paths paths = default_paths();
  if (!Store::exists(paths.db())) return {};
  const auto store = Store::open(paths.db(), Store::Mode::read_only);
  JobFilter filter;
  filter.ids = ids;
  filter.active_only = true;
  if (!user.empty()) filter.users = {user};
  if (!a.partition.empty()) filter.partitions = {a.partition};
  if (!a.name.empty()) filter.names = {a.name};
  if (!a.account.empty()) filter.accounts = {a.account};
  if (state) filter.states = {*state};
  std::vector<Job> jobs = store->jobs(filter);
  // Like stintd, a plain user's filters without -u reach only their own jobs.
  const uid_t uid = ::getuid();
  if (ids.empty() && user.empty() && uid != 0) {
    std::erase_if(jobs, [uid](const Job& j) { return j.user_id != uid; });
  }
  return jobs;
}

void print_kill_error(std::string_view id, std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: Kill job error on job id {}: {}\n", k_tool, id, message);
}

void print_verbose(const ScancelArgs& a, int signal, std::string_view id) {
  if (a.verbose <= 0) return;
  if (signal == 0) {
    fmt::print(stderr, "{}: Terminating job {}\n", k_tool, id);
  } else {
    fmt::print(stderr, "{}: Signal {} to job {}\n", k_tool, signal, id);
  }
}

int cancel(const ScancelArgs& a) {
  int signal = 0;
  if (!a.signal.empty()) {
    const std::optional<int> s = cli::signal_from_name(a.signal);
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
  const bool filtered =
      !a.account.empty() || !a.name.empty() || !a.partition.empty() || state || !user.empty();
  if (targets.empty() && !filtered) {
    throw Error(Errc::invalid_argument, "No job identification provided");
  }

  int rc = 0;
  std::vector<JobId> ids;
  for (const auto& t : targets) {
    if (t.whole_job) {
      ids.push_back(t.job_id);
      continue;
    }
    // Array tasks and steps do not exist in stint yet: no such job.
    print_verbose(a, signal, t.text);
    if (!a.quiet) print_kill_error(t.text, errc_slurm_message(Errc::invalid_job_id));
    rc = 1;
  }
  if (!targets.empty() && ids.empty()) return rc;

  nlohmann::json request = {{"op", "cancel"}, {"signal", signal}, {"batch_only", a.batch}};
  if (a.interactive) {
    // Ask first, then cancel exactly what was confirmed. Named jobs that are
    // not live go along unasked, so stintd reports them as Slurm would.
    const std::vector<Job> live = interactive_candidates(a, user, state, ids);
    std::vector<JobId> chosen = confirm(live);
    for (JobId id : ids) {
      const bool asked =
          std::any_of(live.begin(), live.end(), [id](const Job& j) { return j.id == id; });
      if (!asked) chosen.push_back(id);
    }
    if (chosen.empty()) return rc;
    request["job_ids"] = chosen;
  } else {
    request["job_ids"] = ids;
    if (!user.empty()) request["user"] = user;
    if (!a.partition.empty()) request["partition"] = a.partition;
    if (!a.name.empty()) request["name"] = a.name;
    if (!a.account.empty()) request["account"] = a.account;
    if (state) request["states"] = nlohmann::json::array({std::string(state_name(*state))});
  }

  const nlohmann::json reply = rpc::call(default_paths(), request);
  const auto results = reply.find("results");
  if (results == reply.end() || !results->is_array()) return rc;
  for (const auto& r : *results) {
    const std::string id = std::to_string(r.value("job_id", JobId{0}));
    print_verbose(a, signal, id);
    const auto err = r.find("error");
    if (err == r.end() || !err->is_string()) continue;
    const Errc code = errc_from_name(err->get<std::string>());
    const std::string message = r.value("message", std::string(errc_slurm_message(code)));
    const bool already_done =
        code == Errc::job_state_invalid && message == errc_slurm_message(Errc::job_state_invalid);
    if (already_done) {
      // Slurm mentions an ended job only with -v, and it is not a failure.
      if (a.verbose > 0) print_kill_error(id, message);
      continue;
    }
    // Unlike Slurm, an unknown job id is reported and fails the command
    // (slurm-reference/README.md); -Q silences the report.
    if (!(a.quiet && code == Errc::invalid_job_id)) print_kill_error(id, message);
    rc = 1;
  }
  return rc;
}

int run(int argc, char** argv) {
  CLI::App app{"scancel: signal or cancel jobs, job arrays or job steps"};
  cli::configure_app(app, k_tool);
  ScancelArgs a;
  app.add_option("-A,--account", a.account, "act only on jobs charging this account");
  app.add_flag("-b,--batch", a.batch, "signal batch shell for specified job");
  app.add_flag("-i,--interactive", a.interactive, "require response from user for each job");
  app.add_flag("--me", a.me, "act only on your own jobs");
  app.add_option("-n,--name,--jobname", a.name, "act only on jobs with this name");
  app.add_option("-p,--partition", a.partition, "act only on jobs in this partition");
  app.add_flag("-Q,--quiet", a.quiet, "disable warnings");
  app.add_option("-s,--signal", a.signal, "signal to send to job, default is SIGKILL");
  app.add_option("-t,--state", a.state, "act only on jobs in this state");
  app.add_option("-u,--user", a.user, "act only on jobs of this user");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_option("job_id", a.job_ids, "job_id[_array_id][.step_id]");
  if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) {
    return rc == 255 ? 1 : rc;  // scancel's getopt errors exit 1, not 255
  }
  try {
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
