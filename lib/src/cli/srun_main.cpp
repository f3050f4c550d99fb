// srun's command line, read with its option table (cli/srun_table.cpp).
// Inside an allocation (SLURM_JOB_ID, or --jobid) it runs a step there;
// outside one it gets an allocation first, with the options srun shares with
// sbatch spelled as sbatch spells them.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <vector>

#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/sbatch_builder.hpp"
#include "cli/sbatch_values.hpp"
#include "cli/srun.hpp"
#include "cli/srun_het.hpp"
#include "cli/srun_options.hpp"
#include "cli/usage_error.hpp"
#include "sched/step.hpp"

namespace stint::cli {
namespace {

constexpr std::string_view k_tool = "srun";

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

const std::string* find_env(const EnvList& env, std::string_view name) {
  for (const auto& [key, value] : env) {
    if (key == name) return &value;
  }
  return nullptr;
}

/// The running job srun's environment names (an sbatch script, salloc's command).
std::optional<JobId> allocation_from_environment(const EnvList& env) {
  for (const char* name : {"SLURM_JOB_ID", "SLURM_JOBID"}) {
    const std::string* value = find_env(env, name);
    if (value == nullptr || value->empty()) continue;
    char* end = nullptr;
    const unsigned long id = std::strtoul(value->c_str(), &end, 10);
    if (*end == '\0' && id > 0) return static_cast<JobId>(id);
  }
  return std::nullopt;
}

// An option this machine cannot honour: srun says what there is instead and
// exits 1 rather than accept it and do nothing.
[[noreturn]] void refuse(std::string_view option, std::string_view instead) {
  throw Error(Errc::invalid_argument, fmt::format("{} is not available here: {}", option, instead));
}

// A flag set by an input environment variable: Slurm takes an empty value,
// "yes" or a non-zero number as set, and anything else as not set.
bool env_flag_set(const std::string& value) {
  if (value.empty() || iequals(value, "yes")) return true;
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  return *end == '\0' && n != 0;
}

// -N min[-max]: the lower count is the step's.
std::uint32_t node_count(const std::string& text) {
  const std::size_t dash = text.find('-');
  auto all_digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
  };
  const std::string min = text.substr(0, dash);
  if (!all_digits(min) || (dash != std::string::npos && !all_digits(text.substr(dash + 1))))
    throw Error(Errc::usage, fmt::format("\"{}\" is not a valid node count", text));
  return parse::count(min, "--nodes");
}

// Slurm's _expand_mult: a map_cpu/mask_cpu list, "N*count" repeating N.
std::string expand_cpu_list(const std::string& list, bool mask) {
  std::string out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    if (mask && item.rfind("0x", 0) == 0) item = item.substr(2);
    std::uint32_t repeat = 1;
    if (const std::size_t star = item.find('*'); star != std::string::npos) {
      const std::string times = item.substr(star + 1);
      for (char c : times) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
          throw Error(Errc::invalid_argument,
                      fmt::format("Failed to validate number: *{}, the offending character is {}",
                                  times, c));
      }
      repeat = times.empty() ? 0 : parse::count(times, "--cpu-bind");
      if (repeat == 0)
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid {} multiplier: {}", mask ? "mask_cpu" : "map_cpu", times));
      item = item.substr(0, star);
    }
    for (char c : item) {
      const bool ok = mask ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                           : std::isdigit(static_cast<unsigned char>(c)) != 0;
      if (!ok)
        throw Error(
            Errc::invalid_argument,
            fmt::format("Failed to validate number: {}, the offending character is {}", item, c));
    }
    for (std::uint32_t i = 0; i < repeat; ++i) out += (out.empty() ? "" : ",") + item;
  }
  return out;
}

