// What each of sbatch's options does to the request (SbatchBuilder::apply):
// its value checked with Slurm's message, then kept in the JobSpec. The
// scheduler and stintd act on the JobSpec; this file only reads options.

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sbatch_builder.hpp"
#include "cli/sbatch_values.hpp"

namespace stint::cli {
namespace {

// Slurm's NICE_OFFSET - 3: the widest nice value it accepts.
constexpr std::int64_t k_max_nice = 2147483645;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// -N: "N" or "min-max" (Slurm's verify_node_count): the minimum, and the
// maximum when one is given.
std::pair<std::uint32_t, std::optional<std::uint32_t>> node_count(const std::string& text) {
  auto part = [](const std::string& s) {
    // A k or m suffix counts in 1024s or 1048576s (Slurm's str_to_nodes).
    std::uint64_t scale = 1;
    std::string digits = s;
    if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) scale = 1024;
    if (!digits.empty() && (digits.back() == 'm' || digits.back() == 'M')) scale = 1048576;
    if (scale != 1) digits.pop_back();
    try {
      const std::uint64_t n = std::uint64_t{parse::count(digits, "--nodes")} * scale;
      if (n > 0x7fffffff) throw Error(Errc::usage, "");
      return static_cast<std::uint32_t>(n);
    } catch (const std::exception&) {
      throw Error(Errc::usage, fmt::format("\"{}\" is not a valid node count", s));
    }
  };
  const std::size_t dash = text.find('-');
  if (dash == std::string::npos) {
    const std::uint32_t n = part(text);
    if (n == 0) throw Error(Errc::usage, fmt::format("\"{}\" is not a valid node count", text));
    return {n, std::nullopt};
  }
  std::uint32_t min = part(text.substr(0, dash));
  const std::uint32_t max = part(text.substr(dash + 1));
  if (min == 0) min = 1;
  if (max != 0 && max < min) {
    throw Error(Errc::usage,
                fmt::format("Maximum node count {} is less than minimum node count {}", max, min));
  }
  return {min, max == 0 ? std::nullopt : std::optional<std::uint32_t>(max)};
}

// --priority=N|TOP: a fixed priority (operators only: stintd checks).
std::uint32_t priority_value(const std::string& value) {
  std::string upper = value;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "TOP") return k_top_priority;
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  // TOP is the highest value accepted (NO_VAL - 2); it may be given as a number too.
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
      n > k_top_priority)
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

// --begin and --deadline: a time from now on, as Slurm's parse_time(arg, 0),
// which says where it stopped reading before sbatch's own line.
Seconds point_in_time(const std::string& text, Seconds now, std::string_view option) {
  try {
    return parse::date_time(text, now, parse::Resolve::future);
  } catch (const Error&) {
    // Slurm exits 255 here (exit(-1) in arg_set_begin).
    throw PrefacedError(Errc::usage, fmt::format("Invalid {} specification", option),
                        fmt::format("Invalid time specification (pos=0): {}", text));
  }
}

// What slurmctld answers to an expression it cannot read; sbatch prints it as
// a refused submission, exit 1 (10-errors.txt).
[[noreturn]] void submission_refused(std::string_view reason) {
  throw Error(Errc::invalid_argument, fmt::format("Batch job submission failed: {}", reason));
}

const std::string& value_of(const FoundOption& o) {
  static const std::string k_empty;
  return o.value ? *o.value : k_empty;
}

// --exclusive[=user|mcs|oversubscribe] (Slurm's arg_set_exclusive).
void set_exclusive(JobOptions& o, const std::optional<std::string>& value) {
  if (!value || iequals(*value, "exclusive")) {
    o.exclusive = Exclusive::node;
    o.oversubscribe.reset();
  } else if (iequals(*value, "oversubscribe")) {
    o.exclusive = Exclusive::unset;
    o.oversubscribe = true;
  } else if (iequals(*value, "user")) {
    o.exclusive = Exclusive::user;
  } else if (iequals(*value, "mcs")) {
    o.exclusive = Exclusive::mcs;
  } else {
    throw Error(Errc::usage, "Invalid --exclusive specification");
  }
}

