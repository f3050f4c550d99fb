#include "cli/scancel.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint::cli;

TEST_CASE("scancel signal names and numbers", "[scancel]") {
  CHECK(signal_from_name("TERM") == 15);
  CHECK(signal_from_name("SIGTERM") == 15);
  CHECK(signal_from_name("sigterm") == 15);
  CHECK(signal_from_name("KILL") == 9);
  CHECK(signal_from_name("SIGUSR1") == 10);
  CHECK(signal_from_name("usr2") == 12);
  CHECK(signal_from_name("HUP") == 1);
  CHECK(signal_from_name("INT") == 2);
  CHECK(signal_from_name("CONT") == 18);
  CHECK(signal_from_name("STOP") == 19);
  CHECK(signal_from_name(" TERM ") == 15);
  CHECK(signal_from_name("9") == 9);
  CHECK(signal_from_name("10") == 10);
  CHECK(signal_from_name("64") == 64);
  CHECK_FALSE(signal_from_name("0"));
  CHECK_FALSE(signal_from_name("65"));
  CHECK_FALSE(signal_from_name("-9"));
  CHECK_FALSE(signal_from_name("9x"));
  CHECK_FALSE(signal_from_name("BOGUS"));
  CHECK_FALSE(signal_from_name("SIG"));
  CHECK_FALSE(signal_from_name(""));
}

TEST_CASE("scancel job id arguments", "[scancel]") {
  auto targets = parse_cancel_targets({"12", "13,14"});
  REQUIRE(targets.size() == 3);
  CHECK(targets[0].job_id == 12);
  CHECK(targets[0].whole_job);
  CHECK(targets[0].text == "12");
  CHECK(targets[1].job_id == 13);
  CHECK(targets[2].job_id == 14);
  CHECK(targets[2].text == "14");

  targets = parse_cancel_targets({"28_3", "28_[4-5]", "29_*", "30.0"});
  REQUIRE(targets.size() == 4);
  CHECK(targets[0].job_id == 28);
  CHECK_FALSE(targets[0].whole_job);
  CHECK(targets[0].text == "28_3");
  CHECK(targets[1].text == "28_[4-5]");
  CHECK_FALSE(targets[1].whole_job);
  CHECK(targets[2].job_id == 29);
  CHECK_FALSE(targets[2].whole_job);
  CHECK(targets[3].text == "30.0");
  CHECK_FALSE(targets[3].whole_job);

  CHECK(parse_cancel_targets({}).empty());
}

TEST_CASE("scancel refuses malformed job ids with Slurm's message", "[scancel]") {
  for (const std::string bad : {"abc", "0", "-5", "12x", "12,", "12_[1-2", "12_[1-2]x", ""}) {
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
