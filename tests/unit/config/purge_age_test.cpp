// slurmdbd.conf's purge ages: parsed as slurmdb_parse_purge reads them,
// printed as slurmdbd prints them, and the cutoff archive_setup_end_time gives.

#include "config/purge_age.hpp"

#include <cstdlib>
#include <ctime>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "helpers.hpp"

using stint::config::purge_age;
using stint::config::purge_age_problem;
using stint::config::purge_age_text;
using stint::config::purge_cutoff;
using stint::config::PurgeAge;
using Unit = PurgeAge::Unit;

namespace {

// A local time as seconds since the epoch (mktime, like the code under test).
stint::Seconds local(int year, int month, int day, int hour, int minute, int second) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  return static_cast<stint::Seconds>(std::mktime(&tm));
}

}  // namespace

TEST_CASE("purge ages are months by default, and hours or days by their letters", "[config]") {
  CHECK(purge_age("12") == PurgeAge{12, Unit::months});
  CHECK(purge_age("12months") == PurgeAge{12, Unit::months});
  CHECK(purge_age("3MONTH") == PurgeAge{3, Unit::months});
  CHECK(purge_age("30days") == PurgeAge{30, Unit::days});
  CHECK(purge_age("30d") == PurgeAge{30, Unit::days});
  CHECK(purge_age("24hours") == PurgeAge{24, Unit::hours});
  CHECK(purge_age("24h") == PurgeAge{24, Unit::hours});
  CHECK(purge_age("1m") == PurgeAge{1, Unit::months});
  CHECK_FALSE(purge_age(""));
  CHECK(purge_age_problem("").empty());
  CHECK(purge_age_problem("12days").empty());
}

TEST_CASE("malformed purge ages are refused with what is accepted", "[config]") {
  CHECK_FALSE(purge_age("days"));
  CHECK(purge_age_problem("days").find("12months, 30days, 24hours") != std::string::npos);
  CHECK_FALSE(purge_age("12weeks"));
  CHECK(purge_age_problem("12weeks").find("valid options are hours, days, or months") !=
        std::string::npos);
  CHECK_FALSE(purge_age("12 days"));
  CHECK_FALSE(purge_age("-1"));
  CHECK_FALSE(purge_age("99999999999999999999"));
}

TEST_CASE("purge ages print as slurmdbd prints them", "[config]") {
  CHECK(purge_age_text(std::nullopt) == "NONE");
  CHECK(purge_age_text(PurgeAge{12, Unit::months}) == "12 months");
  CHECK(purge_age_text(PurgeAge{30, Unit::days}) == "30 days");
  CHECK(purge_age_text(PurgeAge{1, Unit::hours}) == "1 hours");
}

TEST_CASE("the cutoff is the start of the unit, that many units back, less a second", "[config]") {
  const stint::Seconds now = local(2026, 3, 15, 10, 42, 7);
  CHECK(purge_cutoff({2, Unit::hours}, now) == local(2026, 3, 15, 8, 0, 0) - 1);
  CHECK(purge_cutoff({0, Unit::hours}, now) == local(2026, 3, 15, 10, 0, 0) - 1);
  CHECK(purge_cutoff({30, Unit::days}, now) == local(2026, 2, 13, 0, 0, 0) - 1);
  CHECK(purge_cutoff({1, Unit::months}, now) == local(2026, 2, 1, 0, 0, 0) - 1);
  // Across a year: mktime normalises a negative month.
  CHECK(purge_cutoff({4, Unit::months}, now) == local(2025, 11, 1, 0, 0, 0) - 1);
}

TEST_CASE("PurgeJobAfter and PurgeStepAfter are checked as the config is read", "[config]") {
  const auto config = stint::test::parse(R"(
partitions: [{id: p, node_pool_ids: [m]}]
node_pools: [{id: m, cpus: 2, memory: 1G}]
config: {PurgeJobAfter: 12months, PurgeStepAfter: 30days}
)");
  CHECK(config.conf("PurgeJobAfter") == "12months");
  CHECK_THROWS_WITH(stint::test::parse(R"(
partitions: [{id: p, node_pool_ids: [m]}]
node_pools: [{id: m, cpus: 2, memory: 1G}]
config: {PurgeJobAfter: 2weeks}
)"),
                    Catch::Contains("valid options are hours, days, or months"));
}

// PreemptParameters came with Slurm 23.02: to 22.05 it is no key at all.
TEST_CASE("Slurm keys stint does not take are refused as such, with what to use", "[config]") {
  const char* yaml = R"(
partitions: [{id: p, node_pool_ids: [m]}]
node_pools: [{id: m, cpus: 2, memory: 1G}]
config: {TmpFS: /scratch}
)";
  CHECK_THROWS_WITH(stint::test::parse(yaml),
                    Catch::Contains("a Slurm slurm.conf key that stint does not support") &&
                        Catch::Contains("tmp_disk"));
  CHECK_THROWS_WITH(stint::test::parse(R"(
partitions: [{id: p, node_pool_ids: [m]}]
node_pools: [{id: m, cpus: 2, memory: 1G}]
config: {PreemptParameters: youngest_first}
)"),
                    Catch::Contains("unknown slurm.conf key"));
  // A word that is no Slurm key at all is still a typo to guess at.
  CHECK_THROWS_WITH(stint::test::parse(R"(
partitions: [{id: p, node_pool_ids: [m]}]
node_pools: [{id: m, cpus: 2, memory: 1G}]
config: {KillWiat: 5}
)"),
                    Catch::Contains("did you mean KillWait"));
}
