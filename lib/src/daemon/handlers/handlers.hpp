#pragma once
// One handler per request op (docs/protocol.md). Each validates everything
// before it changes anything, so a refused request leaves no trace.

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include <stint/error.hpp>

#include "daemon/controller.hpp"

namespace stint::daemon {

using Json = nlohmann::json;

Json handle_ping(Controller& c, const Json& req, const Caller& caller);
Json handle_shutdown(Controller& c, const Json& req, const Caller& caller);
Json handle_task_done(Controller& c, const Json& req, const Caller& caller);
Json handle_task_activity(Controller& c, const Json& req, const Caller& caller);
Json handle_submit(Controller& c, const Json& req, const Caller& caller);
Json handle_cancel(Controller& c, const Json& req, const Caller& caller);
Json handle_hold(Controller& c, const Json& req, const Caller& caller);
Json handle_release(Controller& c, const Json& req, const Caller& caller);
Json handle_update_job(Controller& c, const Json& req, const Caller& caller);

Json handle_requeue(Controller& c, const Json& req, const Caller& caller);
Json handle_top(Controller& c, const Json& req, const Caller& caller);
Json handle_run_stop(Controller& c, const Json& req, const Caller& caller);
Json handle_run_refresh(Controller& c, const Json& req, const Caller& caller);
// Projects and run-delete (handlers/project.cpp).
Json handle_run_delete(Controller& c, const Json& req, const Caller& caller);
Json handle_project_create(Controller& c, const Json& req, const Caller& caller);
Json handle_project_delete(Controller& c, const Json& req, const Caller& caller);
Json handle_batch_script(Controller& c, const Json& req, const Caller& caller);
Json handle_job_env(Controller& c, const Json& req, const Caller& caller);
// Storages, named folders kept across runs (handlers/storage.cpp).
Json handle_storage_create(Controller& c, const Json& req, const Caller& caller);
Json handle_storage_delete(Controller& c, const Json& req, const Caller& caller);
/// Throws unless storage `name` exists and belongs to `uid` (root may use any).
void check_storage_use(Controller& c, const std::string& name, std::uint32_t uid);
// Job steps run by srun (handlers/step.cpp).
Json handle_step_begin(Controller& c, const Json& req, const Caller& caller);
Json handle_step_end(Controller& c, const Json& req, const Caller& caller);
Json handle_step_cancel(Controller& c, const Json& req, const Caller& caller);
Json handle_step_update(Controller& c, const Json& req, const Caller& caller);

// Nodes, partitions and the config (handlers/nodes.cpp).
Json handle_update_node(Controller& c, const Json& req, const Caller& caller);
Json handle_update_partition(Controller& c, const Json& req, const Caller& caller);
Json handle_suspend(Controller& c, const Json& req, const Caller& caller);
Json handle_create_partition(Controller& c, const Json& req, const Caller& caller);
Json handle_delete_partition(Controller& c, const Json& req, const Caller& caller);
Json handle_reconfigure(Controller& c, const Json& req, const Caller& caller);

// Advance reservations (handlers/reservation.cpp).
Json handle_resv_create(Controller& c, const Json& req, const Caller& caller);
Json handle_resv_update(Controller& c, const Json& req, const Caller& caller);
Json handle_resv_delete(Controller& c, const Json& req, const Caller& caller);

// sacctmgr (handlers/sacctmgr*.cpp): accounts, users, associations, QOS.
Json handle_acct_add(Controller& c, const Json& req, const Caller& caller);
Json handle_acct_modify(Controller& c, const Json& req, const Caller& caller);
Json handle_acct_delete(Controller& c, const Json& req, const Caller& caller);
Json handle_db_compact(Controller& c, const Json& req, const Caller& caller);

// What accounts and limits decide at submit (handlers/sacctmgr_submit.cpp).
/// Sets a new job's account and QOS (and, under limits, a MaxWall default for
/// a job without --time); throws Slurm's refusals for an invalid account or
/// QOS and Errc::accounting_policy for a per-job limit. An account or QOS
/// this machine lacks is mapped by stint.yaml's aliases (StintForeignNames),
/// with a warning added to `warnings`.
void resolve_accounting(Controller& c, Job& job, std::vector<std::string>& warnings);
/// The rarer sbatch options stintd acts on at submission
/// (handlers/submit_options.cpp): --uid and --gid from root, refusals of what
/// this machine cannot honour.
void apply_job_options(Controller& c, Job& job, const Caller& caller);
/// The submit limits (MaxSubmitJobs, GrpSubmitJobs, QOS MaxSubmitJobsPerUser)
/// for the jobs of one submission; throws Errc::accounting_policy.
void check_submit_limits(Controller& c, const std::vector<Job>& jobs);
/// The most memory any node has (what a whole-node memory request counts as).
std::uint64_t largest_node_mem(const Config& config);

/// A job as a request names it: 12 (a job, or a whole array), or "12_3".
struct JobRef {
  JobId id = 0;
  std::uint32_t array_task = k_no_array_task;
  Json as_given;  ///< echoed back in results
};
/// The jobs a request names ("job_ids": [..]); throws Errc::protocol.
std::vector<JobRef> requested_refs(const Json& req);
/// One entry: a number or an "A_T" string; throws Errc::protocol.
JobRef job_ref(const Json& entry);
/// The live jobs a reference names; when there are none, the error to report
/// (the job ended: job_state_invalid, with `ended_message` when one is given,
/// else Slurm's "Job/step already completing or completed"; it never existed:
/// invalid_job_id).
std::vector<Job*> resolve_live(Controller& c, const JobRef& ref, std::optional<Error>& error,
                               std::string_view ended_message = {});

/// A per-job outcome for replies that act on several jobs.
Json job_result(const Json& job_id, const std::optional<Error>& error);

/// Runs `act` on every live job each reference names and collects the results;
/// `after_ref` runs once each reference's jobs are done (scancel ends the
/// pending ones it gathered there, in one commit), before its result is taken.
/// A reference to an ended job gets `ended_message` (resolve_live).
struct NoAfterRef {
  std::optional<Error> operator()() const { return std::nullopt; }
};
template <typename Act, typename AfterRef = NoAfterRef>
Json for_each_job(Controller& c, const Json& req, Act&& act, AfterRef&& after_ref = {},
                  std::string_view ended_message = {}) {
  Json results = Json::array();
  for (const JobRef& ref : requested_refs(req)) {
    std::optional<Error> error;
    std::vector<Job*> jobs = resolve_live(c, ref, error, ended_message);
    if (jobs.empty()) {
      results.push_back(job_result(ref.as_given, error));
      continue;
    }
    std::optional<Error> first_error;
    for (Job* job : jobs) {
      auto e = act(*job);
      if (e && !first_error) first_error = e;
    }
    if (auto e = after_ref(); e && !first_error) first_error = e;
    results.push_back(job_result(ref.as_given, first_error));
  }
  return {{"results", results}};
}

}  // namespace stint::daemon
