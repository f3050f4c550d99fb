#include "daemon/controller.hpp"

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>

#include "daemon/job_env.hpp"
#include "daemon/log.hpp"
#include "model/json.hpp"
#include "sched/sched.hpp"
#include "stepd/launch.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

extern char** environ;

namespace stint::daemon {
namespace {

std::string task_file(const Paths& paths, JobId id, std::uint32_t node_index,
                      std::string_view kind) {
  return fmt::format("{}/task-{}.{}.json", paths.spool(id), node_index, kind);
}

// How a batch job ended, from its (single) task's result.
JobState state_from_result(const TaskResult& r) {
  if (r.cancelled) return JobState::cancelled;
  if (r.timed_out) return JobState::timeout;
  if (r.launch_failed || r.exit_signal != 0 || r.exit_status != 0) return JobState::failed;
  return JobState::completed;
}

std::uint32_t owner_of(const std::string& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 ? st.st_uid : 0;
}

// The nodes of a batch job that run a task: the script runs on the first node
// only, as in Slurm; the others are the job's to use with srun.
std::uint32_t task_nodes(const Job&) { return 1; }

}  // namespace

Controller::Controller(Paths paths, Config config, std::unique_ptr<Store> store,
                       const Clock& clock)
    : m_paths(std::move(paths)),
      m_config(std::move(config)),
      m_store(std::move(store)),
      m_clock(clock),
      m_owner_uid(owner_of(m_paths.state_dir)) {}

bool Controller::is_operator(const Caller& caller) const {
  return caller.uid == 0 || caller.uid == m_owner_uid;
}

bool Controller::may_act_for(const Caller& caller, std::uint32_t uid) const {
  return caller.uid == uid || is_operator(caller);
}

Job* Controller::find_live(JobId id) {
  auto it = m_live.find(id);
  return it == m_live.end() ? nullptr : &it->second;
}

Job& Controller::live_job(JobId id) {
  if (Job* j = find_live(id)) return *j;
  throw Error(Errc::invalid_job_id, errc_slurm_message(Errc::invalid_job_id).data());
}

std::optional<Job> Controller::find_any(JobId id) {
  if (Job* j = find_live(id)) return *j;
  return m_store->job(id);
}

void Controller::save(const Job& job) {
  m_store->update_job(job);
  m_dirty = true;
}

JobId Controller::add_job(Job job) {
  // The id comes from the store inside the transaction that also inserts the
  // job, so a refused or failed submission burns no id.
  Store::Transaction tx(*m_store);
  job.id = m_store->allocate_job_id();
  std::string spool = m_paths.spool(job.id);
  fs::make_dirs(spool, 0700);
  try {
    fs::write_file_atomic(spool + "/script", job.spec.script, 0700);
    fs::write_file_atomic(spool + "/environment.json", to_json(job.spec).at("environment").dump(),
                          0600);
    if (::getuid() == 0 && job.user_id != 0) {
      // The job's owner reads their own script (scontrol write batch_script later).
      [[maybe_unused]] int rc = ::chown(spool.c_str(), job.user_id, job.group_id);
      rc = ::chown((spool + "/script").c_str(), job.user_id, job.group_id);
    }
    auto [out, err] = output_paths(job);
    job.stdout_path = out;
    job.stderr_path = err;
    m_store->insert_job(job);
    tx.commit();
  } catch (...) {
    std::system(fmt::format("rm -rf '{}'", spool).c_str());
    throw;
  }
  JobId id = job.id;
  // The live copy needs neither: the launcher reads them from the spool folder.
  job.spec.environment.clear();
  job.spec.script.clear();
  m_live.emplace(id, std::move(job));
  m_dirty = true;
  return id;
}

void Controller::finish(Job& job, JobState state) {
  job.state = state;
  job.end_time = now();
  if (job.start_time == k_no_time) job.start_time = job.end_time;
  if (state != JobState::completed && job.reason == Reason::none) {
    if (state == JobState::failed) job.reason = Reason::non_zero_exit_code;
    if (state == JobState::timeout) job.reason = Reason::time_limit;
    if (state == JobState::node_fail) job.reason = Reason::node_fail;
  }
  if (state == JobState::completed) job.reason = Reason::none;
  m_store->update_job(job);
  log_info("job {} ended {} exit {}", job.id, state_name(state),
           exit_code_text(job.exit_status, job.exit_signal));
  m_live.erase(job.id);
  m_dirty = true;
}

void Controller::cancel_running(Job& job) {
  for (const auto& a : job.alloc) {
    if (a.stepd_pid > 0 && proc::alive(a.stepd_pid, a.stepd_start_ticks))
      ::kill(static_cast<pid_t>(a.stepd_pid), SIGTERM);
  }
}

void Controller::signal_running(const Job& job, int signal) {
  for (const auto& a : job.alloc) {
    if (a.stepd_pid > 0 && proc::alive(a.stepd_pid, a.stepd_start_ticks)) {
      sigval value{};
      value.sival_int = signal;
      ::sigqueue(static_cast<pid_t>(a.stepd_pid), k_stepd_forward_signal, value);
    }
  }
}

void Controller::recover() {
  JobFilter active;
  active.active_only = true;
  for (auto& job : m_store->jobs(active)) {
    // The spec in the database has no environment and script; the launcher
    // reads them from the spool folder when it needs them.
    m_live.emplace(job.id, std::move(job));
  }
  log_info("recovered {} unfinished jobs", m_live.size());
  collect();
}

bool Controller::collect() {
  bool changed = false;
  std::vector<JobId> running;
  for (const auto& [id, job] : m_live) {
    if (job.state == JobState::running || job.state == JobState::completing) running.push_back(id);
  }
  for (JobId id : running) {
    Job& job = m_live.at(id);
    std::uint32_t n = std::min<std::uint32_t>(task_nodes(job), job.alloc.size());
    std::uint32_t ended = 0;
    bool lost = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (fs::exists(task_file(m_paths, id, i, "result"))) {
        ++ended;
        continue;
      }
      const NodeAlloc& a = job.alloc[i];
      if (!proc::alive(a.stepd_pid, a.stepd_start_ticks)) {
        // stepd writes its result before it exits: look once more.
        if (fs::exists(task_file(m_paths, id, i, "result"))) {
          ++ended;
        } else {
          lost = true;
        }
      }
    }
    if (lost) {
      log_error("job {}: stepd vanished without a result", id);
      job.exit_status = 0;
      job.exit_signal = 0;
      finish(job, JobState::node_fail);
      changed = true;
    } else if (ended == n) {
      complete_from_results(job);
      changed = true;
    }
  }
  return changed;
}

