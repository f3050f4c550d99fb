#include "cli/sbatch_options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sbatch_directives.hpp"

namespace stint::cli {
namespace {

// sbatch's options are read with a small getopt_long of our own rather than
// CLI11: the same table must read the command line, #SBATCH words and
// SBATCH_* variables; Slurm's rules (unique-prefix abbreviations, --nice taking
// a value only after '=', the first operand ending the options) and getopt's
// exact error messages are part of the interface scripts rely on.

enum class ArgKind : std::uint8_t { none, required, optional };

struct OptionDef {
  SbatchOpt id;
  char short_name;  // '\0' when there is none
  std::string_view long_name;
  ArgKind arg;
};

constexpr std::array k_options = {
    OptionDef{SbatchOpt::account, 'A', "account", ArgKind::required},
    OptionDef{SbatchOpt::array, 'a', "array", ArgKind::required},
    OptionDef{SbatchOpt::begin, 'b', "begin", ArgKind::required},
    OptionDef{SbatchOpt::chdir, 'D', "chdir", ArgKind::required},
    OptionDef{SbatchOpt::comment, '\0', "comment", ArgKind::required},
    OptionDef{SbatchOpt::cpus_per_task, 'c', "cpus-per-task", ArgKind::required},
    OptionDef{SbatchOpt::deadline, '\0', "deadline", ArgKind::required},
    OptionDef{SbatchOpt::dependency, 'd', "dependency", ArgKind::required},
    OptionDef{SbatchOpt::error, 'e', "error", ArgKind::required},
    OptionDef{SbatchOpt::export_env, '\0', "export", ArgKind::required},
    OptionDef{SbatchOpt::gpus, 'G', "gpus", ArgKind::required},
    OptionDef{SbatchOpt::gpus_per_node, '\0', "gpus-per-node", ArgKind::required},
    OptionDef{SbatchOpt::gres, '\0', "gres", ArgKind::required},
    OptionDef{SbatchOpt::help, 'h', "help", ArgKind::none},
    OptionDef{SbatchOpt::hold, 'H', "hold", ArgKind::none},
    OptionDef{SbatchOpt::job_name, 'J', "job-name", ArgKind::required},
    OptionDef{SbatchOpt::kill_on_invalid_dep, '\0', "kill-on-invalid-dep", ArgKind::required},
    OptionDef{SbatchOpt::mem, '\0', "mem", ArgKind::required},
    OptionDef{SbatchOpt::mem_per_cpu, '\0', "mem-per-cpu", ArgKind::required},
    OptionDef{SbatchOpt::nice, '\0', "nice", ArgKind::optional},
    OptionDef{SbatchOpt::no_requeue, '\0', "no-requeue", ArgKind::none},
    OptionDef{SbatchOpt::nodes, 'N', "nodes", ArgKind::required},
    OptionDef{SbatchOpt::ntasks, 'n', "ntasks", ArgKind::required},
    OptionDef{SbatchOpt::ntasks_per_node, '\0', "ntasks-per-node", ArgKind::required},
    OptionDef{SbatchOpt::open_mode, '\0', "open-mode", ArgKind::required},
    OptionDef{SbatchOpt::output, 'o', "output", ArgKind::required},
    OptionDef{SbatchOpt::parsable, '\0', "parsable", ArgKind::none},
    OptionDef{SbatchOpt::priority, '\0', "priority", ArgKind::required},
    OptionDef{SbatchOpt::partition, 'p', "partition", ArgKind::required},
    OptionDef{SbatchOpt::qos, 'q', "qos", ArgKind::required},
    OptionDef{SbatchOpt::quiet, 'Q', "quiet", ArgKind::none},
    OptionDef{SbatchOpt::requeue, '\0', "requeue", ArgKind::none},
    OptionDef{SbatchOpt::signal, '\0', "signal", ArgKind::required},
    OptionDef{SbatchOpt::test_only, '\0', "test-only", ArgKind::none},
    OptionDef{SbatchOpt::time, 't', "time", ArgKind::required},
    OptionDef{SbatchOpt::usage, '\0', "usage", ArgKind::none},
    OptionDef{SbatchOpt::verbose, 'v', "verbose", ArgKind::none},
    OptionDef{SbatchOpt::version, 'V', "version", ArgKind::none},
    OptionDef{SbatchOpt::wait, 'W', "wait", ArgKind::none},
    OptionDef{SbatchOpt::wrap, '\0', "wrap", ArgKind::required},
};

// The input environment variables of Slurm's sbatch (man sbatch, "INPUT
// ENVIRONMENT VARIABLES") that map to options stint implements, in Slurm's
// table order (which decides between two variables for the same option).
struct EnvOptionDef {
  std::string_view var;
  SbatchOpt id;
};
constexpr std::array k_env_options = {
    EnvOptionDef{"SBATCH_ACCOUNT", SbatchOpt::account},
    EnvOptionDef{"SBATCH_ARRAY_INX", SbatchOpt::array},
    EnvOptionDef{"SBATCH_ERROR", SbatchOpt::error},
    EnvOptionDef{"SBATCH_EXPORT", SbatchOpt::export_env},
    EnvOptionDef{"SBATCH_GPUS", SbatchOpt::gpus},
    EnvOptionDef{"SBATCH_GPUS_PER_NODE", SbatchOpt::gpus_per_node},
    EnvOptionDef{"SBATCH_GRES", SbatchOpt::gres},
    EnvOptionDef{"SBATCH_JOB_NAME", SbatchOpt::job_name},
    EnvOptionDef{"SBATCH_MEM_PER_CPU", SbatchOpt::mem_per_cpu},
    EnvOptionDef{"SBATCH_MEM_PER_NODE", SbatchOpt::mem},
    EnvOptionDef{"SBATCH_NO_REQUEUE", SbatchOpt::no_requeue},
    EnvOptionDef{"SBATCH_OPEN_MODE", SbatchOpt::open_mode},
    EnvOptionDef{"SBATCH_OUTPUT", SbatchOpt::output},
    EnvOptionDef{"SBATCH_PARTITION", SbatchOpt::partition},
    EnvOptionDef{"SBATCH_QOS", SbatchOpt::qos},
    EnvOptionDef{"SBATCH_REQUEUE", SbatchOpt::requeue},
    EnvOptionDef{"SBATCH_SIGNAL", SbatchOpt::signal},
    EnvOptionDef{"SBATCH_TIMELIMIT", SbatchOpt::time},
    EnvOptionDef{"SBATCH_WAIT", SbatchOpt::wait},
};

// Slurm's NICE_OFFSET - 3: the widest nice value it accepts.
constexpr std::int64_t k_max_nice = 2147483645;

// Options as getopt_long reads them, up to the first operand.
struct OptionScan {
  std::vector<SbatchOptionArg> options;
  std::size_t first_operand = 0;  // index of the first argument that is not an option
};

const OptionDef& find_long(std::string_view arg, std::string_view name) {
  for (const auto& d : k_options) {
    if (d.long_name == name) return d;  // an exact match wins over prefixes
  }
  std::vector<const OptionDef*> matches;
  for (const auto& d : k_options) {
    if (!name.empty() && d.long_name.substr(0, name.size()) == name) matches.push_back(&d);
  }
  if (matches.empty()) throw UsageError(fmt::format("unrecognized option '{}'", arg));
  if (matches.size() > 1) {
    std::string which;
    for (const auto* d : matches) which += fmt::format(" '--{}'", d->long_name);
    throw UsageError(fmt::format("option '{}' is ambiguous; possibilities:{}", arg, which));
  }
  return *matches.front();
}

OptionScan scan_options(const std::vector<std::string>& args) {
  OptionScan scan;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') break;  // the first operand ends the options

    if (arg[1] == '-') {
      const std::string_view body = std::string_view(arg).substr(2);
      const std::size_t eq = body.find('=');
      const OptionDef& def = find_long(arg, body.substr(0, eq));
      SbatchOptionArg found{def.id, fmt::format("--{}", def.long_name), std::nullopt};
      if (eq != std::string_view::npos) {
        if (def.arg == ArgKind::none) {
          throw UsageError(fmt::format("option '--{}' doesn't allow an argument", def.long_name));
        }
        found.value = std::string(body.substr(eq + 1));
      } else if (def.arg == ArgKind::required) {
        if (i + 1 >= args.size()) {
          throw UsageError(fmt::format("option '--{}' requires an argument", def.long_name));
        }
        found.value = args[++i];
      }
      scan.options.push_back(std::move(found));
      continue;
    }

    // A bundle of short options: -HQ, -c4, -c 4.
    for (std::size_t j = 1; j < arg.size(); ++j) {
      const char c = arg[j];
      const auto it = std::find_if(k_options.begin(), k_options.end(),
                                   [c](const OptionDef& d) { return d.short_name == c; });
      if (it == k_options.end()) throw UsageError(fmt::format("invalid option -- '{}'", c));
      SbatchOptionArg found{it->id, fmt::format("-{}", c), std::nullopt};
      if (it->arg != ArgKind::none) {
        if (j + 1 < arg.size()) {
          found.value = arg.substr(j + 1);
        } else if (it->arg == ArgKind::required) {
          if (i + 1 >= args.size()) {
            throw UsageError(fmt::format("option requires an argument -- '{}'", c));
          }
          found.value = args[++i];
        }
        scan.options.push_back(std::move(found));
        break;
      }
      scan.options.push_back(std::move(found));
    }
  }
  scan.first_operand = i;
  return scan;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

const std::string* env_find(const EnvList& env, std::string_view name) {
  for (const auto& [k, v] : env) {
    if (k == name) return &v;
  }
  return nullptr;
}

void env_set(EnvList& env, const std::string& name, const std::string& value) {
  for (auto& [k, v] : env) {
    if (k == name) {
      v = value;
      return;
    }
  }
  env.emplace_back(name, value);
}

std::string absolute_path(const std::string& path, const std::string& base) {
  if (!path.empty() && path.front() == '/') return path;
  if (path.empty()) return base;
  if (!base.empty() && base.back() == '/') return base + path;
  return base + "/" + path;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// -N: "N" or "min-max" (Slurm's verify_node_count); stint keeps the minimum.
std::uint32_t node_count(const std::string& text) {
  auto part = [](const std::string& s) {
    try {
      return parse::count(s, "--nodes");
    } catch (const std::exception&) {
      throw Error(Errc::usage, fmt::format("\"{}\" is not a valid node count", s));
    }
  };
  const std::size_t dash = text.find('-');
  if (dash == std::string::npos) {
    const std::uint32_t n = part(text);
    if (n == 0) throw Error(Errc::usage, fmt::format("\"{}\" is not a valid node count", text));
    return n;
  }
  std::uint32_t min = part(text.substr(0, dash));
  const std::uint32_t max = part(text.substr(dash + 1));
  if (min == 0) min = 1;
  if (max != 0 && max < min) {
    throw Error(Errc::usage,
                fmt::format("Maximum node count {} is less than minimum node count {}", max, min));
  }
  return min;
}

// --priority=N|TOP: a fixed priority (operators only: stintd checks).
std::uint32_t priority_value(const std::string& value) {
  std::string upper = value;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "TOP") return k_top_priority;
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
      n >= k_top_priority)
    throw Error(Errc::usage, fmt::format("Invalid --priority specification: {}", value));
  return static_cast<std::uint32_t>(n);
}

std::int32_t nice_value(const std::optional<std::string>& value) {
  if (!value) return 100;  // Slurm's --nice without a value
  std::string_view text = *value;
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw Error(Errc::usage, "Invalid --nice specification");
  }
  if (n > k_max_nice || n < -k_max_nice) {
    throw Error(Errc::usage,
                fmt::format("Nice value out of range (+/- {}). Value ignored", k_max_nice));
  }
  return static_cast<std::int32_t>(n);
}

