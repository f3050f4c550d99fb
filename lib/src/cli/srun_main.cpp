// srun's command line. Inside an allocation (SLURM_JOB_ID, or --jobid) it
// runs a step there; outside one it gets an allocation first.

#include <cstdlib>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/srun.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "srun";

std::optional<JobId> allocation_from_environment() {
  for (const char* name : {"SLURM_JOB_ID", "SLURM_JOBID"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    char* end = nullptr;
    const unsigned long id = std::strtoul(value, &end, 10);
    if (*end == '\0' && id > 0) return static_cast<JobId>(id);
  }
  return std::nullopt;
}

std::uint32_t count_value(const std::string& text, const char* what) {
  return parse::count(text, what);
}

}  // namespace

int srun(int argc, char** argv) {
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"srun: run parallel tasks of a job step"};
    cli::configure_app(app, k_tool);
    // Everything from the program on is the program's (CLI11's remaining()).
    app.prefix_command();
    cli::SrunOptions o;
    std::string ntasks, nodes, ntasks_per_node, cpus_per_task, open_mode, jobid;
    std::string partition, account, qos, time, mem, mem_per_cpu, gpus, gres, gpus_per_node;
    std::string mpi, cpu_bind, distribution, dependency, begin;
    bool exclusive = false, overlap = false, unbuffered = false, verbose = false;
    std::vector<std::string> command;
    auto opt = [&](std::optional<std::string>& into) {
      return [&into](const std::string& v) { into = v; };
    };
    app.add_option("-n,--ntasks", ntasks, "number of tasks to run");
    app.add_option("-N,--nodes", nodes, "number of nodes to run on");
    app.add_option("--ntasks-per-node", ntasks_per_node, "tasks on each node");
    app.add_option("-c,--cpus-per-task", cpus_per_task, "CPUs of each task");
    app.add_option_function<std::string>("-w,--nodelist", opt(o.nodelist), "nodes to run on");
    app.add_option_function<std::string>("-J,--job-name", opt(o.job_name), "name of the step");
    app.add_option_function<std::string>("-o,--output", opt(o.output),
                                         "file for the tasks' stdout (%t, %n, %N, %j, %s)");
    app.add_option_function<std::string>("-e,--error", opt(o.error), "file for the tasks' stderr");
    app.add_option_function<std::string>("-D,--chdir", opt(o.chdir),
                                         "working directory of the tasks");
    app.add_option("-i,--input", o.input, "stdin to task 0 (0, the default), all or none");
    app.add_option("--open-mode", open_mode, "append or truncate the output files");
    app.add_flag("-l,--label", o.label, "prepend the task number to each line of output");
    app.add_flag("-K,--kill-on-bad-exit", o.kill_on_bad_exit, "end the step when a task fails");
    app.add_flag("-Q,--quiet", o.quiet, "print no informational messages");
    app.add_flag("--pty", o.pty,
                 "run task 0 on a pseudo-terminal (Ctrl-C, Ctrl-Z, window size reach it)");
    app.add_flag("-E,--preserve-env", o.preserve_env,
                 "keep SLURM_NNODES and SLURM_NTASKS as found, not the step's");
    bool interactive = false;
    app.add_flag("--interactive", interactive,
                 "the interactive step salloc starts (LaunchParameters=use_interactive_step)");
    app.add_flag("-v,--verbose", verbose, "print more (accepted)");
    app.add_flag("-u,--unbuffered", unbuffered, "output is passed on as it comes (accepted)");
    app.add_option("--jobid", jobid, "run the step in this job's allocation");
    app.add_option("-p,--partition", partition, "partition of a new allocation");
    app.add_option("-A,--account", account, "account of a new allocation");
    app.add_option("-q,--qos", qos, "QOS of a new allocation");
    app.add_option("-t,--time", time, "time limit of a new allocation");
    app.add_option("--mem", mem, "memory per node of a new allocation");
    app.add_option("--mem-per-cpu", mem_per_cpu, "memory per CPU of a new allocation");
    app.add_option("-G,--gpus", gpus, "GPUs of a new allocation");
    app.add_option("--gres", gres, "generic resources of a new allocation");
    app.add_option("--gpus-per-node", gpus_per_node, "GPUs per node of a new allocation");
    app.add_option("-d,--dependency", dependency, "dependency of a new allocation");
    app.add_option("-b,--begin", begin, "start time of a new allocation");
    app.add_flag("--exclusive", exclusive, "accepted: steps here never share CPUs");
    app.add_flag("--overlap", overlap, "accepted: steps may share the allocation");
    app.add_option("--mpi", mpi, "accepted: tasks get Slurm's variables, no PMI");
    app.add_option("--cpu-bind", cpu_bind, "accepted: tasks are bound to their CPUs");
    app.add_option("-m,--distribution", distribution, "accepted: tasks are laid out in blocks");
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
    for (const auto& extra : app.remaining()) command.push_back(extra);
    if (!command.empty() && command.front().size() > 1 && command.front().front() == '-') {
      // prefix_command leaves an unknown option among the program's words.
      fmt::print(stderr, "{}: unrecognized option '{}'\nTry \"{} --help\" for more information\n",
                 k_tool, command.front(), k_tool);
      return 255;
    }
    if (command.empty()) throw Error(Errc::invalid_argument, "No command given to execute.");
    o.command = command;

    if (!ntasks.empty()) o.ntasks = count_value(ntasks, "--ntasks");
    if (!nodes.empty()) {
      // "-N 2-4": a step takes the lower count.
      o.nodes = count_value(nodes.substr(0, nodes.find('-')), "--nodes");
    }
    if (!ntasks_per_node.empty())
      o.ntasks_per_node = count_value(ntasks_per_node, "--ntasks-per-node");
    if (!cpus_per_task.empty()) o.cpus_per_task = count_value(cpus_per_task, "--cpus-per-task");
    if (o.ntasks && *o.ntasks == 0)
      throw Error(Errc::invalid_argument, "Invalid number of tasks: 0");
    if (o.cpus_per_task && *o.cpus_per_task == 0)
      throw Error(Errc::invalid_argument, "Invalid --cpus-per-task argument: 0");
    if (!open_mode.empty()) {
      if (open_mode != "append" && open_mode != "truncate" && open_mode != "a" && open_mode != "t")
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid --open-mode argument: {}", open_mode));
      o.open_append = open_mode.front() == 'a';
    }
    if (o.input != "0" && o.input != "all" && o.input != "none")
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid --input argument: {} (0, all or none)", o.input));
    if (!time.empty()) {
      try {
        parse::time_limit(time);
      } catch (const Error&) {
        throw Error(Errc::invalid_time, "Invalid --time specification");
      }
    }
    const std::pair<const char*, const std::string*> allocation_options[] = {
        {"--ntasks", &ntasks},
        {"--nodes", &nodes},
        {"--ntasks-per-node", &ntasks_per_node},
        {"--cpus-per-task", &cpus_per_task},
        {"--partition", &partition},
        {"--account", &account},
        {"--qos", &qos},
        {"--time", &time},
        {"--mem", &mem},
        {"--mem-per-cpu", &mem_per_cpu},
        {"--gpus", &gpus},
        {"--gres", &gres},
        {"--gpus-per-node", &gpus_per_node},
        {"--dependency", &dependency},
        {"--begin", &begin},
    };
    for (const auto& [flag, value] : allocation_options) {
      if (!value->empty()) o.allocation.emplace_back(flag, *value);
    }
    if (o.job_name) o.allocation.emplace_back("--job-name", *o.job_name);
    if (o.chdir) o.allocation.emplace_back("--chdir", *o.chdir);

    std::optional<JobId> job = allocation_from_environment();
    if (!jobid.empty()) {
      char* end = nullptr;
      const unsigned long id = std::strtoul(jobid.c_str(), &end, 10);
      if (*end != '\0' || id == 0)
        throw Error(Errc::invalid_job_id, fmt::format("Invalid job id: {}", jobid));
      job = static_cast<JobId>(id);
    }
    if (job) return cli::run_step(o, *job);
    std::vector<std::string> args(argv + 1, argv + argc);
    // A terminal has to stay this process's: the allocation is held by salloc
    // while this same srun runs the step in it, from here.
    if (o.pty) cli::run_with_held_allocation(o, args);
    return cli::run_with_allocation(o, args);
  });
}

}  // namespace stint::tools
