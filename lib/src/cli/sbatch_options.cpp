#include "cli/sbatch_options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <optional>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sbatch_builder.hpp"
#include "cli/sbatch_directives.hpp"
#include "cli/sbatch_pbs.hpp"
#include "cli/sbatch_values.hpp"

namespace stint::cli {
namespace {

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

bool is_slurm_var(const std::string& name) { return name.rfind("SLURM_", 0) == 0; }

std::string script_file_name(const BatchScript& script) {
  return script.source == ScriptSource::file && !script.path.empty() ? base_name(script.path)
                                                                     : std::string("stdin");
}

// "job.sh:7: #SBATCH --time=abc": where a directive's error came from, as a
// second line after Slurm's own.
std::string directive_place(const std::string& file, const Directives& d, std::size_t first_word,
                            std::size_t words) {
  std::string text;
  for (std::size_t i = first_word; i < first_word + words && i < d.words.size(); ++i) {
    if (!text.empty()) text += ' ';
    text += d.words[i];
  }
  return fmt::format("{}:{}: #SBATCH {}", file, d.lines.at(first_word), text);
}

// A site's own #SBATCH option (a SPANK plugin's --image, --container-image,
// an option older Slurm had) in a cluster's script: with StintForeignNames=map
// it is taken out of the directives with a warning, as a partition name this
// machine lacks is mapped. Its value goes with it ("--image=x", or the next
// word when that is not an option).
bool skip_foreign_option(SbatchBuilder& b, Directives& d, std::size_t at, const UsageError& e,
                         const std::string& where) {
  const std::string_view what = e.what();
  if (what.rfind("unrecognized option", 0) != 0 || at >= d.words.size()) return false;
  if (d.words[at].rfind("--", 0) != 0 || !b.context || !b.context->foreign_names_mapped ||
      !b.context->foreign_names_mapped())
    return false;
  std::size_t words = 1;
  if (d.words[at].find('=') == std::string::npos && at + 1 < d.words.size() &&
      d.lines.at(at + 1) == d.lines.at(at) && d.words[at + 1].rfind('-', 0) != 0)
    words = 2;
  std::string text;
  for (std::size_t i = at; i < at + words; ++i) text += (text.empty() ? "" : " ") + d.words[i];
  b.request.notices.emplace_back(
      "warning", fmt::format("{}: '{}' is not an option of Slurm 22.05's sbatch (a site's own); "
                             "left out, as StintForeignNames is map",
                             where, text));
  d.words.erase(d.words.begin() + static_cast<std::ptrdiff_t>(at),
                d.words.begin() + static_cast<std::ptrdiff_t>(at + words));
  d.lines.erase(d.lines.begin() + static_cast<std::ptrdiff_t>(at),
                d.lines.begin() + static_cast<std::ptrdiff_t>(at + words));
  return true;
}

// The options of the script's #SBATCH lines for one component of the job,
// applied in order. An error names the file and line after Slurm's own
// message. Returns whether the script has components after this one.
bool apply_directives(SbatchBuilder& b, const BatchScript& script, int component,
                      bool& old_magic_said) {
  const std::string file = script_file_name(script);
  Directives d = read_directives(script.text, file, component);
  if (d.old_magic && !old_magic_said) {
    old_magic_said = true;
    b.request.notices.emplace_back(
        "error",
        "Change from #SLURM to #SBATCH in your script and verify the options are valid in sbatch");
  }
  OptionScan scan;
  for (;;) {
    try {
      scan = scan_options(sbatch_option_table(), d.words);
      break;
    } catch (const UsageError& e) {
      const std::size_t at = std::min(e.arg_index(), d.words.empty() ? 0 : d.words.size() - 1);
      std::string where = d.lines.empty() ? file : fmt::format("{}:{}", file, d.lines.at(at));
      if (skip_foreign_option(b, d, at, e, where)) continue;
      std::string detail = fmt::format("{}: {}", where, e.what());
      if (!e.suggestion().empty()) detail += fmt::format("; did you mean '{}'?", e.suggestion());
      throw UsageError(e.what(), e.suggestion(), e.arg_index(), detail);
    }
  }
  // As Slurm's getopt loop, each option is applied as it is read; a stray
  // word is found after them.
  for (const auto& o : scan.options) {
    try {
      b.apply(o, Layer::directive);
    } catch (const UsageError&) {
      throw;
    } catch (const PrefacedError& e) {
      throw PrefacedError(e.code(),
                          fmt::format("{}\n{}", e.what(), directive_place(file, d, o.arg_index, 1)),
                          e.preface());
    } catch (const Error& e) {
      const std::size_t words =
          o.value && o.arg_index + 1 < d.words.size() && d.words[o.arg_index] == o.spelling ? 2 : 1;
      throw Error(e.code(),
                  fmt::format("{}\n{}", e.what(), directive_place(file, d, o.arg_index, words)));
    }
  }
  if (scan.first_operand < d.words.size()) {
    throw Error(Errc::usage,
                fmt::format("Invalid directive found in batch script: {}\n{}:{}: #SBATCH {}",
                            d.words[scan.first_operand], file, d.lines.at(scan.first_operand),
                            d.words[scan.first_operand]));
  }
  return d.more_components;
}

// Whether an input variable of a flag sets it (Slurm's slurm_process_option):
// empty, "yes" or a number other than 0 does; anything else ("0", "no")
// leaves it unset.
bool env_flag_set(const std::string& value) {
  if (value.empty() || iequals(value, "yes")) return true;
  char* end = nullptr;
  const long number = std::strtol(value.c_str(), &end, 10);
  return number != 0 && *end == '\0';
}

// The input environment variables of sbatch(1), each applied as its option.
void apply_environment(SbatchBuilder& b, const EnvList& env) {
  for (const auto& spec : sbatch_option_table()) {
    std::string_view vars = spec.env;
    while (!vars.empty()) {
      const std::size_t space = vars.find(' ');
      const std::string_view var = vars.substr(0, space);
      vars = space == std::string_view::npos ? std::string_view() : vars.substr(space + 1);
      if (var == "SBATCH_IGNORE_PBS") continue;  // read before the script (build_sbatch_request)
      if (const std::string* value = env_find(env, var)) {
        if (spec.arg == ArgKind::none && spec.id != static_cast<int>(SbatchOpt::verbose) &&
            !env_flag_set(*value))
          continue;
        b.apply(FoundOption{spec.id, std::string(var), *value, 0}, Layer::environment);
      }
    }
  }
}

// The defaults Slurm's client fills in after a component's options: its
// name, working directory, absolute output paths; the leader (component 0)
// also gets the script and the environment.
// --bbf: sbatch splices the file's lines into the script after its first
// line when that is a "#!" or other comment, else before it (Slurm's
// run_command_add_to_script), so they run before the script's own commands.
std::string with_spliced_lines(const std::string& script, std::string lines) {
  if (lines.empty()) return script;
  if (lines.back() != '\n') lines += '\n';
  if (script.empty()) return lines;
  if (script.front() != '#') return lines + script;
  const std::size_t eol = script.find('\n');
  if (eol == std::string::npos) return script + "\n" + lines;
  return script.substr(0, eol + 1) + lines + script.substr(eol + 1);
}

void fill_in_component(SbatchBuilder& b, const SbatchCommandLine& command_line,
                       const BatchScript& script, const SubmitContext& context, bool leader) {
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
  if (b.input && !b.input->empty() && !iequals(*b.input, "none") && *b.input != "/dev/null") {
    s.options_to_set().stdin_pattern = output_path(*b.input);
  }

  s.export_spec = b.export_spec.value_or("");
  s.script_name = script.source == ScriptSource::file ? script.path : std::string();
  s.submit_dir = context.cwd;
  s.submit_host = context.hostname;
  if (!leader) {
    // Slurm's controller mails only for the leader: it clears the others'
    // --mail-type and --mail-user.
    if (s.more) {
      s.more->mail_type.clear();
      s.more->mail_user.clear();
    }
    return;
  }
  s.script = script.text;
  if (b.burst_buffer_file) s.script = with_spliced_lines(script.text, *b.burst_buffer_file);
  s.script_args = command_line.script_args;

  s.environment = export_environment(s.export_spec, context.environment);
  if (b.export_file) {
    for (auto& [name, value] : values::export_file(*b.export_file))
      env_set(s.environment, name, value);
  }
  // What sbatch itself puts in the job's environment (Slurm's _opt_verify):
  // steps started inside the job read them back.
  if (s.open_append) env_set(s.environment, "SLURM_OPEN_MODE", *s.open_append ? "a" : "t");
  if (!s.dependency.empty()) env_set(s.environment, "SLURM_JOB_DEPENDENCY", s.dependency);
  if (!s.export_spec.empty() && !iequals(s.export_spec, "ALL") &&
      !env_find(s.environment, "SLURM_EXPORT_ENV")) {
    env_set(s.environment, "SLURM_EXPORT_ENV", s.export_spec);
  }
  if (const auto& o = s.options(); !o.acctg_freq.empty()) {
    env_set(s.environment, "SLURM_ACCTG_FREQ", o.acctg_freq);
  }
  if (const auto it = s.options().recorded.find("profile"); it != s.options().recorded.end()) {
    env_set(s.environment, "SLURM_PROFILE", it->second);
  }
  if (const auto it = s.options().recorded.find("container"); it != s.options().recorded.end()) {
    if (!env_find(s.environment, "SLURM_CONTAINER")) {
      env_set(s.environment, "SLURM_CONTAINER", it->second);
    }
  }
  if (!s.options().hint.empty()) env_set(s.environment, "SLURM_HINT", s.options().hint);
  // The limits to propagate travel as SLURM_RLIMIT_<NAME> (Slurm's sbatch
  // _set_rlimit_env): all of them, stepd applying those PropagateResourceLimits
  // names; with --propagate only those named, marked 'U' (asked by the user).
  // With --get-user-env Slurm's sbatch sends no limits: they come with the
  // login environment. That environment is loaded for an --export other than
  // ALL too (SLURM_GET_USER_ENV tells stepd).
  const std::optional<std::string>& propagate = s.options().propagate;
  const bool user_env = s.options().get_user_env.has_value();
  if (user_env || (!s.export_spec.empty() && !iequals(s.export_spec, "ALL"))) {
    env_set(s.environment, "SLURM_GET_USER_ENV", "1");
  }
  for (const auto& [name, value] : user_env ? EnvList{} : context.rlimits) {
    if (propagate) {
      if (*propagate == "NONE") continue;
      if (*propagate != "ALL" &&
          ("," + *propagate + ",").find("," + name + ",") == std::string::npos) {
        continue;
      }
    }
    env_set(s.environment, "SLURM_RLIMIT_" + name, (propagate ? "U" : "") + value);
  }
}

// Where component k >= 1 starts: component k-1's propagated options, in the
// JobSpec and in what the builder keeps aside until the end.
SbatchBuilder next_component(const SbatchBuilder& previous) {
  SbatchBuilder b;
  b.context = previous.context;
  b.request.spec = het_component_base(previous.request.spec);
  b.request.parsable = previous.request.parsable;
  b.request.quiet = previous.request.quiet;
  b.request.wait = previous.request.wait;
  b.request.test_only = previous.request.test_only;
  b.request.verbose = previous.request.verbose;
  b.name_set = previous.name_set;
  b.chdir = previous.chdir;
  b.output = previous.output;
  b.error = previous.error;
  b.input = previous.input;
  b.export_spec = previous.export_spec;
  b.export_file = previous.export_file;
  // --bbf is not reset each pass in Slurm 22.05, unlike --bb.
  b.burst_buffer_file = previous.burst_buffer_file;
  return b;
}

}  // namespace

JobSpec het_component_base(const JobSpec& previous) {
  JobSpec s;
  s.name = previous.name;
  s.account = previous.account;
  s.qos = previous.qos;
  s.mem_per_node_mb = previous.mem_per_node_mb;
  s.time_limit = previous.time_limit;
  s.stdout_pattern = previous.stdout_pattern;
  s.stderr_pattern = previous.stderr_pattern;
  s.work_dir = previous.work_dir;
  s.export_spec = previous.export_spec;
  s.hold = previous.hold;
  s.nice = previous.nice;
  s.fixed_priority = previous.fixed_priority;
  s.comment = previous.comment;
  s.dependency = previous.dependency;
  s.kill_on_invalid_dep = previous.kill_on_invalid_dep;
  s.begin_time = previous.begin_time;
  s.deadline = previous.deadline;
  s.requeue = previous.requeue;
  s.open_append = previous.open_append;
  s.signal = previous.signal;
  if (!previous.more) return s;
  const JobOptions& p = *previous.more;
  JobOptions o;
  o.exclude = p.exclude;
  o.prefer = p.prefer;
  o.cluster_constraint = p.cluster_constraint;
  o.reservation = p.reservation;
  o.time_min = p.time_min;
  o.wckey = p.wckey;
  o.acctg_freq = p.acctg_freq;
  o.propagate = p.propagate;
  o.no_kill = p.no_kill;
  o.wait_all_nodes = p.wait_all_nodes;
  o.stdin_pattern = p.stdin_pattern;
  o.cluster = p.cluster;
  o.get_user_env = p.get_user_env;
  o.uid = p.uid;
  o.gid = p.gid;
  for (const char* name :
       {"batch", "container", "context", "delay-boot", "mcs-label", "profile", "reboot"}) {
    if (const auto it = p.recorded.find(name); it != p.recorded.end()) o.recorded.insert(*it);
  }
  if (o != JobOptions{}) s.options_to_set() = std::move(o);
  return s;
}

SbatchCommandLine parse_sbatch_command_line(const std::vector<std::string>& args) {
  SbatchCommandLine cl;
  // Slurm's first pass reads the options of every component, so these act
  // wherever they are.
  auto first_pass = [&cl](const std::vector<SbatchOptionArg>& options) {
    for (const auto& o : options) {
      const auto id = static_cast<SbatchOpt>(o.id);
      // Like Slurm's first pass: the first of --help, --usage, --version acts.
      if (cl.action == SbatchCommandLine::Action::submit) {
        if (id == SbatchOpt::help) cl.action = SbatchCommandLine::Action::help;
        if (id == SbatchOpt::usage) cl.action = SbatchCommandLine::Action::usage;
        if (id == SbatchOpt::version) cl.action = SbatchCommandLine::Action::version;
      }
      if (id == SbatchOpt::wrap) cl.wrap = o.value;
      if (id == SbatchOpt::ignore_pbs) cl.ignore_pbs = true;
    }
  };
  OptionScan scan = scan_options(sbatch_option_table(), args);
  first_pass(scan.options);
  cl.options = std::move(scan.options);
  std::size_t operand = scan.first_operand;
  while (operand < args.size() && args[operand] == ":") {
    const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(operand) + 1,
                                        args.end());
    OptionScan component = scan_options(sbatch_option_table(), rest);
    first_pass(component.options);
    cl.component_options.push_back(std::move(component.options));
    operand += 1 + component.first_operand;
  }
  if (operand < args.size()) {
    cl.script = args[operand];
    cl.script_args.assign(args.begin() + static_cast<std::ptrdiff_t>(operand) + 1, args.end());
  }
  if (cl.action == SbatchCommandLine::Action::submit && cl.wrap && cl.script) {
    throw Error(Errc::invalid_argument, "Script arguments not permitted with --wrap option");
  }
  return cl;
}

