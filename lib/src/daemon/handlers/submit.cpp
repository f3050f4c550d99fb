#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "daemon/handlers/handlers.hpp"
#include "model/json.hpp"
#include "sched/sched.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

const PartitionConfig& resolve_partition(const Config& config, const JobSpec& spec) {
  if (!spec.partition || spec.partition->empty()) {
    const PartitionConfig* p = config.default_partition();
    if (!p)
      throw Error(Errc::invalid_partition, "No partition specified or system default partition");
    if (p->state == PartitionState::drain || p->state == PartitionState::inactive)
      throw Error(Errc::partition_unavailable,
                  std::string(errc_slurm_message(Errc::partition_unavailable)));
    return *p;
  }
  const PartitionConfig* first = nullptr;
  for (const auto& name : split_commas(*spec.partition)) {
    const PartitionConfig* p = config.find_partition(name);
    if (!p)
      throw Error(Errc::invalid_partition, fmt::format("invalid partition specified: {}", name));
    // A DRAIN or INACTIVE partition queues no new jobs (a DOWN one does).
    if (p->state == PartitionState::drain || p->state == PartitionState::inactive)
      throw Error(Errc::partition_unavailable,
                  std::string(errc_slurm_message(Errc::partition_unavailable)));
    if (!first) first = p;
  }
  return *first;
}

// --test-only: where and when the job would start. Until backfill plans
// ahead (issue 5), "when" is now if it fits on the idle resources now, else
// unknown (0).
Json test_only_reply(Controller& c, const Job& job, const std::vector<NodeDef>& nodes) {
  std::vector<const Job*> active;
  for (const auto& [id, j] : c.live()) {
    if (is_active(j.state)) active.push_back(&j);
  }
  sched::Cluster cluster(c.config().nodes());
  cluster.take_jobs(active);
  std::vector<std::string> allowed;
  for (const auto& n : nodes) allowed.push_back(n.name);
  auto alloc = sched::fit(job.req, cluster, allowed);
  std::vector<std::string> names;
  if (alloc) {
    for (const auto& a : *alloc) names.push_back(a.node);
  }
  return {{"job_id", 0},
          {"test_only", true},
          {"start_time", alloc ? c.now() : 0},
          {"cpus", job.req.cpus_per_node * job.req.nodes},
          {"nodes", parse::compress_hostlist(names)},
          {"partition", job.partition}};
}

}  // namespace

// The message of an Error thrown here is the detail line sbatch prints before
// "Batch job submission failed: <Slurm's text for the code>"; it is empty when
// Slurm prints only that line.
Json handle_submit(Controller& c, const Json& req, const Caller& caller) {
  Job job;
  job.spec = job_spec_from_json(req.at("spec"));
  const JobSpec& spec = job.spec;
  if (spec.script.empty()) throw Error(Errc::batch_script_invalid, "Batch script is empty!");
  if (spec.script.rfind("#!", 0) != 0)
    throw Error(Errc::batch_script_invalid,
                "This does not look like a batch script.  The first line must start with #! "
                "followed by the path to an interpreter.");

  const Config& config = c.config();
  const PartitionConfig& part = resolve_partition(config, spec);
  std::vector<NodeDef> nodes = config.partition_nodes(part);
  job.partition = part.id;
  job.req = sched::make_request(spec, nodes, config);
  if (auto refusal = sched::never_fits(job.req, nodes)) throw *refusal;

  if (spec.nice < 0 && !c.is_operator(caller))
    throw Error(Errc::access_denied, "Nice value must be non-negative for non-privileged users");

  job.user_id = caller.uid;
  job.group_id = caller.gid;
  job.user_name = proc::user_name(caller.uid);
  job.time_limit = spec.time_limit ? *spec.time_limit : part.default_time.value_or(part.max_time);
  // Accounts and limits (issue 4): the job's account and QOS, refusals by
  // AccountingStorageEnforce, and the per-job limits (sacctmgr_submit.cpp).
  resolve_accounting(c, job);
  if (job.spec.name.empty()) job.spec.name = "sbatch";
  job.submit_time = c.now();
  job.eligible_time = std::max(job.submit_time, spec.begin_time.value_or(0));
  job.state = JobState::pending;
  job.reason = Reason::none;
  if (spec.hold) job.hold_reason = Reason::job_held_user;
  // A fixed priority is an operator's to give; the site factor is set after
  // submission only (scontrol update SiteFactor=).
  if (spec.fixed_priority && !c.is_operator(caller))
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  job.spec.site_factor = 0;
  job.priority = spec.hold ? 0 : job.spec.fixed_priority.value_or(sched::job_priority(job));
  job.requeue = spec.requeue.value_or(config.conf_int("JobRequeue") != 0);
  if (!spec.dependency.empty()) {
    try {
      job.dependency = parse::dependency(spec.dependency);
    } catch (const Error&) {
      throw Error(Errc::invalid_argument, "");  // sbatch adds "Job dependency problem"
    }
  }
  if (spec.deadline && *spec.deadline <= job.submit_time)
    throw Error(Errc::invalid_argument, "Invalid --deadline specification");

  std::vector<Job> jobs;
  if (!spec.array_spec.empty()) {
    parse::ArraySpec array;
    try {
      array = parse::array_spec(spec.array_spec, config.max_array_size());
    } catch (const Error& e) {
      throw Error(Errc::invalid_argument, e.what());
    }
    for (std::uint32_t task : array.task_ids) {
      Job t = job;
      t.array_task_id = task;
      t.array_throttle = array.throttle;
      jobs.push_back(std::move(t));
    }
  } else {
    jobs.push_back(std::move(job));
  }

  check_submit_limits(c, jobs);  // issue 4: MaxSubmitJobs and friends
  if (req.value("test_only", false)) return test_only_reply(c, jobs.front(), nodes);
  JobId id = c.add_jobs(std::move(jobs));
  return {{"job_id", id}};
}

}  // namespace stint::daemon
