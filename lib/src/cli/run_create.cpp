// run-create and run-stop: a run of N nodes in a project, submitted to stintd
// as a job whose command starts on every node; run-stop ends every node.

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/run.hpp>
#include <stint/tools.hpp>

#include "backend/command.hpp"
#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/refusal.hpp"
#include "cli/run_common.hpp"
#include "cli/sbatch_options.hpp"
#include "model/json.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::cli {

JobSpec run_job_spec(const RunSettings& s, const std::string& cloned_from) {
  JobSpec spec;
  spec.partition = s.server_type.empty() ? std::nullopt : std::optional(s.server_type);
  spec.nodes = s.nodes;
  spec.ntasks = s.nodes;
  spec.ntasks_per_node = 1;
  spec.cpus_per_task = s.cpus.value_or(1);
  if (s.gpus && *s.gpus > 0) spec.gpus_per_node = s.gpus;
  spec.mem_per_node_mb = s.mem_mb;
  spec.time_limit = s.time_limit;
  spec.name = s.name;
  spec.comment = s.description;
  // The command starts through a one-line script, so that stepd runs a run's
  // node as it runs a batch job (output files, limits, accounting).
  spec.script = "#!/bin/sh\nexec \"$@\"\n";
  spec.script_args = s.command;
  spec.stdout_pattern = "run-%j.%n.out";
  const SubmitContext context = current_submit_context();
  spec.submit_dir = context.cwd;
  spec.submit_host = context.hostname;
  spec.environment = context.environment;
  for (const auto& [k, v] : s.env) run::set_env(spec.environment, k, v);
  RunInfo r;
  r.project = s.project;
  r.keep_alive = s.keep_alive;
  r.ports_per_node = s.ports_per_node;
  r.image = s.image;
  for (const auto& st : s.storages) r.storages.emplace_back(st.name, st.mount);
  r.env = s.env;
  r.command = s.command;
  r.description = s.description;
  r.cloned_from = cloned_from;
  r.metrics_files = s.metrics_files;
  r.metrics_all_ranks = s.metrics_all_ranks;
  spec.run = std::move(r);
  return spec;
}

std::string submit_run(const JobSpec& spec, std::string_view tool) {
  const Paths paths = default_paths();
  nlohmann::json reply;
  try {
    reply = rpc::call(paths, {{"op", "submit"}, {"spec", to_json(spec)}});
  } catch (const Error& e) {
    // A refusal Slurm words in its second line alone has no detail of its own.
    const Error shown = std::string_view(e.what()).empty()
                            ? Error(e.code(), std::string(errc_slurm_message(e.code())))
                            : e;
    throw_with_hints(shown, spec.partition.value_or(""), "", "server type");
  }
  // A server type that is a cluster's partition, mapped by stint.yaml's aliases.
  if (const auto it = reply.find("warnings"); it != reply.end() && it->is_array()) {
    for (const auto& w : *it) {
      if (w.is_string()) fmt::print(stderr, "{}: warning: {}\n", tool, w.get<std::string>());
    }
  }
  return reply.value("run", std::string());
}

void check_containers(RunSettings& s) {
  if (!s.image.empty()) {
    if (!run::is_directory_image(s.image)) {
      std::string podman;
      try {
        podman = find_helper("podman");
      } catch (const Error&) {
        throw Error(
            Errc::invalid_argument,
            fmt::format("--image {}: an OCI image needs podman, which is not installed", s.image));
      }
      // As the user whose nodes will run it: podman's image store is theirs.
      backend::CommandTarget here;
      here.timeout_s = 60;
      const auto exists = backend::run_command(here, {podman, "image", "exists", s.image});
      if (exists.timed_out || exists.exit_code != 0)
        throw Error(Errc::invalid_argument,
                    fmt::format("--image {}: no such OCI image in podman's store (podman pull "
                                "or podman load it first)",
                                s.image));
      return;
    }
    std::error_code ec;
    const auto dir = std::filesystem::absolute(s.image, ec);
    if (ec || !std::filesystem::is_directory(dir, ec))
      throw Error(Errc::invalid_argument,
                  fmt::format("--image {}: no such directory image", s.image));
    s.image = dir.lexically_normal().string();
    try {
      find_helper("bwrap");
    } catch (const Error&) {
      throw Error(Errc::invalid_argument,
                  fmt::format("--image {}: a directory image runs with bubblewrap (bwrap), "
                              "which is not installed",
                              s.image));
    }
  }
  // Storages are checked by stintd, which owns them (run-storage create).
}

}  // namespace stint::cli

