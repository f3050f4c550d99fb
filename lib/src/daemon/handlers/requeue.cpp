#include <algorithm>
#include <limits>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {

// scontrol requeue / requeuehold: running jobs are stopped and queued again,
// ended ones are queued again, each with the same id.
Json handle_requeue(Controller& c, const Json& req, const Caller& caller) {
  const bool hold = req.value("hold", false);
  const bool special_exit = req.value("special_exit", false);
  // "incomplete": the jobs that are not running are left as they are.
  const bool incomplete = req.value("incomplete", false);
  Json results = Json::array();
  for (const JobRef& ref : requested_refs(req)) {
    std::optional<Error> error;
    std::vector<Job*> live = resolve_live(c, ref, error);
    // Ended jobs (or tasks) come from the store.
    std::vector<Job> ended =
        live.empty() ? c.ended_jobs(ref.id, ref.array_task) : std::vector<Job>{};
    auto check = [&](const Job& job) -> std::optional<Error> {
      if (incomplete && !is_active(job.state)) return std::nullopt;
      if (!c.may_act_for(caller, job.user_id))
        return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
      if (!job.requeue)
        return Error(Errc::job_state_invalid, "Requested operation is presently disabled");
      // slurmctld's _job_requeue_op checks in this order: a pending job is
      // refused once it may be requeued at all.
      if (job.state == JobState::pending)
        return Error(Errc::job_state_invalid, "Job is pending execution");
      // A het job goes back whole, by its leader: its components follow it
      // (Controller::requeue_now). One that has ended would need every
      // component back from the store.
      if (job.is_het_component() && !job.is_het_leader())
        return Error(Errc::invalid_argument, "Job not heterogeneous job leader");
      if (job.is_het_leader() && is_terminal(job.state))
        return Error(Errc::job_state_invalid,
                     "Requeue of an ended heterogeneous job is not supported: submit it again");
      return std::nullopt;
    };
    std::optional<Error> first;
    bool acted = false;
    for (Job* job : live) {
      // Named by its leader's id: it goes back with the leader.
      if (job->is_het_component() && !job->is_het_leader() && job->het_job_id == ref.id) continue;
      auto e = check(*job);
      if (!e && incomplete && !is_active(job->state)) {
        acted = true;
      } else if (!e) {
        c.requeue(*job, hold, caller, special_exit);
        acted = true;
      } else if (!first) {
        first = e;
      }
    }
    for (Job& job : ended) {
      auto e = check(job);
      if (!e && incomplete) {
        acted = true;
      } else if (!e) {
        c.requeue(job, hold, caller, special_exit);
        acted = true;
      } else if (!first) {
        first = e;
      }
    }
    if (!acted && !first) {
      first = c.ever_existed(ref.id, ref.array_task)
                  ? Error(Errc::job_state_invalid, "Job is pending execution")
                  : Error(Errc::invalid_job_id, "Invalid job id specified");
    }
    results.push_back(job_result(ref.as_given, first));
  }
  return {{"results", results}};
}

// scontrol top: the named pending jobs go ahead of the caller's other pending
// jobs in the same partition.
// The list is ordered, first the highest (job_set_top): each job is put above
// the others in turn from the last, so the first ends on top.
Json handle_top(Controller& c, const Json& req, const Caller& caller) {
  Json reversed = req;
  if (reversed.contains("job_ids") && reversed["job_ids"].is_array())
    std::reverse(reversed["job_ids"].begin(), reversed["job_ids"].end());
  Json reply = for_each_job(c, reversed, [&](Job& job) -> std::optional<Error> {
    if (!c.may_act_for(caller, job.user_id))
      return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
    if (job.state != JobState::pending)
      return Error(Errc::job_state_invalid, "Job is no longer pending execution");
    std::uint32_t highest = 0;
    for (const auto& [id, other] : c.live()) {
      if (id != job.id && other.user_id == job.user_id && other.partition == job.partition &&
          other.state == JobState::pending)
        highest = std::max(highest, other.priority);
    }
    // Fixed even when it is already the highest, as slurmctld sets it
    // directly: a later calculation (age, fair share) must not move it down.
    if (highest < std::numeric_limits<std::uint32_t>::max()) ++highest;
    job.priority = std::max(job.priority, highest);
    job.spec.fixed_priority = job.priority;
    c.save(job);
    return std::nullopt;
  });
  // Answers in the order asked.
  if (reply.contains("results") && reply["results"].is_array())
    std::reverse(reply["results"].begin(), reply["results"].end());
  return reply;
}

}  // namespace stint::daemon
