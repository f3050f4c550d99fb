#include "cli/run_metrics.hpp"

#include <stint/error.hpp>

#include "daemon/job_env.hpp"
#include "util/fs.hpp"

namespace stint::cli {

run::RunMetrics read_run_metrics(const Job& job) {
  run::RunMetrics m;
  if (!job.spec.run || !job.spec.run->backend.empty()) return m;
  try {
    run::add_json_lines(m, fs::read_file(run::metrics_file(daemon::work_dir(job), job.id, 0)));
  } catch (const Error&) {
    // No records yet.
  }
  return m;
}

}  // namespace stint::cli
