// Starting a job: a launch file per task, then stint-stepd in its own session.

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>
#include <tuple>

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/run.hpp>

#include "daemon/controller.hpp"
#include "daemon/job_env.hpp"
#include "daemon/launch_options.hpp"
#include "daemon/log.hpp"
#include "daemon/node_hosts.hpp"
#include "daemon/node_ssh.hpp"
#include "daemon/site_scripts.hpp"
#include "daemon/spool.hpp"
#include "daemon/stepd_forks.hpp"
#include "model/json.hpp"
#include "run/secret_env.hpp"
#include "store/scripts.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

// Whether nothing on this machine holds TCP `port` (a run's ports must be
// usable by its tasks, not only unclaimed by other runs).
bool port_is_free(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return true;
  // A port an ended run's connections left in TIME_WAIT is free to listen on.
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return free;
}

}  // namespace

std::set<std::uint16_t> Controller::ports_in_use() const {
  std::set<std::uint16_t> taken;
  for (const auto& [id, j] : m_live) {
    for (const auto& a : j.alloc) {
      taken.insert(a.ports.begin(), a.ports.end());
      if (a.ssh_port != 0) taken.insert(a.ssh_port);
    }
  }
  return taken;
}

std::uint32_t Controller::ports_per_node(const RunInfo& run) const {
  return run.ports_per_node + (run.backend.empty() && node_sshd(m_config) ? 1 : 0);
}

run::PortRange Controller::run_ports() const {
  return run::parse_port_range(m_config.conf("StintRunPorts").value_or("20000-29999"));
}

std::uint32_t Controller::next_run_number(const std::string& project) {
  return m_store->max_run_number(project) + 1;
}

void Controller::reserve_run_ports(Job& job) {
  const std::uint32_t per_node = ports_per_node(*job.spec.run);
  const bool ssh = per_node > job.spec.run->ports_per_node;
  auto ports = run::reserve_ports(run_ports(), static_cast<std::uint32_t>(job.alloc.size()),
                                  per_node, ports_in_use(), port_is_free);
  for (std::size_t i = 0; i < job.alloc.size(); ++i) {
    // The node's sshd takes the last: its TCP ports stay the lowest, as
    // without SSH.
    if (ssh) {
      job.alloc[i].ssh_port = ports[i].back();
      ports[i].pop_back();
    }
    job.alloc[i].ports = std::move(ports[i]);
  }
}

void Controller::start_node_sshds(Job& job, const std::vector<Environment>& envs) {
  const bool wanted = std::any_of(job.alloc.begin(), job.alloc.end(),
                                  [](const NodeAlloc& a) { return a.ssh_port != 0; });
  if (!wanted) return;
  const auto sshd = node_sshd(m_config);
  // A node whose sshd does not start runs all the same, without SSH (its
  // port is given back): SSH is a way in, not part of the run.
  auto without_ssh = [&](const std::string& why) {
    log_error("job {}: node SSH not served: {}", job.display_id(), why);
    for (auto& a : job.alloc) a.ssh_port = 0;
  };
  if (!sshd) return without_ssh("StintRunSshd is not an executable");
  try {
    prepare_ssh_dir(m_paths, job);
  } catch (const Error& e) {
    return without_ssh(e.what());
  }
  for (std::uint32_t i = 0; i < job.alloc.size() && i < envs.size(); ++i) {
    NodeAlloc& a = job.alloc[i];
    if (a.ssh_port == 0) continue;
    try {
      a.sshd_pid =
          start_node_sshd(m_paths, job, i, *sshd, node_session_env(envs[i], job.spec.run->env));
      a.sshd_start_ticks = proc::start_ticks(a.sshd_pid).value_or(0);
    } catch (const Error& e) {
      log_error("job {}: node {}: SSH not served: {}", job.display_id(), i, e.what());
      a.ssh_port = 0;
    }
  }
}

void Controller::release_node_ssh(Job& job) {
  bool had = false;
  for (auto& a : job.alloc) {
    if (a.ssh_port == 0) continue;
    had = true;
    stop_node_sshd(a.sshd_pid, a.sshd_start_ticks);
    a.sshd_pid = 0;
    a.sshd_start_ticks = 0;
  }
  if (had) remove_ssh_dir(m_paths, job.id);
}

std::tuple<std::int64_t, std::uint64_t, int> Controller::start_stepd(const std::string& exe,
                                                                     JobId id, std::uint32_t task) {
  const std::string launch_path = task_file(m_paths, id, task, "launch");
  const std::string log_path = m_paths.log_dir() + "/stepd.log";
  if (!m_stepd_forks) {
    const std::size_t longest = task_file(m_paths, std::numeric_limits<JobId>::max(),
                                          std::numeric_limits<std::uint32_t>::max(), "launch")
                                    .size();
    m_stepd_forks = std::make_unique<StepdForks>(log_path, longest);
  }
  const StepdForks::Start s =
      m_stepd_forks->start(exe, launch_path, [this](std::int64_t pid) { stepd_exited(pid); });
  switch (s.outcome) {
    case StepdForks::Outcome::started:
      return {s.pid, s.start_ticks, 0};
    case StepdForks::Outcome::failed:
      return {0, 0, s.error};
    case StepdForks::Outcome::unknown:
      return {0, 0, 0};
    case StepdForks::Outcome::not_sent:
      break;
  }
  auto [pid, rc] = spawn_stepd({exe, launch_path}, log_path);
  if (rc != 0) return {0, 0, rc};
  return {pid, proc::start_ticks(pid).value_or(0), 0};
}