// --open-mode: Slurm looks only at the first letter ("a", "append", "APPEND").
bool open_append(const std::string& text) {
  const char c =
      text.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  if (c == 'a') return true;
  if (c == 't') return false;
  throw Error(Errc::usage, "Invalid --open-mode specification");
}

bool kill_on_invalid_dep(const std::string& text) {
  if (iequals(text, "yes")) return true;
  if (iequals(text, "no")) return false;
  throw Error(Errc::usage, "Invalid --kill-on-invalid-dep specification");
}

// --begin and --deadline: a time from now on, as Slurm's parse_time(arg, 0).
Seconds point_in_time(const std::string& text, Seconds now, std::string_view option) {
  try {
    return parse::date_time(text, now, parse::Resolve::future);
  } catch (const Error&) {
    // Slurm exits 255 here (exit(-1) in arg_set_begin).
    throw Error(Errc::usage, fmt::format("Invalid {} specification", option));
  }
}

// What slurmctld answers to an expression it cannot read; sbatch prints it as
// a refused submission, exit 1 (10-errors.txt).
[[noreturn]] void submission_refused(std::string_view reason) {
  throw Error(Errc::invalid_argument, fmt::format("Batch job submission failed: {}", reason));
}

const std::string& value_of(const SbatchOptionArg& o) {
  static const std::string k_empty;
  return o.value ? *o.value : k_empty;
}

