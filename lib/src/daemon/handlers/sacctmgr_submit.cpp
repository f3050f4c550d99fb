// What accounts, associations and QOS decide at submit (AccountingStorageEnforce):
// the job's account and QOS, refusals for a missing association or a QOS it
// may not use, the time limit a job without --time gets from its limits, and
// the submit and per-job limits.

#include <algorithm>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/handlers/sacctmgr.hpp"
#include "sched/limits.hpp"

namespace stint::daemon {
namespace {

bool has_submit_limits(const Accounting& data) {
  return std::any_of(data.associations.begin(), data.associations.end(),
                     [](const Association& a) {
                       return a.limits.max_submit_jobs || a.limits.grp_submit_jobs;
                     }) ||
         std::any_of(data.qos.begin(), data.qos.end(), [](const Qos& q) {
           return q.limits.max_submit_jobs_per_user || q.limits.grp_submit_jobs;
         });
}

Error policy_refusal(Reason r) {
  // sbatch prints the reason's name, then Slurm's "Job violates accounting/QOS policy".
  return Error(Errc::accounting_policy, std::string(reason_name(r)));
}

}  // namespace

std::uint64_t largest_node_mem(const Config& config) {
  std::uint64_t mem = 0;
  for (const auto& n : config.nodes()) mem = std::max(mem, n.memory_mb);
  return mem;
}

void resolve_accounting(Controller& c, Job& job) {
  const sched::Enforcement enforce = sched::enforcement(c.config());
  const Accounting& data = c.accounting();
  const JobSpec& spec = job.spec;

  // The account: -A, else the user's default account; a user with no record
  // and no enforcement gets an account named after them, as before.
  const User* user = data.find_user(job.user_name);
  if (spec.account && !spec.account->empty()) {
    job.account = acct::lower(*spec.account);
  } else if (user) {
    job.account = user->default_account;
  } else {
    job.account = enforce.associations ? std::string() : job.user_name;
  }
  const Association* assoc =
      sched::job_association(data, job.account, job.user_name, job.partition);
  if (enforce.associations && !assoc) throw Error(Errc::invalid_account, "");

  // The QOS: -q, else the association's default; it must exist, and with
  // enforcement "qos" be one the association may use.
  job.qos = spec.qos && !spec.qos->empty() ? acct::lower(*spec.qos)
            : assoc                        ? sched::default_qos(data, *assoc)
                                           : std::string("normal");
  if (!data.find_qos(job.qos)) throw Error(Errc::invalid_qos, "");
  if (enforce.qos && assoc) {
    const std::vector<std::string> allowed = sched::effective_qos(data, *assoc);
    if (std::find(allowed.begin(), allowed.end(), job.qos) == allowed.end())
      throw Error(Errc::invalid_qos, "");
  }
  if (!enforce.limits) return;

  // A job without --time gets the MaxWall that applies to it, as in Slurm.
  const sched::JobLimits limits = sched::job_limits(data, job);
  if (!spec.time_limit && limits.max_wall &&
      (job.time_limit == k_infinite || job.time_limit > *limits.max_wall))
    job.time_limit = *limits.max_wall;
  // And the one that fits its limits over time (GrpTRESMins=cpu=600 gives a
  // 2-CPU job 5 hours).
  if (auto t = sched::minutes_time_limit(data, job, largest_node_mem(c.config()));
      t && !spec.time_limit && (job.time_limit == k_infinite || job.time_limit > *t))
    job.time_limit = *t;
  if (auto r = sched::job_size_blocker(data, job, largest_node_mem(c.config())))
    throw policy_refusal(*r);
  if (auto r = sched::job_minutes_refusal(data, job, largest_node_mem(c.config())))
    throw policy_refusal(*r);
}

void check_submit_limits(Controller& c, const std::vector<Job>& jobs) {
  if (jobs.empty() || !sched::enforcement(c.config()).limits) return;
  const Accounting& data = c.accounting();
  if (!has_submit_limits(data)) return;
  sched::LimitTracker tracker(data, largest_node_mem(c.config()));
  for (const auto& [id, job] : c.live()) tracker.add(job);
  if (auto r = tracker.submit_blocker(jobs.front(), static_cast<std::uint32_t>(jobs.size())))
    throw policy_refusal(*r);
}

}  // namespace stint::daemon
