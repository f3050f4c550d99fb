// The seed's JSON cluster spec (seeds/003, line 40): the whole file or the bare
// slurmSpec, camelCase or snake_case keys, `//` comments.

#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;
using stint::ConfigOrigin;
using stint::test::config_error;
using stint::test::parse;

namespace {

// The seed's spec as the seed writes it, comments included.
constexpr const char* k_seed = R"({
  // ... other cluster configurations ...
  "orchestratorSpec": {
    "slurmSpec": {
      "partitions": [
        {
          "id": "a4",
          "node_pool_ids": ["a4"]
        }
      ],
      "login_node_pool_id": "login",
      "home_directory_storage": "projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID",
      "config": {
        "AccountingStorageEnforce": "associations,limits,qos",
        "PriorityType": "priority/multifactor",
        "PriorityWeightAge": "1000",
        "PriorityWeightFairshare": "10000",
        "PreemptType": "preempt/partition_prio",
        "PreemptMode": "REQUEUE",
        "PreemptExemptTime": "00:10:00"
      },
      "prolog_bash_scripts": [
        "#!/bin/bash\necho 'First prolog script running'",
        "#!/bin/bash\necho 'Second prolog script running'"
      ],
      "epilog_bash_scripts": [
        "#!/bin/bash\necho 'Epilog script running'"
      ]
      // ... other Slurm settings ...
    }
  }
})";

// The same in camelCase, bare (no orchestratorSpec), with block comments.
constexpr const char* k_camel = R"(/* the slurmSpec alone */
{
  "partitions": [ { "id": "a4", "nodePoolIds": [ "a4" ] } ],
  "loginNodePoolId": "login",
  "homeDirectoryStorage": "projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID",
  "config": {
    "AccountingStorageEnforce": "associations,limits,qos",
    "PriorityType": "priority/multifactor",
    "PriorityWeightAge": 1000,
    "PriorityWeightFairshare": 10000,
    "PreemptType": "preempt/partition_prio",
    "PreemptMode": "REQUEUE",
    "PreemptExemptTime": "00:10:00"
  },
  "prologBashScripts": [
    "#!/bin/bash\necho 'First prolog script running'",
    "#!/bin/bash\necho 'Second prolog script running'"
  ],
  "epilogBashScripts": [ "#!/bin/bash\necho 'Epilog script running'" ] // trailing comment
})";

void check_seed(const stint::Config& c) {
  REQUIRE(c.partitions.size() == 1);
  CHECK(c.partitions[0].id == "a4");
  CHECK(c.partitions[0].node_pool_ids == std::vector<std::string>{"a4"});
  CHECK(c.login_node_pool_id == "login");
  CHECK(c.home_directory_storage ==
        "projects/PROJECT_ID/locations/REGION-ZONE/instances/FILESTORE_INSTANCE_ID");
  CHECK(c.conf("AccountingStorageEnforce") == "associations,limits,qos");
  CHECK(c.conf("PriorityType") == "priority/multifactor");
  CHECK(c.conf_int("PriorityWeightAge") == 1000);
  CHECK(c.conf_int("PriorityWeightFairShare") == 10000);
  CHECK(c.conf("PreemptType") == "preempt/partition_prio");
  CHECK(c.conf("PreemptMode") == "REQUEUE");
  CHECK(c.conf_time("PreemptExemptTime") == 600);
  REQUIRE(c.prolog_bash_scripts.size() == 2);
  CHECK(c.prolog_bash_scripts[0] == "#!/bin/bash\necho 'First prolog script running'");
  CHECK(c.prolog_bash_scripts[1] == "#!/bin/bash\necho 'Second prolog script running'");
  CHECK(c.epilog_bash_scripts ==
        std::vector<std::string>{"#!/bin/bash\necho 'Epilog script running'"});
}

}  // namespace

TEST_CASE("the seed's JSON spec loads as is, comments and all", "[config][json]") {
  stint::Config c = parse(k_seed, "seed.json");
  check_seed(c);
  CHECK(c.source_path == "seed.json");
}

TEST_CASE("the seed's spec in camelCase, bare, loads the same", "[config][json]") {
  stint::Config snake = parse(k_seed, "a.json");
  stint::Config camel = parse(k_camel, "a.json");
  check_seed(camel);
  CHECK(camel == snake);
}