int Controller::stepd_forks_fd() const { return m_stepd_forks ? m_stepd_forks->fd() : -1; }

void Controller::read_stepd_exits() {
  if (m_stepd_forks) m_stepd_forks->read_exits([this](std::int64_t pid) { stepd_exited(pid); });
}

void Controller::launch(Job& job, std::vector<NodeAlloc> alloc, bool& recorded) {
  recorded = false;
  job.alloc = std::move(alloc);
  job.state = JobState::running;
  m_maybe_active.insert(job.id);
  job.reason = Reason::none;
  job.state_desc.clear();
  job.start_time = now();
  if (job.spec.run) {
    try {
      reserve_run_ports(job);
    } catch (const Error& e) {
      // Checked at submit; ports taken since by others leave the run without.
      log_error("job {}: {}", job.display_id(), e.what());
    }
  }
  auto [out, err] = output_paths(job);
  job.stdout_path = out;
  job.stderr_path = err;
  // What an earlier attempt left (result, launch and claimed files) goes
  // first, so that none is taken for this attempt's.
  for (std::uint32_t i = 0; i < task_count(job); ++i) {
    job.alloc[i].stepd_pid = 0;
    ::unlink(task_file(m_paths, job.id, i, "result").c_str());
    ::unlink(task_file(m_paths, job.id, i, "launch").c_str());
    ::unlink(task_file(m_paths, job.id, i, "claimed").c_str());
  }

  // Every file the start needs is written before the job's RUNNING row: on a
  // full disk a start that cannot write one (it throws) has written nothing
  // to the database, where writing RUNNING and then PENDING again at each
  // pass took, commit after commit, the room a disk freed a little at a time.
  // A script or environment that is not kept, or not readable, fails every
  // node's launch, logged: the job ends FAILED.
  bool script_kept = false;
  std::string script_path;
  if (std::optional<SubmittedScript> submitted =
          submitted_script(scripts(), m_paths, script_id(job))) {
    try {
      job.spec.environment =
          job_spec_from_json(
              nlohmann::json{{"environment", nlohmann::json::parse(submitted->environment)}})
              .environment;
      // A job read back from stint.db has its run variables' names only.
      if (job.spec.run) run::fill_env_values(job.spec.run->env, job.spec.environment);
      script_kept = true;
    } catch (const std::exception& e) {
      log_error("job {}: its kept environment cannot be read: {}", job.display_id(), e.what());
    }
    if (script_kept) script_path = place_script(m_paths, script_id(job), submitted->script, job);
  } else {
    log_error("job {}: no script or environment is kept for it", job.display_id());
  }

  std::string stepd_exe;
  try {
    stepd_exe = find_helper("stint-stepd");
  } catch (const Error& e) {
    log_error("job {}: {}", job.display_id(), e.what());
  }
  if (!script_kept) stepd_exe.clear();  // every node fails to launch, with the reason logged
  // A run with an image runs each node's command in it: a directory image
  // with bubblewrap, an OCI image with podman.
  std::string container_tool;
  if (job.spec.run && !job.spec.run->image.empty()) {
    try {
      container_tool =
          find_helper(run::is_directory_image(job.spec.run->image) ? "bwrap" : "podman");
    } catch (const Error& e) {
      log_error("job {}: image {}: {}", job.display_id(), job.spec.run->image, e.what());
      stepd_exe.clear();  // every node fails to launch, with the reason logged
    }
  }
  fs::make_dirs(m_paths.spool(job.id), 0700);
  std::string host = proc::short_hostname();
  std::vector<Environment> node_envs;
  for (std::uint32_t i = 0; i < task_count(job); ++i)
    node_envs.push_back(job_environment(job, m_config, i, host, m_paths.state_dir));
  if (job.is_het_leader()) {
    // Its components took their nodes just before it (Controller::schedule).
    std::vector<const Job*> components{&job};
    for (const Job* component : het_components(job.id)) components.push_back(component);
    for (Environment& env : node_envs) add_het_environment(env, components);
  }
  // Once per job, not per node: a container has a host name and /etc/hosts
  // of its own making.
  const bool node_view = container_tool.empty() && m_config.has_virtual_nodes(host);
  // A run's nodes are watched for idle GPUs (CPUs without them); UNLIMITED
  // is k_infinite, below 0: not watched.
  const Seconds idle_after = job.spec.run ? m_config.conf_time("StintIdleRunAfter") : 0;
  std::vector<TaskLaunch> launches;
  for (std::uint32_t i = 0; i < task_count(job); ++i) {
    TaskLaunch& l = launches.emplace_back();
    l.job_id = job.id;
    l.node_index = i;
    l.node_name = job.alloc[i].node;
    l.work_dir = work_dir(job);
    l.env = node_envs[i];
    add_launch_options(l, job, m_config);  // rlimits, --get-user-env
    if (!container_tool.empty()) {
      std::vector<std::pair<std::string, std::string>> binds;
      for (const auto& [name, mount] : job.spec.run->storages)
        binds.emplace_back(run::storage_path(m_paths.state_dir, name),
                           run::storage_mount(StorageMount{name, mount}));
      const RunInfo& r = *job.spec.run;
      if (run::is_directory_image(r.image)) {
        l.argv = run::bubblewrap_argv(container_tool, r.image, l.work_dir, r.command, binds);
      } else {
        std::vector<std::string> names;
        for (const auto& [name, value] : l.env) names.push_back(name);
        // Job ids are per state directory: its hash keeps two stints apart.
        const std::string name =
            fmt::format("stint-{}-{}-{:06x}", job.id, i,
                        std::hash<std::string>{}(m_paths.state_dir) & 0xffffffU);
        l.argv =
            run::podman_argv(container_tool, r.image, name, l.work_dir, r.command, binds, names);
      }
    } else {
      l.argv.push_back(script_path);
      for (const auto& a : job.spec.script_args) l.argv.push_back(a);
    }
    std::tie(l.stdout_path, l.stderr_path) = output_paths(job, i);
    l.stdin_path = input_path(job);
    // As slurmstepd: --open-mode, else JobFileAppend (0, truncate, by
    // default), for a requeued job's next attempt as for its first.
    l.open_append = job.spec.open_append.value_or(m_config.conf_int("JobFileAppend") == 1);
    l.cpu_ids = job.alloc[i].cpu_ids;
    l.mem_limit_mb = job.alloc[i].mem_mb;
    l.signal = job.spec.signal;
    l.time_limit = job.time_limit;
    l.kill_wait = m_config.kill_wait();
    l.unkillable_timeout = m_config.conf_int("UnkillableStepTimeout");
    l.uid = job.user_id;
    l.gid = job.group_id;
    l.result_path = task_file(m_paths, job.id, i, "result");
    l.socket_path = m_paths.socket();
    if (idle_after > 0) {
      l.idle_after = idle_after;
      l.activity_path = task_file(m_paths, job.id, i, "activity");
      l.gpu_ids = job.alloc[i].gpu_ids;
    }
    if (node_view) {
      l.node_view = true;
      l.hosts_file = node_hosts_path(m_paths.state_dir);
    }
    l.prolog = site_scripts(m_config, true);
    l.epilog = site_scripts(m_config, false);
    if (!l.prolog.empty() || !l.epilog.empty()) {
      l.script_env = script_environment(job, m_config);
      // The batch task's stepd runs the prolog and epilog of every node of
      // the job (they have no stepd of their own).
      l.script_nodes = job.node_names();
      // Slurm's 65534 (its default) means no limit.
      const Seconds t = m_config.conf_int("PrologEpilogTimeout");
      l.script_timeout = t <= 0 || t >= 65534 ? k_infinite : t;
    }
    // Not synced: after a power cut no stepd runs, and recovery treats a
    // launch file that is gone like one it withdrew (withdraw_start).
    if (!stepd_exe.empty())
      fs::write_file_atomic(task_file(m_paths, job.id, i, "launch"), to_json_text(l), 0600,
                            fs::Sync::no);
  }

  // RUNNING goes to the database before any stepd exists: a stintd killed
  // after the spawn must not find the job PENDING and start it a second time.
  // Killed before the pids below are saved, its successor finds each stepd
  // by its command line, or withdraws a start no stepd has claimed
  // (Controller::collect).
  m_store->update_job(job);
  recorded = true;
  if (job.spec.run) start_node_sshds(job, node_envs);
  for (std::uint32_t i = 0; i < task_count(job); ++i) {
    const TaskLaunch& l = launches[i];
    int rc = ENOENT;
    std::int64_t pid = 0;
    std::uint64_t start_ticks = 0;
    if (!stepd_exe.empty()) std::tie(pid, start_ticks, rc) = start_stepd(stepd_exe, job.id, i);
    if (rc != 0) {
      log_error("job {}: cannot start stint-stepd: {}", job.display_id(), std::strerror(rc));
      TaskResult r;
      r.job_id = job.id;
      r.node_index = i;
      r.launch_failed = true;
      r.exit_status = 1;
      r.error = fmt::format("cannot start stint-stepd: {}", std::strerror(rc));
      r.start_time = r.end_time = now();
      fs::write_file_atomic(l.result_path, to_json_text(r), 0600);
      continue;
    }
    // 0 when the fork server did not answer: collect() finds the stepd by
    // its command line, or withdraws the start.
    job.alloc[i].stepd_pid = pid;
    job.alloc[i].stepd_start_ticks = start_ticks;
  }
  job.spec.environment = {};  // freed: scripts.db keeps it
  m_store->update_job(job);
  log_info("job {} started on {}", job.display_id(), parse::compress_hostlist(job.node_names()));
}

}  // namespace stint::daemon
