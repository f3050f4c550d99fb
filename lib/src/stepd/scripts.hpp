#pragma once
// The site's prolog and epilog: run by stepd around the task, as slurmd runs
// slurm.conf's Prolog and Epilog, with Slurm's environment, a timeout, and
// their output kept for stintd's log.

#include <string>
#include <utility>
#include <vector>

#include <stint/model.hpp>

namespace stint::stepd {

struct ScriptsOutcome {
  bool ok = true;
  std::string failure;  ///< which script and how it failed
  std::string output;   ///< what the scripts printed (stdout and stderr), bounded
};

/// Runs each argv of `scripts` in order with exactly `env` (no PATH unless it
/// is there: bash supplies its default), stdin /dev/null, stdout and stderr
/// captured, in its own process group; stops at the first that exits
/// non-zero, is killed, cannot start or runs past `timeout` seconds
/// (k_infinite: no limit), which is then killed with its group.
ScriptsOutcome run_scripts(const std::vector<std::vector<std::string>>& scripts,
                           const std::vector<std::pair<std::string, std::string>>& env,
                           Seconds timeout);

}  // namespace stint::stepd
