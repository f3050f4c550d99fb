#pragma once
// Associations, QOS and their limits, as Slurm applies them
// (slurm.conf AccountingStorageEnforce, resource_limits.html). Pure: the
// records come in as an Accounting snapshot, the jobs as the controller holds
// them, time not at all.
//
// The limit hierarchy:
// - A job's association is (account, user, partition), else (account, user)
//   with no partition. Its chain goes up through the account's own
//   association and the parent accounts' to root.
// - Max* limits (MaxJobs, MaxSubmitJobs, MaxWall, MaxTRES, MaxTRESPerNode)
//   come from the first place that sets them: the job's QOS, then the chain
//   from the user's association upwards. They count the user association's
//   own jobs (MaxJobs) or the job itself (MaxWall, MaxTRES).
// - Grp* limits (GrpJobs, GrpSubmitJobs, GrpTRES) hold at every level of the
//   chain that sets them, each over the jobs beneath it; a QOS Grp limit of
//   the same kind replaces them all (and counts the jobs of that QOS).
// - QOS per-user limits (MaxJobsPerUser, MaxSubmitJobsPerUser,
//   MaxTRESPerUser) count the user's jobs in that QOS.
// Submit limits (MaxSubmitJobs, GrpSubmitJobs, MaxSubmitJobsPerUser) refuse a
// submission; the per-job ones (MaxWall, MaxTRES, MaxTRESPerNode) refuse it
// only when its QOS has Flags=DenyOnLimit (acct_policy.c's strict checking),
// else the job waits with the limit's reason, as the run limits keep a
// pending job pending.
//
// Limits over time (limits_minutes.cpp), as slurmctld's acct_policy.c applies
// them; usage is in TRES-seconds, a limit in TRES-minutes counts as 60 times:
// - GrpTRESMins: the decayed TRES-seconds of the runs beneath (ended ones and
//   running ones so far, decayed as fair share decays usage, QOS UsageFactor
//   included) at or over the limit keeps jobs pending. With
//   AccountingStorageEnforce=safe a job starts only if its TRES x time limit
//   also fits in what is left once the running jobs' remaining TRES x time is
//   taken. Slurm also kills running jobs when the limit is reached without
//   safe; stint does not (a job that started runs to its time limit).
// - GrpTRESRunMins: the running jobs' TRES x time left plus the job's TRES x
//   time limit must fit.
// - GrpWall: the decayed wall time of the runs beneath at or over the limit
//   (with safe: plus the job's time limit over it) keeps jobs pending.
// - MaxTRESMins (MaxTRESMinsPerJob, a Max* limit): TRES x time limit of the job.
// A QOS limit on a TRES replaces the associations' limit of the same kind on
// that TRES. These keep a job pending; they refuse it at submit only when
// its QOS has Flags=DenyOnLimit (Slurm's strict checking), and then only for
// what no usage could ever allow (the job's own TRES x time limit, or time
// limit for GrpWall, over the limit).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/config.hpp>
#include <stint/model.hpp>

#include "sched/fairshare.hpp"

