#pragma once
// A run's metric records as the run tools read them (run-list --metric,
// run-show, run-plot): rank 0's STINT_METRICS file (run/metrics.hpp).

#include <stint/model.hpp>

#include "run/metrics.hpp"

namespace stint::cli {

/// Rank 0's records; none for a run of a real cluster, one without records
/// yet, or one whose file this user may not read.
run::RunMetrics read_run_metrics(const Job& job);

}  // namespace stint::cli
