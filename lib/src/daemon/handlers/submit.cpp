#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/run.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "model/json.hpp"
#include "run/name_rule.hpp"
#include "sched/deadline.hpp"
#include "sched/foreign_names.hpp"
#include "sched/placement.hpp"
#include "sched/reservation.hpp"
#include "sched/sched.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

// Marks a het job's component until add_jobs gives it its leader's id.
constexpr JobId k_het_job_id_unassigned = 1;

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

// A run (run-create, run-clone): its number in its project, its name, and
// whether its ports fit beside the live runs'.
void prepare_run(Controller& c, Job& job) {
  RunInfo& r = *job.spec.run;
  if (!run::valid_project_name(r.project))
    throw Error(Errc::invalid_argument, fmt::format("Invalid project name: {} (a name is {})",
                                                    r.project, run::k_name_rule));
  if (r.command.empty()) throw Error(Errc::invalid_argument, "A run needs a command");
  if (!job.spec.array_spec.empty()) throw Error(Errc::invalid_argument, "A run cannot be an array");
  if (r.ports_per_node > 64)
    throw Error(Errc::invalid_argument, "At most 64 ports per node may be reserved");
  for (const auto& [name, mount] : r.storages) check_storage_use(c, name, job.user_id);
  r.number = c.next_run_number(r.project);
  r.stopped = false;
  if (job.spec.name.empty()) job.spec.name = RunName{r.project, r.number}.text();
  // Its ports, and those of the runs still waiting, must fit beside the
  // ports running runs hold (each run takes its own when it starts).
  std::uint32_t waiting = 0;
  for (const auto& [id, other] : c.live()) {
    if (other.spec.run && other.state == JobState::pending)
      waiting += other.req.nodes * c.ports_per_node(*other.spec.run);
  }
  const run::PortRange range = c.run_ports();
  const auto taken = c.ports_in_use();
  std::uint32_t free = 0;
  for (std::uint32_t p = range.first; p <= range.last; ++p)
    free += taken.count(static_cast<std::uint16_t>(p)) ? 0 : 1;
  const std::uint32_t per_node = c.ports_per_node(r);
  const std::uint32_t need = job.req.nodes * per_node;
  if (waiting + need > free)
    throw Error(Errc::node_config_unavailable,
                fmt::format("Port range {}-{} exhausted: the run needs {} ports ({} nodes x {}), "
                            "{} are free and waiting runs need {}",
                            range.first, range.last, need, job.req.nodes, per_node, free, waiting));
}

// --test-only: where and when the job would start, by the same pass the
// scheduler runs, over the running jobs and the pending ones that may run
// (held jobs and unmet dependencies aside).
Json test_only_reply(Controller& c, const Job& candidate) {
  constexpr JobId k_test_id = 0xfffffff0;
  Job job = candidate;
  job.id = k_test_id;
  job.eligible_time = c.now();
  // Its multifactor priority is not known before it is queued: it goes
  // after the jobs already waiting in its partition, as the newest job.
  job.priority = 1;
  std::vector<const Job*> active;
  std::vector<const Job*> pending{&job};
  for (const auto& [id, j] : c.live()) {
    if (is_active(j.state) && j.state != JobState::suspended) active.push_back(&j);
    if (j.state == JobState::pending && j.reason != Reason::dependency &&
        j.reason != Reason::dependency_never_satisfied)
      pending.push_back(&j);
  }
  sched::Cluster cluster(c.config().nodes());
  cluster.take_jobs(active);
  const sched::ReservationRules reservations = c.reservation_rules();
  sched::PassContext ctx;
  ctx.reservations = &reservations;
  sched::Decision d = sched::schedule(pending, cluster, c.config(), c.now(), std::move(ctx));
  Seconds start = 0;
  std::vector<std::string> names;
  for (const auto& [id, alloc] : d.starts) {
    if (id != k_test_id) continue;
    start = c.now();
    for (const auto& a : alloc) names.push_back(a.node);
  }
  if (auto it = d.planned_starts.find(k_test_id); it != d.planned_starts.end()) {
    start = it->second.start;
    names = it->second.nodes;
  }
  if (start != 0 && candidate.eligible_time > start) start = candidate.eligible_time;
  // slurmctld's will-run makes a job record and throws it away: the id it
  // took is printed and is not given again (the next sbatch gets the one after).
  JobId id = 0;
  {
    Store::Transaction tx(c.store());
    id = c.job_ids(1);
    tx.commit();
  }
  return {{"job_id", id},
          {"test_only", true},
          {"start_time", start},
          {"cpus", job.req.cpus_per_node * job.req.nodes},
          {"nodes", parse::compress_hostlist(names)},
          {"partition", job.partition}};
}