// A GPU count with an optional type: --gpus-per-task=[type:]N and friends.
parse::GpuRequest gpu_count(const std::string& text) {
  try {
    return parse::gpus(text);
  } catch (const std::exception&) {
    throw Error(Errc::invalid_gres, std::string(errc_slurm_message(Errc::invalid_gres)));
  }
}

std::uint64_t megabytes(const std::string& text, std::string_view option) {
  try {
    return parse::memory_mb(text, option);
  } catch (const Error& e) {
    // Slurm exits 255 here (exit(-1) in the option's setter), unlike for counts.
    throw Error(Errc::usage, e.what());
  }
}

}  // namespace

std::string SbatchBuilder::read_named_file(const std::string& path,
                                           std::string_view refusal) const {
  const std::string full = path.empty() || path.front() == '/' || !context
                               ? path
                               : fmt::format("{}/{}", context->cwd, path);
  std::optional<std::string> text;
  if (context && context->read_file) text = context->read_file(full);
  if (!text) throw Error(Errc::usage, std::string(refusal));
  return *text;
}

// A file of node names, one or more a line (Slurm's slurm_read_hostfile):
// the names as one hostlist, in the file's order.
std::string SbatchBuilder::node_file(const std::string& path, std::string_view refusal) const {
  const std::string text = read_named_file(path, refusal);
  std::vector<std::string> names;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) {
      for (auto& n : parse::expand_hostlist(word)) names.push_back(std::move(n));
    }
    word.clear();
  };
  bool comment = false;
  for (char c : text) {
    if (c == '\n') comment = false;
    if (comment) continue;
    if (c == '#') {
      flush();
      comment = true;
    } else if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  if (names.empty()) throw Error(Errc::usage, std::string(refusal));
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ',';
    out += n;
  }
  return out;
}

void SbatchBuilder::apply(const FoundOption& o, Layer layer) {
  const auto id = static_cast<SbatchOpt>(o.id);
  apply_core(id, o, layer);
  given[id] = {value_of(o), layer};
}

