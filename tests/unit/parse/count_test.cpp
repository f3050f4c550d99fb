#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::parse::count;
using stint::parse::positive_count;
using stint::test::error_of;

TEST_CASE("count reads non-negative integers", "[parse]") {
  CHECK(count("0", "-N") == 0);
  CHECK(count("1", "-N") == 1);
  CHECK(count("64", "-c") == 64);
  CHECK(count("007", "-n") == 7);
  CHECK(count("4294967295", "-n") == 4294967295U);
}

TEST_CASE("count refuses junk and negatives with Slurm's message", "[parse]") {
  const std::string text = GENERATE(as<std::string>{}, "", "abc", "-1", "+1", "1.5", " 1", "1 ",
                                    "1k", "0x10", "1e3", "1,2", "--1", "1-2");
  CAPTURE(text);
  const auto e = error_of([&] { (void)count(text, "--nodes"); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK(std::string(e->what()) == "Invalid numeric value \"" + text + "\" for --nodes.");
}

TEST_CASE("count refuses values past 32 bits", "[parse]") {
  for (const std::string text : {"4294967296", "99999999999999999999999"}) {
    CAPTURE(text);
    const auto e = error_of([&] { (void)count(text, "--ntasks"); });
    REQUIRE(e);
    CHECK(e->code() == Errc::invalid_argument);
    CHECK(std::string(e->what()) == "Numeric argument (" + text + ") too big for --ntasks.");
  }
}

TEST_CASE("positive_count also refuses zero, as sbatch -c 0 does", "[parse]") {
  CHECK(positive_count("2", "--cpus-per-task") == 2);
  const auto e = error_of([] { (void)positive_count("0", "--cpus-per-task"); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  // 10-errors.txt: sbatch: error: Invalid numeric value "0" for --cpus-per-task.
  CHECK(std::string(e->what()) == "Invalid numeric value \"0\" for --cpus-per-task.");
  CHECK(error_of([] { (void)positive_count("x", "-c"); }));
}