// --cpu-bind as Slurm's slurm_verify_cpu_bind reads it, less the types this
// machine lacks; returns the canonical form srun's step takes
// ("verbose,map_cpu:0,1"), or nullopt for help.
std::optional<std::string> cpu_bind_value(const std::string& text) {
  // A ',' not followed by a value separates words; one followed by a value
  // belongs to a map or mask list (Slurm's _isvalue).
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ',') {
      std::size_t j = i + 1;
      const bool value = j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]));
      while (j < text.size() && std::isxdigit(static_cast<unsigned char>(text[j]))) ++j;
      if (!value && j < text.size() && text[j] != ',') {
        words.emplace_back();
        continue;
      }
    }
    words.back() += text[i];
  }
  auto fatal = [](const std::string& what) -> Error {
    return Error(Errc::invalid_argument,
                 what + "\nsrun: fatal: Failed to parse --cpu-bind= values.");
  };
  bool verbose = false;
  std::string type;
  for (const std::string& word : words) {
    const std::string lower = [&] {
      std::string l = word;
      for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return l;
    }();
    if (lower == "help") return std::nullopt;
    if (lower == "q" || lower == "quiet") {
      verbose = false;
    } else if (lower == "v" || lower == "verbose") {
      verbose = true;
    } else if (lower == "no" || lower == "none") {
      type = "none";
    } else if (lower == "core" || lower == "cores") {
      if (type.empty() || type == "threads") type = "cores";
    } else if (lower == "thread" || lower == "threads") {
      if (type.empty() || type == "cores") type = "threads";
    } else if (lower.rfind("map_cpu", 0) == 0 || lower.rfind("mapcpu", 0) == 0 ||
               lower.rfind("mask_cpu", 0) == 0 || lower.rfind("maskcpu", 0) == 0) {
      const bool mask = lower.rfind("mask", 0) == 0;
      const std::size_t sep = word.find_first_of(":=");
      const std::string list = sep == std::string::npos ? "" : word.substr(sep + 1);
      if (list.empty()) {
        throw fatal(fmt::format("missing list for \"--cpu-bind={}:<list>\"",
                                mask ? "mask_cpu" : "map_cpu"));
      }
      try {
        type = fmt::format("{}:{}", mask ? "mask_cpu" : "map_cpu", expand_cpu_list(list, mask));
      } catch (const Error& e) {
        throw fatal(e.what());
      }
    } else if (lower == "rank" || lower == "rank_ldom" || lower.rfind("map_ldom", 0) == 0 ||
               lower.rfind("mapldom", 0) == 0 || lower.rfind("mask_ldom", 0) == 0 ||
               lower.rfind("maskldom", 0) == 0 || lower == "socket" || lower == "sockets" ||
               lower == "ldom" || lower == "ldoms" || lower == "one_thread") {
      refuse(fmt::format("--cpu-bind={}", word),
             "the types are none, cores, threads, map_cpu:<list> and mask_cpu:<list> (each "
             "virtual node is one locality domain), with verbose or quiet before them");
    } else {
      throw fatal(fmt::format("unrecognized --cpu-bind argument \"{}\"", word));
    }
  }
  if (type.empty()) type = "cores";  // srun's default here: each task on its own CPUs
  return verbose ? "verbose," + type : type;
}

// Whether a --cpu-bind value names a binding, not only verbose or quiet.
bool bind_type_named(const std::string& text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!iequals(word, "v") && !iequals(word, "verbose") && !iequals(word, "q") &&
        !iequals(word, "quiet"))
      return true;
    start = end + 1;
  }
  return false;
}

