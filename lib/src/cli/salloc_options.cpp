// salloc's option table and command line (cli/salloc_options.hpp).

#include "cli/salloc_options.hpp"

#include <algorithm>
#include <array>

#include <fmt/core.h>

#include <stint/parse.hpp>

namespace stint::cli {
namespace {

// sbatch's options a salloc does not have: they are about the batch script
// (its files, its environment, waiting for it) or arrays.
constexpr std::array k_batch_only = {
    SbatchOpt::array,       SbatchOpt::batch,
    SbatchOpt::error,       SbatchOpt::export_env,
    SbatchOpt::export_file, SbatchOpt::ignore_pbs,
    SbatchOpt::input,       SbatchOpt::kill_on_invalid_dep,
    SbatchOpt::no_requeue,  SbatchOpt::open_mode,
    SbatchOpt::output,      SbatchOpt::parsable,
    SbatchOpt::propagate,   SbatchOpt::requeue,
    SbatchOpt::test_only,   SbatchOpt::wait,
    SbatchOpt::wrap,
};

constexpr std::string_view k_parallel = "Parallel run options:";

constexpr OptionSpec salloc_row(SallocOpt id, char short_name, std::string_view long_name,
                                ArgKind arg, std::uint16_t slurm_rank, std::string_view env,
                                std::string_view help, Effect effect, std::string_view here) {
  return OptionSpec{static_cast<int>(id), short_name, long_name, arg, slurm_rank, env,
                    k_parallel,           help,       effect,    here};
}

// salloc's own, placed after the sbatch option they follow in Slurm's --help.
constexpr std::array k_salloc_own = {
    salloc_row(SallocOpt::bell, '\0', "bell", ArgKind::none, 4, "SALLOC_BELL",
               "      --bell                  ring the terminal bell when the job is allocated\n",
               Effect::tool,
               "Rings the terminal's bell when the allocation is granted (only when standard "
               "output is a terminal). Without --bell or --no-bell it rings only when the wait "
               "was longer than 10 seconds."),
    salloc_row(SallocOpt::immediate, 'I', "immediate", ArgKind::optional, 45, "SALLOC_IMMEDIATE",
               "  -I, --immediate[=secs]      exit if resources not available in \"secs\"\n",
               Effect::acts,
               "Gives up, cancelling the request, when the allocation is not granted at once (or "
               "within secs seconds); salloc then exits 1."),
    salloc_row(SallocOpt::kill_command, 'K', "kill-command", ArgKind::optional, 47,
               "SALLOC_KILL_CMD", "  -K, --kill-command[=signal] signal to send terminating job\n",
               Effect::acts,
               "Sends this signal (SIGTERM when none is named) to the command when the allocation "
               "is revoked (scancel, its time limit). Without it the command runs on, as in "
               "Slurm."),
    salloc_row(SallocOpt::no_bell, '\0', "no-bell", ArgKind::none, 58, "SALLOC_NO_BELL",
               "      --no-bell               do NOT ring the terminal bell\n", Effect::tool,
               "Never rings the terminal's bell."),
    salloc_row(SallocOpt::no_shell, '\0', "no-shell", ArgKind::none, 60, "",
               "      --no-shell              immediately exit after allocating resources,\n"
               "                              without running a command\n",
               Effect::acts,
               "Exits once the allocation is granted and leaves it held (job name no-shell) "
               "until scancel or its time limit; srun --jobid runs steps in it."),
    salloc_row(SallocOpt::x11, '\0', "x11", ArgKind::optional, 104, "",
               "      --x11[=<all|first|last>] forward X11 to the nodes\n", Effect::acts,
               "Refused: X11 forwarding needs Slurm's x11 PrologFlag; the command salloc runs "
               "here has this machine's DISPLAY already."),
};

std::vector<OptionSpec> build_table() {
  std::vector<OptionSpec> table;
  for (const OptionSpec& o : sbatch_option_table()) {
    const auto id = static_cast<SbatchOpt>(o.id);
    if (std::find(k_batch_only.begin(), k_batch_only.end(), id) != k_batch_only.end()) continue;
    table.push_back(o);
    for (const OptionSpec& own : k_salloc_own) {
      // Each of salloc's own right after the sbatch option of its rank.
      if (own.slurm_rank == o.slurm_rank && o.section == k_parallel) table.push_back(own);
    }
  }
  for (const OptionSpec& own : k_salloc_own) {
    const bool placed = std::any_of(table.begin(), table.end(),
                                    [&](const OptionSpec& o) { return o.id == own.id; });
    if (!placed) {
      // After the last option of the section with a lower rank.
      auto at = std::find_if(table.begin(), table.end(), [&](const OptionSpec& o) {
        return o.section == k_parallel && o.slurm_rank > own.slurm_rank;
      });
      table.insert(at, own);
    }
  }
  return table;
}

unsigned immediate_seconds(const std::optional<std::string>& value) {
  if (!value || value->empty()) return 0;
  try {
    return parse::count(*value, "--immediate");
  } catch (const Error&) {
    throw Error(Errc::invalid_argument, fmt::format("Invalid --immediate value: {}", *value));
  }
}

int kill_signal(const std::optional<std::string>& value) {
  if (!value || value->empty()) return 15;  // SIGTERM, salloc's default
  const auto sig = parse::signal_number(*value);
  if (!sig || *sig <= 0)
    throw Error(Errc::invalid_argument, fmt::format("Invalid --kill-command specification"));
  return *sig;
}

}  // namespace

std::span<const OptionSpec> salloc_option_table() {
  static const std::vector<OptionSpec> table = build_table();
  return table;
}

SallocCommandLine parse_salloc_command_line(const std::vector<std::string>& args) {
  SallocCommandLine cl;
  const OptionScan scan = scan_options(salloc_option_table(), args);
  using Action = SbatchCommandLine::Action;
  for (const FoundOption& o : scan.options) {
    if (o.id < static_cast<int>(SallocOpt::bell)) {
      const auto id = static_cast<SbatchOpt>(o.id);
      if (cl.allocation.action == Action::submit) {
        if (id == SbatchOpt::help) cl.allocation.action = Action::help;
        if (id == SbatchOpt::usage) cl.allocation.action = Action::usage;
        if (id == SbatchOpt::version) cl.allocation.action = Action::version;
      }
      cl.allocation.options.push_back(o);
      continue;
    }
    switch (static_cast<SallocOpt>(o.id)) {
      case SallocOpt::bell:
        cl.bell = Bell::always;
        break;
      case SallocOpt::no_bell:
        cl.bell = Bell::never;
        break;
      case SallocOpt::immediate:
        cl.immediate = immediate_seconds(o.value);
        break;
      case SallocOpt::kill_command:
        cl.kill_command_signal = kill_signal(o.value);
        break;
      case SallocOpt::no_shell:
        cl.no_shell = true;
        break;
      case SallocOpt::x11:
        throw Error(Errc::invalid_argument,
                    "X11 forwarding not available: this machine's stint has no x11 "
                    "PrologFlag; the command salloc runs here keeps your DISPLAY");
    }
  }
  cl.command.assign(args.begin() + static_cast<std::ptrdiff_t>(scan.first_operand), args.end());
  if (!cl.command.empty() && cl.command.front() == ":")
    throw Error(Errc::invalid_argument,
                "heterogeneous allocations (':') are not supported by salloc here; submit the "
                "components with sbatch -n1 : -N2 script.sh, or one salloc per component");
  if (cl.no_shell && !cl.command.empty())
    throw Error(Errc::invalid_argument, "--no-shell and a command cannot be given together");
  return cl;
}

EnvList salloc_input_environment(const EnvList& environment) {
  EnvList out;
  for (const auto& [name, value] : environment) {
    if (name.rfind("SBATCH_", 0) == 0) continue;
    if (name.rfind("SALLOC_", 0) == 0) {
      out.emplace_back("SBATCH_" + name.substr(7), value);
      continue;
    }
    out.emplace_back(name, value);
  }
  return out;
}

std::string salloc_help_text() {
  return help_text(salloc_option_table(),
                   "Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)]] [command(0) [args(0)...]]");
}

std::string salloc_usage_text() {
  return R"(Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]
              [-c cpus-per-node] [-r n] [-p partition] [--hold] [-t minutes]
              [--immediate[=secs]] [--no-kill] [--overcommit] [-D path]
              [--oversubscribe] [-J jobname]
              [--verbose] [--gid=group] [--uid=user] [--licenses=names]
              [--clusters=cluster_names]
              [--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]
              [--account=name] [--dependency=type:jobid[+time]] [--comment=name]
              [--mail-type=type] [--mail-user=user] [--nice[=value]]
              [--bell] [--no-bell] [--kill-command[=signal]] [--spread-job]
              [--nodefile=file] [--nodelist=hosts] [--exclude=hosts]
              [--network=type] [--mem-per-cpu=MB] [--qos=qos]
              [--mem-bind=...] [--reservation=name] [--mcs-label=mcs]
              [--time-min=minutes] [--gres=list] [--gres-flags=opts]
              [--cpu-freq=min[-max[:gov]]] [--power=flags] [--profile=...]
              [--switches=max-switches[@max-time-to-wait]]
              [--core-spec=cores] [--thread-spec=threads] [--reboot]
              [--bb=burst_buffer_spec] [--bbf=burst_buffer_file]
              [--delay-boot=mins] [--use-min-nodes]
              [--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]
              [--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]
              [--mem-per-gpu=MB]
              [command [args...]]
)";
}

}  // namespace stint::cli
