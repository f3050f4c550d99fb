#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "daemon/handlers/handlers.hpp"
#include "sched/placement.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

Job update_one(Controller& c, const Job& current, const Json& fields, bool op);

// All fields are checked on a copy first; the job changes only if all are valid.
Json handle_update_job(Controller& c, const Json& req, const Caller& caller) {
  JobRef ref = job_ref(req.at("job_id"));
  std::optional<Error> missing;
  std::vector<Job*> targets = resolve_live(c, ref, missing);
  if (targets.empty()) {
    // slurmctld's _update_job refuses any change to an ended job so.
    if (missing && missing->code() == Errc::job_state_invalid)
      throw Error(Errc::job_state_invalid, "Job has already finished");
    throw Error(Errc::invalid_job_id, "Invalid job id specified");
  }
  const bool op = c.is_operator(caller);
  // Every task of an array is updated alike; all are checked before any changes.
  std::vector<Job> updated;
  for (Job* live : targets) {
    if (!c.may_act_for(caller, live->user_id))
      throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
    updated.push_back(update_one(c, *live, req.at("fields"), op));
  }
  // One task of an array named on its own leaves its array's pending record,
  // as slurmctld splits it off (it shows its own JobId from now on).
  const bool one_task = targets.size() == 1 && targets[0]->is_array_task() &&
                        (ref.array_task != k_no_array_task || ref.id != targets[0]->array_job_id);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (one_task) updated[i].array_split = true;
    *targets[i] = updated[i];
    c.save(*targets[i]);
  }
  return Json::object();
}

Job update_one(Controller& c, const Job& current, const Json& fields, bool op) {
  Job job = current;
  auto pending_only = [&]() {
    if (job.state != JobState::pending)
      throw Error(Errc::job_state_invalid, "Job is no longer pending execution");
  };
  for (const auto& [key, value_json] : fields.items()) {
    std::string value = value_json.is_string() ? value_json.get<std::string>() : value_json.dump();
    if (iequals(key, "TimeLimit")) {
      Seconds t = parse::time_limit(value);
      bool longer = job.time_limit != k_infinite && (t == k_infinite || t > job.time_limit);
      if (longer && !op)
        throw Error(Errc::access_denied,
                    "Access/permission denied: only operators may raise "
                    "a time limit");
      job.time_limit = t;
    } else if (iequals(key, "Nice")) {
      int nice = 0;
      try {
        nice = std::stoi(value);
      } catch (...) {
        throw Error(Errc::invalid_argument, fmt::format("Invalid nice value: {}", value));
      }
      if (nice < 0 && !op)
        throw Error(Errc::access_denied, "Access/permission denied: negative nice");
      job.spec.nice = nice;
      if (job.hold_reason == Reason::none) job.priority = c.fresh_priority(job);
    } else if (iequals(key, "JobName") || iequals(key, "Name")) {
      job.spec.name = value;
    } else if (iequals(key, "Comment")) {
      job.spec.comment = value;
    } else if (iequals(key, "Partition")) {
      pending_only();
      const PartitionConfig* p = c.config().find_partition(value);
      if (!p) throw Error(Errc::invalid_partition, "Invalid partition name specified");
      ResourceRequest r = sched::checked_request(job.spec, *p, c.config());
      job.partition = p->id;
      job.req = r;
    } else if (iequals(key, "Priority")) {
      if (!op) throw Error(Errc::access_denied, "Access/permission denied");
      std::uint32_t p = 0;
      if (iequals(value, "TOP")) {
        p = k_top_priority;
      } else {
        try {
          std::size_t used = 0;
          unsigned long n = std::stoul(value, &used);
          if (used != value.size() || n >= k_top_priority) throw std::out_of_range(value);
          p = static_cast<std::uint32_t>(n);
        } catch (...) {
          throw Error(Errc::invalid_argument, fmt::format("Invalid priority: {}", value));
        }
      }
      // Priority=0 holds the job, as in Slurm (an admin hold).
      if (p == 0) {
        pending_only();
        job.hold_reason = Reason::job_held_admin;
        job.priority = 0;
      } else {
        job.spec.fixed_priority = p;
        job.priority = job.hold_reason == Reason::none ? p : job.priority;
      }
    } else if (iequals(key, "SiteFactor")) {
      if (!op) throw Error(Errc::access_denied, "Access/permission denied");
      try {
        std::size_t used = 0;
        long long n = std::stoll(value, &used);
        if (used != value.size()) throw std::invalid_argument(value);
        job.spec.site_factor = n;
      } catch (...) {
        throw Error(Errc::invalid_argument, fmt::format("Invalid site factor: {}", value));
      }
      // The next pass computes the priority again with it.
      if (job.hold_reason == Reason::none && !job.spec.fixed_priority)
        job.priority = c.fresh_priority(job);
    } else if (iequals(key, "Dependency")) {
      pending_only();
      job.dependency = value.empty() ? Dependency{} : parse::dependency(value);
      job.spec.dependency = value;
    } else if (iequals(key, "NumCPUs") || iequals(key, "MinMemoryNode") ||
               iequals(key, "MinMemoryCPU")) {
      pending_only();
      if (iequals(key, "NumCPUs")) {
        std::uint32_t cpus = parse::positive_count(value, "NumCPUs");
        std::uint32_t tasks = std::max<std::uint32_t>(1, job.req.tasks);
        job.spec.cpus_per_task = std::max<std::uint32_t>(1, cpus / tasks);
      } else if (iequals(key, "MinMemoryNode")) {
        job.spec.mem_per_node_mb = parse::memory_mb(value);
        job.spec.mem_per_cpu_mb.reset();
      } else {
        job.spec.mem_per_cpu_mb = parse::memory_mb(value);
        job.spec.mem_per_node_mb.reset();
      }
      const PartitionConfig* p = c.config().find_partition(job.partition);
      if (!p) throw Error(Errc::invalid_partition, "Invalid partition name specified");
      ResourceRequest r = sched::checked_request(job.spec, *p, c.config());
      job.req = r;
    } else if (iequals(key, "StartTime")) {
      // scontrol sends the time resolved, in seconds since the epoch; a time
      // past makes the job eligible now.
      pending_only();
      if (!value_json.is_number_integer())
        throw Error(Errc::invalid_argument, fmt::format("Invalid StartTime: {}", value));
      job.eligible_time = std::max(value_json.get<Seconds>(), c.now());
      // Said now, as the next pass would (a submit does the same): squeue
      // right after the update agrees. A hold or dependency keeps its reason.
      if (job.reason == Reason::none || job.reason == Reason::begin_time)
        job.reason = job.eligible_time > c.now() ? Reason::begin_time : Reason::none;
    } else if (iequals(key, "Reservation")) {
      // Another reservation (or none) for a pending job, checked as at submit.
      pending_only();
      job.spec.options_to_set().reservation = value;
      c.check_reservation_use(job);
      if (job.reason == Reason::reservation) job.reason = Reason::none;
    } else if (iequals(key, "ArrayTaskThrottle")) {
      if (!job.is_array_task())
        throw Error(Errc::invalid_argument, "ArrayTaskThrottle applies to job arrays only");
      job.array_throttle = parse::count(value, "ArrayTaskThrottle");
    } else {
      throw Error(Errc::invalid_argument, fmt::format("Update of {} is not supported", key));
    }
  }
  return job;
}

}  // namespace stint::daemon
