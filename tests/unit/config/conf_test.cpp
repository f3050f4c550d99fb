// The slurm.conf key table and its accessors.

#include <algorithm>
#include <cctype>
#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "config/conf_keys.hpp"
#include "helpers.hpp"

using Catch::Matchers::Equals;
using stint::Config;
using stint::ConfigOrigin;
using stint::Errc;
using stint::Error;
using stint::k_infinite;
using stint::test::parse;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  return out;
}

}  // namespace

TEST_CASE("the key table is sorted, unique, and its defaults are valid", "[config][conf]") {
  auto keys = stint::config_detail::conf_keys();
  REQUIRE(keys.size() > 40);
  for (std::size_t i = 1; i < keys.size(); ++i) {
    INFO(keys[i].name);
    CHECK(lower(keys[i - 1].name) < lower(keys[i].name));
  }
  for (const auto& k : keys) {
    INFO(k.name);
    CHECK(stint::config_detail::conf_value_problem(k, k.default_value).empty());
  }
}

TEST_CASE("Slurm's defaults, and stint's where it differs", "[config][conf]") {
  Config c;
  CHECK(c.conf("KillWait") == "30");
  CHECK(c.kill_wait() == 30);
  CHECK(c.max_array_size() == 1001);
  CHECK(c.daemon_idle_exit() == 300);
  CHECK(c.conf("PriorityType") == "priority/multifactor");  // stint's (and Slurm 23.02.5+'s)
  CHECK(c.conf("PreemptType") == "preempt/none");
  CHECK(c.conf("PreemptMode") == "OFF");
  CHECK(c.conf("SchedulerType") == "sched/backfill");
  CHECK(c.conf("AccountingStorageEnforce") == "none");
  CHECK(c.conf_int("PriorityWeightAge") == 0);
  CHECK(c.conf_int("PriorityWeightFairshare") == 0);
  CHECK(c.conf_int("MinJobAge") == 300);
  CHECK(c.conf_int("MessageTimeout") == 10);
  CHECK(c.conf_int("InactiveLimit") == 0);
  CHECK(c.conf_int("JobRequeue") == 1);
  CHECK(c.conf_int("DefMemPerCPU") == 0);
  CHECK(c.conf_time("PriorityMaxAge") == 7 * 86400);
  CHECK(c.conf_time("PriorityDecayHalfLife") == 7 * 86400);
  CHECK(c.conf_time("PriorityCalcPeriod") == 300);
  CHECK(c.conf_time("PreemptExemptTime") == 0);  // zero is none, not unlimited
  CHECK(c.conf("ClusterName") == "stint");
  CHECK_FALSE(c.conf("NoSuchKey"));
  CHECK(c.conf_with_origin("KillWait")->second == ConfigOrigin::built_in_default);
}

TEST_CASE("lookups are case-insensitive and say where a value came from", "[config][conf]") {
  Config c = parse(
      "partitions: [{id: a, node_pool_ids: [p]}]\n"
      "config: {killwait: 12, PRIORITYWEIGHTAGE: 7, MaxArraySize: 50, PreemptExemptTime: '0:30',"
      " DefMemPerCPU: 2G, StintIdleExit: 0}\n");
  CHECK(c.conf("KillWait") == "12");
  CHECK(c.conf("KILLWAIT") == "12");
  CHECK(c.kill_wait() == 12);
  CHECK(c.conf_int("priorityweightage") == 7);
  CHECK(c.max_array_size() == 50);
  CHECK(c.conf_time("PreemptExemptTime") == 30);  // exact seconds, no rounding to minutes
  CHECK(c.conf_int("DefMemPerCPU") == 2048);
  CHECK(c.daemon_idle_exit() == 0);
  auto [value, origin] = *c.conf_with_origin("KillWait");
  CHECK(value == "12");
  CHECK(origin == ConfigOrigin::config_file);
  CHECK(c.conf_with_origin("MinJobAge")->second == ConfigOrigin::built_in_default);
}

TEST_CASE("all_conf lists every known key once, sorted, with origins", "[config][conf]") {
  Config c = parse(
      "cluster_name: lab\npartitions: [{id: a, node_pool_ids: [p]}]\n"
      "config: {PriorityWeightAge: 1000}\n");
  auto all = c.all_conf();
  CHECK(all.size() == stint::config_detail::conf_keys().size());
  for (std::size_t i = 1; i < all.size(); ++i)
    CHECK(lower(std::get<0>(all[i - 1])) < lower(std::get<0>(all[i])));
  auto find = [&](std::string_view key) {
    return *std::find_if(all.begin(), all.end(),
                         [&](const auto& t) { return std::get<0>(t) == key; });
  };
  CHECK(find("PriorityWeightAge") == std::tuple{std::string("PriorityWeightAge"),
                                                std::string("1000"), ConfigOrigin::config_file});
  CHECK(find("ClusterName") ==
        std::tuple{std::string("ClusterName"), std::string("lab"), ConfigOrigin::config_file});
  CHECK(std::get<2>(find("KillWait")) == ConfigOrigin::built_in_default);
}

TEST_CASE("conf_int and conf_time refuse keys of the wrong kind", "[config][conf]") {
  Config c;
  auto code_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.code();
    }
    return Errc::ok;
  };
  CHECK(code_of([&] { c.conf_int("PreemptMode"); }) == Errc::config_invalid);
  CHECK(code_of([&] { c.conf_int("NoSuchKey"); }) == Errc::config_invalid);
  CHECK(code_of([&] { c.conf_time("KillWait"); }) == Errc::config_invalid);
  // A value put in the map by hand without set_conf is still checked when read.
  c.slurm_conf["KillWait"] = "soon";
  CHECK(code_of([&] { c.kill_wait(); }) == Errc::config_invalid);
}

TEST_CASE("set_conf checks, replaces any spelling, and refuses unknown keys", "[config][conf]") {
  Config c = parse("partitions: [{id: a, node_pool_ids: [p]}]\nconfig: {killwait: 12}\n");
  c.set_conf("KILLWAIT", "45");
  CHECK(c.kill_wait() == 45);
  CHECK(c.slurm_conf.size() == 1);
  CHECK(c.slurm_conf.count("KillWait") == 1);
  c.set_conf("ClusterName", "other");
  CHECK(c.cluster_name == "other");
  CHECK_THROWS_AS(c.set_conf("ClusterName", "two words"), Error);
  CHECK_THROWS_AS(c.set_conf("ClusterName", ""), Error);
  CHECK(c.cluster_name == "other");

  Config before = c;
  try {
    c.set_conf("KillWait", "x");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::config_invalid);
    CHECK_THAT(e.what(), Equals("KillWait: \"x\" is not a whole number"));
  }
  try {
    c.set_conf("KillWiat", "3");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Equals("KillWiat: unknown slurm.conf key; did you mean KillWait?"));
  }
  CHECK(c == before);
}

TEST_CASE("config_origin_name", "[config]") {
  CHECK(stint::config_origin_name(ConfigOrigin::built_in_default) == "default");
  CHECK(stint::config_origin_name(ConfigOrigin::config_file) == "stint.yaml");
  CHECK(stint::config_origin_name(ConfigOrigin::autodetected) == "autodetected");
}
