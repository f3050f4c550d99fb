// srun: inside an allocation (SLURM_JOB_ID set, as in an sbatch script) it
// runs a job step: -n tasks over the job's nodes, each with SLURM_PROCID,
// SLURM_LOCALID, SLURM_NODEID and SLURM_STEP_ID, recorded by stintd as sacct's
// "12.0". Outside one it asks for an allocation of its own (a job whose script
// runs this same srun inside it, its output fed back here) and waits, as
// Slurm's srun does.

#include "cli/srun.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include <fmt/core.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/sbatch_options.hpp"
#include "cli/srun_io.hpp"
#include "cli/srun_multi_prog.hpp"
#include "cli/srun_pmi.hpp"
#include "cli/srun_tasks.hpp"
#include "daemon/node_hosts.hpp"
#include "process/run.hpp"
#include "rpc/client.hpp"
#include "sched/step.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"
#include "util/path_search.hpp"
#include "util/proc.hpp"

extern char** environ;

namespace stint::cli {
namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

void set(Env& env, const std::string& key, std::string value) {
  run::set_env(env, key, std::move(value));
}

void unset(Env& env, const std::string& key) {
  std::erase_if(env, [&](const auto& kv) { return kv.first == key; });
}

Env process_environment() {
  Env env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry = *e;
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env.emplace_back(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

std::string join(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (auto id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

/// "0-3", "0,2": task ids as Slurm lists them in its messages.
std::string task_ranges(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j > i ? fmt::format("{}-{}", ids[i], ids[j]) : std::to_string(ids[i]);
    i = j + 1;
  }
  return out;
}

/// The real CPUs that virtual CPU ids fold onto: the machine's CPUs as
/// `reference` (the job's stepd, unbound) sees them, as stepd folds them.
std::vector<int> fold_cpus(const std::vector<std::uint32_t>& ids, pid_t reference) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (reference <= 0 || ::sched_getaffinity(reference, sizeof set, &set) != 0) {
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return {};
  }
  std::vector<int> allowed;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) allowed.push_back(c);
  }
  std::vector<int> real;
  if (allowed.empty()) return real;
  for (auto id : ids) real.push_back(allowed[id % allowed.size()]);
  std::sort(real.begin(), real.end());
  real.erase(std::unique(real.begin(), real.end()), real.end());
  return real;
}

/// The running job an srun inside an allocation belongs to.
Job allocation(JobId id) {
  const Paths paths = default_paths();
  auto refuse = [&](Errc code) {
    return Error(code, fmt::format("Unable to confirm allocation for job {}: {}", id,
                                   errc_slurm_message(code)));
  };
  if (!Store::exists(paths.db())) throw refuse(Errc::invalid_job_id);
  auto store = Store::reader(paths.db());
  std::optional<Job> job = store->job(id);
  if (!job) throw refuse(Errc::invalid_job_id);
  const auto uid = static_cast<std::uint32_t>(::getuid());
  if (uid != 0 && uid != job->user_id) throw refuse(Errc::access_denied);
  if (job->state != JobState::running || job->alloc.empty()) throw refuse(Errc::job_state_invalid);
  return *job;
}

/// One task's environment: srun's own (the job's), then the step's variables.
Env task_environment(const Env& base, const Job& job, const sched::StepLayout& layout,
                     std::size_t node_index, std::uint32_t local, std::uint32_t step_id,
                     const SrunOptions& o) {
  Env env = base;
  const sched::StepNode& node = layout.nodes[node_index];
  const NodeAlloc& a = job.alloc[node.alloc_index];
  std::vector<std::string> names;
  std::vector<std::uint32_t> per_node, gtids;
  for (const auto& n : layout.nodes) {
    names.push_back(n.name);
    per_node.push_back(n.tasks);
  }
  gtids = node.task_ids;
  const std::string nodelist = parse::compress_hostlist(names);
  const std::string tasks_per_node = parse::compress_counts(per_node);
  // A step of another allocation (--jobid) is that job's.
  set(env, "SLURM_JOB_ID", std::to_string(job.id));
  set(env, "SLURM_JOBID", std::to_string(job.id));
  set(env, "SLURM_STEP_ID", std::to_string(step_id));
  set(env, "SLURM_STEPID", std::to_string(step_id));
  set(env, "SLURM_PROCID", std::to_string(node.task_ids.at(local)));
  set(env, "SLURM_LOCALID", std::to_string(local));
  set(env, "SLURM_NODEID", std::to_string(node_index));
  set(env, "SLURMD_NODENAME", node.name);
  set(env, "SLURM_TOPOLOGY_ADDR", node.name);
  set(env, "SLURM_GTIDS", join(gtids));
  set(env, "SLURM_STEP_NODELIST", nodelist);
  set(env, "SLURM_NODELIST", nodelist);
  set(env, "SLURM_STEP_NUM_NODES", std::to_string(layout.nodes.size()));
  set(env, "SLURM_STEP_NUM_TASKS", std::to_string(layout.tasks));
  if (!o.preserve_env) {
    set(env, "SLURM_NNODES", std::to_string(layout.nodes.size()));
    set(env, "SLURM_NTASKS", std::to_string(layout.tasks));
    set(env, "SLURM_NPROCS", std::to_string(layout.tasks));
  }
  if (!o.distribution.empty()) set(env, "SLURM_DISTRIBUTION", o.distribution);
  set(env, "SLURM_STEP_TASKS_PER_NODE", tasks_per_node);
  set(env, "SLURM_TASKS_PER_NODE", tasks_per_node);
  set(env, "SLURM_CPUS_ON_NODE", std::to_string(a.cpus));
  set(env, "SLURM_LAUNCH_NODE_IPADDR", "127.0.0.1");
  set(env, "SLURM_SRUN_COMM_HOST", "127.0.0.1");
  if (o.cpus_per_task) set(env, "SLURM_CPUS_PER_TASK", std::to_string(*o.cpus_per_task));
  if (!a.gpu_ids.empty()) {
    const std::string ids = join(a.gpu_ids);
    set(env, "SLURM_STEP_GPUS", ids);
    set(env, "SLURM_JOB_GPUS", ids);
    set(env, "GPU_DEVICE_ORDINAL", ids);
    set(env, "CUDA_VISIBLE_DEVICES", ids);
    set(env, "SLURM_GPUS_ON_NODE", std::to_string(a.gpu_ids.size()));
  } else {
    for (const char* k : {"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "SLURM_STEP_GPUS",
                          "SLURM_JOB_GPUS", "SLURM_GPUS_ON_NODE"})
      unset(env, k);
  }
  return env;
}

std::string signal_text(int sig) {
  const char* text = ::strsignal(sig);
  return text != nullptr ? text : fmt::format("Signal {}", sig);
}

/// Slurm's lines for the tasks that did not exit 0, grouped by node and
/// outcome: "srun: error: n1: tasks 0-1: Exited with exit code 3".
void report_failures(const std::vector<TaskOutcome>& outcomes, const std::string& voice) {
  if (!voice.empty()) {
    // One task, as run-exec runs it: in the tool's words. 126 and 127 are
    // the exec failure the task already said.
    for (const TaskOutcome& t : outcomes) {
      if (t.exit_signal != 0)
        fmt::print(stderr, "{}: command killed: {}\n", voice, signal_text(t.exit_signal));
      else if (t.exit_status != 0 && t.exit_status != 126 && t.exit_status != 127)
        fmt::print(stderr, "{}: command exited {}\n", voice, t.exit_status);
    }
    return;
  }
  std::map<std::pair<std::string, std::string>, std::vector<std::uint32_t>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const TaskOutcome& t : outcomes) {
    std::string what;
    if (t.exit_signal != 0) {
      what = signal_text(t.exit_signal);
    } else if (t.exit_status != 0) {
      what = fmt::format("Exited with exit code {}", t.exit_status);
    } else {
      continue;
    }
    auto key = std::make_pair(t.node, what);
    if (!groups.contains(key)) order.push_back(key);
    groups[key].push_back(t.task_id);
  }
  for (const auto& key : order) {
    const auto& ids = groups[key];
    fmt::print(stderr, "srun: error: {}: task{} {}: {}\n", key.first, ids.size() > 1 ? "s" : "",
               task_ranges(ids), key.second);
  }
}

