// run-exec: a command inside a node of a running (or kept-alive) run, with the
// run's environment (its variables, the node's RANK, MASTER_ADDR, ports and
// storages) and in its image. It is a job step on that node, as `srun
// --jobid=J -w NODE -n1` would run it: sacct lists it, and run-stop or
// scancel ends it with the run.

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/run_common.hpp"
#include "cli/srun.hpp"
#include "daemon/job_env.hpp"
#include "util/proc.hpp"

namespace stint::tools {

int run_exec(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-exec";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-exec: run a command inside a node of a running or kept-alive run"};
    cli::configure_app(app, k_tool);
    std::string name;
    std::uint32_t rank = 0;
    std::vector<std::string> command;
    app.add_option("run", name, "the run (PROJECT/N)")->required();
    app.add_option("--node", rank, "the node's rank (default 0)");
    app.add_option("command", command, "the command, after --");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    if (command.empty()) throw Error(Errc::invalid_argument, "A command is needed (after --)");

    const Paths paths = default_paths();
    const RunName rn = run::parse_run_name(name);
    std::optional<Job> found;
    if (Store::exists(paths.db())) {
      auto store = Store::reader(paths.db());
      for (auto& job : store->run_jobs(rn.project)) {
        if (job.spec.run->number == rn.number) found = std::move(job);
      }
    }
    if (!found) throw Error(Errc::invalid_argument, fmt::format("No run {}", rn.text()));
    std::vector<Job> runs{std::move(*found)};
    if (!cli::reveal_run_env(*Store::reader(paths.db()), runs, k_tool).front())
      throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
    const Job& job = runs.front();
    if (job.state != JobState::running)
      throw Error(Errc::job_state_invalid,
                  fmt::format("Run {} is {}: only a running or kept-alive run's nodes take "
                              "commands",
                              rn.text(), cli::run_state(job)));
    if (rank >= job.alloc.size())
      throw Error(Errc::invalid_argument,
                  fmt::format("Run {} has no node of rank {}", rn.text(), rank));

    cli::SrunOptions o;
    o.ntasks = 1;
    o.nodelist = job.alloc[rank].node;
    o.quiet = true;
    o.job_name = "run-exec";
    o.voice = fmt::format("{}: {} node {}", k_tool, rn.text(), rank);
    // A shell beside the run's command, or several at once: never waits for CPUs.
    o.overlap = true;
    o.chdir = daemon::work_dir(job);
    const RunInfo& r = *job.spec.run;
    o.command = command;
    // The node's environment as its command got it, over run-exec's own.
    o.environment = daemon::job_environment(job, query::read_config(paths), rank,
                                            proc::short_hostname(), paths.state_dir);
    if (!r.image.empty()) {
      std::vector<std::pair<std::string, std::string>> binds;
      for (const auto& [storage, mount] : r.storages)
        binds.emplace_back(run::storage_path(paths.state_dir, storage),
                           run::storage_mount(StorageMount{storage, mount}));
      if (run::is_directory_image(r.image)) {
        o.command = run::bubblewrap_argv(find_helper("bwrap"), r.image, *o.chdir, command, binds);
      } else {
        // A container of its own beside the node's (which may have ended, kept alive).
        std::vector<std::string> names;
        for (const auto& variable : o.environment) names.push_back(variable.first);
        o.command = run::podman_argv(find_helper("podman"), r.image,
                                     fmt::format("stint-{}-{}-exec-{}", job.id, rank, ::getpid()),
                                     *o.chdir, command, binds, names);
      }
    }
    return cli::run_step(o, job.id);
  });
}

}  // namespace stint::tools