SbatchRequest build_sbatch_request(const SbatchCommandLine& command_line, const BatchScript& script,
                                   const SubmitContext& context) {
  SbatchRequest request;
  bool old_magic_said = false;
  std::optional<SbatchBuilder> previous;
  // Slurm's sbatch loops until neither the command line nor the script has
  // another component.
  for (std::size_t k = 0;; ++k) {
    SbatchBuilder b = previous ? next_component(*previous) : SbatchBuilder{};
    b.context = &context;
    const bool more_in_script = apply_directives(b, script, static_cast<int>(k), old_magic_said);
    // #PBS (and #BSUB) lines are read after the #SBATCH ones, as Slurm's
    // xlate_batch_script does, unless --ignore-pbs or SBATCH_IGNORE_PBS says
    // not to; Slurm reads them again for every component.
    // An "#SBATCH --ignore-pbs" line counts as well.
    const std::string* ignore_pbs = env_find(context.environment, "SBATCH_IGNORE_PBS");
    if (!command_line.ignore_pbs && !(ignore_pbs && env_flag_set(*ignore_pbs)) &&
        !b.given.count(SbatchOpt::ignore_pbs)) {
      for (const auto& o : pbs_options(script.text, script_file_name(script))) {
        b.apply(o, Layer::directive);
      }
    }
    apply_environment(b, context.environment);
    // The command line's component k, when it has one.
    const std::vector<SbatchOptionArg>* options = &command_line.options;
    if (k > 0) {
      options = k <= command_line.component_options.size() ? &command_line.component_options[k - 1]
                                                           : nullptr;
    }
    if (options) {
      for (const auto& o : *options) b.apply(o, Layer::command_line);
    }
    b.finish();
    fill_in_component(b, command_line, script, context, k == 0);
    // -v: Slurm lists the options set once they are checked.
    if (b.request.verbose > 0) {
      for (std::string& line : defined_options(b)) b.request.notices.emplace_back("info", line);
    }

    for (auto& notice : b.request.notices) request.notices.push_back(std::move(notice));
    b.request.notices.clear();
    if (k == 0) {
      request.spec = b.request.spec;
    } else {
      request.het_components.push_back(b.request.spec);
    }
    // sbatch's own flags are propagated options too: the last component's
    // have every component's.
    request.parsable = b.request.parsable;
    request.quiet = b.request.quiet;
    request.wait = b.request.wait;
    request.test_only = b.request.test_only;
    request.verbose = b.request.verbose;
    // Slurm prints the help and exits while it reads this component's options.
    if (!b.request.help_requested.empty()) {
      request.help_requested = b.request.help_requested;
      return request;
    }
    if (!more_in_script && k >= command_line.component_options.size()) break;
    previous = std::move(b);
  }

  if (!request.het_components.empty() &&
      (!request.spec.array_spec.empty() ||
       std::any_of(request.het_components.begin(), request.het_components.end(),
                   [](const JobSpec& c) { return !c.array_spec.empty(); }))) {
    // Slurm's controller refuses an array in a heterogeneous allocation with
    // ESLURM_INVALID_ARRAY; its documentation says why.
    throw Error(Errc::invalid_array,
                "Job arrays of heterogeneous jobs are not supported\n"
                "Batch job submission failed: Invalid job array specification");
  }
  return request;
}

