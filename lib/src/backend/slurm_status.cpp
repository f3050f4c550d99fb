// What the cluster says about a run's job, read into the registry's record,
// and the record as run-list and run-show see a job.

#include <algorithm>
#include <charconv>
#include <tuple>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "backend/slurm.hpp"

namespace stint::backend {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(sep, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

Seconds epoch(std::string_view text) {
  Seconds t = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), t);
  return ec == std::errc() && end == text.data() + text.size() && t > 0 ? t : k_no_time;
}

// "1:0" -> (1, 0); a signal part is Slurm's "killed by".
std::pair<std::int32_t, std::int32_t> exit_pair(std::string_view text) {
  std::int32_t status = 0, signal = 0;
  const auto colon = text.find(':');
  std::from_chars(text.data(), text.data() + std::min(colon, text.size()), status);
  if (colon != std::string_view::npos)
    std::from_chars(text.data() + colon + 1, text.data() + text.size(), signal);
  return {status, signal};
}

std::vector<std::string> hosts_of(std::string_view node_list) {
  if (node_list.empty() || node_list == "None assigned" || node_list.front() == '(') return {};
  try {
    return parse::expand_hostlist(node_list);
  } catch (const std::exception&) {
    return {std::string(node_list)};
  }
}

// Every rank has a node entry once the job is placed (ports included).
void place(ClusterRun& run, const std::vector<std::string>& hosts) {
  const std::size_t world = run.spec.nodes.value_or(1);
  if (run.nodes.size() != world && !hosts.empty()) run.nodes.assign(world, NodeAlloc{});
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    if (i < hosts.size() && run.nodes[i].node.empty()) run.nodes[i].node = hosts[i];
    if (i < run.ports.size()) run.nodes[i].ports = run.ports[i];
  }
}

// The rank whose step `r` is ("<job>.<step>" named "rank<i>"), if it is one
// of the run's.
std::optional<std::uint32_t> rank_of_step(const ClusterRun& run, const SacctRecord& r,
                                          std::size_t world) {
  const std::string prefix = std::to_string(run.cluster_job_id) + ".";
  if (r.job_id.rfind(prefix, 0) != 0 || r.name.rfind("rank", 0) != 0) return std::nullopt;
  std::uint32_t rank = 0;
  auto [end, ec] = std::from_chars(r.name.data() + 4, r.name.data() + r.name.size(), rank);
  if (ec != std::errc() || end != r.name.data() + r.name.size() || rank >= world)
    return std::nullopt;
  return rank;
}

void set_job_state(ClusterRun& run, std::string_view word) {
  run.cluster_state = std::string(word);
  if (auto s = slurm_state(word)) run.state = *s;
}

}  // namespace

std::vector<SacctRecord> parse_sacct(std::string_view text) {
  std::vector<SacctRecord> out;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    auto f = split(line, '|');
    if (f.size() < 9) continue;
    out.push_back(SacctRecord{std::string(f[0]), std::string(f[1]), std::string(f[2]),
                              std::string(f[3]), std::string(f[4]), std::string(f[5]),
                              std::string(f[6]), std::string(f[7]), std::string(f[8])});
  }
  return out;
}

std::vector<std::map<std::string, std::string>> parse_scontrol_jobs(std::string_view text) {
  std::vector<std::map<std::string, std::string>> out;
  for (std::string_view line : split(text, '\n')) {
    if (line.find("JobId=") == std::string_view::npos) continue;
    std::map<std::string, std::string> job;
    for (std::string_view word : split(line, ' ')) {
      const auto eq = word.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      job[std::string(word.substr(0, eq))] = std::string(word.substr(eq + 1));
    }
    out.push_back(std::move(job));
  }
  return out;
}

std::optional<JobState> slurm_state(std::string_view word) {
  word = word.substr(0, word.find(' '));  // "CANCELLED by 0"
  if (word == "PENDING" || word == "REQUEUED" || word == "REQUEUE_HOLD" || word == "REQUEUE_FED" ||
      word == "CONFIGURING" || word == "RESV_DEL_HOLD")
    return JobState::pending;
  if (word == "RUNNING" || word == "RESIZING" || word == "SIGNALING" || word == "STAGE_OUT")
    return JobState::running;
  if (word == "SUSPENDED" || word == "STOPPED") return JobState::suspended;
  if (word == "COMPLETING") return JobState::completing;
  if (word == "COMPLETED") return JobState::completed;
  if (word == "FAILED" || word == "BOOT_FAIL") return JobState::failed;
  if (word == "CANCELLED" || word == "REVOKED") return JobState::cancelled;
  if (word == "TIMEOUT") return JobState::timeout;
  if (word == "NODE_FAIL") return JobState::node_fail;
  if (word == "PREEMPTED") return JobState::preempted;
  if (word == "OUT_OF_MEMORY") return JobState::out_of_memory;
  if (word == "DEADLINE") return JobState::deadline;
  return std::nullopt;
}