// Everything stintd decides of a job from its spec: partition, shape,
// account, limits, priority, dependency. Throws what sbatch reports.
void prepare_job(Controller& c, Job& job, const Caller& caller,
                 std::vector<std::string>& warnings) {
  const JobSpec& spec = job.spec;
  const Config& config = c.config();
  // A cluster's names this machine lacks, mapped before they are resolved, so
  // the job holds this machine's names as if the user had typed them.
  std::vector<std::string> mapped =
      sched::map_foreign_names(job.spec, config, [&c](std::string_view name) {
        const auto& all = c.reservations();
        return std::any_of(all.begin(), all.end(),
                           [name](const Reservation& r) { return r.name == name; });
      });
  warnings.insert(warnings.end(), mapped.begin(), mapped.end());
  const PartitionConfig& part = resolve_partition(config, spec);
  job.partition = part.id;
  job.req = sched::checked_request(spec, part, config);

  if (spec.nice < 0 && !c.is_operator(caller))
    throw Error(Errc::access_denied, "Nice value must be non-negative for non-privileged users");

  job.user_id = caller.uid;
  job.group_id = caller.gid;
  job.user_name = proc::user_name(caller.uid);
  apply_job_options(c, job, caller);
  job.time_limit = spec.time_limit ? *spec.time_limit : part.default_time.value_or(part.max_time);
  // Accounts and limits: the job's account and QOS, refusals by
  // AccountingStorageEnforce, and the per-job limits (sacctmgr_submit.cpp).
  resolve_accounting(c, job, warnings);
  // Every partition named must admit the job's account and QOS.
  for (const std::string& name : spec.partition && !spec.partition->empty()
                                     ? split_commas(*spec.partition)
                                     : std::vector<std::string>{part.id}) {
    if (const PartitionConfig* p = config.find_partition(name))
      if (auto refused = sched::partition_access(*p, job.account, job.qos)) throw *refused;
  }
  // --reservation: it exists, admits the job and has nodes of its partition.
  c.check_reservation_use(job);
  if (job.spec.run) prepare_run(c, job);
  if (job.spec.name.empty()) job.spec.name = "sbatch";
  job.submit_time = c.now();
  job.eligible_time = std::max(job.submit_time, spec.begin_time.value_or(0));
  job.state = JobState::pending;
  job.reason = Reason::none;
  // A held job's reason is its hold from the start, as the first pass would
  // set it: that pass then rewrites no row (10,000 for a held array).
  if (spec.hold) job.hold_reason = job.reason = Reason::job_held_user;
  // So is a later begin time (the pass decides with a dependency): squeue
  // right after sbatch --begin says BeginTime, not None until a pass ran.
  else if (job.eligible_time > job.submit_time && spec.dependency.empty())
    job.reason = Reason::begin_time;
  // A fixed priority is an operator's to give; the site factor is set after
  // submission only (scontrol update SiteFactor=).
  if (spec.fixed_priority && !c.is_operator(caller))
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  job.spec.site_factor = 0;
  job.priority = spec.hold ? 0 : job.spec.fixed_priority.value_or(c.fresh_priority(job));
  job.requeue = spec.requeue.value_or(config.conf_int("JobRequeue") != 0);
  if (!spec.dependency.empty()) {
    try {
      job.dependency = parse::dependency(spec.dependency);
    } catch (const Error&) {
      throw Error(Errc::invalid_argument, "");  // sbatch adds "Job dependency problem"
    }
  }
  // --time-min and --deadline against the time limit and the clock, as
  // slurmctld checks them; a deadline without any time limit implies a
  // --time-min of one minute (scontrol shows TimeMin=00:01:00).
  const std::optional<Seconds> time_limit = spec.time_limit ? spec.time_limit : part.default_time;
  const std::optional<Seconds>& time_min = spec.options().time_min;
  if (auto refused =
          sched::time_min_deadline_refusal(time_limit, time_min, spec.deadline, job.submit_time))
    throw *refused;
  if (auto least = sched::implied_time_min(time_limit, time_min, spec.deadline))
    job.spec.options_to_set().time_min = least;
}

// MaxJobCount (slurm.conf): the job records stintd holds, counted as
// slurmctld counts them (the tasks of an array still pending are its one
// record), and this submission's jobs stay below it, so that one user cannot
// queue without bound for everyone. Past it, slurmctld's EAGAIN, which
// sbatch waits out.
void check_job_count(Controller& c, std::size_t adding) {
  const auto limit = static_cast<std::size_t>(c.config().conf_int("MaxJobCount"));
  if (c.live().size() + adding >= limit) {
    log_error("job_allocate: MaxJobCount limit from slurm.conf reached ({})", limit);
    throw Error(Errc::try_again, "");
  }
}

// The token the client made up for this submission (rpc::call gives every
// submission one), empty when there is none (an older client).
std::string submission_token(const Json& req) {
  const auto it = req.find("token");
  if (it == req.end()) return {};
  constexpr std::size_t k_max_token = 64;
  const auto allowed = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '-' || ch == '_';
  };
  const auto* token = it->get_ptr<const std::string*>();
  if (token == nullptr || token->empty() || token->size() > k_max_token ||
      !std::all_of(token->begin(), token->end(), allowed))
    throw Error(Errc::invalid_argument,
                "Invalid submission token: 1 to 64 letters, digits, '-' or '_'");
  return *token;
}