enum class Layer : std::uint8_t { directive, environment, command_line };
constexpr std::size_t k_layers = 3;

// The options as they accumulate, layer over layer.
struct Builder {
  SbatchRequest request;
  Seconds now = 0;
  bool name_set = false;
  std::optional<std::string> chdir;
  std::optional<std::string> output;
  std::optional<std::string> error;
  std::optional<std::string> export_spec;
  // Which of --mem / --mem-per-cpu each layer set: the highest layer that set
  // either decides, and may not set both.
  std::array<bool, k_layers> set_mem{};
  std::array<bool, k_layers> set_mem_per_cpu{};

  void apply(const SbatchOptionArg& o, Layer layer);
  void finish_memory();
};

void Builder::apply(const SbatchOptionArg& o, Layer layer) {
  JobSpec& s = request.spec;
  const std::string& v = value_of(o);
  switch (o.id) {
    case SbatchOpt::account:
      s.account = v;
      break;
    case SbatchOpt::array:
      // Checked against Slurm's ceiling only: the cluster's MaxArraySize is
      // stintd's to apply, and the text goes to it as written.
      try {
        (void)parse::array_spec(v, k_sbatch_max_array_size);
      } catch (const Error&) {
        submission_refused("Invalid job array specification");
      }
      s.array_spec = v;
      break;
    case SbatchOpt::begin:
      s.begin_time = point_in_time(v, now, "--begin");
      break;
    case SbatchOpt::chdir:
      chdir = v;
      break;
    case SbatchOpt::comment:
      s.comment = v;
      break;
    case SbatchOpt::cpus_per_task:
      s.cpus_per_task = parse::positive_count(v, "--cpus-per-task");
      break;
    case SbatchOpt::deadline:
      s.deadline = point_in_time(v, now, "--deadline");
      break;
    case SbatchOpt::dependency:
      try {
        (void)parse::dependency(v);
      } catch (const Error&) {
        submission_refused("Job dependency problem");
      }
      s.dependency = v;
      break;
    case SbatchOpt::error:
      error = v;
      break;
    case SbatchOpt::export_env:
      export_spec = v;
      break;
    case SbatchOpt::gpus:
    case SbatchOpt::gpus_per_node:
    case SbatchOpt::gres: {
      parse::GpuRequest g;
      try {
        g = o.id == SbatchOpt::gres ? parse::gres(v) : parse::gpus(v);
      } catch (const std::exception&) {
        throw Error(Errc::invalid_gres, std::string(errc_slurm_message(Errc::invalid_gres)));
      }
      if (o.id == SbatchOpt::gpus) {
        s.gpus = g.count;
      } else {
        s.gpus_per_node = g.count;
      }
      s.gpu_type = g.type;
      break;
    }
    case SbatchOpt::hold:
      s.hold = true;
      break;
    case SbatchOpt::job_name:
      s.name = v;
      name_set = true;
      break;
    case SbatchOpt::kill_on_invalid_dep:
      s.kill_on_invalid_dep = kill_on_invalid_dep(v);
      break;
    case SbatchOpt::mem:
    case SbatchOpt::mem_per_cpu: {
      const bool per_cpu = o.id == SbatchOpt::mem_per_cpu;
      std::uint64_t mb = 0;
      const std::string_view option = per_cpu ? "--mem-per-cpu" : "--mem";
      try {
        mb = parse::memory_mb(v, option);
      } catch (const Error& e) {
        // Slurm exits 255 here (exit(-1) in arg_set_mem), unlike for counts.
        throw Error(Errc::usage, e.what());
      }
      (per_cpu ? s.mem_per_cpu_mb : s.mem_per_node_mb) = mb;
      (per_cpu ? set_mem_per_cpu : set_mem)[static_cast<std::size_t>(layer)] = true;
      break;
    }
    case SbatchOpt::nice:
      s.nice = nice_value(o.value);
      break;
    case SbatchOpt::priority:
      s.fixed_priority = priority_value(*o.value);
      break;
    case SbatchOpt::no_requeue:
      s.requeue = false;
      break;
    case SbatchOpt::nodes:
      s.nodes = node_count(v);
      break;
    case SbatchOpt::ntasks:
      s.ntasks = parse::positive_count(v, "--ntasks");
      break;
    case SbatchOpt::ntasks_per_node:
      s.ntasks_per_node = parse::positive_count(v, "--ntasks-per-node");
      break;
    case SbatchOpt::open_mode:
      s.open_append = open_append(v);
      break;
    case SbatchOpt::output:
      output = v;
      break;
    case SbatchOpt::parsable:
      request.parsable = true;
      break;
    case SbatchOpt::partition:
      s.partition = v;
      break;
    case SbatchOpt::qos:
      s.qos = v;
      break;
    case SbatchOpt::quiet:
      request.quiet = true;
      break;
    case SbatchOpt::requeue:
      s.requeue = true;
      break;
    case SbatchOpt::signal:
      try {
        s.signal = parse::signal_spec(v);
      } catch (const Error& e) {
        // Slurm exits 255 here (exit(-1) in arg_set_signal).
        throw Error(Errc::usage, e.what());
      }
      break;
    case SbatchOpt::test_only:
      request.test_only = true;
      break;
    case SbatchOpt::time:
      try {
        s.time_limit = parse::time_limit(v);
      } catch (const std::exception&) {
        throw Error(Errc::invalid_time, "Invalid --time specification");
      }
      break;
    case SbatchOpt::verbose:
      ++request.verbose;
      break;
    case SbatchOpt::wait:
      request.wait = true;
      break;
    case SbatchOpt::help:
    case SbatchOpt::usage:
    case SbatchOpt::version:
    case SbatchOpt::wrap:
      // Acted on in the first pass over the command line; elsewhere ignored.
      break;
  }
}

