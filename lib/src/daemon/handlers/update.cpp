#include <stint/error.hpp>
#include <stint/parse.hpp>

#include <cctype>

#include <fmt/core.h>

#include "daemon/handlers/handlers.hpp"
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

// All fields are checked on a copy first; the job changes only if all are valid.
Json handle_update_job(Controller& c, const Json& req, const Caller& caller) {
  JobId id = req.at("job_id").get<JobId>();
  Job* live = c.find_live(id);
  if (!live) {
    if (c.find_any(id)) throw Error(Errc::job_state_invalid, "Job is no longer pending execution");
    throw Error(Errc::invalid_job_id, "Invalid job id specified");
  }
  if (!c.may_act_for(caller, live->user_id))
    throw Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  const bool op = c.is_operator(caller);
  Job job = *live;
  for (const auto& [key, value_json] : req.at("fields").items()) {
    std::string value = value_json.is_string() ? value_json.get<std::string>() : value_json.dump();
    if (iequals(key, "TimeLimit")) {
      Seconds t = parse::time_limit(value);
      bool longer = job.time_limit != k_infinite && (t == k_infinite || t > job.time_limit);
      if (longer && !op)
        throw Error(Errc::access_denied, "Access/permission denied: only operators may raise "
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
      if (job.hold_reason == Reason::none) job.priority = sched::job_priority(job);
    } else if (iequals(key, "JobName") || iequals(key, "Name")) {
      job.spec.name = value;
    } else if (iequals(key, "Comment")) {
      job.spec.comment = value;
    } else if (iequals(key, "Partition")) {
      if (job.state != JobState::pending)
        throw Error(Errc::job_state_invalid, "Job is no longer pending execution");
      const PartitionConfig* p = c.config().find_partition(value);
      if (!p) throw Error(Errc::invalid_partition, "Invalid partition name specified");
      auto nodes = c.config().partition_nodes(*p);
      ResourceRequest r = sched::make_request(job.spec, nodes, c.config());
      if (auto refusal = sched::never_fits(r, nodes)) throw *refusal;
      job.partition = p->id;
      job.req = r;
    } else {
      throw Error(Errc::invalid_argument, fmt::format("Update of {} is not supported", key));
    }
  }
  *live = job;
  c.save(*live);
  return Json::object();
}

}  // namespace stint::daemon