void Controller::stepd_exited(std::int64_t) { m_dirty = true; }

void Controller::complete_from_results(Job& job) {
  std::uint32_t n = std::min<std::uint32_t>(task_nodes(job), job.alloc.size());
  JobState state = JobState::completed;
  for (std::uint32_t i = 0; i < n; ++i) {
    TaskResult r;
    try {
      r = task_result_from_json_text(fs::read_file(task_file(m_paths, job.id, i, "result")));
    } catch (const Error& e) {
      log_error("job {}: unreadable result: {}", job.id, e.what());
      r.launch_failed = true;
      r.exit_status = 1;
    }
    if (i == 0) {
      job.exit_status = r.exit_status;
      job.exit_signal = r.exit_signal;
      if (r.launch_failed && r.exit_status == 0 && r.exit_signal == 0) job.exit_status = 1;
      state = state_from_result(r);
      if (r.start_time > 0) job.start_time = r.start_time;
    }
    job.user_cpu_us += r.user_cpu_us;
    job.sys_cpu_us += r.sys_cpu_us;
    job.max_rss_kb = std::max(job.max_rss_kb, r.max_rss_kb);
  }
  finish(job, state);  // `job` is gone from m_live after this
}

void Controller::schedule() {
  m_dirty = false;
  std::vector<const Job*> pending, active;
  for (const auto& [id, job] : m_live) {
    if (job.state == JobState::pending) pending.push_back(&job);
    if (is_active(job.state)) active.push_back(&job);
  }
  if (pending.empty()) return;
  sched::Cluster cluster(m_config.nodes());
  cluster.take_jobs(active);
  sched::Decision d = sched::schedule(pending, cluster, m_config, now());
  for (auto& [id, reason] : d.reasons) {
    Job& job = m_live.at(id);
    if (job.reason != reason) {
      job.reason = reason;
      m_store->update_job(job);
    }
  }
  for (auto& [id, alloc] : d.starts) launch(m_live.at(id), std::move(alloc));
}