void Builder::finish_memory() {
  for (std::size_t layer = k_layers; layer-- > 0;) {
    if (!set_mem[layer] && !set_mem_per_cpu[layer]) continue;
    if (set_mem[layer] && set_mem_per_cpu[layer]) {
      throw Error(Errc::invalid_argument,
                  "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
    }
    // The deciding layer's choice clears the other one set by a lower layer.
    if (set_mem[layer]) {
      request.spec.mem_per_cpu_mb.reset();
    } else {
      request.spec.mem_per_node_mb.reset();
    }
    return;
  }
}

std::vector<SbatchOptionArg> directive_options(const BatchScript& script) {
  const std::string file = script.source == ScriptSource::file && !script.path.empty()
                               ? base_name(script.path)
                               : std::string("stdin");
  const std::vector<std::string> words = extract_directives(script.text, file);
  OptionScan scan = scan_options(words);
  if (scan.first_operand < words.size()) {
    throw Error(Errc::usage, fmt::format("Invalid directive found in batch script: {}",
                                         words[scan.first_operand]));
  }
  return std::move(scan.options);
}

std::vector<SbatchOptionArg> environment_options(const EnvList& env) {
  std::vector<SbatchOptionArg> out;
  for (const auto& e : k_env_options) {
    if (const std::string* value = env_find(env, e.var)) {
      out.push_back(SbatchOptionArg{e.id, std::string(e.var), *value});
    }
  }
  return out;
}

bool is_slurm_var(const std::string& name) { return name.rfind("SLURM_", 0) == 0; }

}  // namespace