std::string step_name(const SrunOptions& o) {
  if (o.job_name) return *o.job_name;
  const std::string& program = o.command.front();
  const std::size_t slash = program.rfind('/');
  return slash == std::string::npos ? program : program.substr(slash + 1);
}

std::string absolute(const std::string& dir, const std::string& path) {
  if (path.empty() || path.front() == '/') return path;
  return dir + "/" + path;
}

/// --cpu-bind as srun reads it.
struct CpuBinding {
  enum class Kind : std::uint8_t { cores, none, map, mask } kind = Kind::cores;
  std::vector<std::uint64_t> values;  ///< map_cpu's CPU ids, mask_cpu's masks
  bool verbose = false;
};

std::uint64_t binding_number(const std::string& word, bool hex) {
  try {
    std::size_t used = 0;
    const std::uint64_t v = std::stoull(word, &used, hex ? 16 : 10);
    if (used == word.size()) return v;
  } catch (const std::exception&) {
    // refused below
  }
  throw Error(Errc::invalid_argument, fmt::format("Invalid --cpu-bind argument: {}", word));
}

CpuBinding cpu_binding(const std::string& spec) {
  CpuBinding b;
  std::string rest = spec;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string word = rest.substr(0, comma);
    if (word == "verbose" || word == "v") {
      b.verbose = true;
    } else if (word != "quiet" && word != "q") {
      break;
    }
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  if (rest.empty() || rest == "cores" || rest == "threads" || rest == "sockets" ||
      rest == "ldoms" || rest == "rank" || rest == "rank_ldom")
    return b;
  if (rest == "none" || rest == "no") {
    b.kind = CpuBinding::Kind::none;
    return b;
  }
  const bool map = rest.rfind("map_cpu:", 0) == 0;
  const bool mask = rest.rfind("mask_cpu:", 0) == 0;
  if (!map && !mask)
    throw Error(Errc::invalid_argument, fmt::format("Invalid --cpu-bind argument: {}", spec));
  b.kind = map ? CpuBinding::Kind::map : CpuBinding::Kind::mask;
  std::string list = rest.substr(map ? 8 : 9);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    std::string word = list.substr(start, comma == std::string::npos ? comma : comma - start);
    if (mask && word.rfind("0x", 0) == 0) word = word.substr(2);
    b.values.push_back(binding_number(word, mask || word.rfind("0x", 0) == 0));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (b.values.empty())
    throw Error(Errc::invalid_argument, fmt::format("Invalid --cpu-bind argument: {}", spec));
  return b;
}

