#pragma once
// What sprio and sshare read: the priority snapshot of the database, computed
// by the same functions stintd uses (sched::priority_snapshot) at the time of
// stintd's last calculation, so the factors shown are the ones the scheduler
// used. Read-only; works while stintd is down.

#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>
#include <stint/paths.hpp>

#include "sched/priority.hpp"

namespace stint::cli {

struct PriorityView {
  Config config;
  /// When stintd last computed the priorities (meta "priority_calc_time"),
  /// else now: the time the factors are computed at.
  Seconds calc_time = 0;
  sched::PriorityContext ctx;
};

/// The snapshot of the state directory at `now` (an empty one when stintd has
/// never run). The jobs are not in it: a listing reads them one at a time
/// (query::each_job).
PriorityView read_priority_view(const Paths& paths, Seconds now);

}  // namespace stint::cli