void Controller::launch(Job& job, std::vector<NodeAlloc> alloc) {
  job.alloc = std::move(alloc);
  job.state = JobState::running;
  job.reason = Reason::none;
  job.start_time = now();
  auto [out, err] = output_paths(job);
  job.stdout_path = out;
  job.stderr_path = err;

  std::string spool = m_paths.spool(job.id);
  try {
    std::string env_text = fs::read_file(spool + "/environment.json");
    job.spec.environment = job_spec_from_json(nlohmann::json{
        {"environment", nlohmann::json::parse(env_text)}}).environment;
  } catch (const std::exception& e) {
    log_error("job {}: cannot read its environment: {}", job.id, e.what());
  }

  std::string stepd_exe;
  try {
    stepd_exe = find_helper("stint-stepd");
  } catch (const Error& e) {
    log_error("job {}: {}", job.id, e.what());
  }
  std::string host = proc::short_hostname();
  std::uint32_t n = std::min<std::uint32_t>(task_nodes(job), job.alloc.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    TaskLaunch l;
    l.job_id = job.id;
    l.node_index = i;
    l.node_name = job.alloc[i].node;
    l.argv.push_back(spool + "/script");
    for (const auto& a : job.spec.script_args) l.argv.push_back(a);
    l.env = job_environment(job, m_config, i, host);
    l.work_dir = work_dir(job);
    l.stdout_path = job.stdout_path;
    l.stderr_path = job.stderr_path;
    l.cpu_ids = job.alloc[i].cpu_ids;
    l.time_limit = job.time_limit;
    l.kill_wait = m_config.kill_wait();
    l.uid = job.user_id;
    l.gid = job.group_id;
    l.result_path = task_file(m_paths, job.id, i, "result");
    l.socket_path = m_paths.socket();
    std::string launch_path = task_file(m_paths, job.id, i, "launch");
    ::unlink(l.result_path.c_str());

    int rc = ENOENT;
    pid_t pid = 0;
    if (!stepd_exe.empty()) {
      fs::write_file_atomic(launch_path, to_json_text(l), 0600);
      posix_spawnattr_t attr;
      posix_spawnattr_init(&attr);
      // Its own session: the job outlives stintd, and stintd's signals are not its.
      posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
      sigset_t none;
      sigemptyset(&none);
      posix_spawnattr_setsigmask(&attr, &none);
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
      std::string log = m_paths.log_dir() + "/stepd.log";
      posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                       0600);
      posix_spawn_file_actions_adddup2(&actions, 1, 2);
      std::vector<std::string> args = {stepd_exe, launch_path};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      rc = ::posix_spawn(&pid, stepd_exe.c_str(), &actions, &attr, argv.data(), environ);
      posix_spawn_file_actions_destroy(&actions);
      posix_spawnattr_destroy(&attr);
    }
    if (rc != 0) {
      log_error("job {}: cannot start stint-stepd: {}", job.id, std::strerror(rc));
      TaskResult r;
      r.job_id = job.id;
      r.node_index = i;
      r.launch_failed = true;
      r.exit_status = 1;
      r.error = std::strerror(rc);
      r.start_time = r.end_time = now();
      fs::write_file_atomic(l.result_path, to_json_text(r), 0600);
      continue;
    }
    job.alloc[i].stepd_pid = pid;
    job.alloc[i].stepd_start_ticks = proc::start_ticks(pid).value_or(0);
  }
  job.spec.environment.clear();
  m_store->update_job(job);
  log_info("job {} started on {}", job.id, parse::compress_hostlist(job.node_names()));
}

}  // namespace stint::daemon
