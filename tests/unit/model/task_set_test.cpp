// TaskSet: the task ids an array's record holds, as runs.

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/task_set.hpp>

using stint::TaskSet;

namespace {

std::vector<std::uint32_t> range(std::uint32_t first, std::uint32_t last, std::uint32_t step = 1) {
  std::vector<std::uint32_t> out;
  for (std::uint64_t i = first; i <= last; i += step) out.push_back(static_cast<std::uint32_t>(i));
  return out;
}

}  // namespace

TEST_CASE("a TaskSet keeps runs of consecutive ids", "[model][task_set]") {
  const TaskSet set = TaskSet::of({5, 1, 2, 3, 3, 9, 10});
  CHECK(set.size() == 6);
  CHECK(set.runs() == std::vector<TaskSet::Run>{{1, 3}, {5, 5}, {9, 10}});
  CHECK(set.store_text() == "1-3,5,9-10");
  CHECK(set.first() == 1);
  CHECK(set.last() == 10);
  for (std::uint32_t id : {1U, 2U, 3U, 5U, 9U, 10U}) CHECK(set.contains(id));
  for (std::uint32_t id : {0U, 4U, 6U, 8U, 11U, 4000000U}) CHECK_FALSE(set.contains(id));
  CHECK(TaskSet().empty());
  CHECK(TaskSet().store_text().empty());
  CHECK(TaskSet().slurm_text().empty());
}

