#pragma once
// Preemption's pure rules: which running job a pending one may preempt, how
// (PreemptMode, GraceTime, PreemptExemptTime from the partition, the QOS or
// the cluster), and which jobs to pick. The pass (pass.cpp) asks; stintd
// (daemon/preempt.cpp) carries the decision out.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/config.hpp>
#include <stint/model.hpp>

#include "sched/sched.hpp"

namespace stint::sched {

/// PreemptType.
enum class PreemptType : std::uint8_t { none, partition_prio, qos };

/// What a preempted job of a partition or a QOS gets.
struct PreemptTerms {
  std::optional<PreemptMode> mode;     ///< unset: the cluster's
  Seconds grace_time = 0;              ///< GraceTime
  std::optional<Seconds> exempt_time;  ///< PreemptExemptTime; unset: the cluster's
};

struct PreemptRules {
  PreemptType type = PreemptType::none;
  PreemptMode cluster_mode = PreemptMode::off;
  Seconds cluster_exempt_time = 0;
  std::map<std::string, std::uint32_t> partition_tier;
  std::map<std::string, PreemptTerms> partition_terms;
  std::map<std::string, PreemptTerms> qos_terms;
  std::map<std::string, std::vector<std::string>> qos_preempts;  ///< QOS Preempt lists

  bool enabled() const { return type != PreemptType::none; }
};

/// The rules slurm.conf (PreemptType, PreemptMode, PreemptExemptTime), the
/// partitions (preempt_mode, grace_time, priority_tier) and the QOS records
/// (Preempt, PreemptMode, GraceTime, PreemptExemptTime) give.
PreemptRules preempt_rules(const Config& config, const Accounting& accounting);

/// The first of OFF, CANCEL, REQUEUE, SUSPEND in a PreemptMode value
/// ("SUSPEND,GANG"); nullopt when there is none ("cluster" in a QOS).
std::optional<PreemptMode> preempt_mode_from_text(std::string_view text);
std::string_view preempt_mode_name(PreemptMode mode);  ///< "REQUEUE"

/// How `victim` is preempted for `preemptor`, or nullopt if it may not be:
/// with partition_prio only a strictly higher PriorityTier preempts; with
/// qos the preemptor's QOS must list the victim's. A job whose mode is OFF is
/// never preempted; REQUEUE becomes CANCEL for a job that may not be requeued.
std::optional<Preemption> preemption_of(const PreemptRules& rules, const Job& preemptor,
                                        const Job& victim);
/// The first time `victim` may be preempted: its start plus PreemptExemptTime.
Seconds preemptable_from(const PreemptRules& rules, const Job& victim);

/// The running jobs to preempt so that `req` fits now on `allowed`: victims
/// are taken lowest priority first, most recently started first among equals,
/// until it fits; then any taken that is not needed is put back (the highest
/// first), so the set is small. nullopt when even all of them are not enough.
std::optional<std::vector<const Job*>> choose_victims(const ResourceRequest& req,
                                                      const std::vector<std::string>& allowed,
                                                      const Cluster& cluster,
                                                      std::vector<const Job*> candidates);

}  // namespace stint::sched