// The options every scheduler has; the rest are apply_more's.
void SbatchBuilder::apply_core(SbatchOpt id, const FoundOption& o, Layer layer) {
  JobSpec& s = request.spec;
  const std::string& v = value_of(o);
  switch (id) {
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
      s.begin_time = point_in_time(v, context->now, "--begin");
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
      s.deadline = point_in_time(v, context->now, "--deadline");
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
      // A #PBS -v adds its names to an --export the script already gave.
      export_spec = o.spelling == "#PBS -v" && export_spec ? *export_spec + "," + v : v;
      break;
    case SbatchOpt::gpus:
    case SbatchOpt::gpus_per_node:
    case SbatchOpt::gres: {
      parse::GpuRequest g;
      try {
        g = id == SbatchOpt::gres ? parse::gres(v) : parse::gpus(v);
      } catch (const std::exception&) {
        throw Error(Errc::invalid_gres, std::string(errc_slurm_message(Errc::invalid_gres)));
      }
      if (id == SbatchOpt::gpus) {
        s.gpus = g.count;
      } else {
        s.gpus_per_node = g.count;
      }
      if (id == SbatchOpt::gres) s.options_to_set().gres = v;
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
    case SbatchOpt::mem_per_cpu:
    case SbatchOpt::mem_per_gpu: {
      const auto at = static_cast<std::size_t>(layer);
      if (id == SbatchOpt::mem) {
        s.mem_per_node_mb = megabytes(v, "--mem");
        set_mem[at] = true;
      } else if (id == SbatchOpt::mem_per_cpu) {
        s.mem_per_cpu_mb = megabytes(v, "--mem-per-cpu");
        set_mem_per_cpu[at] = true;
      } else {
        s.options_to_set().mem_per_gpu_mb = megabytes(v, "--mem-per-gpu");
        set_mem_per_gpu[at] = true;
      }
      break;
    }
    case SbatchOpt::nice:
      s.nice = nice_value(o.value);
      break;
    case SbatchOpt::priority:
      s.fixed_priority = priority_value(v);
      break;
    case SbatchOpt::no_requeue:
      s.requeue = false;
      break;
    case SbatchOpt::nodes: {
      const auto [min, max] = node_count(v);
      s.nodes = min;
      if (max || s.more) s.options_to_set().max_nodes = max;
      break;
    }
    case SbatchOpt::ntasks:
      s.ntasks = parse::positive_count(v, "--ntasks");
      ntasks_set = true;
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
      // SBATCH_DEBUG=N sets the level; each -v adds one.
      if (layer == Layer::environment && !v.empty() &&
          std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
          v.size() < 10) {
        request.verbose = std::stoi(v);
      } else {
        ++request.verbose;
      }
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
    default:
      apply_more(id, o, layer);
      break;
  }
}

// The options most jobs do not use: kept in JobSpec::options().
void SbatchBuilder::apply_more(SbatchOpt id, const FoundOption& o, Layer /*layer*/) {
  JobOptions& m = request.spec.options_to_set();
  const std::string& v = value_of(o);
  auto record = [&m, &o](std::string value) {
    m.recorded[std::string(o.spelling.rfind("--", 0) == 0 ? o.spelling.substr(2) : o.spelling)] =
        std::move(value);
  };
  auto record_as = [&m](std::string_view name, std::string value) {
    m.recorded[std::string(name)] = std::move(value);
  };
  switch (id) {
    case SbatchOpt::acctg_freq:
      values::acctg_freq(v);
      m.acctg_freq = v;
      break;
    case SbatchOpt::batch:
      record_as("batch", v);
      break;
    case SbatchOpt::bb:
      record_as("bb", v);
      break;
    case SbatchOpt::bbf:
      burst_buffer_file = read_named_file(v, fmt::format("Can not open --bbf file {}", v));
      break;
    case SbatchOpt::cluster:
    case SbatchOpt::clusters:
      m.cluster = v;
      break;
    case SbatchOpt::cluster_constraint:
      m.cluster_constraint = v;
      break;
    case SbatchOpt::constraint:
      m.constraint = v;
      break;
    case SbatchOpt::container:
      record_as("container", v);
      break;
    case SbatchOpt::context:
      record_as("context", v);
      break;
    case SbatchOpt::contiguous:
      m.contiguous = true;
      break;
    case SbatchOpt::core_spec:
      record_as("core-spec", std::to_string(values::count(v, "--core-spec", true)));
      m.recorded.erase("thread-spec");
      break;
    case SbatchOpt::cores_per_socket:
      m.cores_per_socket = values::count(v, "--cores-per-socket");
      break;
    case SbatchOpt::cpu_freq:
      values::cpu_freq(v);
      record_as("cpu-freq", v);
      break;
    case SbatchOpt::cpus_per_gpu:
      m.cpus_per_gpu = values::count(v, "--cpus-per-gpu");
      break;
    case SbatchOpt::delay_boot:
      try {
        record_as("delay-boot", std::to_string(parse::time_limit(v)));
      } catch (const Error&) {
        throw Error(Errc::usage, "Invalid --delay-boot specification");
      }
      break;
    case SbatchOpt::distribution:
      m.distribution = values::distribution(v);
      break;
    case SbatchOpt::exclude:
      m.exclude =
          v.find('/') != std::string::npos ? node_file(v, "Invalid --exclude node file") : v;
      break;
    case SbatchOpt::exclusive:
      set_exclusive(m, o.value);
      break;
    case SbatchOpt::export_file:
      export_file = read_named_file(v, fmt::format("Unable to open --export-file {}", v));
      break;
    case SbatchOpt::extra_node_info: {
      const values::NodeShape shape = values::extra_node_info(v);
      m.sockets_per_node = shape.sockets;
      m.cores_per_socket = shape.cores;
      m.threads_per_core = shape.threads;
      break;
    }
    case SbatchOpt::get_user_env:
      m.get_user_env = o.value ? values::get_user_env(*o.value) : std::string();
      break;
    case SbatchOpt::gid:
    case SbatchOpt::uid: {
      const bool user = id == SbatchOpt::uid;
      if (context->uid != 0) {
        throw Error(Errc::usage,
                    fmt::format("--{} only permitted by root user", user ? "uid" : "gid"));
      }
      const auto& resolve = user ? context->user_id : context->group_id;
      std::optional<std::uint32_t> number;
      if (resolve) number = resolve(v);
      if (!number) {
        try {
          number = parse::count(v, user ? "--uid" : "--gid");
        } catch (const Error&) {
        }
      }
      if (!number)
        throw Error(Errc::usage, fmt::format("Invalid --{} specification", user ? "uid" : "gid"));
      (user ? m.uid : m.gid) = *number;
      break;
    }
    case SbatchOpt::gpu_bind:
      values::gpu_bind(v);
      m.gpu_bind = v;
      break;
    case SbatchOpt::gpu_freq:
      values::gpu_freq(v);
      record_as("gpu-freq", v);
      break;
    case SbatchOpt::gpus_per_socket: {
      const parse::GpuRequest g = gpu_count(v);
      m.gpus_per_socket = g.count;
      if (!g.type.empty()) request.spec.gpu_type = g.type;
      break;
    }
    case SbatchOpt::gpus_per_task: {
      const parse::GpuRequest g = gpu_count(v);
      m.gpus_per_task = g.count;
      if (!g.type.empty()) request.spec.gpu_type = g.type;
      break;
    }
    case SbatchOpt::gres_flags:
      m.gres_flags = values::gres_flags(v);
      break;
    case SbatchOpt::hint:
      if (iequals(v, "help")) {
        request.help_requested = std::string(values::hint_help());
        break;
      }
      values::hint(v);
      m.hint = v;
      break;
    case SbatchOpt::ignore_pbs:
      // Acted on before the script's #PBS lines are read (build_sbatch_request).
      break;
    case SbatchOpt::input:
      input = v;
      break;
    case SbatchOpt::licenses:
      m.licenses = v;
      break;
    case SbatchOpt::mail_type: {
      values::MailTypes types = values::mail_type(v, m.mail_type);
      m.mail_type = types.types == "NONE" ? std::string() : std::move(types.types);
      for (const auto& word : types.ignored) {
        request.notices.emplace_back(
            "warning", fmt::format("--mail-type: '{}' is not a mail type; ignored as Slurm "
                                   "ignores it (BEGIN, END, FAIL, REQUEUE, ALL, TIME_LIMIT, "
                                   "TIME_LIMIT_50/80/90, ARRAY_TASKS, INVALID_DEPEND, STAGE_OUT, "
                                   "NONE)",
                                   word));
      }
      break;
    }
    case SbatchOpt::mail_user:
      m.mail_user = v;
      break;
    case SbatchOpt::mcs_label:
      record_as("mcs-label", v);
      break;
    case SbatchOpt::mem_bind:
      if (iequals(v, "help")) {
        request.help_requested = std::string(values::mem_bind_help());
        break;
      }
      values::mem_bind(v);
      m.mem_bind = v;
      break;
    case SbatchOpt::mincpus:
      m.mincpus = values::count(v, "--mincpus");
      break;
    case SbatchOpt::network:
      record_as("network", v);
      break;
    case SbatchOpt::no_kill:
      m.no_kill = values::no_kill(o.value);
      break;
    case SbatchOpt::nodefile:
      m.nodelist = node_file(v, "Invalid --nodefile node file");
      break;
    case SbatchOpt::nodelist:
      // Slurm reads a -w value with a '/' in it as a file of names, as --nodefile.
      m.nodelist =
          v.find('/') != std::string::npos ? node_file(v, "Invalid --nodelist node file") : v;
      break;
    case SbatchOpt::ntasks_per_core:
      m.ntasks_per_core = values::count(v, "--ntasks-per-core");
      break;
    case SbatchOpt::ntasks_per_gpu:
    case SbatchOpt::ntasks_per_tres: {
      const std::uint32_t n = values::count(
          v, id == SbatchOpt::ntasks_per_gpu ? "--ntasks-per-gpu" : "--ntasks-per-tres");
      if (m.ntasks_per_gpu && *m.ntasks_per_gpu != n && o.spelling.rfind("--", 0) == 0) {
        throw Error(Errc::usage,
                    fmt::format("Inconsistent values set to --ntasks-per-gpu={} and "
                                "--ntasks-per-tres={} ",
                                id == SbatchOpt::ntasks_per_gpu ? n : *m.ntasks_per_gpu,
                                id == SbatchOpt::ntasks_per_gpu ? *m.ntasks_per_gpu : n));
      }
      m.ntasks_per_gpu = n;
      break;
    }
    case SbatchOpt::ntasks_per_socket:
      m.ntasks_per_socket = values::count(v, "--ntasks-per-socket");
      break;
    case SbatchOpt::overcommit:
      m.overcommit = true;
      break;
    case SbatchOpt::oversubscribe:
      m.oversubscribe = true;
      if (m.exclusive == Exclusive::node) m.exclusive = Exclusive::unset;
      break;
    case SbatchOpt::power:
      record_as("power", v);
      break;
    case SbatchOpt::prefer:
      m.prefer = v;
      break;
    case SbatchOpt::profile:
      record_as("profile", values::profile(v));
      break;
    case SbatchOpt::propagate:
      m.propagate = values::propagate(o.value);
      break;
    case SbatchOpt::reboot:
      record_as("reboot", "yes");
      break;
    case SbatchOpt::reservation:
      m.reservation = v;
      break;
    case SbatchOpt::sockets_per_node:
      m.sockets_per_node = values::count(v, "--sockets-per-node");
      break;
    case SbatchOpt::spread_job:
      m.spread_job = true;
      break;
    case SbatchOpt::switches:
      // SBATCH_REQ_SWITCH gives the count and SBATCH_WAIT4SWITCH the wait.
      if (o.spelling == "SBATCH_WAIT4SWITCH") {
        const std::string current = m.recorded.count("switches") ? m.recorded["switches"] : "1";
        record_as("switches", values::switches(current.substr(0, current.find('@')) + "@" + v));
      } else {
        record_as("switches", values::switches(v));
      }
      break;
    case SbatchOpt::thread_spec:
      record_as("thread-spec", std::to_string(values::count(v, "--thread-spec")));
      m.recorded.erase("core-spec");
      break;
    case SbatchOpt::threads_per_core:
      m.threads_per_core = values::count(v, "--threads-per-core");
      break;
    case SbatchOpt::time_min:
      try {
        m.time_min = parse::time_limit(v);
      } catch (const Error&) {
        throw Error(Errc::usage, "Invalid --time-min specification");
      }
      break;
    case SbatchOpt::tmp:
      try {
        m.tmp_mb = parse::memory_mb(v);
      } catch (const Error&) {
        throw Error(Errc::usage, "Invalid --tmp specification");
      }
      break;
    case SbatchOpt::use_min_nodes:
      m.use_min_nodes = true;
      break;
    case SbatchOpt::wait_all_nodes:
      m.wait_all_nodes = values::wait_all_nodes(v);
      break;
    case SbatchOpt::wckey:
      m.wckey = v;
      break;
    default:
      // Every id of the table is handled above or in apply_core.
      record(v);
      break;
  }
}

}  // namespace stint::cli
