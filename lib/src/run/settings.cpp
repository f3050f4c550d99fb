// Names, assignments and the checks run-create makes.

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "run/name_rule.hpp"
#include "run/secret_env.hpp"

namespace stint::run {
namespace {

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
}

}  // namespace

bool valid_project_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '.' || name.front() == '-') return false;
  return std::all_of(name.begin(), name.end(), is_name_char);
}

bool valid_env_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

RunName parse_run_name(std::string_view text) {
  const auto slash = text.rfind('/');
  auto bad = [&] {
    return Error(Errc::invalid_argument,
                 fmt::format("Invalid run name: {} (expected PROJECT/NUMBER)", text));
  };
  if (slash == std::string_view::npos) throw bad();
  RunName r;
  r.project = std::string(text.substr(0, slash));
  std::string_view number = text.substr(slash + 1);
  if (!valid_project_name(r.project) || number.empty()) throw bad();
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), r.number);
  if (ec != std::errc() || end != number.data() + number.size() || r.number == 0) throw bad();
  return r;
}

std::pair<std::string, std::string> parse_env_assignment(std::string_view text) {
  const auto eq = text.find('=');
  std::string name(text.substr(0, eq));
  if (eq == std::string_view::npos || !valid_env_name(name))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid environment variable: {} (expected NAME=VALUE)", text));
  return {std::move(name), std::string(text.substr(eq + 1))};
}

StorageMount parse_storage(std::string_view text) {
  StorageMount m;
  const auto colon = text.find(':');
  m.name = std::string(text.substr(0, colon));
  if (colon != std::string_view::npos) m.mount = std::string(text.substr(colon + 1));
  if (!valid_project_name(m.name) ||
      (colon != std::string_view::npos && (m.mount.empty() || m.mount.front() != '/')))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid storage: {} (expected NAME or NAME:/mount/point)", text));
  return m;
}

void set_env(RunEnvironment& env, std::string name, std::string value) {
  for (auto& [n, v] : env) {
    if (n == name) {
      v = std::move(value);
      return;
    }
  }
  env.emplace_back(std::move(name), std::move(value));
}

std::string env_value(const RunEnvironment& env, std::string_view name) {
  for (const auto& [n, v] : env) {
    if (n == name) return v;
  }
  return {};
}

EnvPairs masked_env(EnvPairs env) {
  for (auto& kv : env) kv.second = k_masked_value;
  return env;
}

void fill_env_values(EnvPairs& run_env, const EnvPairs& environment) {
  for (auto& [name, value] : run_env) value = env_value(environment, name);
}

namespace {

// The variables each node of a run gets from stint (daemon/job_env.cpp): a
// run's own --env of the same name would be overridden there, unseen.
bool is_set_by_stint(std::string_view name) {
  for (std::string_view own :
       {"RANK", "NODE_RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}) {
    if (name == own) return true;
  }
  return name.starts_with("SLURM_") || name.starts_with("STINT_");
}

}  // namespace

void check_settings(const RunSettings& s, bool cpu_server, bool node_count_given) {
  if (!valid_project_name(s.project))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid project name: {} (a name is {})",
                            s.project.empty() ? "(none)" : s.project, k_name_rule));
  if (s.command.empty())
    throw Error(Errc::invalid_argument, "A command is required: run-create ... -- COMMAND [ARGS]");
  if (s.nodes == 0) throw Error(Errc::invalid_argument, "Invalid node count: 0");
  if (cpu_server && node_count_given)
    throw Error(Errc::invalid_argument,
                fmt::format("The {} server type takes no node count", s.server_type));
  if (cpu_server && s.keep_alive)
    throw Error(Errc::invalid_argument,
                fmt::format("The {} server type takes no keep-alive", s.server_type));
  // MASTER_PORT is rank 0's first port: a run of several nodes needs one.
  if (s.nodes > 1 && s.ports_per_node == 0)
    throw Error(Errc::invalid_argument,
                fmt::format("A run of {} nodes needs --ports 1 or more: its ranks meet on "
                            "MASTER_PORT, rank 0's first port",
                            s.nodes));
  for (const auto& [name, value] : s.env) {
    if (is_set_by_stint(name))
      throw Error(Errc::invalid_argument,
                  fmt::format("{} is set by stint on every node: choose another name (stint "
                              "sets RANK, NODE_RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, "
                              "MASTER_PORT, SLURM_* and STINT_*)",
                              name));
  }
  for (std::size_t i = 0; i < s.env.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (s.env[i].first == s.env[j].first)
        throw Error(Errc::invalid_argument,
                    fmt::format("Environment variable {} is given twice", s.env[i].first));
    }
  }
}

}  // namespace stint::run