TEST_CASE("a million pending tasks are one run", "[model][task_set]") {
  TaskSet set;
  CHECK(set.insert(0, 999999) == 1000000);
  CHECK(set.runs().size() == 1);
  CHECK(set.size() == 1000000);
  CHECK(set.first_ids(3) == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(set.erase(0));
  CHECK(set.erase(500000));
  CHECK_FALSE(set.erase(500000));
  CHECK(set.size() == 999998);
  CHECK(set.store_text() == "1-499999,500001-999999");
  CHECK(set.insert(500000));
  CHECK_FALSE(set.insert(500000));
  CHECK(set.store_text() == "1-999999");
  // The highest id a task may have (MaxArraySize goes to 4,000,001).
  CHECK(set.insert(4294967294U, 4294967295U) == 2);
  CHECK(set.contains(4294967295U));
  CHECK(set.erase(4294967295U));
  CHECK(set.last() == 4294967294U);
}

TEST_CASE("insert merges the runs it touches and counts what is new", "[model][task_set]") {
  TaskSet set = TaskSet::of({1, 2, 10, 11, 20});
  CHECK(set.insert(3, 9) == 7);  // joins 1-2 and 10-11
  CHECK(set.store_text() == "1-11,20");
  CHECK(set.insert(0, 25) == 26 - 12);
  CHECK(set.store_text() == "0-25");
  CHECK(set.insert(27, 26) == 0);  // an empty range
  CHECK(set.size() == 26);
}

TEST_CASE("erase splits a run and drops a single id's run", "[model][task_set]") {
  TaskSet set = TaskSet::of(range(0, 9));
  CHECK(set.erase(9));
  CHECK(set.erase(0));
  CHECK(set.erase(5));
  CHECK(set.store_text() == "1-4,6-8");
  CHECK_FALSE(set.erase(5));
  CHECK_FALSE(set.erase(100));
  for (std::uint32_t id : {1U, 2U, 3U, 4U, 6U, 7U, 8U}) CHECK(set.erase(id));
  CHECK(set.empty());
  CHECK(set.size() == 0);
  CHECK_FALSE(set.erase(0));
}

TEST_CASE("TaskSet matches a std::set under random inserts and erases", "[model][task_set]") {
  std::mt19937 rng(42);
  std::uniform_int_distribution<std::uint32_t> id(0, 200);
  TaskSet set;
  std::set<std::uint32_t> model;
  for (int i = 0; i < 5000; ++i) {
    const std::uint32_t a = id(rng);
    if (rng() % 3 == 0) {
      CHECK(set.erase(a) == (model.erase(a) == 1));
    } else {
      const std::uint32_t b = a + id(rng) % 8;
      std::uint64_t added = 0;
      for (std::uint32_t v = a; v <= b; ++v) added += model.insert(v).second ? 1 : 0;
      CHECK(set.insert(a, b) == added);
    }
    REQUIRE(set.size() == model.size());
  }
  CHECK(set.ids() == std::vector<std::uint32_t>(model.begin(), model.end()));
  for (std::uint32_t v = 0; v < 220; ++v) CHECK(set.contains(v) == (model.count(v) == 1));
  // Runs are sorted, disjoint and never touch.
  const auto& runs = set.runs();
  for (std::size_t i = 1; i < runs.size(); ++i) CHECK(runs[i - 1].last + 1 < runs[i].first);
  CHECK(TaskSet::parse(set.store_text()) == set);
}

TEST_CASE("store_text writes evenly spaced ids as a step, and parse reads it back",
          "[model][task_set]") {
  const TaskSet stepped = TaskSet::of(range(0, 99998, 2));
  CHECK(stepped.runs().size() == 50000);
  CHECK(stepped.store_text() == "0-99998:2");
  CHECK(TaskSet::parse("0-99998:2") == stepped);
  TaskSet holed = stepped;
  holed.erase(50000);
  CHECK(holed.store_text() == "0-49998:2,50002-99998:2");
  CHECK(TaskSet::parse(holed.store_text()) == holed);
  // Two single ids are not a step; runs stay runs.
  CHECK(TaskSet::of({1, 5}).store_text() == "1,5");
  CHECK(TaskSet::of({1, 5, 9, 10, 11}).store_text() == "1,5,9-11");
  CHECK(TaskSet::of({1, 5, 9, 13, 20, 21}).store_text() == "1-13:4,20-21");
  CHECK(TaskSet::parse("1-13:4,20-21") == TaskSet::of({1, 5, 9, 13, 20, 21}));
  CHECK(TaskSet::parse("3-5:10") == TaskSet::of({3}));
}

TEST_CASE("parse reads the stored text and refuses anything else", "[model][task_set]") {
  CHECK(TaskSet::parse("") == TaskSet());
  CHECK(TaskSet::parse("7") == TaskSet::of({7}));
  CHECK(TaskSet::parse("5-7,1") == TaskSet::of({1, 5, 6, 7}));
  CHECK(TaskSet::parse("1-5,3-8") == TaskSet::of(range(1, 8)));
  for (const char* bad : {",",     "1,",    ",1",     "1-",   "-1",          "a",
                          "1-2-3", "3-1",   "1 ,2",   "1.5",  "99999999999", "1-99999999999",
                          "0x10",  "+1",    "1:2",    "1-5:", "1-5:1",       "1-5:0",
                          "1-5:x", "1:2-5", "1-5:2:3"}) {
    INFO(bad);
    CHECK_FALSE(TaskSet::parse(bad).has_value());
  }
}

TEST_CASE("slurm_text prints task ids as slurmctld's clients do", "[model][task_set]") {
  // Runs, no step, below 11 of span or 6 ids: as bit_fmt writes them.
  CHECK(TaskSet::of({0, 2, 4}).slurm_text() == "0,2,4");
  CHECK(TaskSet::of(range(1, 10)).slurm_text() == "1-10");
  CHECK(TaskSet::of({1, 2, 3, 5}).slurm_text() == "1-3,5");
  CHECK(TaskSet::of(range(0, 10, 2)).slurm_text() == "0,2,4,6,8,10");  // a span of 10
  // A regular step over more than ten, more than five ids.
  CHECK(TaskSet::of(range(0, 12, 2)).slurm_text() == "0-12:2");
  CHECK(TaskSet::of(range(3, 999999, 4)).slurm_text() == "3-999999:4");
  CHECK(TaskSet::of({0, 3, 6, 9, 12, 16}).slurm_text() == "0,3,6,9,12,16");
  CHECK(TaskSet::of({0, 1, 3, 5, 7, 9, 11}).slurm_text() == "0-1,3,5,7,9,11");
  // Cut as a 64-byte buffer cuts it: 60 characters and "...".
  const TaskSet odd = TaskSet::of({0,  1,  3,  4,  6,  7,  9,  10, 12, 13, 15, 16, 18,
                                   19, 21, 22, 24, 25, 27, 28, 30, 31, 33, 34, 36, 37});
  const std::string full = odd.slurm_text(0);
  REQUIRE(full.size() > 62);
  const std::string cut = odd.slurm_text();
  CHECK(cut.size() == 63);
  CHECK(cut == full.substr(0, 60) + "...");
  CHECK(odd.slurm_text(4096) == full);
  // A buffer of B bytes keeps B - 1 characters; from B - 2 on, the last
  // three of those become "...".
  CHECK(TaskSet::of({1, 3, 5, 7}).slurm_text(8) == "1,3,...");  // 7 characters
  CHECK(TaskSet::of({1, 3, 5}).slurm_text(7) == "1,3...");      // 5 = B - 2
  CHECK(TaskSet::of({1, 3, 5}).slurm_text(8) == "1,3,5");       // 5 = B - 3
}
