// run-clone's rules and sweeps, and the project's variable set.

#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

namespace stint::run {

RunSettings clone_settings(const RunSettings& source, const RunName& source_name,
                           const CloneRequest& request) {
  // A variable's name is what makes the project's runs comparable (run-list's
  // table): a clone may change values and add names, never take one away.
  for (const auto& name : request.unset) {
    throw Error(Errc::invalid_argument,
                fmt::format("Variable {} of run {} cannot be dropped on clone; give it a new "
                            "value with --env {}=VALUE",
                            name, source_name.text(), name));
  }
  for (const auto& [from, to] : request.rename) {
    throw Error(Errc::invalid_argument,
                fmt::format("Variable {} of run {} cannot be renamed to {} on clone; add {} with "
                            "--env and keep {}",
                            from, source_name.text(), to, to, from));
  }
  RunSettings s = source;
  if (request.same_command) {
    if (!request.command.empty())
      throw Error(Errc::invalid_argument, "Give either --same-command or a command, not both");
  } else {
    if (request.command.empty())
      throw Error(Errc::invalid_argument,
                  "A command is required: run-clone RUN [OPTIONS] -- COMMAND, or --same-command");
    s.command = request.command;
  }
  for (const auto& [name, value] : request.env) {
    if (!valid_env_name(name))
      throw Error(Errc::invalid_argument, fmt::format("Invalid environment variable: {}", name));
    set_env(s.env, name, value);
  }
  if (request.name) s.name = *request.name;
  return s;
}

std::vector<CloneRequest> sweep(const CloneRequest& base, std::string_view spec) {
  // Not a structured binding: clang 14 lets no lambda capture one.
  const auto assignment = parse_env_assignment(spec);
  const std::string& name = assignment.first;
  const std::string& values_text = assignment.second;
  std::vector<std::string> values;
  std::size_t start = 0;
  while (start <= values_text.size()) {
    std::size_t end = values_text.find(',', start);
    if (end == std::string::npos) end = values_text.size();
    values.push_back(values_text.substr(start, end - start));
    start = end + 1;
  }
  if (values_text.empty() ||
      std::any_of(values.begin(), values.end(), [](const std::string& v) { return v.empty(); }))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid sweep: {} (expected NAME=v1,v2,...)", spec));
  std::vector<CloneRequest> out;
  for (const auto& v : values) {
    CloneRequest r = base;
    std::erase_if(r.env, [&](const auto& e) { return e.first == name; });
    r.env.emplace_back(name, v);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<std::string> variable_set(const std::vector<const RunSettings*>& runs) {
  std::vector<std::string> names;
  for (const RunSettings* r : runs) {
    for (const auto& [name, value] : r->env) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

}  // namespace stint::run
