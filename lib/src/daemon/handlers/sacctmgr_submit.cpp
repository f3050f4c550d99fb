// What accounts, associations and QOS decide at submit (AccountingStorageEnforce):
// the job's account and QOS, refusals for a missing association or a QOS it
// may not use, the time limit a job without --time gets from its limits, and
// the submit and per-job limits.

#include <algorithm>

#include <fmt/format.h>

#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/handlers/sacctmgr.hpp"
#include "sched/foreign_names.hpp"
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

void resolve_accounting(Controller& c, Job& job, std::vector<std::string>& warnings) {
  const Config& config = c.config();
  const sched::Enforcement enforce = sched::enforcement(config);
  const Accounting& data = c.accounting();
  JobSpec& spec = job.spec;

  // The account: -A, else the user's default account; a user with no record
  // and no enforcement gets an account named after them, as before.
  const User* user = data.find_user(job.user_name);
  auto default_account = [&] {
    return user ? user->default_account : enforce.associations ? std::string() : job.user_name;
  };
  if (spec.account && !spec.account->empty()) {
    job.account = acct::lower(*spec.account);
    // A cluster's account this machine lacks: its alias, or (map) the default.
    if (auto s = sched::foreign_account(config, data, job.account, enforce.associations)) {
      if (!s->to.empty() && !data.find_account(s->to))
        throw Error(Errc::invalid_account,
                    fmt::format("aliases in {} map account {} to {}, which is not an account "
                                "here (sacctmgr add account {})",
                                sched::alias_source(config), job.account, s->to, s->to));
      const std::string asked = job.account;
      job.account = s->to.empty() ? default_account() : s->to;
      warnings.push_back(sched::foreign_warning(
          config, "account", asked,
          s->to.empty() ? fmt::format("your default account {}", job.account) : job.account, *s));
      spec.account = s->to.empty() ? std::nullopt : std::optional<std::string>(s->to);
    }
  } else {
    job.account = default_account();
  }
  const Association* assoc =
      sched::job_association(data, job.account, job.user_name, job.partition);
  if (enforce.associations && !assoc) throw Error(Errc::invalid_account, "");
  // Without enforcement a mistyped -A still runs, with no association (no
  // fair share, not in sshare; sched/fairshare.hpp): say so, and how to make
  // it a real one, rather than let the typo pass unseen.
  if (spec.account && !spec.account->empty() && !assoc && !data.find_account(job.account) &&
      job.account != job.user_name)
    warnings.push_back(fmt::format(
        "account {} does not exist; the job runs without an association: no fair share, "
        "not in sshare (AccountingStorageEnforce does not check associations; sacctmgr add "
        "account {} makes it one)",
        job.account, job.account));

  // The QOS: -q, else the association's default; it must exist, and with
  // enforcement "qos" be one the association may use.
  auto association_qos = [&] {
    return assoc ? sched::default_qos(data, *assoc) : std::string("normal");
  };
  job.qos = spec.qos && !spec.qos->empty() ? acct::lower(*spec.qos) : association_qos();
  if (auto s = sched::foreign_qos(config, data, job.qos)) {
    if (!s->to.empty() && !data.find_qos(s->to))
      throw Error(Errc::invalid_qos,
                  fmt::format("aliases in {} map QOS {} to {}, which is not a QOS here "
                              "(sacctmgr add qos {})",
                              sched::alias_source(config), job.qos, s->to, s->to));
    const std::string asked = job.qos;
    job.qos = s->to.empty() ? association_qos() : s->to;
    warnings.push_back(sched::foreign_warning(
        config, "QOS", asked, s->to.empty() ? fmt::format("the default QOS {}", job.qos) : job.qos,
        *s));
    spec.qos = s->to.empty() ? std::nullopt : std::optional<std::string>(s->to);
  }
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
  // Without DenyOnLimit the job waits with the reason (LimitTracker::run_blocker).
  if (sched::deny_on_limit(data, job)) {
    if (auto r = sched::job_size_blocker(data, job, largest_node_mem(c.config())))
      throw policy_refusal(*r);
  }
  if (auto r = sched::job_minutes_refusal(data, job, largest_node_mem(c.config())))
    throw policy_refusal(*r);
}

void check_submit_limits(Controller& c, const std::vector<Job>& jobs) {
  if (jobs.empty() || !sched::enforcement(c.config()).limits) return;
  const Accounting& data = c.accounting();
  if (!has_submit_limits(data)) return;
  sched::LimitTracker tracker(data, largest_node_mem(c.config()));
  for (const auto& [id, job] : c.live()) tracker.add(job);
  const std::uint64_t count =
      jobs.front().is_array_record() ? jobs.front().array_pending.size() : jobs.size();
  if (auto r = tracker.submit_blocker(jobs.front(), static_cast<std::uint32_t>(count)))
    throw policy_refusal(*r);
}

}  // namespace stint::daemon
