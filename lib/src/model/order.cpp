#include "model/order.hpp"

namespace stint {

void apply_order(std::vector<Job>& jobs, const std::vector<std::size_t>& order) {
  // In place, one cycle of the permutation at a time: a second vector of
  // 20,000 jobs would be 30 MB of fresh pages to fault in.
  std::vector<bool> placed(jobs.size(), false);
  for (std::size_t start = 0; start < jobs.size(); ++start) {
    if (placed[start] || order[start] == start) continue;
    Job held = std::move(jobs[start]);
    std::size_t at = start;
    while (order[at] != start) {
      jobs[at] = std::move(jobs[order[at]]);
      placed[at] = true;
      at = order[at];
    }
    jobs[at] = std::move(held);
    placed[at] = true;
  }
}

}  // namespace stint