TEST_CASE("JSON is recognised by its first character too", "[config][json]") {
  check_seed(parse(k_seed, "stint.conf"));
  check_seed(parse(k_camel, "stint.conf"));
  check_seed(parse(std::string("\n  // comment first\n") + k_seed, "stint.conf"));
}

TEST_CASE("a pool the partitions name but nobody defines is this machine", "[config][json]") {
  // The seed names pool "a4" and defines no node_pools: it becomes one node of
  // the machine's shape, named "a4-1", marked autodetected.
  stint::Config c = parse(k_seed, "seed.json");
  REQUIRE(c.node_pools.size() == 1);
  const stint::NodePool& pool = c.node_pools[0];
  CHECK(pool.id == "a4");
  CHECK(pool.count == 1);
  CHECK(pool.cpus == 8);
  CHECK(pool.memory_mb == 32000);
  CHECK(pool.gpus == 2);
  CHECK(pool.gpu_type == "h200");
  CHECK(pool.origin == ConfigOrigin::autodetected);
  auto nodes = c.nodes();
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].name == "a4-1");
  // The login pool is where people log in, not a compute pool: no nodes.
  CHECK(c.partition_nodes(c.partitions[0]).size() == 1);
}

TEST_CASE("several undefined pools each get one node, in order of mention", "[config][json]") {
  stint::Config c = parse(R"({"partitions": [
      {"id": "x", "node_pool_ids": ["b", "a"]},
      {"id": "y", "node_pool_ids": ["a", "c"]}]})",
                          "s.json");
  REQUIRE(c.node_pools.size() == 3);
  CHECK(c.node_pools[0].id == "b");
  CHECK(c.node_pools[1].id == "a");
  CHECK(c.node_pools[2].id == "c");
  CHECK(c.partition_nodes(c.partitions[1]).size() == 2);
}

TEST_CASE("the machine is not asked when every pool is defined", "[config][json]") {
  stint::Config c = stint::parse_config(
      R"({"node_pools": [{"id": "p", "cpus": 2, "memory": "4G"}],
          "partitions": [{"id": "a", "node_pool_ids": ["p"]}]})",
      "s.json", stint::Machine{"unused", 99, 99, 0, ""});
  CHECK(c.node_pools[0].cpus == 2);
  CHECK(c.node_pools[0].memory_mb == 4096);
}

TEST_CASE("JSON numbers and booleans", "[config][json]") {
  stint::Config c =
      parse(R"({"node_pools": [{"id": "p", "count": 2, "cpus": 4, "memory": 2048, "gpus": 0}],
      "partitions": [{"id": "a", "node_pool_ids": ["p"], "max_time": 60, "priority_tier": 5}],
      "config": {"KillWait": 15, "PriorityFavorSmall": true}})",
            "s.json");
  CHECK(c.node_pools[0].count == 2);
  CHECK(c.node_pools[0].memory_mb == 2048);
  CHECK(c.partitions[0].max_time == 3600);
  CHECK(c.kill_wait() == 15);
  CHECK(c.conf("PriorityFavorSmall") == "YES");

  CHECK_THAT(config_error(
                 R"({"partitions": [{"id": "a", "node_pool_ids": ["p"], "priority_tier": true}]})",
                 "s.json"),
             Equals("s.json:1: partitions[0].priority_tier: expected a whole number"));
  CHECK_THAT(config_error(R"({"partitions": [{"id": true, "node_pool_ids": ["p"]}]})", "s.json"),
             Equals("s.json:1: partitions[0].id: expected a string"));
  CHECK_THAT(
      config_error(R"({"partitions": [{"id": "a", "node_pool_ids": ["p"], "max_time": 1.5}]})",
                   "s.json"),
      Contains("partitions[0].max_time: \"1.5\" is not a time limit"));
  CHECK_THAT(
      config_error(
          R"({"partitions": [{"id": "a", "node_pool_ids": ["p"]}], "config": {"KillWait": true}})",
          "s.json"),
      Contains("config.KillWait: \"YES\" is not a whole number"));
}