Json submission_reply(const Store::Submission& made) {
  Json reply = {{"job_id", made.job_id}};
  if (!made.run.empty()) reply["run"] = made.run;
  return reply;
}

}  // namespace

// The message of an Error thrown here is the detail line sbatch prints before
// "Batch job submission failed: <Slurm's text for the code>"; it is empty when
// Slurm prints only that line.
Json handle_submit(Controller& c, const Json& req, const Caller& caller) {
  const bool test_only = req.value("test_only", false);
  // A submission sent again by a client that lost the answer to the first
  // (stintd killed after its commit) is answered with what the first made.
  const std::string token = test_only ? std::string() : submission_token(req);
  if (!token.empty()) {
    if (auto made = c.store().submission(caller.uid, token)) {
      log_info("submission {} of uid {} sent again: answered with job {}", token, caller.uid,
               made->job_id);
      return submission_reply(*made);
    }
  }
  Job job;
  job.spec = job_spec_from_json(req.at("spec"));
  // A run of a project on the slurm backend is a job of a real cluster, not ours.
  if (job.spec.run && c.config().run_backend_for(job.spec.run->project) == "slurm") {
    if (test_only)
      throw Error(Errc::invalid_argument, "--test-only is not supported by the slurm run backend");
    return c.submit_cluster_run(std::move(job.spec), caller, token);
  }
  const JobSpec& spec = job.spec;
  if (spec.script.empty()) throw Error(Errc::batch_script_invalid, "Batch script is empty!");
  if (spec.script.rfind("#!", 0) != 0)
    throw Error(Errc::batch_script_invalid,
                "This does not look like a batch script.  The first line must start with #! "
                "followed by the path to an interpreter.");

  std::vector<std::string> warnings;
  prepare_job(c, job, caller, warnings);

  std::vector<Job> jobs;
  const auto more = req.find("het_components");
  const bool heterogeneous = more != req.end() && more->is_array() && !more->empty();
  if (heterogeneous && !spec.array_spec.empty())
    throw Error(Errc::invalid_argument, "Job arrays are not supported with heterogeneous jobs");
  if (!spec.array_spec.empty()) {
    parse::ArraySpec array;
    try {
      array = parse::array_spec(spec.array_spec, c.config().max_array_size());
    } catch (const Error& e) {
      // slurmctld's refusal says no more than this (over MaxArraySize included).
      throw Error(Errc::invalid_array, "");
    }
    // The array is one job, its record, whatever its number of tasks; each
    // task becomes a job of its own as it starts (Controller::split_task).
    job.array_pending = std::move(array.tasks);
    job.array_throttle = array.throttle;
    jobs.push_back(std::move(job));
  } else if (heterogeneous) {
    // A heterogeneous job: each component a job, the leader's script the
    // only task. add_jobs gives them consecutive ids and the leader's id.
    if (job.spec.run) throw Error(Errc::invalid_argument, "A run cannot be a heterogeneous job");
    job.het_job_id = k_het_job_id_unassigned;
    jobs.push_back(std::move(job));
    for (const Json& text : *more) {
      Job component;
      component.spec = job_spec_from_json(text);
      component.spec.script = std::string();
      component.spec.environment = {};
      if (!component.spec.array_spec.empty() || component.spec.run)
        throw Error(Errc::invalid_argument,
                    "Job arrays and runs cannot be components of a heterogeneous job");
      prepare_job(c, component, caller, warnings);
      component.het_job_id = k_het_job_id_unassigned;
      component.het_job_offset = static_cast<std::uint32_t>(jobs.size());
      jobs.push_back(std::move(component));
    }
  } else {
    jobs.push_back(std::move(job));
  }

  check_submit_limits(c, jobs);  // MaxSubmitJobs and the other submit limits
  // An array counts each of its tasks as it is submitted, as in slurmctld,
  // and is one record from then on.
  check_job_count(c, jobs.front().is_array_record()
                         ? static_cast<std::size_t>(jobs.front().array_pending.size())
                         : jobs.size());
  if (test_only) {
    Json reply = test_only_reply(c, jobs.front());
    if (!warnings.empty()) reply["warnings"] = warnings;
    return reply;
  }
  std::optional<std::string> run_name;
  if (const auto& r = jobs.front().spec.run) run_name = RunName{r->project, r->number}.text();
  JobId id = c.add_jobs(std::move(jobs), token);
  Json reply = {{"job_id", id}};
  if (run_name) reply["run"] = *run_name;
  // Substitutions of a cluster's names, which sbatch prints as warnings.
  if (!warnings.empty()) reply["warnings"] = warnings;
  return reply;
}

}  // namespace stint::daemon
