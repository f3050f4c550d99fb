// run-clone: a new run with the source's settings, other values for its
// variables, new variables, and a command; --sweep makes one per value.

#include <algorithm>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/run_common.hpp"

namespace stint::tools {

int run_clone(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-clone";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-clone: a new run from another, with other variables and a command"};
    cli::configure_app(app, k_tool);
    std::string source_text;
    std::vector<std::string> env, unset, rename;
    std::string sweep;
    run::CloneRequest req;
    std::string name;
    app.add_option("run", source_text, "the run to clone (PROJECT/N)")->required();
    app.add_option("--env", env, "NAME=VALUE: a new value, or a new variable (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--unset", unset, "NAME: refused (a clone keeps every variable)")
        ->allow_extra_args(false);
    app.add_option("--rename", rename, "OLD=NEW: refused (names cannot change)")
        ->allow_extra_args(false);
    app.add_flag("--same-command", req.same_command, "reuse the source's command");
    app.add_option("--sweep", sweep, "NAME=v1,v2,...: one clone per value");
    app.add_option("--name", name, "a name for the new run");
    app.add_option("command", req.command, "the command, after --");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    for (const auto& e : env) req.env.push_back(run::parse_env_assignment(e));
    req.unset = unset;
    for (const auto& r : rename) req.rename.push_back(run::parse_env_assignment(r));
    if (!name.empty()) req.name = name;
    const RunName source_name = run::parse_run_name(source_text);

    const Paths paths = default_paths();
    if (!Store::exists(paths.db()))
      throw Error(Errc::invalid_argument, fmt::format("No run {}", source_name.text()));
    auto store = Store::reader(paths.db());
    std::optional<Job> source;
    for (auto& j : cli::all_run_jobs(*store, source_name.project)) {
      if (j.spec.run->number == source_name.number) source = std::move(j);
    }
    if (!source) throw Error(Errc::invalid_argument, fmt::format("No run {}", source_name.text()));
    std::vector<Job> found{std::move(*source)};
    const bool values_shown = cli::reveal_run_env(*store, found, k_tool).front();
    const RunSettings from = cli::run_settings(found.front());
    if (!values_shown) {
      // Another user's values are not this user's to copy: each is given anew.
      const std::string swept = sweep.substr(0, sweep.find('='));
      std::vector<std::string> missing;
      for (const auto& variable : from.env) {
        const std::string& v = variable.first;
        if (v != swept && std::none_of(req.env.begin(), req.env.end(),
                                       [&](const auto& given) { return given.first == v; }))
          missing.push_back(v);
      }
      if (!missing.empty())
        throw Error(Errc::access_denied,
                    fmt::format("The values of {}'s variables are not shown to you: give {} "
                                "with --env NAME=VALUE",
                                source_name.text(), fmt::join(missing, ", ")));
    }

    // Every clone is checked before the first is submitted: a bad sweep
    // creates no run at all.
    std::vector<RunSettings> clones;
    for (const auto& r :
         sweep.empty() ? std::vector<run::CloneRequest>{req} : run::sweep(req, sweep))
      clones.push_back(run::clone_settings(from, source_name, r));
    for (auto& c : clones) cli::check_containers(c);
    for (const auto& c : clones)
      fmt::print("{}\n", cli::submit_run(cli::run_job_spec(c, source_name.text()), k_tool));
    return 0;
  });
}

}  // namespace stint::tools
