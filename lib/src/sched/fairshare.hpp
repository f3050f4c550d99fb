#pragma once
// Fair share (priority/multifactor): usage per association decayed with
// PriorityDecayHalfLife, and the fair share factor of each user association,
// by Fair Tree (Slurm's default) or the classic 2^(-U/S) (NO_FAIR_TREE).
// Pure functions over plain data: the association tree and the usage records
// come in as arguments, time as `now`. sshare and the scheduler call these.

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/model.hpp>

namespace stint::sched {

/// An association: an account (user empty), or a user in an account.
struct AssocKey {
  std::string user;  ///< empty for an account's own association
  std::string account;
  auto operator<=>(const AssocKey&) const = default;
  bool operator==(const AssocKey&) const = default;
};

/// FairShare=parent: the association uses its parent's fair share.
inline constexpr std::uint32_t k_fairshare_parent = k_shares_parent;

/// One association of the tree, the input of the fair share calculation
/// (tree_from_accounting, or implicit_tree).
struct ShareAssoc {
  AssocKey key;
  std::string parent;          ///< parent account; empty for root (account "root", no user)
  std::uint32_t shares = 1;    ///< RawShares (Fairshare=); k_fairshare_parent for "parent"
  std::uint32_t priority = 0;  ///< the association's Priority (the assoc factor)
};

/// The tree of the accounts store: its accounts (each with the shares and
/// Priority of its own association) and user associations, plus, for the
/// (user, account) pairs of `job_assocs` that it lacks, the implicit tree's
/// associations: the user in a known account with 1 share, and a user's own
/// account (named after them, what a user with no record is charged to)
/// under root with 1 share, the user in it with 1 share. A job charged to
/// any other unknown account has no association (no fair share, not in
/// sshare), as on a cluster. A user's associations limited to a partition
/// count as its one association with the account.
std::vector<ShareAssoc> tree_from_accounting(const Accounting& accounting,
                                             const std::vector<AssocKey>& job_assocs);

/// The name of the tree's root account.
inline constexpr std::string_view k_root_account = "root";

/// The tree stint uses while there are no accounts with shares: root, every
/// account that jobs were charged to directly under root, and every (user,
/// account) pair under its account, all with 1 share. A user association of
/// account "root" hangs directly under root, as Slurm's root user does.
std::vector<ShareAssoc> implicit_tree(const std::vector<AssocKey>& user_assocs);

/// TRES counts: CPUs, memory in MiB, nodes, GPUs.
struct TresCounts {
  double cpu = 0;
  double mem_mb = 0;
  double node = 0;
  double gpu = 0;
};

/// What fair share charges for one run of a job: its billing (TRES billing
/// weight; CPUs by default) for the time it held its allocation.
struct UsageRecord {
  JobId job_id = 0;
  std::uint32_t attempt = 0;  ///< the run's restart count: every attempt counts
  std::string user;
  std::string account;
  double billing = 0;  ///< billable TRES per second (priority_snapshot sets it from tres)
  Seconds start = k_no_time;
  Seconds end = k_no_time;  ///< k_no_time: still running
  std::string qos;          ///< its UsageFactor multiplies the billing
  std::string partition;    ///< the limits over time charge its association
  TresCounts tres;          ///< what the run held
};

/// The usage records of runs as the store reads them (Store::job_runs): what
/// stintd charges and what sprio and sshare recompute, from the same rows.
std::vector<UsageRecord> usage_records(const std::vector<JobRun>& runs);

/// The start of the usage that still counts at `now`: usage before it was reset
/// by PriorityUsageResetPeriod (NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY,
/// YEARLY; local time, weeks start on Sunday 00:00). `reset_now` is when
/// stintd last applied a NOW reset (k_no_time: never).
Seconds usage_reset_since(std::string_view period, Seconds now, Seconds reset_now);

/// The decayed usage of one record at `now`: billing x seconds, each second
/// weighed 2^(-(now - t) / half_life) (the continuous form of Slurm's decay
/// every PriorityCalcPeriod; half_life 0 means no decay). Only time after
/// `since` and before `now` counts; a run that has not ended counts up to `now`.
double decayed_usage(const UsageRecord& r, Seconds now, Seconds half_life, Seconds since);

/// The decayed usage of each user association, summed in (job, attempt)
/// order so that every caller gets the same sums from the same records.
std::map<AssocKey, double> association_usage(std::vector<UsageRecord> records, Seconds now,
                                             Seconds half_life, Seconds since);

enum class FairShareAlgorithm : std::uint8_t { fair_tree, classic };

/// One association as sshare shows it (Slurm's assoc_shares_object).
struct ShareRow {
  ShareAssoc assoc;
  int depth = 0;  ///< root 0; users one deeper than their account
  bool is_root = false;
  double raw_usage = 0;             ///< decayed usage of the association and below
  double norm_shares = 0;           ///< Fair Tree: among siblings; classic: down from root
  double norm_usage = 0;            ///< raw_usage / root's
  double effective_usage = 0;       ///< Fair Tree: among siblings; classic: Slurm's UE
  double level_fs = 0;              ///< Fair Tree's S/U (infinity when unused)
  std::optional<double> fairshare;  ///< users; accounts under classic too
};

struct FairShare {
  std::vector<ShareRow> rows;         ///< sshare's order: depth first, users before accounts
  std::map<AssocKey, double> factor;  ///< the fair share factor of each user association
  /// Each user association's Priority, its own or its nearest account's.
  std::map<AssocKey, std::uint32_t> assoc_priority;
  std::uint32_t max_assoc_priority = 0;  ///< the highest Priority of any association
};

/// The fair share of every association of `tree` given each user
/// association's usage. Fair Tree: level fair share S/U among siblings, the
/// tree walked in LF order, users ranked from the number of user associations
/// down (ties share a rank), factor rank / users. Classic: F = 2^(-UE/S/d)
/// with d = FairShareDampeningFactor. Usage of associations not in the tree is
/// ignored.
FairShare compute_fair_share(const std::vector<ShareAssoc>& tree,
                             const std::map<AssocKey, double>& usage, FairShareAlgorithm algorithm,
                             std::uint32_t damping = 1);

}  // namespace stint::sched