SbatchCommandLine parse_sbatch_command_line(const std::vector<std::string>& args) {
  SbatchCommandLine cl;
  OptionScan scan = scan_options(args);
  for (const auto& o : scan.options) {
    // Like Slurm's first pass: the first of --help, --usage, --version acts.
    if (cl.action == SbatchCommandLine::Action::submit) {
      if (o.id == SbatchOpt::help) cl.action = SbatchCommandLine::Action::help;
      if (o.id == SbatchOpt::usage) cl.action = SbatchCommandLine::Action::usage;
      if (o.id == SbatchOpt::version) cl.action = SbatchCommandLine::Action::version;
    }
    if (o.id == SbatchOpt::wrap) cl.wrap = o.value;
  }
  cl.options = std::move(scan.options);
  if (scan.first_operand < args.size()) {
    cl.script = args[scan.first_operand];
    cl.script_args.assign(args.begin() + static_cast<std::ptrdiff_t>(scan.first_operand) + 1,
                          args.end());
  }
  if (cl.action == SbatchCommandLine::Action::submit && cl.wrap && cl.script) {
    throw Error(Errc::invalid_argument, "Script arguments not permitted with --wrap option");
  }
  return cl;
}

SbatchRequest build_sbatch_request(const SbatchCommandLine& command_line, const BatchScript& script,
                                   const SubmitContext& context) {
  Builder b;
  b.now = context.now;
  for (const auto& o : directive_options(script)) b.apply(o, Layer::directive);
  for (const auto& o : environment_options(context.environment)) b.apply(o, Layer::environment);
  for (const auto& o : command_line.options) b.apply(o, Layer::command_line);
  b.finish_memory();

  JobSpec& s = b.request.spec;
  if (!b.name_set) {
    switch (script.source) {
      case ScriptSource::wrap:
        s.name = "wrap";
        break;
      case ScriptSource::standard_input:
        s.name = "sbatch";
        break;
      case ScriptSource::file:
        s.name =
            base_name(script.path.empty() ? command_line.script.value_or("sbatch") : script.path);
        break;
    }
  }
  // Slurm's client makes the working directory and the output files absolute
  // (make_full_path, _fullpath): relative outputs are relative to -D.
  s.work_dir = b.chdir ? absolute_path(*b.chdir, context.cwd) : context.cwd;
  auto output_path = [&s](const std::string& p) {
    return iequals(p, "none") ? std::string("/dev/null") : absolute_path(p, s.work_dir);
  };
  if (b.output && !b.output->empty()) {
    s.stdout_pattern = output_path(*b.output);
  } else if (!s.array_spec.empty()) {
    // An array's tasks each write their own file by default (Slurm's
    // slurm-%A_%a.out); a given -o is used as it is.
    s.stdout_pattern = output_path("slurm-%A_%a.out");
  }
  if (b.error && !b.error->empty()) s.stderr_pattern = output_path(*b.error);

  s.export_spec = b.export_spec.value_or("");
  s.environment = export_environment(s.export_spec, context.environment);
  s.script = script.text;
  s.script_name = script.source == ScriptSource::file ? script.path : std::string();
  s.script_args = command_line.script_args;
  s.submit_dir = context.cwd;
  s.submit_host = context.hostname;
  return std::move(b.request);
}