// --mpi: the types this machine has, or Slurm's refusal of an unknown one.
void check_mpi(const std::string& type) {
  if (type.empty() || iequals(type, "none") || iequals(type, "pmi2")) return;
  if (iequals(type, "pmix") || type.rfind("pmix_", 0) == 0 || iequals(type, "cray_shasta")) {
    refuse(fmt::format("--mpi={}", type),
           "the MPI types are none and pmi2 (srun --mpi=list), as on a cluster built without "
           "PMIx");
  }
  throw Error(Errc::invalid_argument,
              fmt::format("Couldn't find the specified plugin name for mpi/{0} looking at all "
                          "files\nsrun: error: cannot find mpi plugin for mpi/{0}\nsrun: error: "
                          "MPI: Cannot create context for mpi/{0}\nsrun: error: MPI: Unable to "
                          "load any plugin\nsrun: error: Invalid MPI type '{0}', --mpi=list for "
                          "acceptable types",
                          type));
}

// -m: sbatch's check, then the layouts a step here has (block, cyclic, plane).
void check_distribution(const std::string& text) {
  (void)values::distribution(text);
  sched::StepRequest probe;
  try {
    sched::read_distribution(text, probe);
  } catch (const Error& e) {
    const std::string why = e.what();
    refuse(fmt::format("--distribution={}", text), why.substr(why.find(": ") + 2));
  }
}

// The sbatch options srun's step reads itself, never the allocation's: its
// files and environment, and srun's own behaviour.
bool step_only(SbatchOpt id) {
  switch (id) {
    case SbatchOpt::output:
    case SbatchOpt::error:
    case SbatchOpt::input:
    case SbatchOpt::open_mode:
    case SbatchOpt::export_env:
    case SbatchOpt::quiet:
    case SbatchOpt::verbose:
    case SbatchOpt::help:
    case SbatchOpt::usage:
    case SbatchOpt::version:
    case SbatchOpt::test_only:
      return true;
    default:
      return false;
  }
}

// An optional value left out, as sbatch reads the option written alone.
std::string bare_value(SbatchOpt id) {
  switch (id) {
    case SbatchOpt::exclusive:
      return "exclusive";
    case SbatchOpt::no_kill:
      return "set";
    case SbatchOpt::nice:
      return "100";
    case SbatchOpt::propagate:
      return "ALL";
    default:
      return {};
  }
}

// Options whose check reads a file, asks for a user, or is the controller's
// (sbatch's wording): checked when the allocation is asked for, not here.
bool checked_later(SbatchOpt id) {
  switch (id) {
    case SbatchOpt::bbf:
    case SbatchOpt::nodefile:
    case SbatchOpt::nodelist:
    case SbatchOpt::exclude:
    case SbatchOpt::uid:
    case SbatchOpt::gid:
    case SbatchOpt::dependency:
    case SbatchOpt::clusters:
    case SbatchOpt::cluster:
      return true;
    default:
      return false;
  }
}

struct Reader {
  Reader() { values_check.context = &check_context; }
  SrunCommandLine cl;
  // Slurm checks every option's value as it reads it, inside an allocation
  // too: the allocation options go through sbatch's checks, with its messages.
  SubmitContext check_context;
  SbatchBuilder values_check;
  bool inside_allocation = false;
  std::optional<std::uint32_t> env_nodes;  // -N from the environment: a bound, not a count
  bool exclusive_on_command_line = false;
  bool overlap_on_command_line = false;
  // --hint on the command line, and an option there it gives way to
  // (Slurm's validate_hint_option).
  bool hint_on_command_line = false;
  bool hint_overridden_on_command_line = false;

  /// Applies one option; returns false when srun is to act on it at once
  /// (--help, --mpi=list) and read no further.
  bool apply(const FoundOption& f, bool from_env);
  bool apply_own(SrunOpt id, const FoundOption& f, bool from_env);
};

