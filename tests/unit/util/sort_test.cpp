#include "util/sort.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

namespace {

// Sorts a copy both ways; the number of comparisons sort_runs made.
std::size_t check_sorts_as_std(std::vector<int> values) {
  std::vector<int> want = values;
  std::sort(want.begin(), want.end());
  std::size_t compares = 0;
  stint::util::sort_runs(values.begin(), values.end(), [&](int a, int b) {
    ++compares;
    return a < b;
  });
  CHECK(values == want);
  return compares;
}

// `runs` ascending runs of `length` distinct values each, the runs in
// descending order of their values (arrays newest first).
std::vector<int> reversed_runs(int runs, int length) {
  std::vector<int> out;
  for (int r = runs - 1; r >= 0; --r) {
    for (int i = 0; i < length; ++i) out.push_back(r * length + i);
  }
  return out;
}

}  // namespace

TEST_CASE("sort_runs sorts whatever it is given") {
  check_sorts_as_std({});
  check_sorts_as_std({1});
  check_sorts_as_std({2, 1});
  check_sorts_as_std({1, 1, 1});
  std::mt19937 rng(7);
  for (int n : {3, 15, 16, 17, 100, 1000, 5000}) {
    CAPTURE(n);
    std::vector<int> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    check_sorts_as_std(v);                       // one run
    check_sorts_as_std({v.rbegin(), v.rend()});  // every element a run
    std::shuffle(v.begin(), v.end(), rng);
    check_sorts_as_std(v);  // random
    std::vector<int> dup = v;
    for (int& x : dup) x /= 3;  // ties
    check_sorts_as_std(dup);
  }
  for (int runs : {2, 3, 7, 10, 64}) {
    CAPTURE(runs);
    check_sorts_as_std(reversed_runs(runs, 1000));
  }
}

TEST_CASE("sort_runs merges a few runs in about one comparison an element per merge") {
  // Ten arrays of 10,000 tasks, newest first: four rounds of merges plus the
  // pass that finds the runs, against about n log n (1.7 million) for a sort.
  const std::size_t compares = check_sorts_as_std(reversed_runs(10, 10000));
  CHECK(compares < 6 * 100000);
  // A run of one: the pass that finds it and nothing else.
  CHECK(check_sorts_as_std(reversed_runs(1, 5000)) == 4999);
}
