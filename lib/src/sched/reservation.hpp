#pragma once
// Advance reservations in the scheduler (pure, as the rest of sched/): who
// may use one, where and from when a job may run because of them, and the
// checks of a new or changed reservation against the running jobs and the
// other reservations (slurmctld's reservation.c).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/error.hpp>
#include <stint/reservation.hpp>

#include "sched/sched.hpp"

namespace stint::sched {

class Plan;

/// The account and its parents up to root, for Accounts= (a reservation
/// that names an account admits its sub-accounts, as Slurm's association
/// check walks the parents).
std::vector<std::string> account_chain(const Accounting& data, const std::string& account);

/// Whether a job of `user` (named, or by uid) charged to `accounts` (its
/// account first, then the parents) may use `r`, as slurmctld decides:
/// Users= must admit the user; then, unless only users were named,
/// Accounts= must admit one of the accounts. A list of denied names ("-a")
/// admits everyone else.
bool may_use(const Reservation& r, const std::string& user, std::uint32_t uid,
             const std::vector<std::string>& accounts);

/// Whether two reservations' windows meet, their repetitions over a week
/// included (slurmctld's _resv_time_overlap).
bool windows_overlap(const Reservation& a, const Reservation& b);

/// The next occurrence of a repeating reservation (HOURLY, DAILY, WEEKDAY,
/// WEEKEND, WEEKLY) once the current one is over, as slurmctld's
/// _advance_resv_time moves it at `now`; nullopt when it does not repeat.
std::optional<Reservation> next_occurrence(const Reservation& r, Seconds now);

/// What a reservation keeps from the jobs that are not in it: its nodes,
/// from its start (or now) to its end.
struct ResvWindow {
  const Reservation* reservation = nullptr;
  Seconds from = 0;
  Seconds to = 0;
};

/// The reservations as one scheduling pass sees them.
class ReservationRules {
 public:
  /// `account_parents`: each account's parent (Accounts= admits sub-accounts).
  ReservationRules(const std::vector<Reservation>& reservations,
                   std::map<std::string, std::string> account_parents, Seconds now);
  bool empty() const { return m_windows.empty(); }

  /// Holds each reservation's nodes in `plan` (whole nodes) over its window.
  void block(Plan& plan, const Cluster& cluster) const;

  /// What the reservations mean for one job.
  struct JobView {
    /// It cannot be placed now: it waits with this reason (Reservation
    /// before its reservation's window; ReqNodeNotAvail, Reserved for
    /// maintenance when reservations take its whole partition).
    std::optional<Reason> wait;
    const Reservation* in = nullptr;  ///< the reservation it runs in
    /// The nodes it may use when they are not its partition's (a job in a
    /// reservation: the reservation's nodes of its partition).
    std::optional<std::vector<std::string>> nodes;
    /// The latest start it may have (its reservation's end).
    std::optional<Seconds> latest;
    /// The reservations whose blocks do not hold for it.
    std::vector<const Reservation*> lifted;
  };
  /// `partition_nodes`: the job's partition's nodes; `duration`: its time
  /// limit (k_plan_forever when it has none).
  JobView view(const Job& job, const std::vector<std::string>& partition_nodes,
               Seconds duration) const;
  /// Takes away (lift) and gives back (restore) the blocks `v` lifts, for
  /// the time the job is placed in `plan`.
  void lift(Plan& plan, const Cluster& cluster, const JobView& v) const;
  void restore(Plan& plan, const Cluster& cluster, const JobView& v) const;
  /// The nodes reservations keep from the job in [now, now + duration)
  /// (sched/builtin, which has no plan).
  std::vector<std::string> blocked(const JobView& v, Seconds duration) const;

 private:
  const Reservation* find(const std::string& name) const;
  void add_blocks(Plan& plan, const Cluster& cluster, const ResvWindow& w, bool remove) const;

  const std::vector<Reservation>& m_reservations;
  std::map<std::string, std::string> m_account_parents;
  Seconds m_now;
  std::vector<ResvWindow> m_windows;  ///< the reservations not over yet
};

/// A new or changed reservation's refusal, if any: its nodes shared with
/// another reservation whose window meets its own (reservation_overlap,
/// unless either is MAINT or OVERLAP), or with a running job (not one of its
/// own) that would still run at its start (nodes_busy, unless IGNORE_JOBS).
/// `running` are the active jobs; a job without a time limit runs for ever.
std::optional<Error> reservation_conflict(const Reservation& r,
                                          const std::vector<Reservation>& others,
                                          const std::vector<const Job*>& running);

/// NodeCnt=: the first `count` of `candidates` (config order) that are up
/// (not in `unavailable`), offer `features` ("a&b" or "a|b"), are in no
/// reservation that meets `r`'s window (unless MAINT or OVERLAP), and, unless
/// IGNORE_JOBS, run no job that would still run at its start. Throws
/// Errc::node_config_unavailable when too few nodes could ever do,
/// Errc::nodes_busy when too few do now, Errc::invalid_feature for a feature
/// no node has.
std::vector<std::string> pick_reservation_nodes(const Reservation& r, std::uint32_t count,
                                                const std::vector<NodeDef>& candidates,
                                                const std::vector<std::string>& unavailable,
                                                const std::vector<Reservation>& others,
                                                const std::vector<const Job*>& running);

}  // namespace stint::sched