bool apply_sacct(ClusterRun& run, const std::vector<SacctRecord>& records) {
  const std::string id = std::to_string(run.cluster_job_id);
  const SacctRecord* job = nullptr;
  for (const auto& r : records) {
    if (r.job_id == id) job = &r;
  }
  if (!job) return false;
  set_job_state(run, job->state);
  if (!job->partition.empty()) run.partition = job->partition;
  if (Seconds t = epoch(job->submit); t != k_no_time) run.submit_time = t;
  run.start_time = epoch(job->start);
  run.end_time = epoch(job->end);
  std::tie(run.exit_status, run.exit_signal) = exit_pair(job->exit_code);
  place(run, hosts_of(job->node_list));
  // The ranks' steps: "<job>.<step>" named "rank<i>".
  for (const auto& r : records) {
    const auto rank = rank_of_step(run, r, run.nodes.size());
    if (!rank) continue;
    NodeAlloc& node = run.nodes[*rank];
    if (auto hosts = hosts_of(r.node_list); !hosts.empty()) node.node = hosts.front();
    const auto state = slurm_state(r.state);
    node.task_ended = state && is_terminal(*state);
    if (node.task_ended) std::tie(node.exit_status, node.exit_signal) = exit_pair(r.exit_code);
  }
  // A job that ended ended its ranks, whether or not their steps were recorded.
  if (is_terminal(run.state)) {
    for (NodeAlloc& node : run.nodes) {
      if (node.task_ended) continue;
      node.task_ended = true;
      node.exit_status = run.exit_status;
      node.exit_signal = run.exit_signal;
    }
  }
  return true;
}

bool ranks_recorded(const ClusterRun& run, const std::vector<SacctRecord>& records) {
  const std::size_t world = run.spec.nodes.value_or(1);
  std::vector<bool> seen(world, false);
  for (const auto& r : records) {
    const auto rank = rank_of_step(run, r, world);
    const auto state = slurm_state(r.state);
    if (rank && state && is_terminal(*state)) seen[*rank] = true;
  }
  return std::all_of(seen.begin(), seen.end(), [](bool b) { return b; });
}

bool apply_scontrol(ClusterRun& run, const std::vector<std::map<std::string, std::string>>& jobs) {
  const std::string id = std::to_string(run.cluster_job_id);
  for (const auto& job : jobs) {
    auto get = [&](const char* key) {
      auto it = job.find(key);
      return it == job.end() ? std::string() : it->second;
    };
    if (get("JobId") != id) continue;
    set_job_state(run, get("JobState"));
    if (!get("Partition").empty()) run.partition = get("Partition");
    if (Seconds t = epoch(get("SubmitTime")); t != k_no_time) run.submit_time = t;
    run.start_time = epoch(get("StartTime"));
    run.end_time = is_terminal(run.state) ? epoch(get("EndTime")) : k_no_time;
    std::tie(run.exit_status, run.exit_signal) = exit_pair(get("ExitCode"));
    place(run, hosts_of(get("NodeList")));
    if (is_terminal(run.state)) {
      for (NodeAlloc& node : run.nodes) {
        node.task_ended = true;
        node.exit_status = run.exit_status;
        node.exit_signal = run.exit_signal;
      }
    }
    return true;
  }
  return false;
}

Job job_view(const ClusterRun& run) {
  Job job;
  job.id = static_cast<JobId>(run.cluster_job_id);
  job.spec = run.spec;
  job.spec.run->backend = run.backend;
  job.user_id = run.user_id;
  job.group_id = run.group_id;
  job.user_name = run.user_name;
  // The server type as asked (run-clone copies it); the cluster's partition
  // is the record's.
  job.partition = run.spec.partition.value_or(run.partition);
  job.state = run.state;
  job.submit_time = run.submit_time;
  job.start_time = run.start_time;
  job.end_time = run.end_time;
  job.exit_status = run.exit_status;
  job.exit_signal = run.exit_signal;
  job.req.nodes = run.spec.nodes.value_or(1);
  job.req.tasks = job.req.nodes;
  job.req.cpus_per_task = run.spec.cpus_per_task.value_or(1);
  job.req.cpus_per_node = job.req.cpus_per_task;
  job.req.mem_per_node_mb = run.spec.mem_per_node_mb.value_or(0);
  job.req.gpus_per_node = run.spec.gpus_per_node.value_or(0);
  job.alloc = run.nodes;
  job.spec.stdout_pattern = "run-%j.%n.out";
  return job;
}

}  // namespace stint::backend
