#include <algorithm>
#include <csignal>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

bool filter_matches(const Job& job, const Json& req) {
  auto text = [&](const char* key) -> std::optional<std::string> {
    auto it = req.find(key);
    if (it == req.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  if (auto u = text("user"); u && *u != job.user_name && *u != std::to_string(job.user_id))
    return false;
  if (auto p = text("partition"); p && *p != job.partition) return false;
  if (auto n = text("name"); n && *n != job.spec.name) return false;
  if (auto a = text("account"); a && *a != job.account) return false;
  if (auto q = text("qos"); q && *q != job.qos) return false;
  if (auto r = text("reservation"); r && *r != job.spec.options().reservation) return false;
  if (auto w = text("wckey"); w && *w != job.spec.options().wckey) return false;
  if (auto it = req.find("nodes"); it != req.end() && it->is_array()) {
    // Any of the job's nodes among those named: a pending job has none.
    const auto names = job.node_names();
    const bool any = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
      return std::any_of(it->begin(), it->end(), [&n](const Json& w) {
        return w.is_string() && w.get<std::string>() == n;
      });
    });
    if (!any) return false;
  }
  if (auto it = req.find("states"); it != req.end() && it->is_array() && !it->empty()) {
    bool any = false;
    for (const auto& s : *it) {
      auto st = state_from_name(s.get<std::string>());
      any = any || (st && *st == job.state);
    }
    if (!any) return false;
  }
  return true;
}

bool has_filter(const Json& req) {
  for (const char* key :
       {"user", "partition", "name", "account", "states", "qos", "reservation", "wckey", "nodes"}) {
    if (req.contains(key)) return true;
  }
  return false;
}

// Cancels or signals one live job; the error, if it may not be.
std::optional<Error> act(Controller& c, Job& job, int signal, SignalTarget target,
                         const Caller& caller) {
  if (!c.may_act_for(caller, job.user_id))
    return Error(Errc::access_denied, std::string(errc_slurm_message(Errc::access_denied)));
  if (signal != 0) {
    if (job.state != JobState::running)
      return Error(Errc::job_state_invalid, "Job is pending execution");
    // A run's command is its task, not a batch shell with steps: it gets the
    // signal itself.
    if (job.spec.run && target == SignalTarget::steps) target = SignalTarget::all;
    c.signal_running(job, signal, target);
    return std::nullopt;
  }
  // A pending het job goes whole or not at all (its leader's id names it
  // whole); once it runs, a component other than the leader may go alone.
  if (job.state == JobState::pending && job.is_het_component() && !job.is_het_leader() &&
      c.find_live(job.het_job_id))
    return Error(Errc::job_state_invalid,
                 "Operation not permitted on individual component of heterogeneous job");
  job.cancelled_by = caller.uid;
  if (job.state == JobState::pending) {
    c.finish(job, JobState::cancelled);
  } else {
    c.save(job);
    c.cancel_running(job, true);
  }
  return std::nullopt;
}

// Whether `act` would cancel `job` as a pending job: those are ended
// together (Controller::cancel_pending), in one commit. A het job's pending
// component goes so only with its leader, among `with`.
bool cancels_pending(Controller& c, const Job& job, int signal, const Caller& caller,
                     const std::vector<Job*>& with) {
  if (signal != 0 || job.state != JobState::pending || !c.may_act_for(caller, job.user_id))
    return false;
  if (!job.is_het_component() || job.is_het_leader()) return true;
  return std::any_of(with.begin(), with.end(),
                     [&job](const Job* j) { return j->id == job.het_job_id; });
}

}  // namespace

Json handle_cancel(Controller& c, const Json& req, const Caller& caller) {
  // Checked as JSON first: a non-integer (3.3e37) converted to int is undefined
  // behaviour (found by the request fuzzer).
  int signal = 0;
  if (auto it = req.find("signal"); it != req.end()) {
    const std::int64_t n = it->is_number_integer() ? it->get<std::int64_t>() : -1;
    if (n < 0 || n > 64) throw Error(Errc::invalid_argument, "Invalid signal");
    signal = static_cast<int>(n);
  }
  // scancel's KILL_JOB_BATCH and KILL_FULL_JOB: without either, a signal
  // other than SIGKILL goes to the job's steps, not to its batch shell.
  SignalTarget target = SignalTarget::steps;
  if (signal == SIGKILL || req.value("full", false))
    target = SignalTarget::all;
  else if (req.value("batch_only", false))
    target = SignalTarget::batch;
  if (req.contains("job_ids") && !req["job_ids"].empty()) {
    // The pending jobs each reference names (an array's tasks) are cancelled
    // in one commit before the next reference is looked at.
    std::vector<Job*> pending;
    return for_each_job(
        c, req,
        [&](Job& job) -> std::optional<Error> {
          if (!filter_matches(job, req)) return std::nullopt;
          if (cancels_pending(c, job, signal, caller, pending)) {
            pending.push_back(&job);
            return std::nullopt;
          }
          return act(c, job, signal, target, caller);
        },
        [&]() -> std::optional<Error> {
          c.cancel_pending(pending, caller.uid);
          pending.clear();
          return std::nullopt;
        });
  }
  if (!has_filter(req)) throw Error(Errc::invalid_job_id, "No job identification provided");

  std::vector<JobId> matching;
  // Without a user filter, a plain user's filters reach only their own jobs;
  // with one (scancel -u other), the other's jobs are refused one by one, as
  // Slurm's scancel reports them ("Kill job error on job id N: Access/...").
  const bool names_user = req.contains("user");
  for (const auto& [id, job] : c.live()) {
    if (filter_matches(job, req) &&
        (names_user || c.is_operator(caller) || job.user_id == caller.uid))
      matching.push_back(id);
  }
  // The pending jobs are cancelled first, in one commit; the results keep
  // the jobs' order.
  std::vector<Job*> pending;
  for (JobId id : matching) {
    if (Job* job = c.find_live(id); job && cancels_pending(c, *job, signal, caller, pending))
      pending.push_back(job);
  }
  std::vector<std::pair<JobId, Json>> cancelled;  // by id, as `matching` is
  for (Job* job : pending)
    cancelled.emplace_back(job->id, job->is_array_task() ? Json(job->display_id()) : Json(job->id));
  c.cancel_pending(pending, caller.uid);
  Json results = Json::array();
  auto next_cancelled = cancelled.begin();
  for (JobId id : matching) {
    if (next_cancelled != cancelled.end() && next_cancelled->first == id) {
      results.push_back(job_result(next_cancelled->second, std::nullopt));
      ++next_cancelled;
    } else if (Job* job = c.find_live(id)) {
      Json shown = job->is_array_task() ? Json(job->display_id()) : Json(id);
      results.push_back(job_result(shown, act(c, *job, signal, target, caller)));
    }
  }
  return {{"results", results}};
}

}  // namespace stint::daemon
