#include <algorithm>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {
namespace {

std::optional<Error> hold_one(Controller& c, Job& job, bool user_hold, const Caller& caller) {
  if (!c.may_act_for(caller, job.user_id))
    return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  if (job.state != JobState::pending)
    return Error(Errc::job_state_invalid, "Job is no longer pending execution");
  // An operator's plain hold is an admin hold, which the owner cannot release.
  job.hold_reason =
      user_hold || !c.is_operator(caller) ? Reason::job_held_user : Reason::job_held_admin;
  job.reason = job.hold_reason;
  job.priority = 0;
  c.save(job);
  return std::nullopt;
}

std::optional<Error> release_one(Controller& c, Job& job, const Caller& caller) {
  if (!c.may_act_for(caller, job.user_id))
    return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  if (job.state != JobState::pending)
    return Error(Errc::job_state_invalid, "Job is no longer pending execution");
  // A job requeued held after a failed launch is held by the admin too.
  if ((job.hold_reason == Reason::job_held_admin || job.hold_reason == Reason::launch_failed) &&
      !c.is_operator(caller))
    return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  // A job held because its reservation went (slurmctld's RESV_DEL_HOLD),
  // which its owner may release, runs without it from now on.
  const std::string& resv = job.spec.options().reservation;
  if (!resv.empty() && std::none_of(c.reservations().begin(), c.reservations().end(),
                                    [&](const Reservation& r) { return r.name == resv; }))
    job.spec.options_to_set().reservation.clear();
  job.hold_reason = Reason::none;
  job.reason = Reason::none;
  job.priority = c.fresh_priority(job);
  c.save(job);
  return std::nullopt;
}

}  // namespace

// Hold and release are job updates in slurmctld (priority 0, or back):
// an ended job is ESLURM_JOB_FINISHED there, not "already completing".
constexpr std::string_view k_finished = "Job has already finished";

Json handle_hold(Controller& c, const Json& req, const Caller& caller) {
  bool user_hold = req.value("user_hold", false);
  return for_each_job(
      c, req, [&](Job& job) { return hold_one(c, job, user_hold, caller); }, NoAfterRef{},
      k_finished);
}

Json handle_release(Controller& c, const Json& req, const Caller& caller) {
  return for_each_job(
      c, req, [&](Job& job) { return release_one(c, job, caller); }, NoAfterRef{}, k_finished);
}

// scontrol suspend and resume: operators only (slurmctld's validate_operator).
Json handle_suspend(Controller& c, const Json& req, const Caller& caller) {
  const bool resume = req.value("resume", false);
  const bool allowed = c.is_operator(caller);
  return for_each_job(
      c, req,
      [&](Job& job) -> std::optional<Error> {
        if (!allowed)
          return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
        return resume ? c.resume_job(job) : c.suspend_job(job);
      },
      NoAfterRef{}, "Job/step already completing or completed");
}

}  // namespace stint::daemon