bool Reader::apply(const FoundOption& f, bool from_env) {
  if (f.id >= static_cast<int>(SrunOpt::accel_bind)) {
    return apply_own(static_cast<SrunOpt>(f.id), f, from_env);
  }
  SrunOptions& o = cl.options;
  const auto id = static_cast<SbatchOpt>(f.id);
  const std::string v = f.value.value_or("");
  using Action = SrunCommandLine::Action;
  switch (id) {
    case SbatchOpt::help:
      cl.action = Action::help;
      return false;
    case SbatchOpt::usage:
      cl.action = Action::usage;
      return false;
    case SbatchOpt::version:
      cl.action = Action::version;
      return false;
    case SbatchOpt::test_only:
      refuse("--test-only",
             "sbatch --test-only with the same options says when and where the job would start");
    case SbatchOpt::ntasks:
      o.ntasks = parse::positive_count(v, "--ntasks");
      break;
    case SbatchOpt::nodes:
      if (from_env && inside_allocation) {
        env_nodes = node_count(v);
      } else {
        o.nodes = node_count(v);
      }
      break;
    case SbatchOpt::ntasks_per_node:
      o.ntasks_per_node = parse::positive_count(v, "--ntasks-per-node");
      break;
    case SbatchOpt::cpus_per_task:
      o.cpus_per_task = parse::positive_count(v, "--cpus-per-task");
      break;
    case SbatchOpt::nodelist:
      o.nodelist = v;
      break;
    case SbatchOpt::job_name:
      o.job_name = v;
      break;
    case SbatchOpt::chdir:
      o.chdir = v;
      break;
    case SbatchOpt::output:
      o.output = v;
      break;
    case SbatchOpt::error:
      o.error = v;
      break;
    case SbatchOpt::input:
      if (v.empty()) throw Error(Errc::invalid_argument, "Invalid --input argument: (empty)");
      o.input = iequals(v, "all") ? "all" : iequals(v, "none") ? "none" : v;
      break;
    case SbatchOpt::open_mode: {
      const char c = v.empty() ? '\0' : static_cast<char>(std::tolower(v.front()));
      if (c != 'a' && c != 't') throw Error(Errc::usage, "Invalid --open-mode specification");
      o.open_append = c == 'a';
      break;
    }
    case SbatchOpt::export_env:
      o.export_spec = v;
      break;
    case SbatchOpt::quiet:
      o.quiet = true;
      break;
    case SbatchOpt::verbose:
      if (from_env) {
        o.verbose = std::max(o.verbose, 1);  // SLURM_DEBUG=1
      } else {
        ++o.verbose;
      }
      break;
    case SbatchOpt::time:
      try {
        o.time_limit = parse::time_limit(v);
      } catch (const Error&) {
        throw Error(Errc::invalid_time, "Invalid --time specification");
      }
      break;
    case SbatchOpt::distribution:
      check_distribution(v);
      o.distribution = v;
      break;
    case SbatchOpt::exclusive:
      // For a step, Slurm's --exclusive is --exact.
      o.exact = true;
      o.overlap = false;
      if (!from_env) exclusive_on_command_line = true;
      break;
    case SbatchOpt::hint:
      if (iequals(v, "help")) {
        cl.action = Action::hint_help;
        return false;
      }
      if (!from_env) hint_on_command_line = true;
      break;
    case SbatchOpt::ntasks_per_core:
    case SbatchOpt::threads_per_core:
    case SbatchOpt::extra_node_info:
      if (!from_env) hint_overridden_on_command_line = true;
      break;
    case SbatchOpt::overcommit:
      o.overcommit = true;  // the step's too: more tasks than CPUs
      break;
    case SbatchOpt::mem_bind:
      if (iequals(v, "help")) {
        cl.action = Action::mem_bind_help;
        return false;
      }
      break;
    default:
      break;
  }
  if (!step_only(id) && !checked_later(id)) values_check.apply(f, Layer::command_line);
  if (!step_only(id)) {
    // Outside an allocation the option is the job's, as sbatch reads it.
    const OptionSpec* batch = find_option(sbatch_option_table(), f.id);
    o.allocation.emplace_back(fmt::format("--{}", batch->long_name),
                              f.value ? *f.value : bare_value(id));
  }
  return true;
}