namespace stint::sched {

/// AccountingStorageEnforce: which rules are applied. `limits` and `qos`
/// imply `associations`, `safe` implies `limits`; `all` is everything.
struct Enforcement {
  bool associations =
      false;            ///< a job needs an association (user in the account, partition allowed)
  bool limits = false;  ///< association and QOS limits
  bool qos = false;     ///< a job's QOS must be one its association allows
  bool safe = false;    ///< start a job against a TRES-minutes limit only if it can finish
};
Enforcement enforcement(const Config& config);

// --- Text forms, as sacctmgr reads and prints them (limits_text.cpp) -------

/// "None", "Operator", "Administrator".
std::string_view admin_level_name(AdminLevel level);
/// None, Operator, Admin or Administrator in any case; nullopt otherwise.
std::optional<AdminLevel> admin_level_from_name(std::string_view text);

/// TRES in Slurm's order: cpu, mem, energy, node, billing, then the rest by name.
/// Memory prints with the largest exact unit ("mem=2G").
std::string format_tres(const Tres& tres);
/// "cpu=4,mem=2G,gres/gpu=1,node=1" (names in any case, "gpu" for gres/gpu;
/// memory with an optional K/M/G/T suffix, in MiB). A value of -1 asks to
/// remove that limit and is kept as -1. Throws Errc::invalid_argument.
Tres parse_tres(std::string_view text);

/// One "Key=value", "Key+=value" or "Key-=value" of an add or modify command,
/// as typed (the key in any case).
struct Setting {
  std::string key;
  std::string op = "=";  ///< "=", "+=" or "-="
  std::string value;
  bool operator==(const Setting&) const = default;
};
/// Splits "Key=value", "Key+=value", "Key-=value"; nullopt when there is no '='.
std::optional<Setting> split_setting(std::string_view word);

/// Sets one association setting on `a`: a key of Slurm's
/// sacctmgr_set_assoc_rec, matched as sacctmgr matches it (any case, at least
/// the key's fewest letters, the first key of Slurm's order the word starts;
/// "MaxJob" is MaxJobs, "MaxCPUMin" MaxCPUMinsPerJob). "-1" clears a limit.
/// QOS names must exist in `data`; `QOS+=`/`QOS-=` (or `QOS=+a,-b`) start
/// from `inherited_qos` when `a` has no list of its own. Returns false when
/// the key is not an association setting; throws Errc::invalid_argument with
/// sacctmgr's message on a bad value, and for Slurm's keys stint does not
/// keep (MinPrioThresh, GrpJobsAccrue, ...) says what to use instead.
bool apply_assoc_setting(Association& a, const Setting& s, const Accounting& data,
                         const std::vector<std::string>& inherited_qos);
/// Sets one QOS setting: a key of qos_functions.c's, matched as
/// apply_assoc_setting matches (MaxJobs is MaxJobsPerUser, MaxCpus
/// MaxCPUsPerJob). Returns false for a key that is not a QOS setting; throws
/// Errc::invalid_argument.
bool apply_qos_setting(Qos& q, const Setting& s, const Accounting& data);
/// Whether `key` names an association setting (for sacctmgr's early checks),
/// one stint refuses included.
bool is_assoc_setting(std::string_view key);
/// Whether `key` names a QOS setting.
bool is_qos_setting(std::string_view key);
/// Slurm's full name of the association setting `key` names ("Parent" for
/// "par"), or nullopt.
std::optional<std::string_view> assoc_setting_name(std::string_view key);
/// Slurm's full name of the QOS setting `key` names, or nullopt.
std::optional<std::string_view> qos_setting_name(std::string_view key);

/// The `Key = value` lines sacctmgr prints for what a setting set, in
/// Slurm's order and spelling ("  MaxJobs       = 2", "  GrpTRES       = cpu=4").
/// `parent`, when not empty, adds the "Parent" line in its place.
std::vector<std::string> assoc_limit_lines(const Association& a, const std::vector<Setting>& given,
                                           std::string_view parent = {});
std::vector<std::string> qos_limit_lines(const Qos& q, const std::vector<Setting>& given);

/// A count limit as sacctmgr shows it: empty when unset.
std::string format_limit(const std::optional<std::int64_t>& v);
/// MaxWall as sacctmgr shows it: "HH:MM:SS" or "D-HH:MM:SS"; empty when unset.
std::string format_wall(const std::optional<Seconds>& v);

// --- The association tree (limits_tree.cpp) ---------------------------------

/// The association a job of `user` in `account` and `partition` runs under:
/// (account, user, partition), else (account, user, ""); nullptr if neither.
const Association* job_association(const Accounting& data, std::string_view account,
                                   std::string_view user, std::string_view partition);
/// The parent of an association: a user's association's parent is its
/// account's association; an account's, its parent account's. nullptr for root.
const Association* parent_association(const Accounting& data, const Association& a);
/// `a`, then each parent up to root.
std::vector<const Association*> association_chain(const Accounting& data, const Association& a);
/// The QOS `a` may use: its own list, else the nearest ancestor's; sorted.
std::vector<std::string> effective_qos(const Accounting& data, const Association& a);
/// The QOS a job gets without -q: the association's DefaultQOS (nearest in
/// the chain), else the only QOS it may use, else "normal".
std::string default_qos(const Accounting& data, const Association& a);
/// Every association in Slurm's tree order (sacctmgr show assoc): an
/// account's own association, its users' (by name; no partition first), then
/// its child accounts (by name) recursively. With the depth of each (root 0).
std::vector<std::pair<const Association*, int>> association_tree(const Accounting& data);
/// The accounts beneath `account` (children, grandchildren, ...).
std::vector<std::string> descendant_accounts(const Accounting& data, std::string_view account);

// --- Limits (limits.cpp) ---------------------------------------------------

/// What a job holds or asks for, in TRES: cpu, mem (MiB), node, gres/gpu,
/// billing (= cpu). A running job's from its allocation; a pending one's from
/// its request (`node_mem_mb` stands for a whole node's memory).
Tres job_tres(const Job& job, std::uint64_t node_mem_mb);

/// The limits that apply to one job: its QOS's and its association chain's,
/// merged by the hierarchy above (each with the reason it gives).
struct JobLimits {
  const Association* assoc = nullptr;  ///< nullptr: no association (enforcement off)
  std::vector<const Association*> chain;
  const Qos* qos = nullptr;
  std::optional<Seconds> max_wall;
  Reason max_wall_reason = Reason::none;
};
JobLimits job_limits(const Accounting& data, const Job& job);

/// Per-job limits (MaxWall, MaxTRES, MaxTRESPerNode of the QOS or the
/// association chain) for a job at submit; the reason it breaks, if any.
/// They refuse the job only where deny_on_limit says so.
std::optional<Reason> job_size_blocker(const Accounting& data, const Job& job,
                                       std::uint64_t node_mem_mb);

/// Whether the job's QOS has Flags=DenyOnLimit: a limit it breaks refuses it
/// at submit rather than keeping it pending.
bool deny_on_limit(const Accounting& data, const Job& job);

/// The job's TRES x time limit, or the limits over time, that refuse it at
/// submit: only when its QOS has DenyOnLimit (see above).
std::optional<Reason> job_minutes_refusal(const Accounting& data, const Job& job,
                                          std::uint64_t node_mem_mb);

/// The time limit a job without --time gets from the limits over time, as
/// Slurm gives it: the smallest of each limit's whole minutes over the job's
/// count of that TRES (GrpWall itself); nullopt when none applies.
std::optional<Seconds> minutes_time_limit(const Accounting& data, const Job& job,
                                          std::uint64_t node_mem_mb);

/// How the limits over time count usage: at `now`, decayed with
/// PriorityDecayHalfLife, from the last PriorityUsageResetPeriod reset.
struct UsageClock {
  Seconds now = 0;
  Seconds half_life = 0;      ///< 0: no decay
  Seconds since = k_no_time;  ///< usage before this was reset
  bool safe = false;          ///< AccountingStorageEnforce=safe
};
/// The clock of `config` at `now`; `reset_now` as PriorityState::reset_now.
UsageClock usage_clock(const Config& config, Seconds now, Seconds reset_now);
/// A running (or starting) job's decayed seconds so far and seconds left of
/// its time limit (infinity for an infinite one), at `clock`.
std::pair<double, double> running_time(const Job& job, const UsageClock& clock);

/// Counts the jobs of each association and QOS, and answers whether one more
/// may be submitted or started. Build one per scheduling pass (or submit)
/// from the live jobs, then ask.
class LimitTracker {
 public:
  /// `node_mem_mb`: the memory a whole-node request stands for (the largest node's).
  LimitTracker(const Accounting& data, std::uint64_t node_mem_mb);
  /// Turns on the limits over time, before add(): the usage of the runs that
  /// ended (fair share's records) counts at `clock`. Without it those limits
  /// are not checked; nor are they when no association or QOS sets one.
  void track_usage(const UsageClock& clock, const std::vector<UsageRecord>& ended);
  /// Counts a live job: pending ones toward the submit limits, active ones
  /// toward both (and, with track_usage, their usage and time left). Ended
  /// jobs are ignored.
  void add(const Job& job);
  /// The run limit that keeps pending `job` from starting now, if any.
  std::optional<Reason> run_blocker(const Job& job) const;
  /// The limit over time that keeps pending `job` from starting now (part of
  /// run_blocker); none without track_usage.
  std::optional<Reason> time_blocker(const Job& job) const;
  /// `job` starts (in this pass): counts it as running.
  void started(const Job& job);
  /// The submit limit that `count` more jobs like `job` would break, if any.
  std::optional<Reason> submit_blocker(const Job& job, std::uint32_t count) const;

