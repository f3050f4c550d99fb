#include "cli/scancel.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint::cli;
using stint::k_no_array_task;

namespace {

// The texts of the targets, in order.
std::vector<std::string> texts(const std::vector<CancelTarget>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) out.push_back(t.text);
  return out;
}

}  // namespace

TEST_CASE("scancel job id arguments", "[scancel]") {
  auto targets = parse_cancel_targets({"12", "13,14"});
  REQUIRE(targets.size() == 3);
  CHECK(targets[0].job_id == 12);
  CHECK(targets[0].array_task == k_no_array_task);
  CHECK_FALSE(targets[0].unsupported);
  CHECK(targets[0].text == "12");
  CHECK(targets[1].job_id == 13);
  CHECK(targets[2].job_id == 14);
  CHECK(targets[2].text == "14");

  CHECK(parse_cancel_targets({}).empty());
}

TEST_CASE("scancel array tasks", "[scancel][array]") {
  auto targets = parse_cancel_targets({"28_3"});
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].job_id == 28);
  CHECK(targets[0].array_task == 3);
  CHECK(targets[0].text == "28_3");
  CHECK_FALSE(targets[0].unsupported);

  // "_*" is the whole array: the array's id alone.
  targets = parse_cancel_targets({"29_*"});
  REQUIRE(targets.size() == 1);
  CHECK(targets[0].job_id == 29);
  CHECK(targets[0].array_task == k_no_array_task);
  CHECK(targets[0].text == "29_*");
  CHECK_FALSE(targets[0].unsupported);

  CHECK(parse_cancel_targets({"28_0"})[0].array_task == 0);
}

TEST_CASE("scancel expands task ranges into one target per task", "[scancel][array]") {
  auto targets = parse_cancel_targets({"12_[4-5]"});
  CHECK(texts(targets) == std::vector<std::string>{"12_4", "12_5"});
  REQUIRE(targets.size() == 2);
  CHECK(targets[0].job_id == 12);
  CHECK(targets[0].array_task == 4);
  CHECK(targets[1].array_task == 5);

  CHECK(texts(parse_cancel_targets({"12_[1,3-4]"})) ==
        std::vector<std::string>{"12_1", "12_3", "12_4"});
  CHECK(texts(parse_cancel_targets({"12_[5,1]"})) == std::vector<std::string>{"12_1", "12_5"});
  CHECK(texts(parse_cancel_targets({"12_[0-6:3]"})) ==
        std::vector<std::string>{"12_0", "12_3", "12_6"});
  CHECK(texts(parse_cancel_targets({"12_[7]"})) == std::vector<std::string>{"12_7"});
  // Ranges and ids mix, in one argument or several.
  CHECK(texts(parse_cancel_targets({"12_[1-2],13", "14_2"})) ==
        std::vector<std::string>{"12_1", "12_2", "13", "14_2"});
  CHECK(texts(parse_cancel_targets({"13,12_[1-2]"})) ==
        std::vector<std::string>{"13", "12_1", "12_2"});
}

TEST_CASE("scancel steps are parsed, and marked", "[scancel]") {
  const auto targets = parse_cancel_targets({"30.0", "31.batch", "32+1.0", "33_2.1"});
  CHECK(texts(targets) == std::vector<std::string>{"30.0", "31.batch", "32+1.0", "33_2.1"});
  REQUIRE(targets.size() == 4);
  // srun's steps are cancelled as steps; the batch step is no step of srun's.
  CHECK(targets[0].step == 0U);
  CHECK_FALSE(targets[0].unsupported);
  CHECK(targets[1].unsupported);
  CHECK_FALSE(targets[1].step);
  CHECK(targets[2].job_id == 33);
  CHECK(targets[2].step == 0U);
  CHECK(targets[3].job_id == 33);
  CHECK(targets[3].array_task == 2U);
  CHECK(targets[3].step == 1U);
}

TEST_CASE("scancel names a heterogeneous job's component by its own id", "[scancel]") {
  const auto targets = parse_cancel_targets({"32+1", "40+0"});
  REQUIRE(targets.size() == 2);
  CHECK(targets[0].text == "32+1");
  CHECK(targets[0].job_id == 33);
  CHECK_FALSE(targets[0].unsupported);
  CHECK(targets[1].job_id == 40);
  for (const std::string bad : {"32+", "32+x", "4294967290+10"}) {
    INFO(bad);
    CHECK_THROWS(parse_cancel_targets({bad}));
  }
}

TEST_CASE("scancel refuses malformed job ids with Slurm's message", "[scancel]") {
  for (const std::string bad :
       {"abc",        "0",         "-5",    "12x",  "12,",   ",12",           "12_[1-2",
        "12_[1-2]x",  "",          "12_",   "12_x", "12_[]", "12_[x]",        "12_[5-1]",
        "12_[1-3%2]", "12_[1-3]_", "12.",   "12.x", "12+",   "12_4294967294", "99999999999",
        "12 ",        " 12",       "12__3", "12_*x"}) {
    INFO(bad);
    try {
      parse_cancel_targets({bad});
      FAIL("no error");
    } catch (const stint::Error& e) {
      CHECK(e.code() == stint::Errc::invalid_argument);
      CHECK(std::string(e.what()).rfind("Invalid job id ", 0) == 0);
    }
  }
  try {
    parse_cancel_targets({"abc"});
  } catch (const stint::Error& e) {
    CHECK(std::string(e.what()) == "Invalid job id abc");
  }
}

TEST_CASE("scancel state names", "[scancel]") {
  CHECK(cancel_state_from_name("PENDING") == stint::JobState::pending);
  CHECK(cancel_state_from_name("PD") == stint::JobState::pending);
  CHECK(cancel_state_from_name("running") == stint::JobState::running);
  try {
    cancel_state_from_name("SLEEPING");
    FAIL("no error");
  } catch (const PlainError& e) {
    CHECK(std::string(e.what()) ==
          "Invalid job state specified: SLEEPING\n"
          "Valid job states are PENDING, RUNNING, and SUSPENDED");
  }
}