bool Reader::apply_own(SrunOpt id, const FoundOption& f, bool from_env) {
  SrunOptions& o = cl.options;
  const std::string v = f.value.value_or("");
  switch (id) {
    case SrunOpt::accel_bind:
      refuse("--accel-bind",
             "tasks are not bound to accelerators; each task sees its node's GPUs in "
             "CUDA_VISIBLE_DEVICES");
    case SrunOpt::bcast:
      o.bcast = v;
      break;
    case SrunOpt::bcast_exclude:
      refuse("--bcast-exclude",
             "--bcast copies the program alone (no --send-libs: the virtual nodes use this "
             "machine's libraries)");
    case SrunOpt::compress:
      if (f.value && !v.empty() && !iequals(v, "lz4") && !iequals(v, "zlib") &&
          !iequals(v, "none")) {
        cl.notices.push_back(
            fmt::format("error: Compression type '{}' unknown, disabling compression support.", v));
      }
      break;
    case SrunOpt::cpu_bind: {
      const std::optional<std::string> bind = cpu_bind_value(v);
      if (!bind) {
        cl.action = SrunCommandLine::Action::cpu_bind_help;
        return false;
      }
      o.cpu_bind = *bind;
      // Any binding but verbose (or quiet) alone overrides --hint.
      if (!from_env && bind_type_named(v)) hint_overridden_on_command_line = true;
      break;
    }
    case SrunOpt::debugger_test:
      refuse("--debugger-test",
             "srun has no debugger interface (MPIR); attach gdb -p to a task's SLURM_TASK_PID");
    case SrunOpt::disable_status:
      o.disable_status = true;
      break;
    case SrunOpt::epilog:
      o.epilog = iequals(v, "none") ? std::string() : v;
      break;
    case SrunOpt::exact:
      o.exact = true;
      break;
    case SrunOpt::het_group:
      o.het_group = het_group(v);
      break;
    case SrunOpt::immediate:
      o.immediate = v.empty() ? 0 : parse::count(v, "--immediate");
      break;
    case SrunOpt::interactive:
      break;  // salloc's interactive step: a step as any other
    case SrunOpt::jobid:
      o.jobid = parse::positive_count(v, "--jobid");
      break;
    case SrunOpt::kill_on_bad_exit: {
      if (!f.value || v.empty()) {
        o.kill_on_bad_exit = true;
        break;
      }
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (*end != '\0')
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid numeric value \"{}\" for --kill-on-bad-exit.", v));
      o.kill_on_bad_exit = n != 0;
      break;
    }
    case SrunOpt::label:
      o.label = true;
      break;
    case SrunOpt::mpi:
      if (iequals(v, "list")) {
        cl.action = SrunCommandLine::Action::mpi_list;
        return false;
      }
      check_mpi(v);
      o.mpi = iequals(v, "pmi2") ? "pmi2" : "none";
      break;
    case SrunOpt::msg_timeout:
      refuse("--msg-timeout", "srun starts the tasks itself, with no messages to time out");
    case SrunOpt::multi_prog:
      o.multi_prog = true;
      break;
    case SrunOpt::no_allocate:
      refuse("-Z/--no-allocate",
             "every step runs in an allocation; salloc or sbatch gets one, and srun runs in it");
    case SrunOpt::overlap:
      o.overlap = true;
      if (!from_env) overlap_on_command_line = true;
      break;
    case SrunOpt::preserve_env:
      o.preserve_env = true;
      break;
    case SrunOpt::prolog:
      o.prolog = iequals(v, "none") ? std::string() : v;
      break;
    case SrunOpt::pty:
      o.pty = true;
      break;
    case SrunOpt::quit_on_interrupt:
      refuse("--quit-on-interrupt", "-X/--disable-status sends Ctrl-C straight to the tasks");
    case SrunOpt::relative:
      o.relative = parse::count(v, "--relative");
      break;
    case SrunOpt::resv_ports:
      refuse("--resv-ports",
             "there is no MpiParams=ports; run-create --ports reserves ports for a run's nodes");
    case SrunOpt::send_libs:
      if (f.value && (iequals(v, "n") || iequals(v, "no"))) break;
      if (f.value && !v.empty() && !iequals(v, "y") && !iequals(v, "yes"))
        throw Error(Errc::usage, "Invalid --send-libs specification");
      refuse("--send-libs",
             "--bcast copies the program alone, and the virtual nodes use this machine's "
             "libraries");
    case SrunOpt::slurmd_debug:
      refuse("--slurmd-debug", "there is no slurmd: srun starts the tasks itself (-v says more)");
    case SrunOpt::task_epilog:
      o.task_epilog = v;
      break;
    case SrunOpt::task_prolog:
      o.task_prolog = v;
      break;
    case SrunOpt::threads:
      (void)parse::positive_count(v, "--threads");
      refuse("-T/--threads", "srun starts the tasks itself, with no launch fan-out to set");
    case SrunOpt::unbuffered:
      o.unbuffered = true;
      break;
    case SrunOpt::wait:
      o.wait_after_first = parse::count(v, "--wait");
      break;
    case SrunOpt::whole:
      // A step holds every free CPU of its nodes unless --exact says
      // otherwise (Slurm 22.05's default): --whole asks for just that.
      o.exact = false;
      break;
    case SrunOpt::x11:
      refuse("--x11", "there is no X11 forwarding; the tasks run on this machine with its DISPLAY");
  }
  return true;
}

}  // namespace

