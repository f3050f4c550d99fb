// step_begin and step_end: srun's reports of the job steps it runs inside an
// allocation (docs/protocol.md). The tasks are srun's own children; stintd
// only numbers the steps and keeps their records.

#include "sched/step.hpp"

#include <algorithm>
#include <csignal>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"

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

std::optional<std::uint32_t> optional_count(const Json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::uint32_t>();
}

// The job's nodes from -r's on, each keeping its index in the allocation.
std::vector<std::size_t> nodes_from(const Job& job, std::uint32_t relative) {
  if (relative >= job.alloc.size())
    throw Error(Errc::invalid_argument,
                fmt::format("--relative={} is outside the job's {} nodes (0-{})", relative,
                            job.alloc.size(), job.alloc.size() - 1));
  std::vector<std::size_t> out;
  for (std::size_t i = relative; i < job.alloc.size(); ++i) out.push_back(i);
  return out;
}

// slurm.conf's MaxTasksPerNode, as slurmctld's step_create checks it: over
// the step's nodes, however the tasks are spread.
void check_task_count(Controller& c, std::uint32_t tasks, std::size_t nodes) {
  const auto per_node = static_cast<std::uint64_t>(c.config().conf_int("MaxTasksPerNode"));
  const std::uint64_t most = per_node * nodes;
  if (tasks <= most) return;
  log_error("step has invalid task count: {} max is {}", tasks, most);
  throw Error(Errc::invalid_argument, "Task count specification invalid");
}

Json layout_json(const sched::StepLayout& layout) {
  Json nodes = Json::array();
  for (const sched::StepNode& n : layout.nodes) {
    nodes.push_back({{"alloc_index", n.alloc_index},
                     {"name", n.name},
                     {"task_ids", n.task_ids},
                     {"tasks", n.tasks},
                     {"task_cpus", n.task_cpus}});
  }
  return {{"nodes", nodes}, {"tasks", layout.tasks}, {"warning", layout.warning}};
}

// A step laid out by stintd (srun sends what it asks for): the step gets
// the CPUs no other running step holds, as Slurm shares an allocation between
// steps. Without --exact a step holds every free CPU of its nodes (Slurm
// 22.05's default); --overlap steps hold none and take any.
Json begin_laid_out_step(Controller& c, const Job& job, const Json& req) {
  const Json& r = req.at("request");
  sched::StepRequest request;
  request.tasks = optional_count(r, "tasks");
  request.nodes = optional_count(r, "nodes");
  request.tasks_per_node = optional_count(r, "tasks_per_node");
  request.cpus_per_task = r.value("cpus_per_task", 1U);
  request.node_names = r.value("node_names", std::vector<std::string>{});
  request.job_tasks = job.req.tasks;
  request.overcommit = r.value("overcommit", false);
  if (const std::string d = r.value("distribution", std::string()); !d.empty())
    sched::read_distribution(d, request);
  const bool exact = r.value("exact", false);
  const bool overlap = r.value("overlap", false);
  const std::vector<std::size_t> indexes = nodes_from(job, r.value("relative", 0U));

  // What the step could have in an allocation of its own: Slurm's refusals
  // of a step that can never run.
  std::vector<NodeAlloc> whole;
  for (std::size_t i : indexes) whole.push_back(job.alloc[i]);
  sched::StepLayout layout = sched::layout_step(whole, request);
  check_task_count(c, layout.tasks, layout.nodes.size());
  std::vector<std::size_t> view_index = indexes;

  // What the other steps hold (read once: it walks the job's step records).
  const auto held =
      overlap ? std::map<std::size_t, std::set<std::uint32_t>>{} : c.step_cpus_held(job);
  if (!overlap) {
    // The same over the CPUs no running step holds; nodes with none free are
    // left out, unless -w names them.
    std::vector<NodeAlloc> free;
    view_index.clear();
    for (std::size_t i : indexes) {
      NodeAlloc a = job.alloc[i];
      if (auto it = held.find(i); it != held.end())
        std::erase_if(a.cpu_ids, [&](std::uint32_t id) { return it->second.contains(id); });
      a.cpus = static_cast<std::uint32_t>(a.cpu_ids.size());
      const bool named = std::find(request.node_names.begin(), request.node_names.end(), a.node) !=
                         request.node_names.end();
      if (a.cpus == 0 && !named) continue;
      free.push_back(std::move(a));
      view_index.push_back(i);
    }
    try {
      if (free.empty()) throw Error(Errc::nodes_busy, "no free CPUs");
      layout = sched::layout_step(free, request);
    } catch (const Error&) {
      throw Error(Errc::nodes_busy, std::string(errc_slurm_message(Errc::nodes_busy)));
    }
    for (sched::StepNode& n : layout.nodes) n.alloc_index = view_index[n.alloc_index];
  } else {
    for (sched::StepNode& n : layout.nodes) n.alloc_index = indexes[n.alloc_index];
  }

  // The CPUs the step holds: its tasks' with --exact, else all its nodes'
  // free ones (for --overlap, all its nodes', held by none).
  std::map<std::size_t, std::vector<std::uint32_t>> holds;
  std::uint32_t cpus = 0;
  for (const sched::StepNode& n : layout.nodes) {
    std::vector<std::uint32_t> ids;
    if (exact) {
      for (const auto& t : n.task_cpus) ids.insert(ids.end(), t.begin(), t.end());
    } else {
      for (std::uint32_t id : job.alloc[n.alloc_index].cpu_ids) {
        auto it = held.find(n.alloc_index);
        if (it == held.end() || !it->second.contains(id)) ids.push_back(id);
      }
    }
    cpus += static_cast<std::uint32_t>(ids.size());
    if (!overlap) holds[n.alloc_index] = std::move(ids);
  }

  JobStep step;
  step.name = req.at("name").get<std::string>();
  step.tasks = layout.tasks;
  step.cpus = cpus;
  step.time_limit = r.value("time_limit", k_infinite);
  std::vector<std::string> names;
  for (const sched::StepNode& n : layout.nodes) names.push_back(n.name);
  step.nodes = parse::compress_hostlist(names);
  step.node_count = static_cast<std::uint32_t>(names.size());
  step = overlap ? c.begin_step(job, std::move(step)) : c.begin_step(job, std::move(step), holds);
  Json reply = {{"step_id", step.step_id}, {"start_time", step.start_time}};
  reply["layout"] = layout_json(layout);
  return reply;
}

}  // namespace

