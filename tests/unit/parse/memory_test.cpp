#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::parse::format_memory_mb;
using stint::parse::memory_mb;
using stint::test::error_of;

TEST_CASE("memory_mb reads sizes with Slurm's units, MiB by default", "[parse]") {
  const auto [text, mb] = GENERATE(table<std::string, std::uint64_t>({
      {"0", 0},
      {"100", 100},
      {"100M", 100},
      {"100m", 100},
      {"2G", 2048},
      {"2g", 2048},
      {"1T", 1048576},
      {"1t", 1048576},
      {"1024K", 1},
      {"2048k", 2},
      {"0K", 0},
      {"4GB", 4096},  // Slurm's _end_on_byte: a B may follow the unit
      {"4gb", 4096},
      {"4Gb", 4096},
      {"100MB", 100},
      {"007", 7},
      {"23849M", 23849},
  }));
  CAPTURE(text);
  CHECK(memory_mb(text) == mb);
}

TEST_CASE("memory_mb rounds KiB up to whole MiB", "[parse]") {
  CHECK(memory_mb("1K") == 1);
  CHECK(memory_mb("1023K") == 1);
  CHECK(memory_mb("1025K") == 2);
  CHECK(memory_mb("512KB") == 1);
}

TEST_CASE("memory_mb refuses junk, signs and overflow, naming the text", "[parse]") {
  const std::string text =
      GENERATE(as<std::string>{}, "", "abc", "-1", "+1", "1.5G", "G", "M", "1B", "1X", "1P", "1GG",
               "1GBB", "1BG", " 1", "1 ", "1 G", "0x10", "1e3", "1,000",
               "9223372036854775808",  // past a signed 64-bit value
               "9007199254740992G",    // 2^53 GiB = 2^63 MiB
               "8796093022208T");      // 2^43 TiB = 2^63 MiB
  CAPTURE(text);
  const auto e = error_of([&] { (void)memory_mb(text); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK_THAT(e->what(), Catch::Contains("Invalid memory size \"" + text + "\""));
}

TEST_CASE("memory_mb with an option name gives Slurm's message", "[parse]") {
  CHECK(memory_mb("4G", "--mem") == 4096);
  const auto e = error_of([] { (void)memory_mb("abc", "--mem"); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK(std::string(e->what()) == "Invalid --mem specification");
  const auto e2 = error_of([] { (void)memory_mb("-5", "--mem-per-cpu"); });
  REQUIRE(e2);
  CHECK(std::string(e2->what()) == "Invalid --mem-per-cpu specification");
}

TEST_CASE("format_memory_mb prints the largest exact unit as sacct ReqMem does", "[parse]") {
  CHECK(format_memory_mb(0) == "0");
  CHECK(format_memory_mb(1) == "1M");
  CHECK(format_memory_mb(50) == "50M");
  CHECK(format_memory_mb(100) == "100M");
  CHECK(format_memory_mb(256) == "256M");
  CHECK(format_memory_mb(1024) == "1G");
  CHECK(format_memory_mb(1536) == "1536M");
  CHECK(format_memory_mb(2048) == "2G");
  CHECK(format_memory_mb(23849) == "23849M");
  CHECK(format_memory_mb(1048576) == "1T");
  CHECK(format_memory_mb(1048576 + 1024) == "1025G");
  CHECK(format_memory_mb(1073741824) == "1P");
  CHECK(format_memory_mb(1099511627776) == "1024P");
}

TEST_CASE("memory_mb reads back what format_memory_mb prints", "[parse]") {
  for (std::uint64_t mb : {0ULL, 1ULL, 100ULL, 1024ULL, 1536ULL, 4096ULL, 1048576ULL, 3145728ULL}) {
    CAPTURE(mb);
    CHECK(memory_mb(format_memory_mb(mb)) == mb);
  }
}
