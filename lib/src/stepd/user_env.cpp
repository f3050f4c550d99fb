#include "stepd/user_env.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include <fmt/core.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "process/run.hpp"

namespace stint::stepd {
namespace {

constexpr std::string_view k_start = "XXXXSLURMSTARTPARSINGHEREXXXX";
constexpr std::string_view k_stop = "XXXXSLURMSTOPPARSINGHEREXXXXX";
// Slurm reads at most 256 KiB of it.
constexpr std::size_t k_max_output = std::size_t{256} * 1024;
// sbatch(1): "Default value is 8 seconds".
constexpr Seconds k_default_timeout = 8;

bool exists(const char* path) {
  struct stat st {};
  return ::stat(path, &st) == 0;
}

const char* first_existing(std::initializer_list<const char*> paths) {
  for (const char* p : paths) {
    if (exists(p)) return p;
  }
  return nullptr;
}

struct Passwd {
  std::string name;
  std::string home;
  std::string shell;
};

std::optional<Passwd> passwd_of(std::uint32_t uid) {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(static_cast<uid_t>(uid), &pw, buf.data(), buf.size(), &found) != 0 || !found)
    return std::nullopt;
  return Passwd{pw.pw_name, pw.pw_dir, pw.pw_shell && *pw.pw_shell ? pw.pw_shell : "/bin/sh"};
}

// Runs argv with exactly env, stdout read into `out` (bounded), stdin and
// stderr /dev/null, in its own process group, killed with it at `timeout`.
// Returns "" when it ran to its end (whatever its status), else why not.
std::string run_reading(std::vector<std::string> argv, std::vector<std::string> env,
                        Seconds timeout, std::string& out) {
  process::Spec spec;
  spec.argv = std::move(argv);
  spec.environment = std::move(env);
  spec.stderr_to = process::Output::discarded;
  spec.timeout = std::chrono::seconds(timeout);
  // One byte more than Slurm reads tells an output that is too long.
  spec.output_limit = k_max_output + 1;
  // As slurmd: whatever is left of it goes (a profile's background jobs too).
  spec.kill_group_at_end = true;
  process::Result r;
  try {
    r = process::run(spec);
  } catch (const Error& e) {
    return e.what();
  }
  out = std::move(r.out);
  if (out.size() > k_max_output) return "buffer overflow loading env vars";
  if (r.timed_out) return fmt::format("timeout waiting for {} to complete", spec.argv[0]);
  return {};
}

}  // namespace

std::string user_env_command(const std::string& env_program) {
  // The empty lines first, as Slurm's: a profile's last line without a
  // newline does not run into the marker. `env -0` keeps values that hold
  // newlines (bash functions) whole.
  return fmt::format(
      "/bin/echo; /bin/echo; /bin/echo; /bin/echo {}; {} -0; /bin/echo; /bin/echo {}", k_start,
      env_program, k_stop);
}

std::optional<Environment> parse_user_env_output(std::string_view output) {
  const std::string start_line = std::string(k_start) + "\n";
  std::size_t at = output.find(start_line);
  // The marker starts a line.
  while (at != std::string_view::npos && at > 0 && output[at - 1] != '\n')
    at = output.find(start_line, at + 1);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = output.substr(at + start_line.size());
  const std::string stop = "\n" + std::string(k_stop);
  const std::size_t end = rest.rfind(stop);
  if (end == std::string_view::npos) return std::nullopt;
  rest = rest.substr(0, end);
  Environment env;
  while (!rest.empty()) {
    const std::size_t nul = rest.find('\0');
    const std::string_view entry = rest.substr(0, nul);
    rest = nul == std::string_view::npos ? std::string_view() : rest.substr(nul + 1);
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    const std::string_view name = entry.substr(0, eq);
    if (name == "DISPLAY" || name == "ENVIRONMENT" || name == "HOSTNAME") continue;
    env.emplace_back(std::string(name), std::string(entry.substr(eq + 1)));
  }
  return env;
}

Environment merge_user_env(Environment loaded, const Environment& submitted) {
  // Not a structured binding: clang 14 (the fuzz build's) cannot capture one.
  for (const auto& variable : submitted) {
    auto it = std::find_if(loaded.begin(), loaded.end(),
                           [&](const auto& kv) { return kv.first == variable.first; });
    if (it != loaded.end())
      it->second = variable.second;
    else
      loaded.push_back(variable);
  }
  return loaded;
}

TaskLaunch with_user_environment(const TaskLaunch& launch, const LogFn& log) {
  auto say = [&](const std::string& line) {
    if (log) log(fmt::format("job {} node {}: {}", launch.job_id, launch.node_index, line));
  };
  const std::optional<Passwd> user = passwd_of(launch.uid);
  if (!user) {
    say(fmt::format("get env: no user {}; running only with passed environment", launch.uid));
    return launch;
  }
  const char* env_program = first_existing({"/bin/env", "/usr/bin/env"});
  if (!env_program) {
    say("Could not locate command: env");
    return launch;
  }
  const bool login = launch.user_env_mode != 'S';
  const std::string command = user_env_command(env_program);
  std::vector<std::string> argv;
  std::vector<std::string> env{"ENVIRONMENT=BATCH"};
  if (::geteuid() == 0) {
    // slurmd's way: su, so that the site's PAM session and limits apply.
    const char* su = first_existing({"/bin/su", "/usr/bin/su"});
    if (!su) {
      say("Could not locate command: /bin/su");
      return launch;
    }
    argv = {su};
    if (login) argv.emplace_back("-");
    argv.insert(argv.end(), {user->name, "-c", command});
  } else if (::geteuid() == launch.uid) {
    // A personal stintd's job is its own user's: su would ask for a
    // password, so the login shell runs itself, as su would start it.
    argv = {user->shell};
    if (login) argv.emplace_back("-l");
    argv.insert(argv.end(), {"-c", command});
    env.insert(env.end(), {"HOME=" + user->home, "SHELL=" + user->shell, "USER=" + user->name,
                           "LOGNAME=" + user->name});
    if (login) env.emplace_back("PATH=/usr/local/bin:/usr/bin:/bin");
  } else {
    say("SlurmdUser must be root to use --get-user-env");
    return launch;
  }
  const Seconds timeout = launch.user_env_timeout > 0 ? launch.user_env_timeout : k_default_timeout;
  std::string output;
  const std::string problem = run_reading(argv, env, timeout, output);
  std::optional<Environment> loaded = parse_user_env_output(output);
  if (!problem.empty() || !loaded) {
    say(fmt::format(
        "{}; Unable to get user's local environment, running only with passed "
        "environment",
        problem.empty() ? "Failed to get current user environment variables" : problem));
    return launch;
  }
  say(fmt::format("get env for user {} here: {} variables", user->name, loaded->size()));
  TaskLaunch merged = launch;
  merged.env = merge_user_env(std::move(*loaded), launch.env);
  return merged;
}

}  // namespace stint::stepd
