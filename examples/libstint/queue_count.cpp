// queue-count: how many jobs of each state the queue holds, and the jobs
// themselves, read straight from the state directory the tools use
// ($STINT_STATE_DIR, else the personal or the system one), as squeue reads it.
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include <stint/paths.hpp>
#include <stint/query.hpp>

int main() {
  try {
    const stint::Paths paths = stint::default_paths();
    stint::JobFilter unfinished;
    unfinished.active_only = true;
    std::map<std::string, int> per_state;
    for (const stint::Job& job : stint::query::read_jobs(paths, unfinished)) {
      const std::string state(stint::state_name(job.state));
      ++per_state[state];
      std::printf("%s %s %s\n", job.display_id().c_str(), state.c_str(), job.spec.name.c_str());
    }
    for (const auto& [state, count] : per_state) std::printf("%s: %d\n", state.c_str(), count);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "queue-count: %s\n", e.what());
    return 1;
  }
}