/// A task's real CPUs: its own share of its node's (the default), none, or
/// map_cpu's/mask_cpu's choice by its rank on the node, as the node's CPU ids.
std::vector<int> bound_cpus(const CpuBinding& b, const std::vector<std::uint32_t>& share,
                            std::uint32_t local, pid_t stepd) {
  switch (b.kind) {
    case CpuBinding::Kind::none:
      return {};
    case CpuBinding::Kind::map:
      return fold_cpus({static_cast<std::uint32_t>(b.values[local % b.values.size()])}, stepd);
    case CpuBinding::Kind::mask: {
      std::vector<std::uint32_t> ids;
      const std::uint64_t m = b.values[local % b.values.size()];
      for (std::uint32_t c = 0; c < 64; ++c) {
        if ((m >> c) & 1) ids.push_back(c);
      }
      return fold_cpus(ids, stepd);
    }
    case CpuBinding::Kind::cores:
      break;
  }
  return fold_cpus(share, stepd);
}

/// --prolog/--epilog: the program with the step's command as its arguments,
/// with srun's streams, in its process group; its exit status (127 when it
/// cannot start, as a shell's).
int run_program(const std::string& program, const std::vector<std::string>& command) {
  process::Spec spec;
  spec.argv = {program};
  spec.argv.insert(spec.argv.end(), command.begin(), command.end());
  spec.inherit_stdin = true;
  spec.stdout_to = process::Output::inherited;
  spec.stderr_to = process::Output::inherited;
  spec.new_process_group = false;
  try {
    return process::run(spec).exit_code;
  } catch (const Error&) {
    return 127;
  }
}

