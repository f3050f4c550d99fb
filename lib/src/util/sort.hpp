#pragma once
// Sorting what comes mostly in order already.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace stint::util {

/// Sorts [first, last) by `less`, in fewer comparisons than std::sort when the
/// range is a few ascending runs: a listing reads the jobs in id order, so an
/// array's tasks come in their order already and only the arrays (newest
/// first) need reordering. The runs are found in one pass and merged
/// pairwise; over one run in 16 elements it is std::sort. Where `less` ties
/// no two elements the result is std::sort's.
template <typename RandomIt, typename Less>
void sort_runs(RandomIt first, RandomIt last, Less less) {
  const auto n = static_cast<std::size_t>(last - first);
  std::vector<std::size_t> bounds{0};  // where each run starts, then the end
  for (std::size_t i = 1; i < n; ++i) {
    if (!less(first[i], first[i - 1])) continue;
    bounds.push_back(i);
    if (bounds.size() > n / 16 + 1) {
      std::sort(first, last, less);
      return;
    }
  }
  bounds.push_back(n);
  while (bounds.size() > 2) {
    const std::size_t runs = bounds.size() - 1;
    std::vector<std::size_t> merged{0};
    for (std::size_t k = 0; k + 1 < runs; k += 2) {
      std::inplace_merge(first + bounds[k], first + bounds[k + 1], first + bounds[k + 2], less);
      merged.push_back(bounds[k + 2]);
    }
    if (runs % 2 == 1) merged.push_back(bounds[runs]);
    bounds = std::move(merged);
  }
}

}  // namespace stint::util
