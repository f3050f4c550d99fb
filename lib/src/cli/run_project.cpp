// run-project create|list|delete and run-delete: the records around runs. Writes go
// to stintd; list reads the database, as run-list does.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/run_common.hpp"
#include "daemon/job_env.hpp"
#include "rpc/client.hpp"

namespace stint::tools {
namespace {

struct ProjectRow {
  Project project;
  std::size_t runs = 0;
  std::size_t live = 0;  ///< pending, running or kept alive
};

std::vector<ProjectRow> read_projects(Store& store) {
  std::map<std::string, ProjectRow> rows;
  for (auto& p : store.projects()) rows[p.name].project = std::move(p);
  for (const auto& job : cli::all_run_jobs(store, "")) {
    ProjectRow& row = rows[job.spec.run->project];
    row.project.name = job.spec.run->project;
    ++row.runs;
    if (!is_terminal(job.state)) ++row.live;
  }
  std::vector<ProjectRow> out;
  for (auto& [name, row] : rows) out.push_back(std::move(row));
  return out;
}

// The files a local run's ranks wrote their output to (run-create names them
// run-<job>.<rank>.out in the working directory).
// Every run of the project when `name.number` is 0.
std::vector<std::string> output_files(Store& store, const RunName& name) {
  std::vector<std::string> files;
  for (const auto& job : store.run_jobs(name.project)) {
    if (name.number != 0 && job.spec.run->number != name.number) continue;
    if (job.spec.run->backend == "slurm") continue;
    for (std::uint32_t node = 0; node < job.req.nodes; ++node) {
      auto [out, err] = daemon::output_paths(job, node);
      files.push_back(out);
      if (err != out) files.push_back(err);
    }
  }
  return files;
}

// As the user who asked: only what they may remove goes.
void remove_files(std::string_view tool, const std::vector<std::string>& files) {
  for (const auto& path : files) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      fmt::print(stderr, "{}: warning: {} kept: {}\n", tool, path, std::strerror(errno));
  }
}

}  // namespace

int run_project(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-project";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-project: the projects runs belong to"};
    cli::configure_app(app, k_tool);
    app.require_subcommand(1);
    std::string name;
    std::string description;
    auto* create = app.add_subcommand("create", "make a project (a run also makes its own)");
    create->add_option("name", name, "the project's name")->required();
    create->add_option("-d,--description", description, "what the project is for");
    auto* remove = app.add_subcommand(
        "delete", "remove a project and its runs from the run tools (accounting keeps the jobs)");
    remove->add_option("name", name, "the project's name")->required();
    bool keep_logs = false;
    remove->add_flag("--keep-logs", keep_logs, "leave the ranks' output files where they are");
    auto* list = app.add_subcommand("list", "the projects, their owners and runs");
    bool no_header = false;
    bool json = false;
    list->add_flag("-n,--noheader", no_header, "no header line");
    list->add_flag("--json", json, "print JSON");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;

    const Paths paths = default_paths();
    if (create->parsed()) {
      rpc::call(paths, {{"op", "project_create"}, {"name", name}, {"description", description}});
      fmt::print("{}\n", name);
      return 0;
    }
    if (remove->parsed()) {
      // Read before the deletion hides them.
      std::vector<std::string> files;
      if (!keep_logs && Store::exists(paths.db())) {
        auto store = Store::reader(paths.db());
        files = output_files(*store, RunName{name, 0});
      }
      const nlohmann::json reply = rpc::call(paths, {{"op", "project_delete"}, {"name", name}});
      remove_files(k_tool, files);
      for (const auto& run : reply.value("runs", nlohmann::json::array()))
        fmt::print("{} deleted\n", run.get<std::string>());
      fmt::print("{} deleted\n", name);
      return 0;
    }
    std::vector<ProjectRow> rows;
    if (Store::exists(paths.db())) {
      auto store = Store::reader(paths.db());
      rows = read_projects(*store);
    }
    if (json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& r : rows)
        out.push_back({{"project", r.project.name},
                       {"owner", r.project.owner_name},
                       {"runs", r.runs},
                       {"live", r.live},
                       {"created", r.project.created},
                       {"description", r.project.description}});
      fmt::print("{}\n", out.dump());
      return 0;
    }
    std::size_t w = 7;
    for (const auto& r : rows) w = std::max(w, r.project.name.size());
    if (!no_header)
      fmt::print("{:<{}} {:<10} {:>5} {:>5} {:<19} {}\n", "PROJECT", w, "OWNER", "RUNS", "LIVE",
                 "CREATED", "DESCRIPTION");
    for (const auto& r : rows) {
      std::string line = fmt::format(
          "{:<{}} {:<10} {:>5} {:>5} {:<19} {}", r.project.name, w,
          r.project.owner_name.empty() ? "-" : r.project.owner_name, r.runs, r.live,
          r.project.created == k_no_time ? "-" : parse::format_timestamp(r.project.created),
          r.project.description);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      fmt::print("{}\n", line);
    }
    return 0;
  });
}

int run_delete(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-delete";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-delete: remove ended runs from the run tools (accounting keeps their jobs)"};
    cli::configure_app(app, k_tool);
    std::vector<std::string> runs;
    bool keep_logs = false;
    app.add_option("runs", runs, "runs to delete (PROJECT/N)")->required();
    app.add_flag("--keep-logs", keep_logs, "leave the ranks' output files where they are");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    const Paths paths = default_paths();
    std::vector<RunName> names;
    for (const auto& r : runs) names.push_back(run::parse_run_name(r));
    // Read before the deletion hides them.
    std::map<std::string, std::vector<std::string>> files;
    if (!keep_logs && Store::exists(paths.db())) {
      auto store = Store::reader(paths.db());
      for (const auto& n : names) files[n.text()] = output_files(*store, n);
    }
    nlohmann::json req = {{"op", "run_delete"}, {"runs", nlohmann::json::array()}};
    for (const auto& n : names) req["runs"].push_back(n.text());
    const nlohmann::json reply = rpc::call(paths, req);
    int rc = 0;
    for (const auto& r : reply.value("results", nlohmann::json::array())) {
      const std::string run = r.value("run", std::string());
      if (r.contains("error")) {
        fmt::print(stderr, "{}: error: {}\n", k_tool, r.value("message", std::string()));
        rc = 1;
        continue;
      }
      remove_files(k_tool, files[run]);
      fmt::print("{} deleted\n", run);
    }
    return rc;
  });
}

}  // namespace stint::tools