SrunCommandLine parse_srun_command_line(const std::vector<std::string>& args,
                                        const EnvList& given_environment) {
  const std::span<const OptionSpec> table = srun_option_table();
  const OptionScan scan = scan_options(table, args);
  EnvList environment = given_environment;
  for (const FoundOption& f : scan.options) {
    if (f.id == static_cast<int>(SrunOpt::het_group) && f.value) {
      if (const std::uint32_t group = het_group(*f.value); group != 0)
        environment = het_group_environment(given_environment, group);
    }
  }
  Reader r;
  for (const FoundOption& f : scan.options) {
    if (f.id == static_cast<int>(SrunOpt::jobid)) r.inside_allocation = true;
  }
  if (allocation_from_environment(environment)) r.inside_allocation = true;

  // The environment first, in the table's order and each option's variables'
  // order (a later one wins); then the command line.
  std::vector<FoundOption> from_env;
  for (const OptionSpec& spec : table) {
    std::string_view vars = spec.env;
    while (!vars.empty()) {
      const std::size_t space = vars.find(' ');
      const std::string_view var = vars.substr(0, space);
      vars = space == std::string_view::npos ? std::string_view() : vars.substr(space + 1);
      // The allocation to run in is read apart (allocation_from_environment);
      // a batch job's name is not each step's.
      if (var == "SLURM_JOB_ID") continue;
      if (var == "SLURM_JOB_NAME" && r.inside_allocation) continue;
      const std::string* value = find_env(environment, var);
      if (value == nullptr) continue;
      if (spec.arg == ArgKind::none && !env_flag_set(*value)) continue;
      FoundOption f{spec.id, std::string(var), std::nullopt, 0};
      if (spec.arg != ArgKind::none && !(spec.arg == ArgKind::optional && value->empty()))
        f.value = *value;
      from_env.push_back(std::move(f));
    }
  }
  for (const FoundOption& f : from_env) {
    if (!r.apply(f, true)) return r.cl;
  }
  for (const FoundOption& f : scan.options) {
    if (!r.apply(f, false)) return r.cl;
  }
  if (r.exclusive_on_command_line && r.overlap_on_command_line)
    throw Error(Errc::invalid_argument, "--exclusive and --overlap are mutually exclusive");

  SrunOptions& o = r.cl.options;
  if (r.hint_on_command_line && r.hint_overridden_on_command_line) {
    // Slurm's validate_hint_option: --hint gives way (said only with -v).
    if (o.verbose > 0) {
      r.cl.notices.emplace_back(
          "Following options are mutually exclusive with --hint: --ntasks-per-core, "
          "--threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring "
          "--hint.");
    }
    std::erase_if(o.allocation, [](const auto& option) { return option.first == "--hint"; });
  }
  const std::uint32_t tasks = o.ntasks.value_or(0);
  if (r.env_nodes && !o.nodes && tasks > 0 && tasks < *r.env_nodes) {
    // Slurm's _opt_verify: the allocation's node count from the environment
    // bounds the step; fewer tasks take fewer nodes.
    r.cl.notices.push_back(
        fmt::format("Warning: can't run {} processes on {} nodes, setting nnodes to {}", tasks,
                    *r.env_nodes, tasks));
  }
  o.command.assign(args.begin() + static_cast<std::ptrdiff_t>(scan.first_operand), args.end());
  if (o.command.empty()) throw Error(Errc::invalid_argument, "No command given to execute.");
  return r.cl;
}

}  // namespace stint::cli