 private:
  struct Usage {
    std::int64_t running = 0;
    std::int64_t submitted = 0;  ///< pending + running
    Tres tres;                   ///< of running jobs
    /// Limits over time, in TRES-seconds (doubles: an infinite time limit
    /// leaves infinite time): decayed usage, and running jobs' time left.
    std::map<std::string, double> used_secs;
    std::map<std::string, double> run_secs;
    double wall = 0;  ///< decayed wall seconds
  };
  void count(const Job& job, bool running, bool submitted);
  /// Adds usage over time to the association chain of (account, user,
  /// partition) and to the QOS.
  void count_time(const JobLimits& jl, const std::string& qos, const Tres& tres, double used,
                  double left);

  /// job_limits, worked out once per (account, user, partition, QOS).
  const JobLimits& limits_of(const Job& job) const;

  const Accounting& m_data;
  std::uint64_t m_node_mem_mb;
  std::optional<UsageClock> m_clock;    ///< set by track_usage
  std::map<std::int64_t, Usage> m_own;  ///< by association id: its own jobs
  std::map<std::int64_t, Usage> m_grp;  ///< by association id: its jobs and those beneath
  std::map<std::string, Usage> m_qos;   ///< by QOS name
  std::map<std::pair<std::string, std::string>, Usage> m_qos_user;  ///< by (QOS, user)
  mutable std::map<std::tuple<std::string, std::string, std::string, std::string>, JobLimits>
      m_cache;
};

}  // namespace stint::sched