void SbatchBuilder::finish() {
  finish_memory();
  finish_nodes();
  JobSpec& s = request.spec;
  // --bbf's file goes into the script (fill_in_component), not --bb.
  if (burst_buffer_file && s.options().recorded.count("bb"))
    throw Error(Errc::usage, "Cannot specify both --burst-buffer and --bbf");
  if (request.quiet && request.verbose) {
    throw Error(Errc::usage, "don't specify both --verbose (-v) and --quiet (-Q)");
  }
  if (s.deadline && s.begin_time && *s.deadline < *s.begin_time) {
    throw Error(Errc::usage, "Incompatible begin and deadline time specification");
  }
  if (s.more) {
    const JobOptions& o = *s.more;
    if (o.ntasks_per_gpu) {
      if (o.gpus_per_task) {
        throw Error(Errc::usage,
                    "--gpus-per-task is mutually exclusive with --ntasks-per-gpu and "
                    "SLURM_NTASKS_PER_GPU");
      }
      if (o.gpus_per_socket) {
        throw Error(Errc::usage,
                    "--gpus-per-socket is mutually exclusive with --ntasks-per-gpu and "
                    "SLURM_NTASKS_PER_GPU");
      }
      if (s.ntasks_per_node) {
        throw Error(Errc::usage,
                    "--ntasks-per-node is mutually exclusive with --ntasks-per-gpu and "
                    "SLURM_NTASKS_PER_GPU");
      }
    }
    // Slurm's validate_hint_option: --hint and the options it would set
    // itself; an option of the command line or a directive wins over one of
    // the environment, and --hint gives way where both come from the same
    // (said only with -v).
    const auto set_by = [this](SbatchOpt id, bool environment) {
      const auto it = given.find(id);
      return it != given.end() && (it->second.second == Layer::environment) == environment;
    };
    const auto others_set_by = [&](bool environment) {
      return set_by(SbatchOpt::ntasks_per_core, environment) ||
             set_by(SbatchOpt::threads_per_core, environment) ||
             set_by(SbatchOpt::extra_node_info, environment);
    };
    if (!o.hint.empty()) {
      // Reset as Slurm resets them: no longer set (-v does not list them).
      const auto drop_hint = [&] {
        s.options_to_set().hint.clear();
        given.erase(SbatchOpt::hint);
      };
      std::string said;
      if (set_by(SbatchOpt::hint, false) && others_set_by(false)) {
        said =
            "Following options are mutually exclusive with --hint: --ntasks-per-core, "
            "--threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring "
            "--hint.";
        drop_hint();
      } else if (set_by(SbatchOpt::hint, false)) {
        JobOptions& m = s.options_to_set();
        m.ntasks_per_core.reset();
        m.threads_per_core.reset();
        if (set_by(SbatchOpt::extra_node_info, true)) {
          m.sockets_per_node.reset();
          m.cores_per_socket.reset();
        }
        for (SbatchOpt id :
             {SbatchOpt::ntasks_per_core, SbatchOpt::threads_per_core, SbatchOpt::extra_node_info})
          given.erase(id);
      } else if (others_set_by(false)) {
        drop_hint();
      } else if (others_set_by(true)) {
        said =
            "Following options are mutually exclusive with --hint: --ntasks-per-core, "
            "--threads-per-core, -B and --cpu-bind, but more than one set by environment "
            "variables. Ignoring SLURM_HINT.";
        drop_hint();
      }
      if (!said.empty() && request.verbose > 0) request.notices.emplace_back("info", said);
    }
    // Slurm's _validate_spec_cores_options: -S and --thread-spec both given
    // (Slurm's words, its misspelling kept), or both from the environment
    // with neither on the command line, end the submission.
    if (set_by(SbatchOpt::core_spec, false) && set_by(SbatchOpt::thread_spec, false)) {
      request.notices.emplace_back(
          "fatal", "-S/--core-spec and --thred-spec options are mutually exclusive");
    } else if (set_by(SbatchOpt::core_spec, true) && set_by(SbatchOpt::thread_spec, true) &&
               !set_by(SbatchOpt::core_spec, false) && !set_by(SbatchOpt::thread_spec, false)) {
      request.notices.emplace_back(
          "fatal",
          "Both --core-spec and --thread-spec set using environment variables. Those options are "
          "mutually exclusive.");
    }
    if (!o.cluster.empty() && context) {
      // Only this machine's cluster exists; "all" is it too.
      const std::string here = context->cluster_name ? context->cluster_name() : std::string();
      const std::string clusters = o.cluster;
      std::string_view rest = clusters;
      bool mapped = false;
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (!iequals(name, "all") && name != here) {
          if (context->foreign_names_mapped && context->foreign_names_mapped()) {
            // Another cluster's name: this machine's cluster stands in for it.
            request.notices.emplace_back(
                "warning",
                fmt::format("cluster '{}' mapped to '{}' (StintForeignNames is map)", name, here));
            mapped = true;
            continue;
          }
          throw Error(Errc::invalid_argument,
                      fmt::format("'{}' can't be reached now, or it is an invalid entry for "
                                  "--cluster.  Use 'sacctmgr list clusters' to see available "
                                  "clusters.",
                                  clusters));
        }
      }
      if (mapped) s.options_to_set().cluster = here;
    }
  }
  // A -N with no -n means one task per node (Slurm's "1 proc / node
  // default"); -n was given only when it was.
  if (s.ntasks_per_node && !ntasks_set && s.nodes &&
      (!s.options().max_nodes || *s.options().max_nodes == *s.nodes)) {
    s.ntasks = *s.nodes * *s.ntasks_per_node;
  }
}