namespace stint::tools {
namespace {

// A server type whose nodes have GPUs gives each node one unless --gpus says
// otherwise, as NSML's GPU sessions do; nothing where the nodes have none, or
// where the project's runs go to a real cluster (its partitions are its own).
std::optional<std::uint32_t> default_gpus(const RunSettings& s) {
  try {
    const Config config = query::read_config(default_paths());
    if (config.run_backend_for(s.project) != "local") return std::nullopt;
    const PartitionConfig* p =
        s.server_type.empty() ? config.default_partition() : config.find_partition(s.server_type);
    if (p == nullptr) return std::nullopt;
    for (const NodeDef& n : config.partition_nodes(*p)) {
      if (n.gpus > 0) return 1;
    }
  } catch (const Error&) {
    // stintd's refusal of the server type says more than a guess here would.
  }
  return std::nullopt;
}

}  // namespace

int run_create(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-create";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-create: create a run of N nodes in a project and start its command"};
    cli::configure_app(app, k_tool);
    RunSettings s;
    std::string keep_alive = "off";
    std::vector<std::string> env, storages;
    std::string mem, time;
    app.add_option("--project", s.project, "the project the run belongs to")->required();
    app.add_option("--server-type", s.server_type, "the server type: a partition");
    auto* nodes =
        app.add_option("--nodes", s.nodes, "number of nodes, the same shape each (default 1)");
    app.add_option("--gpus", s.gpus,
                   "GPUs per node (default 1 on a server type with GPUs, else 0)");
    app.add_option("--cpus", s.cpus, "CPUs per node (default 1)");
    app.add_option("--mem", mem,
                   "memory per node, e.g. 4G (default: the partition's DefMemPerCPU, else a "
                   "share of the node by CPUs)");
    app.add_option("--time", time,
                   "time limit, in Slurm's forms (default: the partition's DefaultTime, else "
                   "its MaxTime)");
    app.add_option("--keep-alive", keep_alive,
                   "on: keep the nodes after the command ends (default off)")
        ->check(CLI::IsMember({"on", "off"}, CLI::ignore_case));
    app.add_option("--image", s.image, "container image for every node");
    app.add_option("--storage", storages, "storage NAME[:MOUNT] (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--env", env, "environment variable NAME=VALUE (repeatable, order kept)")
        ->allow_extra_args(false);
    app.add_option("--ports", s.ports_per_node, "TCP ports reserved per node (default 2)");
    app.add_option("--name", s.name, "a name for the run");
    app.add_option("--description", s.description, "a description of the run");
    app.add_option("--metrics-file", s.metrics_files,
                   "more files of metric records: a glob in the working directory, of JSON "
                   "lines (.jsonl), CSV with a header (.csv) or trainer_state.json (repeatable)")
        ->allow_extra_args(false);
    std::string metrics_rank = "0";
    app.add_option("--metrics-rank", metrics_rank,
                   "whose metric records are the run's: 0 (rank 0's, the default) or all")
        ->check(CLI::IsMember({"0", "all"}, CLI::ignore_case));
    app.add_option("command", s.command, "the command, after --");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    s.metrics_all_ranks = metrics_rank != "0";
    for (const std::string& pattern : s.metrics_files) {
      if (pattern.empty())
        throw Error(Errc::invalid_argument,
                    "--metrics-file: an empty pattern (give a file or a glob, e.g. logs/*.csv)");
    }
    s.keep_alive = keep_alive == "on" || keep_alive == "ON";
    if (!mem.empty()) s.mem_mb = parse::memory_mb(mem);
    if (!time.empty()) s.time_limit = parse::time_limit(time);
    for (const auto& e : env) {
      auto [k, v] = run::parse_env_assignment(e);
      s.env.emplace_back(std::move(k), std::move(v));
    }
    for (const auto& st : storages) s.storages.push_back(run::parse_storage(st));
    run::check_settings(s, cli::is_cpu_server(s.server_type), nodes->count() > 0);
    cli::check_containers(s);
    if (!s.gpus) s.gpus = default_gpus(s);
    fmt::print("{}\n", cli::submit_run(cli::run_job_spec(s, ""), k_tool));
    return 0;
  });
}

int run_stop(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-stop";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-stop: stop every node of runs"};
    cli::configure_app(app, k_tool);
    std::vector<std::string> runs;
    std::string project;
    bool all = false;
    app.add_option("runs", runs, "runs to stop (PROJECT/N)");
    app.add_option("--project", project, "with --all: the project");
    app.add_flag("--all", all, "stop every run of --project");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    if (all && project.empty()) throw Error(Errc::invalid_argument, "--all needs --project");
    if (!all && runs.empty()) throw Error(Errc::invalid_argument, "Name a run to stop");
    nlohmann::json req = {{"op", "run_stop"}, {"runs", nlohmann::json::array()}};
    for (const auto& r : runs) req["runs"].push_back(run::parse_run_name(r).text());
    if (all) {
      req["all"] = true;
      req["project"] = project;
    }
    nlohmann::json reply = rpc::call(default_paths(), req);
    int rc = 0;
    for (const auto& r : reply.value("results", nlohmann::json::array())) {
      if (r.contains("error")) {
        fmt::print(stderr, "{}: error: {}\n", k_tool, r.value("message", std::string()));
        rc = 1;
      } else {
        fmt::print("{} stopped\n", r.value("run", std::string()));
      }
    }
    return rc;
  });
}

}  // namespace stint::tools