std::string wrap_script(std::string_view command) {
  return fmt::format("#!/bin/sh\n# This script was created by sbatch --wrap.\n\n{}\n", command);
}

void check_batch_script(std::string_view text) {
  if (text.empty()) throw Error(Errc::batch_script_invalid, "Batch script is empty!");
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; })) {
    throw Error(Errc::batch_script_invalid, "Batch script contains only whitespace!");
  }
  if (text.size() < 2 || text[0] != '#' || text[1] != '!') {
    throw Error(Errc::batch_script_invalid,
                "This does not look like a batch script.  The first\n"
                "line must start with #! followed by the path to an interpreter.\n"
                "For instance: #!/bin/sh");
  }
  if (text.find('\0') != std::string_view::npos) {
    throw Error(Errc::batch_script_invalid,
                "The Slurm controller does not allow scripts that\n"
                "contain a NULL character '\\0'.");
  }
  if (text.find("\r\n") != std::string_view::npos) {
    throw Error(Errc::batch_script_invalid,
                "Batch script contains DOS line breaks (\\r\\n)\n"
                "instead of expected UNIX line breaks (\\n).");
  }
}

EnvList export_environment(std::string_view spec, const EnvList& environment) {
  if (spec.empty() || iequals(spec, "ALL")) return environment;

  EnvList out;
  if (iequals(spec, "NONE") || iequals(spec, "NIL")) {
    for (const auto& kv : environment) {
      if (is_slurm_var(kv.first)) out.push_back(kv);
    }
    return out;
  }

  std::vector<std::string> tokens;
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    if (comma > start) tokens.emplace_back(spec.substr(start, comma - start));
    start = comma + 1;
  }
  const bool all = std::any_of(tokens.begin(), tokens.end(),
                               [](const std::string& t) { return iequals(t, "ALL"); });
  if (all) {
    out = environment;
  } else {
    for (const auto& kv : environment) {
      if (is_slurm_var(kv.first)) out.push_back(kv);
    }
  }
  for (const auto& token : tokens) {
    if (iequals(token, "ALL")) continue;
    const std::size_t eq = token.find('=');
    if (eq == std::string::npos) {
      // A bare name exports the caller's value, if it has one.
      if (all) continue;
      if (const std::string* value = env_find(environment, token)) env_set(out, token, *value);
      continue;
    }
    const std::string name = token.substr(0, eq);
    if (name.empty()) continue;
    if (all && env_find(environment, name) != nullptr) continue;  // the caller's value wins
    env_set(out, name, token.substr(eq + 1));
  }
  return out;
}

}  // namespace stint::cli
