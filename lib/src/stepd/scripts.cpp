#include "stepd/scripts.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "process/run.hpp"

namespace stint::stepd {
namespace {

// Enough for a site script's messages; more is cut so a chatty script cannot
// fill stintd's log or memory.
constexpr std::size_t k_max_output = std::size_t{64} * 1024;

struct One {
  bool ok = false;
  std::string failure;
};

One run_one(const std::vector<std::string>& argv, const std::vector<std::string>& env,
            Seconds timeout, std::string& output) {
  if (argv.empty() || argv[0].empty()) return {false, "empty command"};
  process::Spec spec;
  spec.argv = argv;
  spec.environment = env;
  spec.stderr_to = process::Output::with_stdout;
  if (timeout >= 0) spec.timeout = std::chrono::seconds(timeout);  // k_infinite (-1) is none
  spec.output_limit = k_max_output - std::min(output.size(), k_max_output);
  // A script that leaves a process behind keeps its output open: its end is
  // its exit, and what it left goes with its group.
  spec.end = process::End::exit;
  spec.kill_group_at_end = true;
  process::Result r;
  try {
    r = process::run(spec);
  } catch (const Error& e) {
    // As a shell reports a program it cannot run.
    output += fmt::format("{}\n", e.what());
    output.resize(std::min(output.size(), k_max_output));
    return {false, fmt::format("{} exited with status 127", argv[0])};
  }
  output += r.out;
  if (r.timed_out) return {false, fmt::format("{} timed out after {} s", argv[0], timeout)};
  if (r.term_signal != 0)
    return {false, fmt::format("{} killed by signal {}", argv[0], r.term_signal)};
  if (r.exit_code != 0)
    return {false, fmt::format("{} exited with status {}", argv[0], r.exit_code)};
  return {true, {}};
}

}  // namespace

ScriptsOutcome run_scripts(const std::vector<std::vector<std::string>>& scripts,
                           const std::vector<std::pair<std::string, std::string>>& env,
                           Seconds timeout) {
  ScriptsOutcome out;
  std::vector<std::string> env_text;
  for (const auto& [k, v] : env) env_text.push_back(k + "=" + v);
  for (const auto& argv : scripts) {
    One r = run_one(argv, env_text, timeout, out.output);
    if (!r.ok) {
      out.ok = false;
      out.failure = std::move(r.failure);
      break;
    }
  }
  return out;
}

}  // namespace stint::stepd
