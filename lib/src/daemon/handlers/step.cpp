// step_begin and step_end: srun's reports of the job steps it runs inside an
// allocation (docs/protocol.md). The tasks are srun's own children; stintd
// only numbers the steps and keeps their records.

#include <algorithm>
#include <csignal>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "daemon/handlers/handlers.hpp"

namespace stint::daemon {
namespace {

// The running job a step belongs to, if the caller may add steps to it.
Job& step_job(Controller& c, const Json& req, const Caller& caller) {
  const JobId id = req.at("job_id").get<JobId>();
  Job* job = c.find_live(id);
  if (job == nullptr) {
    const bool existed = c.find_any(id).has_value();
    throw Error(
        existed ? Errc::job_state_invalid : Errc::invalid_job_id,
        std::string(errc_slurm_message(existed ? Errc::job_state_invalid : Errc::invalid_job_id)));
  }
  if (!c.may_act_for(caller, job->user_id))
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  if (job->state != JobState::running)
    throw Error(Errc::job_state_invalid, fmt::format("Job {} is not running", job->display_id()));
  return *job;
}

// How a step ended, from its worst task: Slurm records a step whose task was
// killed (scancel, a time limit, kill -9) as CANCELLED.
JobState step_state(int exit_status, int exit_signal) {
  if (exit_signal == SIGKILL || exit_signal == SIGTERM || exit_signal == SIGINT ||
      exit_signal == SIGHUP)
    return JobState::cancelled;
  if (exit_signal != 0 || exit_status != 0) return JobState::failed;
  return JobState::completed;
}

}  // namespace

Json handle_step_begin(Controller& c, const Json& req, const Caller& caller) {
  const Job& job = step_job(c, req, caller);
  JobStep step;
  step.name = req.at("name").get<std::string>();
  step.tasks = req.at("tasks").get<std::uint32_t>();
  step.cpus = req.at("cpus").get<std::uint32_t>();
  const auto nodes = req.at("nodes").get<std::vector<std::string>>();
  if (step.tasks == 0 || nodes.empty())
    throw Error(Errc::invalid_argument, "a step needs at least one task on one node");
  const std::vector<std::string> job_nodes = job.node_names();
  for (const std::string& n : nodes) {
    if (std::find(job_nodes.begin(), job_nodes.end(), n) == job_nodes.end())
      throw Error(Errc::invalid_node_name,
                  fmt::format("Node {} is not in job {}'s allocation", n, job.display_id()));
  }
  step.nodes = parse::compress_hostlist(nodes);
  step.node_count = static_cast<std::uint32_t>(nodes.size());
  step = c.begin_step(job, std::move(step));
  return {{"step_id", step.step_id}, {"start_time", step.start_time}};
}

Json handle_step_end(Controller& c, const Json& req, const Caller& caller) {
  const Job& job = step_job(c, req, caller);
  JobStep ended;
  ended.step_id = req.at("step_id").get<std::uint32_t>();
  ended.exit_status = req.at("exit_status").get<int>();
  ended.exit_signal = req.at("exit_signal").get<int>();
  ended.user_cpu_us = req.value("user_cpu_us", std::uint64_t{0});
  ended.sys_cpu_us = req.value("sys_cpu_us", std::uint64_t{0});
  ended.max_rss_kb = req.value("max_rss_kb", std::uint64_t{0});
  ended.state = step_state(ended.exit_status, ended.exit_signal);
  c.end_step(job, ended);
  return Json::object();
}

}  // namespace stint::daemon
