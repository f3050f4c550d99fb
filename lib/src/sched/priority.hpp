#pragma once
// Multifactor priority (priority/multifactor): each factor of a job and their
// weighted sum, as a pure function of the job, the configuration, fair share
// and a time. stintd (daemon/schedule.cpp) sets Job::priority from it, and
// sprio prints the same factors from the same code.
//
//   priority = site + Σ PriorityWeightX * factor_X (Age, Assoc, Fairshare,
//              JobSize, Partition, QOS) + Σ_tres PriorityWeightTRES[t] * tres_t
//              - nice, at least 1, at most 2^32-1, truncated.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

#include "sched/fairshare.hpp"

namespace stint::sched {

/// PriorityFlags.
struct PriorityFlags {
  bool accrue_always = false;      ///< age counts from submit, even while held or waiting
  bool calculate_running = false;  ///< running jobs get priorities too (and sprio shows them)
  bool no_fair_tree = false;       ///< classic fair share (DEPTH_OBLIVIOUS implies it)
  bool incr_only = false;          ///< a job's priority never goes down
  bool max_tres = false;           ///< billing is the largest weighted TRES, not the sum
  bool no_normal_assoc = false;
  bool no_normal_part = false;
  bool no_normal_qos = false;
  bool no_normal_tres = false;
  bool small_relative_to_time = false;  ///< job size is CPUs per minute of time limit

  bool operator==(const PriorityFlags&) const = default;
};

/// One TRES weight of PriorityWeightTRES or TRESBillingWeights: "cpu", "mem"
/// (per MiB), "node", "billing", "gres/gpu".
struct TresWeight {
  std::string name;
  double weight = 0;
  bool operator==(const TresWeight&) const = default;
};

/// "CPU=1000,Mem=2000,GRES/gpu=3000" -> weights with lower-case names. A
/// memory weight may carry a unit ("Mem=0.25G": per GiB) and is kept per MiB.
/// Entries that do not parse are left out.
std::vector<TresWeight> parse_tres_weights(std::string_view text);

/// The priority settings of the configuration (slurm.conf keys, defaults as
/// Slurm's).
struct PriorityParams {
  bool multifactor = true;  ///< PriorityType=priority/multifactor (else basic: 10000 - nice)
  std::uint32_t weight_age = 0;
  std::uint32_t weight_assoc = 0;
  std::uint32_t weight_fairshare = 0;
  std::uint32_t weight_job_size = 0;
  std::uint32_t weight_partition = 0;
  std::uint32_t weight_qos = 0;
  std::vector<TresWeight> weight_tres;       ///< PriorityWeightTRES
  std::string weight_tres_text;              ///< as written (sprio -w)
  Seconds max_age = Seconds{7} * 24 * 3600;  ///< PriorityMaxAge
  bool favor_small = false;                  ///< PriorityFavorSmall
  PriorityFlags flags;
  Seconds decay_half_life = Seconds{7} * 24 * 3600;  ///< PriorityDecayHalfLife; 0: no decay
  Seconds calc_period = 300;                         ///< PriorityCalcPeriod
  std::string usage_reset_period = "NONE";           ///< PriorityUsageResetPeriod
  std::uint32_t damping = 1;                         ///< FairShareDampeningFactor
  std::vector<TresWeight> billing_weights;  ///< TRESBillingWeights (all partitions); empty: CPUs

  bool operator==(const PriorityParams&) const = default;
};
PriorityParams priority_params(const Config& config);

/// A partition's PriorityJobFactor: stint.yaml's priority_job_factor, else its
/// priority_tier (one number sets both, as Slurm's partition Priority= does).
std::uint32_t partition_job_factor(const PartitionConfig& p);

/// A job's TRES counts as the priority and billing see them: what it holds
/// once it has an allocation, else what it asks for.
TresCounts job_tres_counts(const Job& job);
/// Billable TRES of `counts` (TRESBillingWeights; the sum, or the largest with
/// MAX_TRES); the CPU count when there are no billing weights.
double billing(const TresCounts& counts, const PriorityParams& params);

/// Everything besides the job that its priority depends on, prepared once
/// per calculation.
struct PriorityContext {
  PriorityParams params;
  std::uint32_t node_count = 0;                           ///< nodes of the cluster
  std::uint32_t cluster_cpus = 0;                         ///< CPUs of the cluster
  std::map<std::string, TresCounts> partition_tres;       ///< each partition's totals
  std::map<std::string, Seconds> partition_max_time;      ///< for SMALL_RELATIVE_TO_TIME
  std::map<std::string, std::uint32_t> partition_factor;  ///< PriorityJobFactor by partition
  std::uint32_t max_partition_factor = 0;
  std::map<std::string, std::uint32_t> qos_priority;  ///< QOS Priority by name (none yet: 0)
  std::uint32_t max_qos_priority = 0;
  FairShare fair_share;  ///< factors of the user associations
};
/// The context for `config` and a fair share result. QOS priorities come
/// from the accounts store once it has them.
PriorityContext make_priority_context(const Config& config, FairShare fair_share,
                                      std::map<std::string, std::uint32_t> qos_priority = {});

/// Everything the priorities of the jobs depend on at `now`, the time of a
/// calculation: the configuration, the association tree (tree_from_accounting
/// of `accounting` and the (user, account) pairs of the jobs), the usage of
/// `records` decayed to `now` (their billing set from their TRES, times their
/// QOS's UsageFactor; only what falls after the PriorityUsageResetPeriod
/// reset and after `reset_now`), fair share by Fair Tree or classic
/// (NO_FAIR_TREE), QOS priorities. stintd and sprio both call this.
PriorityContext priority_snapshot(const Config& config, const Accounting& accounting,
                                  const std::vector<AssocKey>& job_assocs,
                                  std::vector<UsageRecord> records, Seconds now, Seconds reset_now);

/// Whether a pending job's wait counts towards its age now: not while held, or
/// waiting on a dependency (its eligible time, which is its accrue time, is
/// then moved to when it became eligible: see daemon/schedule.cpp).
enum class Accruing : std::uint8_t { yes, no };

/// A job's factors: each normalised to [0, 1] (or raw with NO_NORMAL_*), its
/// weight, and the total.
struct PriorityFactors {
  double age = 0;
  double assoc = 0;
  double fairshare = 0;
  double job_size = 0;
  double partition = 0;
  double qos = 0;
  std::vector<std::pair<std::string, double>> tres;  ///< per weighted TRES, its factor
  std::int64_t site = 0;
  std::int64_t nice = 0;
  /// The weighted sum as a double (sprio's PRIORITY before truncation).
  double total = 1;
  /// The job's priority: total clamped to [1, 2^32-1] and truncated.
  std::uint32_t priority = 1;
};

/// The factors of `job` at `now` (the time of the calculation).
PriorityFactors priority_factors(const Job& job, const PriorityContext& ctx, Seconds now,
                                 Accruing accruing = Accruing::yes);

/// The weighted value of a factor (sprio's default columns).
inline double weighted(double factor, std::uint32_t weight) { return factor * weight; }

}  // namespace stint::sched
