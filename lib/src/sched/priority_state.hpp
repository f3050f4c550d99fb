#pragma once
// What stintd keeps between scheduling passes to give every job its
// multifactor priority: the usage of the runs that ended, the associations
// jobs were charged to, the snapshot of the last calculation, and what each
// job's priority was set to. In memory only; the store I/O is the caller's
// (daemon/schedule.cpp), so this is tested with plain jobs and a fixed clock.
//
// When priorities are computed, as Slurm's decay thread does it and a little
// more eagerly:
// - everything, at the time T of a calculation: every PriorityCalcPeriod,
//   when a job stops running (its usage counts: fair share changes), when a
//   new association or a changed configuration or accounts store appears;
// - a job that has no priority from this state yet (submitted, released,
//   requeued, its nice changed): at once, with the snapshot of T.
// Between calculations a job's priority stays as it was (its age grows at the
// next one), which is what sprio shows: it computes the same snapshot at T.

#include <map>
#include <set>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/config.hpp>
#include <stint/model.hpp>

#include "sched/priority.hpp"

namespace stint::sched {

class PriorityState {
 public:
  bool loaded() const { return m_loaded; }
  /// The ended runs and the (user, account) pairs of every job in the store,
  /// once at start; `reset_now`: when usage was last reset by
  /// PriorityUsageResetPeriod=NOW (k_no_time: never).
  void load(std::vector<UsageRecord> ended, const std::vector<AssocKey>& job_assocs,
            Seconds reset_now);

  /// The jobs that ran at the last pass and run no more (ended, or requeued):
  /// the caller reads their runs from the store for add_ended.
  std::vector<JobId> stopped_running(const std::map<JobId, Job>& live) const;
  /// Replaces what is known of the runs of `jobs` by `ended` (their runs that
  /// have ended).
  void add_ended(const std::vector<JobId>& jobs, std::vector<UsageRecord> ended);

  /// Whether everything is to be computed again at `now` (see above);
  /// `stopped` is stopped_running's answer.
  bool due(const std::map<JobId, Job>& live, const Config& config, const Accounting& accounting,
           Seconds now, bool stopped) const;
  /// Computes the snapshot at `now`, which becomes T: the ended runs and the
  /// live running jobs up to `now`, the tree of `accounting` and the jobs.
  void recompute(const std::map<JobId, Job>& live, const Config& config,
                 const Accounting& accounting, Seconds now);

  /// Gives the live jobs their priorities from the snapshot: every pending
  /// one (running ones too with CALCULATE_RUNNING) after a recompute,
  /// otherwise those whose priority this state did not set. Held jobs keep 0.
  /// A priority an operator fixed (JobSpec::fixed_priority) is kept. A job that
  /// waited (held, or on a dependency) and no longer does gets `now` as its
  /// eligible time, its accrue time: its age starts then; while it waits it
  /// does not age. `eligible`: the pending jobs whose dependencies are met.
  /// Returns the jobs that changed, to be saved.
  std::vector<JobId> assign(std::map<JobId, Job>& live, const std::set<JobId>& eligible,
                            Seconds now, bool recomputed);
  /// The same, with `eligible` sorted by id (what stintd has at hand).
  std::vector<JobId> assign(std::map<JobId, Job>& live, const std::vector<JobId>& eligible,
                            Seconds now, bool recomputed);

  /// The priority a job that has none from this state yet (submitted,
  /// released, requeued, its nice changed) is given at once, from the last
  /// snapshot, so that it compares with the others at once (scontrol top,
  /// squeue) before the next pass assigns it; before any snapshot,
  /// priority/basic's.
  std::uint32_t fresh_priority(const Job& job) const;

  Seconds calc_time() const { return m_calc_time; }
  /// The runs that ended, as known (the limits over time count them in every
  /// pass: the list is kept until the runs change, not copied each time).
  const std::vector<UsageRecord>& ended_runs() const;
  /// When usage was last reset by PriorityUsageResetPeriod=NOW (k_no_time: never).
  Seconds reset_now() const { return m_reset_now; }
  const PriorityContext& context() const { return m_ctx; }

 private:
  bool m_loaded = false;
  bool m_computed = false;
  std::map<std::pair<JobId, std::uint32_t>, UsageRecord> m_ended;
  mutable std::vector<UsageRecord> m_ended_list;  ///< m_ended's records, for ended_runs
  mutable bool m_ended_list_stale = true;
  std::set<AssocKey> m_assocs;
  Seconds m_reset_now = k_no_time;
  PriorityParams m_params;
  Accounting m_accounting;
  PriorityContext m_ctx;
  Seconds m_calc_time = k_no_time;
  // By job id, in order: assign() walks them beside the live jobs (a map,
  // also in id order), so each job costs no lookup.
  std::vector<JobId> m_running;
  std::vector<JobId> m_waiting;
  std::vector<std::pair<JobId, std::uint32_t>> m_assigned;  ///< the priority this state gave
};

/// A live job's run so far, as fair share charges it.
UsageRecord running_record(const Job& job);

}  // namespace stint::sched