namespace stint::tools {
namespace {

cli::EnvList process_environment() {
  cli::EnvList env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace_back(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  const cli::EnvList environment = process_environment();
  const cli::SrunCommandLine cl = cli::parse_srun_command_line(args, environment);
  using Action = cli::SrunCommandLine::Action;
  switch (cl.action) {
    case Action::help:
      if (const char* format = std::getenv("STINT_HELP_FORMAT");
          format != nullptr && std::string_view(format) == "scdoc") {
        fmt::print("%%SCDOC%%\n{}", cli::options_scdoc(cli::srun_option_table()));
        return 0;
      }
      fmt::print("{}", cli::srun_help_text());
      return 0;
    case Action::usage:
      fmt::print("{}", cli::srun_usage_text());
      return 0;
    case Action::version:
      fmt::print("{}\n", stint::version_line());
      return 0;
    case Action::mpi_list:
      fmt::print("{}", cli::srun_mpi_list_text());
      return 0;
    case Action::cpu_bind_help:
      fmt::print("{}", cli::srun_cpu_bind_help());
      return 0;
    case Action::hint_help:
      fmt::print("{}", cli::values::hint_help());
      return 0;
    case Action::mem_bind_help:
      fmt::print("{}", cli::values::mem_bind_help());
      return 0;
    case Action::run:
      break;
  }
  const cli::SrunOptions& o = cl.options;
  if (!o.quiet) {
    for (const std::string& notice : cl.notices)
      fmt::print(stderr, "{}: {}\n", cli::k_tool, notice);
  }
  if (o.multi_prog && !std::ifstream(o.command.front()).is_open()) {
    throw Error(Errc::invalid_argument,
                fmt::format("Could not open multi_prog config file {}", o.command.front()));
  }
  if (const std::optional<JobId> job =
          o.jobid ? o.jobid : cli::allocation_from_environment(environment))
    return cli::run_step(o, cli::het_component(*job, o.het_group));
  if (o.het_group != 0) throw Error(Errc::invalid_argument, cli::k_no_het_component);
  // A terminal has to stay this process's: the allocation is held by salloc
  // while this same srun runs the step in it, from here.
  if (o.pty) cli::run_with_held_allocation(o, args);
  return cli::run_with_allocation(o, args);
}

}  // namespace

int srun(int argc, char** argv) {
  return cli::run_tool(cli::k_tool, [argc, argv] {
    try {
      return run(argc, argv);
    } catch (const cli::UsageError& e) {
      return cli::print_usage_error(cli::k_tool, e);
    } catch (const cli::PrefacedError& e) {
      std::fflush(stdout);
      fmt::print(stderr, "{}\n", e.preface());
      throw;
    }
  });
}

}  // namespace stint::tools