void SbatchBuilder::finish_memory() {
  JobSpec& s = request.spec;
  for (std::size_t layer = k_layers; layer-- > 0;) {
    const int set = static_cast<int>(set_mem[layer]) + static_cast<int>(set_mem_per_cpu[layer]) +
                    static_cast<int>(set_mem_per_gpu[layer]);
    if (set == 0) continue;
    if (set > 1) {
      throw Error(Errc::invalid_argument,
                  layer == static_cast<std::size_t>(Layer::environment)
                      ? "SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are "
                        "mutually exclusive."
                      : "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
    }
    // The deciding layer's choice clears the others set by a lower layer.
    if (!set_mem[layer]) s.mem_per_node_mb.reset();
    if (!set_mem_per_cpu[layer]) s.mem_per_cpu_mb.reset();
    if (!set_mem_per_gpu[layer] && s.more) s.more->mem_per_gpu_mb.reset();
    return;
  }
}

// A node list asks for at least as many nodes as it names (sbatch's _opt_verify).
void SbatchBuilder::finish_nodes() {
  JobSpec& s = request.spec;
  const std::string& list = s.options().nodelist;
  if (list.empty()) return;
  std::vector<std::string> names;
  try {
    names = parse::expand_hostlist(list);
  } catch (const Error&) {
    throw Error(Errc::invalid_argument, "Batch job submission failed: Invalid node name specified");
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (context && context->node_known && context->foreign_names_mapped &&
      std::any_of(names.begin(), names.end(),
                  [this](const std::string& n) { return !context->node_known(n); }) &&
      context->foreign_names_mapped()) {
    std::erase_if(names, [this](const std::string& n) { return !context->node_known(n); });
  }
  const auto count = static_cast<std::uint32_t>(names.size());
  if (count == 0) return;
  s.nodes = std::max(s.nodes.value_or(0), count);
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
