#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::parse::array_spec;
using stint::parse::format_task_ids;
using stint::test::error_of;
using Ids = std::vector<std::uint32_t>;

namespace {
constexpr std::uint32_t k_max = 1001;  // Slurm's default MaxArraySize
}

TEST_CASE("array_spec reads ranges, lists, steps and a throttle", "[parse][array]") {
  CHECK(array_spec("0-3", k_max).tasks.ids() == Ids{0, 1, 2, 3});
  CHECK(array_spec("0-3", k_max).throttle == 0);
  CHECK(array_spec("1,3,5", k_max).tasks.ids() == Ids{1, 3, 5});
  CHECK(array_spec("7", k_max).tasks.ids() == Ids{7});
  CHECK(array_spec("0", k_max).tasks.ids() == Ids{0});
  // The man page: "--array=0-15:4" is equivalent to "--array=0,4,8,12".
  CHECK(array_spec("0-15:4", k_max).tasks.ids() == Ids{0, 4, 8, 12});
  CHECK(array_spec("0,6,16-18", k_max).tasks.ids() == Ids{0, 6, 16, 17, 18});
  // 02-env.txt: --array=5-7:2%1 gives tasks 5 and 7.
  const auto spec = array_spec("5-7:2%1", k_max);
  CHECK(spec.tasks.ids() == Ids{5, 7});
  CHECK(spec.throttle == 1);
  // 12-arrays-deps.txt: --array=1-10%2.
  CHECK(array_spec("1-10%2", k_max).tasks.ids().size() == 10);
  CHECK(array_spec("1-10%2", k_max).throttle == 2);
  CHECK(array_spec("1-10%0", k_max).throttle == 0);  // no limit
  // A step past the end of the range leaves its first id.
  CHECK(array_spec("3-5:10", k_max).tasks.ids() == Ids{3});
  CHECK(array_spec("4-4", k_max).tasks.ids() == Ids{4});
  CHECK(array_spec("007", k_max).tasks.ids() == Ids{7});
}

TEST_CASE("array_spec keeps a million tasks as one run", "[parse][array]") {
  constexpr std::uint32_t k_big = 4000001;  // the largest MaxArraySize
  const auto million = array_spec("0-999999", k_big);
  CHECK(million.tasks.size() == 1000000);
  CHECK(million.tasks.runs().size() == 1);
  // Overlapping ranges, as many as a command line holds, stay one run.
  std::string repeated = "0-3999999";
  for (int i = 0; i < 100; ++i) repeated += ",0-3999999";
  CHECK(array_spec(repeated, k_big).tasks.runs().size() == 1);
  // A step: each id its own run.
  const auto stepped = array_spec("0-999999:1000", k_big);
  CHECK(stepped.tasks.size() == 1000);
  CHECK(stepped.tasks.slurm_text() == "0-999000:1000");
}

TEST_CASE("array_spec sorts and drops duplicates", "[parse][array]") {
  CHECK(array_spec("5,1,3", k_max).tasks.ids() == Ids{1, 3, 5});
  CHECK(array_spec("1-4,2-5,3", k_max).tasks.ids() == Ids{1, 2, 3, 4, 5});
  // Many overlapping full ranges stay as short as the ids that may exist.
  std::string text = "0-1000";
  for (int i = 0; i < 50; ++i) text += ",0-1000";
  CHECK(array_spec(text, k_max).tasks.ids().size() == 1001);
}

TEST_CASE("array_spec skips empty items and takes brackets as squeue prints them",
          "[parse][array]") {
  CHECK(array_spec("1,,3", k_max).tasks.ids() == Ids{1, 3});
  CHECK(array_spec("1,3,", k_max).tasks.ids() == Ids{1, 3});
  CHECK(array_spec("[1-3,5]", k_max).tasks.ids() == Ids{1, 2, 3, 5});
  const auto spec = array_spec("[1-10]%2", k_max);
  CHECK(spec.tasks.ids().size() == 10);
  CHECK(spec.throttle == 2);
}

TEST_CASE("array_spec's limit is MaxArraySize - 1", "[parse][array]") {
  CHECK(array_spec("1000", k_max).tasks.ids() == Ids{1000});
  CHECK(array_spec("0-1000", k_max).tasks.ids().size() == 1001);
  CHECK(error_of([] { (void)array_spec("1001", k_max); }));
  CHECK(error_of([] { (void)array_spec("0-1001", k_max); }));
  // 10-errors.txt: --array=1-200000 is refused with the default limit.
  CHECK(error_of([] { (void)array_spec("1-200000", k_max); }));
  CHECK(array_spec("1-200000", 4000001).tasks.ids().size() == 200000);
  CHECK(error_of([] { (void)array_spec("0", 0); }));
  CHECK(error_of([] { (void)array_spec("99999999999999999999", 4000001); }));
}

TEST_CASE("array_spec refuses junk with Slurm's message", "[parse][array]") {
  const std::string text =
      GENERATE(as<std::string>{}, "", ",", "abc", "5-1", "1-", "-1", "-", "1-5:0", "1-5:", "1-5:x",
               "5:2", "1-2-3", "1-5%", "1-5%x", "1-5%-1", "%2", "1-5%2%3", " 1", "1 ", "+1", "1.5",
               "[1-3", "1-3]", "[]", "1;2", "0x10", "1-5:2:1", "1-5:-1");
  CAPTURE(text);
  const auto e = error_of([&] { (void)array_spec(text, k_max); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK(std::string(e->what()) == "Invalid --array specification");
}

TEST_CASE("format_task_ids folds ids into Slurm's range form", "[parse][array]") {
  CHECK(format_task_ids({}).empty());
  CHECK(format_task_ids({4}) == "4");
  CHECK(format_task_ids({1, 2, 3, 5}) == "1-3,5");
  CHECK(format_task_ids({1, 2}) == "1-2");
  CHECK(format_task_ids({0, 2, 4}) == "0-4:2");
  CHECK(format_task_ids({0, 2}) == "0,2");
  CHECK(format_task_ids({5, 7}) == "5,7");
  CHECK(format_task_ids({1, 4, 7, 10, 11}) == "1-10:3,11");
  CHECK(format_task_ids({1, 2, 3, 6, 7, 8, 10}) == "1-3,6-8,10");
  CHECK(format_task_ids({0, 2, 4, 5, 6}) == "0-4:2,5-6");
  // Order and duplicates in the input do not matter.
  CHECK(format_task_ids({5, 3, 1, 3}) == "1-5:2");
}

TEST_CASE("format_task_ids reads back to the same ids", "[parse][array]") {
  for (const std::string text :
       {"0-15:4", "1-3,5", "1,3,4,9-12", "0-99:2,100-105", "7", "2,3,5,7,11,13,17,19,23"}) {
    CAPTURE(text);
    const auto ids = array_spec(text, k_max).tasks.ids();
    CHECK(array_spec(format_task_ids(ids), k_max).tasks.ids() == ids);
  }
}