TEST_CASE("JSON errors give the line of the offending key or value", "[config][json][errors]") {
  CHECK_THAT(config_error(R"({
  // a comment
  "orchestratorSpec": {
    "slurmSpec": {
      "partitions": [
        {
          "id": "a4",
          "node_pool_idz": ["a4"]
        }
      ]
    }
  }
})",
                          "seed.json"),
             Equals("seed.json:8: orchestratorSpec.slurmSpec.partitions[0].node_pool_idz: unknown "
                    "key; did you mean \"node_pool_ids\"?"));
  CHECK_THAT(config_error("{\n\"partitions\": [{\"id\": \"a\", \"node_pool_ids\": [\"p\"]}],\n"
                          "\"config\": {\n  \"KillWait\":\n    \"x\"\n}}",
                          "s.json"),
             Equals("s.json:5: config.KillWait: \"x\" is not a whole number"));
  CHECK_THAT(config_error(
                 "{\n\"partitions\": [{\"id\": \"a\", \"node_pool_ids\": [\"p\"]}],\n"
                 "\"node_pools\": [{\"id\": \"p\", \"cpus\": 1, \"memory\": 1, \"count\":\n0\n}]}",
                 "s.json"),
             Equals("s.json:4: node_pools[0].count: must be at least 1"));
  CHECK_THAT(config_error("{\n\"partitions\": [],\n\"partitions\": []}", "s.json"),
             Equals("s.json:3: partitions: duplicate key (first at line 2)"));
  CHECK_THAT(
      config_error(
          "{\n\"partitions\": [{\"id\": \"a\", \"nodePoolIds\": [\"p\"], \"node_pool_ids\": []}]}",
          "s.json"),
      Contains("s.json:2: partitions[0].node_pool_ids: duplicate key (first at line 2)"));
}

TEST_CASE("JSON syntax errors give the line", "[config][json][errors]") {
  CHECK_THAT(config_error("{\n  \"partitions\": [\n    {\"id\": \"a\",}\n  ]\n}", "s.json"),
             StartsWith("s.json:3: JSON syntax error: "));
  CHECK_THAT(config_error("{\n  \"partitions\": [\n", "s.json"),
             StartsWith("s.json:3: JSON syntax error"));
  CHECK_THAT(config_error("{\"a\": 1} trailing", "s.json"),
             StartsWith("s.json:1: JSON syntax error"));
  CHECK_THAT(config_error("", "s.json"), StartsWith("s.json:1: JSON syntax error"));
  // The seed's web page shows the spec on one line, where the first `//` would
  // comment out all the rest: that is a syntax error, not a silent empty spec.
  CHECK_THAT(config_error("{ // ... other cluster configurations ... \"orchestratorSpec\": {} }",
                          "s.json"),
             StartsWith("s.json:1: JSON syntax error"));
}

TEST_CASE("the wrappers are checked", "[config][json][errors]") {
  CHECK_THAT(config_error(R"({"orchestratorSpec": {"other": 1}})", "s.json"),
             Equals("s.json:1: orchestratorSpec: no slurmSpec in it"));
  CHECK_THAT(config_error(R"({"orchestratorSpec": {"slurmSpec": []}})", "s.json"),
             Equals("s.json:1: orchestratorSpec.slurmSpec: expected a map"));
  CHECK_THAT(config_error(R"({"orchestratorSpec": []})", "s.json"),
             Equals("s.json:1: orchestratorSpec: expected a map"));
  // Other settings beside slurmSpec belong to the rest of the cluster spec.
  stint::Config c = parse(R"({"network": {"x": 1}, "orchestratorSpec": {"foo": 2,
      "slurm_spec": {"partitions": [{"id": "a", "node_pool_ids": ["p"]}]}}})",
                          "s.json");
  CHECK(c.partitions[0].id == "a");
  // Inside the spec, unknown keys are errors.
  CHECK_THAT(
      config_error(
          R"({"slurmSpec": {"partitions": [{"id": "a", "node_pool_ids": ["p"]}], "extra": 1}})",
          "s.json"),
      Contains("slurmSpec.extra: unknown key"));
}

TEST_CASE("examples/clusters/seed-spec.json is the seed's spec", "[config][json]") {
  stint::Config c = stint::load_config(STINT_SOURCE_DIR "/examples/clusters/seed-spec.json");
  check_seed(c);
  CHECK_THAT(c.source_path, Contains("seed-spec.json"));
}
