#pragma once
/// Accounts, users, associations and QOS: the records sacctmgr manages and the
/// limits stintd enforces when AccountingStorageEnforce asks for it. Plain data;
/// the store keeps them (store.hpp), sched/limits.hpp reads and checks them.
///
/// As in Slurm, an association is (account, user, partition) on the one
/// cluster: an account's own association has no user; a user's association
/// with no partition covers every partition the user has no association of
/// its own for. Limits left unset are inherited (Max*) or not applied (Grp*)
/// as sched/limits.hpp describes.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

/// sacctmgr's AdminLevel. Operators may change accounts, users, associations
/// and QOS; only administrators may change admin levels.
enum class AdminLevel : std::uint8_t {
  none,            ///< "None"
  operator_level,  ///< "Operator"
  admin,           ///< "Administrator" (given as Admin or Administrator)
};

/// TRES amounts by Slurm's TRES name: "cpu", "mem" (MiB), "node", "billing",
/// "gres/gpu". A name that is absent has no limit.
using Tres = std::map<std::string, std::int64_t>;

/// Fairshare=parent: the association's usage and shares count as its parent's.
inline constexpr std::uint32_t k_shares_parent = 0x7fffffff;

/// The limits of an association. nullopt (and an absent TRES) is "not set
/// here": Max* limits are then inherited from the nearest ancestor that sets
/// them; Grp* limits are checked at every level that sets them.
struct AssocLimits {
  std::optional<std::int64_t> grp_jobs;         ///< GrpJobs: running jobs beneath
  std::optional<std::int64_t> grp_submit_jobs;  ///< GrpSubmitJobs: pending + running beneath
  Tres grp_tres;                                ///< GrpTRES: TRES of running jobs beneath
  std::optional<std::int64_t> max_jobs;         ///< MaxJobs: running jobs of this user association
  std::optional<std::int64_t> max_submit_jobs;  ///< MaxSubmitJobs
  std::optional<Seconds> max_wall;              ///< MaxWall (MaxWallDurationPerJob)
  Tres max_tres_per_job;                        ///< MaxTRES (MaxTRESPerJob)
  Tres max_tres_per_node;                       ///< MaxTRESPerNode
  /// GrpTRESMins: TRES-minutes of the jobs beneath, past (decayed), present
  /// and, with AccountingStorageEnforce=safe, future.
  Tres grp_tres_mins;
  Tres grp_tres_run_mins;           ///< GrpTRESRunMins: TRES x time left of running jobs beneath
  std::optional<Seconds> grp_wall;  ///< GrpWall: wall time of the jobs beneath (decayed)
  Tres max_tres_mins_per_job;       ///< MaxTRESMins (MaxTRESMinsPerJob): TRES x time limit

  bool operator==(const AssocLimits&) const = default;
};

struct Account {
  std::string name;  ///< lower case, as Slurm keeps it
  std::string description;
  std::string organization;
  std::string parent;  ///< the parent account; empty for root only

  bool operator==(const Account&) const = default;
};

struct User {
  std::string name;
  std::string default_account;
  AdminLevel admin_level = AdminLevel::none;

  bool operator==(const User&) const = default;
};

struct Association {
  std::int64_t id = 0;  ///< assigned by the store; stable while the association exists
  std::string account;
  std::string user;                       ///< empty: the account's own association
  std::string partition;                  ///< empty: any partition
  std::uint32_t shares = 1;               ///< Fairshare (Shares); k_shares_parent for "parent"
  std::optional<std::uint32_t> priority;  ///< Priority (the Assoc priority factor)
  AssocLimits limits;
  /// The QOS this association may use; empty: its parent's.
  std::vector<std::string> qos;
  std::string default_qos;  ///< DefaultQOS; empty: none set

  bool is_user() const { return !user.empty(); }
  bool operator==(const Association&) const = default;
};

/// The limits of a QOS. They override the association's limit of the same
/// kind (Slurm's "QOS limits take precedence").
struct QosLimits {
  std::optional<std::int64_t> grp_jobs;                  ///< GrpJobs: running jobs in this QOS
  std::optional<std::int64_t> grp_submit_jobs;           ///< GrpSubmitJobs
  Tres grp_tres;                                         ///< GrpTRES
  std::optional<std::int64_t> max_jobs_per_user;         ///< MaxJobsPerUser (MaxJobsPU)
  std::optional<std::int64_t> max_submit_jobs_per_user;  ///< MaxSubmitJobsPerUser
  std::optional<Seconds> max_wall;                       ///< MaxWall (MaxWallDurationPerJob)
  Tres max_tres_per_job;                                 ///< MaxTRES (MaxTRESPerJob)
  Tres max_tres_per_node;                                ///< MaxTRESPerNode
  Tres max_tres_per_user;                                ///< MaxTRESPerUser (MaxTRESPU)
  Tres grp_tres_mins;               ///< GrpTRESMins: TRES-minutes of this QOS's jobs
  Tres grp_tres_run_mins;           ///< GrpTRESRunMins
  std::optional<Seconds> grp_wall;  ///< GrpWall
  Tres max_tres_mins_per_job;       ///< MaxTRESMins (MaxTRESMinsPerJob)

  bool operator==(const QosLimits&) const = default;
};

struct Qos {
  std::int64_t id = 0;  ///< assigned by the store
  std::string name;     ///< lower case
  std::string description;
  std::uint32_t priority = 0;            ///< Priority (the QOS priority factor)
  double usage_factor = 1.0;             ///< UsageFactor: multiplies the usage charged
  std::vector<std::string> preempt;      ///< Preempt: QOS this one may preempt
  std::string preempt_mode = "cluster";  ///< PreemptMode: cluster, cancel, requeue, suspend, off
  Seconds grace_time = 0;                ///< GraceTime
  std::optional<Seconds> preempt_exempt_time;  ///< PreemptExemptTime
  std::vector<std::string> flags;              ///< Flags (DenyOnLimit, ...), as given
  QosLimits limits;

  bool operator==(const Qos&) const = default;
};

/// Every record sacctmgr manages, as one snapshot (Store::accounting()).
/// The root account, its association, the root user (Administrator) with an
/// association to root, and the QOS "normal" exist from the start.
struct Accounting {
  std::vector<Account> accounts;          ///< by name
  std::vector<User> users;                ///< by name
  std::vector<Association> associations;  ///< by id
  std::vector<Qos> qos;                   ///< by id

  const Account* find_account(std::string_view name) const {
    auto it = std::find_if(accounts.begin(), accounts.end(),
                           [&](const Account& a) { return a.name == name; });
    return it == accounts.end() ? nullptr : &*it;
  }
  const User* find_user(std::string_view name) const {
    auto it =
        std::find_if(users.begin(), users.end(), [&](const User& u) { return u.name == name; });
    return it == users.end() ? nullptr : &*it;
  }
  const Qos* find_qos(std::string_view name) const {
    auto it = std::find_if(qos.begin(), qos.end(), [&](const Qos& q) { return q.name == name; });
    return it == qos.end() ? nullptr : &*it;
  }
  /// The association of exactly (account, user, partition); nullptr if none.
  const Association* find_association(std::string_view account, std::string_view user,
                                      std::string_view partition) const {
    auto it = std::find_if(associations.begin(), associations.end(), [&](const Association& a) {
      return a.account == account && a.user == user && a.partition == partition;
    });
    return it == associations.end() ? nullptr : &*it;
  }

  bool operator==(const Accounting&) const = default;
};

}  // namespace stint
STINT_API_END
