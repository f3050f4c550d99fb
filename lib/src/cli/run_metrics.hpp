#pragma once
// A run's metric records as the run tools read them (run-list --metric,
// run-show, run-plot): rank 0's STINT_METRICS file (run/metrics.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include <stint/model.hpp>

#include "run/metrics.hpp"

namespace stint::cli {

/// Rank 0's records; none for a run of a real cluster, one without records
/// yet, or one whose file this user may not read.
run::RunMetrics read_run_metrics(const Job& job);

/// A file a run wrote that looks like a checkpoint.
struct RunFile {
  std::string path;
  std::uint64_t bytes = 0;
  Seconds modified = 0;
};

/// The files under the run's working directory and its storages (four
/// folders deep at most) whose names match one of `patterns` (fnmatch(3)
/// patterns: StintCheckpointGlob) and that the run wrote (made no earlier
/// than its start, written while it ran), oldest first: NSML's model ls.
std::vector<RunFile> run_checkpoints(const Job& job, const std::vector<std::string>& patterns,
                                     const std::string& state_dir);

}  // namespace stint::cli