Json handle_step_begin(Controller& c, const Json& req, const Caller& caller) {
  const Job& job = step_job(c, req, caller);
  if (req.contains("request")) return begin_laid_out_step(c, job, req);
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
  check_task_count(c, step.tasks, nodes.size());
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
  if (req.value("timed_out", false)) ended.state = JobState::timeout;
  c.end_step(job, ended);
  return Json::object();
}

// scontrol update StepId=JOB[.STEP] TimeLimit=: a running step's own limit
// (every running step's without STEP), which its srun reads from the record.
Json handle_step_update(Controller& c, const Json& req, const Caller& caller) {
  const Job& job = step_job(c, req, caller);
  const std::optional<std::uint32_t> step_id = optional_count(req, "step_id");
  const Seconds limit = req.at("time_limit").get<Seconds>();
  bool found = false;
  for (JobStep& s : c.store().steps({job.id})) {
    if (s.attempt != job.restart_count || s.state != JobState::running) continue;
    if (step_id && s.step_id != *step_id) continue;
    s.time_limit = limit;
    c.store().put_step(s);
    found = true;
  }
  if (step_id && !found)
    throw Error(Errc::invalid_job_id, std::string(errc_slurm_message(Errc::invalid_job_id)));
  return Json::object();
}

// scancel 12.0: the step's record is closed CANCELLED; its srun sees that
// (it watches the record as it watches the job) and ends the tasks, as
// slurmstepd ends a cancelled step's.
Json handle_step_cancel(Controller& c, const Json& req, const Caller& caller) {
  const Job& job = step_job(c, req, caller);
  JobStep cancelled;
  cancelled.step_id = req.at("step_id").get<std::uint32_t>();
  cancelled.exit_signal = SIGKILL;
  cancelled.state = JobState::cancelled;
  try {
    c.end_step(job, cancelled);
  } catch (const Error&) {
    throw Error(Errc::job_state_invalid, std::string(errc_slurm_message(Errc::job_state_invalid)));
  }
  return Json::object();
}

}  // namespace stint::daemon
