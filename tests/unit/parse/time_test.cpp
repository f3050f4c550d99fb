#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::k_infinite;
using stint::Seconds;
using stint::parse::duration;
using stint::parse::format_duration;
using stint::parse::format_duration_fixed;
using stint::parse::format_time_limit;
using stint::parse::time_limit;
using stint::test::error_of;

TEST_CASE("time_limit reads every form of sbatch --time", "[parse]") {
  const auto [text, seconds] = GENERATE(table<std::string, Seconds>({
      {"5", 5 * 60},                              // minutes
      {"90", 90 * 60},                            // minutes are not range-checked
      {"5:00", 5 * 60},                           // minutes:seconds
      {"1:30", 2 * 60},                           // 90 s rounds up to 2 minutes
      {"0:90", 2 * 60},                           // seconds are not range-checked either
      {"1:00:00", 3600},                          // hours:minutes:seconds
      {"00:05:00", 5 * 60},                       // the form of 01-sbatch.txt's job.sh
      {"1:60:00", 2 * 3600},                      // minutes past 59 carry into hours
      {"2:3:4", 2 * 3600 + 4 * 60},               // 2:03:04 rounds up to 2:04
      {"1-0", 86400},                             // days-hours
      {"1-2", 86400 + 2 * 3600},                  //
      {"1-2:30", 86400 + 2 * 3600 + 30 * 60},     // days-hours:minutes
      {"1-2:30:15", 86400 + 2 * 3600 + 31 * 60},  // days-hours:minutes:seconds
      {"007", 7 * 60},                            // leading zeros
  }));
  CAPTURE(text);
  CHECK(time_limit(text) == seconds);
}

TEST_CASE("time_limit rounds seconds up to whole minutes as Slurm stores them", "[parse]") {
  CHECK(time_limit("0:30") == 60);
  CHECK(time_limit("0:1") == 60);
  CHECK(time_limit("0:59") == 60);
  CHECK(time_limit("0:60") == 60);
  CHECK(time_limit("0:61") == 120);
  CHECK(time_limit("0:0:1") == 60);
}

TEST_CASE("time_limit reads the unlimited words case-insensitively", "[parse]") {
  for (const char* text : {"UNLIMITED", "unlimited", "Unlimited", "INFINITE", "infinite", "-1"}) {
    CAPTURE(text);
    CHECK(time_limit(text) == k_infinite);
  }
}

TEST_CASE("time_limit treats a zero limit as no limit, as sbatch does", "[parse]") {
  for (const char* text : {"0", "0:00", "0:0:0", "0-0", "00:00:00", "0-0:0:0"}) {
    CAPTURE(text);
    CHECK(time_limit(text) == k_infinite);
  }
}

TEST_CASE("time_limit refuses malformed limits with Slurm's message", "[parse]") {
  const std::string text =
      GENERATE(as<std::string>{}, "", "abc", "-5", "-0", "1:2:3:4", "1-", "-", ":", "1-2:3:4:5",
               "5:", ":5", "1::2", "1-2-3", "1:2-3", "+5", " 5", "5 ", "5m", "1.5", "1-:2", "1- 2",
               "1--2", "0x10", "1h", "infinity", "unlimitedx", "-2", "--1",
               // Slurm's int arithmetic wraps past 2^31-1 seconds.
               "99999999999", "35791395", "24856-0", "99999999999999999999999-0");
  CAPTURE(text);
  const auto e = error_of([&] { (void)time_limit(text); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_time);
  CHECK(std::string(e->what()) == "Invalid --time specification");
}

TEST_CASE("time_limit accepts the longest limits Slurm's parser can hold", "[parse]") {
  CHECK(time_limit("35791394") == 35791394LL * 60);  // 2147483640 s
  CHECK(time_limit("24855-0") == 24855LL * 86400);
}

TEST_CASE("duration gives exact seconds and keeps zero", "[parse]") {
  CHECK(duration("0") == 0);
  CHECK(duration("0:30") == 30);
  CHECK(duration("1:02:03") == 3723);
  CHECK(duration("7-0") == 7 * 86400);
  CHECK(duration("UNLIMITED") == k_infinite);
  CHECK(duration("-1") == k_infinite);
  const auto e = error_of([] { (void)duration("7 days"); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_time);
  CHECK(std::string(e->what()) == "Invalid time specification \"7 days\"");
  CHECK(error_of([] { (void)duration("-5"); }));
  CHECK(error_of([] { (void)duration(""); }));
}

TEST_CASE("format_duration prints squeue's TIME column", "[parse]") {
  // The forms of 03-squeue.txt: "0:00", "0:04", "5:00", "10:00".
  CHECK(format_duration(0) == "0:00");
  CHECK(format_duration(4) == "0:04");
  CHECK(format_duration(65) == "1:05");
  CHECK(format_duration(300) == "5:00");
  CHECK(format_duration(3599) == "59:59");
  CHECK(format_duration(3600) == "1:00:00");
  CHECK(format_duration(3661) == "1:01:01");
  CHECK(format_duration(86399) == "23:59:59");
  CHECK(format_duration(86400) == "1-00:00:00");
  CHECK(format_duration(90061) == "1-01:01:01");
  CHECK(format_duration(400 * 86400) == "400-00:00:00");
  CHECK(format_duration(k_infinite) == "UNLIMITED");
  CHECK(format_duration(-5) == "INVALID");
}

TEST_CASE("format_duration_fixed prints sacct's Elapsed and scontrol's TimeLimit", "[parse]") {
  // The forms of 08-sacct.txt and 05-scontrol.txt.
  CHECK(format_duration_fixed(0) == "00:00:00");
  CHECK(format_duration_fixed(5) == "00:00:05");
  CHECK(format_duration_fixed(60) == "00:01:00");
  CHECK(format_duration_fixed(71) == "00:01:11");
  CHECK(format_duration_fixed(600) == "00:10:00");
  CHECK(format_duration_fixed(36000) == "10:00:00");
  CHECK(format_duration_fixed(86400) == "1-00:00:00");
  CHECK(format_duration_fixed(12 * 86400 + 3723) == "12-01:02:03");
  CHECK(format_duration_fixed(k_infinite) == "UNLIMITED");
  CHECK(format_duration_fixed(-2) == "INVALID");
}

TEST_CASE("format_time_limit prints squeue -l TIME_LIMIT", "[parse]") {
  CHECK(format_time_limit(300) == "5:00");
  CHECK(format_time_limit(600) == "10:00");
  CHECK(format_time_limit(120) == "2:00");
  CHECK(format_time_limit(2 * 86400) == "2-00:00:00");
  CHECK(format_time_limit(k_infinite) == "UNLIMITED");
}

TEST_CASE("time_limit reads back what the formatters print", "[parse]") {
  for (Seconds s : {60LL, 300LL, 3600LL, 3660LL, 86400LL, 90060LL, 30 * 86400LL + 60}) {
    CAPTURE(s);
    CHECK(time_limit(format_duration(s)) == s);
    CHECK(time_limit(format_duration_fixed(s)) == s);
  }
  CHECK(time_limit(format_time_limit(k_infinite)) == k_infinite);
}