/// --bcast: the program copied to the node (every node is this machine: one
/// copy per node name, as each node of a cluster has its own), run from there.
std::vector<std::string> broadcast(const SrunOptions& o, const std::string& node, JobId job,
                                   std::uint32_t step, const std::string& cwd) {
  std::string program = o.command.front();
  if (program.find('/') == std::string::npos) {
    if (std::string found = proc::find_on_path(program); !found.empty()) program = found;
  }
  std::string dest = o.bcast->empty() ? cwd : absolute(cwd, *o.bcast);
  struct stat st {};
  if (::stat(dest.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    dest += fmt::format("/slurm_bcast_{}.{}_{}", job, step, node);
  std::error_code ec;
  std::filesystem::copy_file(program, dest, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec)
    throw Error(Errc::io,
                fmt::format("--bcast: cannot copy {} to {}: {}", program, dest, ec.message()));
  ::chmod(dest.c_str(), 0700);
  std::vector<std::string> argv = o.command;
  argv.front() = dest;
  return argv;
}

sched::StepLayout layout_of(const nlohmann::json& j) {
  sched::StepLayout layout;
  for (const auto& n : j.at("nodes")) {
    sched::StepNode node;
    node.alloc_index = n.at("alloc_index").get<std::size_t>();
    node.name = n.at("name").get<std::string>();
    node.task_ids = n.at("task_ids").get<std::vector<std::uint32_t>>();
    node.tasks = n.at("tasks").get<std::uint32_t>();
    node.task_cpus = n.at("task_cpus").get<std::vector<std::vector<std::uint32_t>>>();
    layout.nodes.push_back(std::move(node));
  }
  layout.tasks = j.at("tasks").get<std::uint32_t>();
  layout.warning = j.value("warning", std::string());
  return layout;
}

/// Asks stintd for the step: it lays the tasks out over the CPUs no other
/// step holds. While the allocation's CPUs are all held, srun waits and asks
/// again, as Slurm's srun does ("step creation temporarily disabled").
nlohmann::json begin_step(const Paths& paths, const Job& job, const SrunOptions& o) {
  nlohmann::json request = {{"cpus_per_task", o.cpus_per_task.value_or(job.req.cpus_per_task)},
                            {"exact", o.exact},
                            {"overlap", o.overlap},
                            {"relative", o.relative.value_or(0)},
                            {"distribution", o.distribution},
                            {"overcommit", o.overcommit}};
  if (o.ntasks) request["tasks"] = *o.ntasks;
  if (o.time_limit && *o.time_limit != k_infinite) request["time_limit"] = *o.time_limit;
  if (o.nodes) request["nodes"] = *o.nodes;
  if (o.ntasks_per_node) request["tasks_per_node"] = *o.ntasks_per_node;
  if (o.nodelist) request["node_names"] = parse::expand_hostlist(*o.nodelist);
  const nlohmann::json message = {
      {"op", "step_begin"}, {"job_id", job.id}, {"name", step_name(o)}, {"request", request}};
  bool waited = false;
  std::chrono::milliseconds delay{50};
  const auto asked = std::chrono::steady_clock::now();
  for (;;) {
    try {
      nlohmann::json begun = rpc::call(paths, message);
      if (waited && !o.quiet) fmt::print(stderr, "srun: Step created for job {}\n", job.id);
      return begun;
    } catch (const Error& e) {
      const bool given_up = o.immediate && std::chrono::steady_clock::now() - asked >=
                                               std::chrono::seconds(*o.immediate);
      if (e.code() != Errc::nodes_busy || given_up)
        throw Error(e.code(), fmt::format("Unable to create step for job {}: {}", job.display_id(),
                                          e.what()));
      if (!waited && !o.quiet)
        fmt::print(stderr, "srun: Job {} step creation temporarily disabled, retrying ({})\n",
                   job.id, e.what());
      waited = true;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(500));
  }
}

}  // namespace

int run_step(const SrunOptions& options, JobId job_id) {
  const Job job = allocation(job_id);
  const Paths paths = default_paths();
  SrunOptions o = options;
  // Neither --mpi nor SLURM_MPI_TYPE: slurm.conf's MpiDefault.
  if (o.mpi.empty()) o.mpi = query::read_config(paths).conf("MpiDefault").value_or("none");
  std::string multi_prog_text;
  if (o.multi_prog) {
    try {
      multi_prog_text = fs::read_file(o.command.front());
    } catch (const Error&) {
      throw Error(Errc::invalid_argument,
                  fmt::format("Unable to open configuration file {}", o.command.front()));
    }
    if (!o.ntasks) {
      if (const std::uint32_t n = multi_prog_task_count(multi_prog_text); n > 0) o.ntasks = n;
    }
  }
  const CpuBinding binding = cpu_binding(o.cpu_bind);
  if (!o.prolog.empty() && o.prolog != "none") {
    if (const int rc = run_program(o.prolog, o.command); rc != 0)
      throw Error(Errc::invalid_argument, fmt::format("srun prolog failed status={}", rc));
  }
  const nlohmann::json begun = begin_step(paths, job, o);
  const sched::StepLayout layout = layout_of(begun.at("layout"));
  if (!layout.warning.empty() && !o.quiet)
    fmt::print(stderr, "srun: warning: {}\n", layout.warning);
  const auto step_id = begun.at("step_id").get<std::uint32_t>();
  if (o.verbose > 0) {
    // Slurm's srun -v: the allocation, then the tasks each node starts.
    std::vector<std::string> names;
    std::vector<std::uint32_t> cpus;
    for (const NodeAlloc& a : job.alloc) {
      names.push_back(a.node);
      cpus.push_back(a.cpus);
    }
    fmt::print(stderr, "srun: jobid {}: nodes({}):`{}', cpu counts: {}\n", job.id, job.alloc.size(),
               parse::compress_hostlist(names), parse::compress_counts(cpus));
    for (const sched::StepNode& n : layout.nodes) {
      const std::string ids = task_ranges(n.task_ids);
      fmt::print(stderr, "srun: launching StepId={}.{} on host {}, {} tasks: {}\n", job.id, step_id,
                 n.name, n.tasks, n.task_ids.size() > 1 ? "[" + ids + "]" : ids);
    }
  }
  // From here on the step exists: a failure closes its record.
  auto end_failed = [&] {
    rpc::call(paths,
              {{"op", "step_end"},
               {"job_id", job.id},
               {"step_id", step_id},
               {"exit_status", 1},
               {"exit_signal", 0}},
              rpc::AutoStart::no);
  };
  std::vector<std::vector<std::string>> task_argv;
  try {
    if (o.multi_prog)
      task_argv = multi_prog_commands(multi_prog_text, o.command.front(), layout.tasks);
  } catch (const Error&) {
    end_failed();
    throw;
  }

  // --mpi=pmi2: the ranks find each other through srun, as through
  // slurmstepd's PMI server on a cluster.
  std::unique_ptr<PmiServer> pmi;
  if (o.mpi == "pmi2") {
    try {
      pmi = std::make_unique<PmiServer>(layout.tasks, fmt::format("{}.{}", job.id, step_id),
                                        sched::process_mapping(layout));
    } catch (const Error&) {
      end_failed();
      throw;
    }
    // MPI_Abort ends the step as Slurm's does: the tasks get srun's SIGTERM.
    pmi->on_abort([](int) { ::kill(::getpid(), SIGTERM); });
  }

  Env base = process_environment();
  if (!o.export_spec.empty()) base = export_environment(o.export_spec, base);
  for (const auto& [k, v] : o.environment) set(base, k, v);
  const pid_t stepd = static_cast<pid_t>(job.alloc.front().stepd_pid);
  std::string cwd = o.chdir.value_or("");
  if (cwd.empty()) {
    std::vector<char> buf(4096);
    if (::getcwd(buf.data(), buf.size()) != nullptr) cwd = buf.data();
  }
  // srun in a task of a declared node launches from that node's address.
  std::string launch_addr;
  if (const char* here = std::getenv("SLURMD_NODENAME"); here && *here) {
    try {
      launch_addr =
          daemon::address_of(fs::read_file(daemon::node_hosts_path(paths.state_dir)), here);
    } catch (const Error&) {
      // No hosts file: the machine itself is the node.
    }
  }
  std::vector<StepTask> tasks;
  for (std::size_t k = 0; k < layout.nodes.size(); ++k) {
    const sched::StepNode& node = layout.nodes[k];
    for (std::uint32_t l = 0; l < node.tasks; ++l) {
      StepTask t;
      t.task_id = node.task_ids.at(l);
      t.node = node.name;
      t.cpus = bound_cpus(binding, node.task_cpus[l], l, stepd);
      if (o.multi_prog) t.argv = task_argv[t.task_id];
      if (o.bcast) t.argv = broadcast(o, node.name, job.id, step_id, cwd);
      t.env = task_environment(base, job, layout, k, l, step_id, o);
      if (!launch_addr.empty()) {
        set(t.env, "SLURM_LAUNCH_NODE_IPADDR", launch_addr);
        set(t.env, "SLURM_SRUN_COMM_HOST", launch_addr);
      }
      if (pmi) {
        for (auto& [key, value] : pmi->task_environment(t.task_id)) set(t.env, key, value);
        t.inherited_fd = pmi->task_fd(t.task_id);
      }
      parse::PatternValues v;
      v.job_id = job.id;
      v.array_job_id = job.is_array_task() ? job.array_job_id : job.id;
      v.array_task_id = job.array_task_id;
      v.job_name = job.spec.name;
      v.user = job.user_name;
      v.node = node.name;
      v.step_id = step_id;
      v.task_id = t.task_id;
      v.node_index = static_cast<std::uint32_t>(k);
      if (o.output) t.stdout_path = absolute(cwd, parse::expand_pattern(*o.output, v));
      if (o.error) t.stderr_path = absolute(cwd, parse::expand_pattern(*o.error, v));
      // -i: all, none, one task's id, or a file (a pattern: %t, %n, %j...)
      // each task reads.
      if (o.input == "all" || o.input == "none") {
        t.takes_stdin = o.input == "all";
      } else if (o.input.find_first_not_of("0123456789") == std::string::npos) {
        t.takes_stdin = std::strtoull(o.input.c_str(), nullptr, 10) == t.task_id;
      } else {
        t.stdin_path = absolute(cwd, parse::expand_pattern(o.input, v));
      }
      tasks.push_back(std::move(t));
    }
  }
  StepOptions so;
  so.argv = o.command;
  so.cpu_bind_verbose = binding.verbose;
  so.task_prolog = o.task_prolog;
  so.task_epilog = o.task_epilog;
  // Not given: slurm.conf's KillOnBadExit and WaitTime, as Slurm's srun
  // takes them from the controller.
  std::optional<Config> config;
  if (!o.wait_after_first || !o.kill_on_bad_exit) config = query::read_config(paths);
  so.wait_after_first = o.wait_after_first.value_or(
      config ? static_cast<std::uint32_t>(config->conf_int("WaitTime")) : 0);
  so.step_label = fmt::format("{}.{}", job.id, step_id);
  so.io_socket = step_io_socket_name(paths.state_dir, job.id, step_id);
  so.voice = o.voice;
  so.hosts_file = daemon::node_hosts_path(paths.state_dir);
  so.work_dir = o.chdir.value_or("");
  so.label = o.label;
  so.unbuffered = o.unbuffered;
  so.kill_on_bad_exit =
      o.kill_on_bad_exit.value_or(config && config->conf_int("KillOnBadExit") != 0);
  so.open_append = o.open_append;
  so.group_signaller = stepd;
  so.pty = o.pty;
  // Inside the batch script srun shares the job's session (stepd's).
  so.own_groups = stepd <= 0 || ::getsid(0) != ::getsid(stepd);
  so.kill_wait = [paths] { return static_cast<int>(query::read_config(paths).kill_wait()); };
  std::shared_ptr<Store> store = Store::reader(paths.db());
  // The step's own time limit is in its record, where scontrol update
  // StepId= changes it; srun ends the tasks once it has passed, as
  // slurmstepd does, and the step ends TIMEOUT.
  auto timed_out = std::make_shared<bool>(false);
  // The job's end, or the step's own (scancel 12.0 closes its record).
  so.allocation_ended = [store, id = job.id, attempt = job.restart_count, step_id,
                         timed_out]() -> std::optional<std::string> {
    const std::optional<Job> j = store->job(id);
    if (j && !is_terminal(j->state)) {
      for (const JobStep& s : store->steps({id})) {
        if (s.attempt != attempt || s.step_id != step_id) continue;
        if (s.state != JobState::running) return "";
        if (s.time_limit != k_infinite && wall_now() >= s.start_time + s.time_limit) {
          *timed_out = true;
          return " DUE TO TIME LIMIT";
        }
      }
      return std::nullopt;
    }
    return j && j->state == JobState::timeout ? " DUE TO TIME LIMIT" : "";
  };

  if (pmi) so.on_launched = [&pmi] { pmi->start(); };

  std::vector<TaskOutcome> outcomes;
  try {
    outcomes = run_step_tasks(tasks, so);
  } catch (const Error&) {
    end_failed();
    throw;
  }
  pmi.reset();
  if (!o.epilog.empty() && o.epilog != "none") (void)run_program(o.epilog, o.command);

  int exit_status = 0, exit_signal = 0;
  std::uint64_t user_us = 0, sys_us = 0, rss = 0;
  for (const TaskOutcome& t : outcomes) {
    exit_status = std::max(exit_status, t.exit_status);
    exit_signal = std::max(exit_signal, t.exit_signal);
    user_us += t.user_cpu_us;
    sys_us += t.sys_cpu_us;
    rss = std::max(rss, t.max_rss_kb);
  }
  report_failures(outcomes, o.voice);
  try {
    rpc::call(paths,
              {{"op", "step_end"},
               {"job_id", job.id},
               {"step_id", step_id},
               {"exit_status", exit_status},
               {"exit_signal", exit_signal},
               {"timed_out", *timed_out},
               {"user_cpu_us", user_us},
               {"sys_cpu_us", sys_us},
               {"max_rss_kb", rss}},
              rpc::AutoStart::no);
  } catch (const Error&) {
    // The job ended under the step (scancel, its time limit): stintd has
    // closed the step's record already.
  }
  // Slurm's srun: the highest exit code, or 128 + the highest signal.
  return exit_signal != 0 ? 128 + exit_signal : exit_status;
}

}  // namespace stint::cli
