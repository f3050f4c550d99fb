#pragma once
// Sorting jobs by index: a Job is large (over a kilobyte, dozens of strings),
// and sorting 20,000 of them moved each many times, most of squeue's time.
// Sort the indices (std::sort and std::stable_sort see the same comparisons,
// so the order is the one sorting the jobs gives), then move each job once
// with apply_order. Used by the store (rows in id order) and the formatters.

#include <cstddef>
#include <numeric>
#include <vector>

#include <stint/model.hpp>

namespace stint {

inline std::vector<std::size_t> identity_order(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}
/// An index comparator from a Job comparator.
template <typename Less>
auto by_job(const std::vector<Job>& jobs, Less less) {
  return [&jobs, less](std::size_t a, std::size_t b) { return less(jobs[a], jobs[b]); };
}
/// Rearranges `jobs` so that the i-th is the one `order[i]` named.
void apply_order(std::vector<Job>& jobs, const std::vector<std::size_t>& order);

}  // namespace stint
