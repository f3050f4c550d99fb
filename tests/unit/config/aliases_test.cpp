#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using stint::test::config_error;
using stint::test::parse;

namespace {

// Two partitions, one GPU type: what the aliases may point at.
constexpr const char* k_base = R"(node_pools:
  - {id: cpu, cpus: 4, memory: 4G}
  - {id: gpu, cpus: 8, memory: 8G, gpus: 2, gpu_type: a100}
partitions:
  - {id: batch, node_pool_ids: [cpu]}
  - {id: gpu, node_pool_ids: [gpu]}
)";

std::string with(const std::string& aliases) { return std::string(k_base) + aliases; }

}  // namespace

TEST_CASE("aliases: every kind loads, QOS and accounts lower-cased", "[aliases]") {
  const auto c = parse(with(R"(aliases:
  partitions: {gpu-long: gpu, cpu-short: batch}
  gpu_types: {v100: a100}
  qos: {High: normal}
  accounts: {PROJ123: lab}
  reservations: {maint: ""}
)"));
  CHECK(c.aliases.partitions.at("gpu-long") == "gpu");
  CHECK(c.aliases.partitions.at("cpu-short") == "batch");
  CHECK(c.aliases.gpu_types.at("v100") == "a100");
  CHECK(c.aliases.qos.at("high") == "normal");
  CHECK(c.aliases.accounts.at("proj123") == "lab");
  CHECK(c.aliases.reservations.at("maint").empty());
}

TEST_CASE("aliases: a null or empty target drops the request", "[aliases]") {
  const auto c = parse(with("aliases:\n  partitions:\n    old:\n  gpu_types: {k80: \"\"}\n"));
  CHECK(c.aliases.partitions.at("old").empty());
  CHECK(c.aliases.gpu_types.at("k80").empty());
}

TEST_CASE("aliases: without them the config has none", "[aliases]") {
  CHECK(parse(k_base).aliases.empty());
  CHECK(parse(with("aliases:\n")).aliases.empty());
}

TEST_CASE("aliases: targets must exist where the file can tell", "[aliases]") {
  CHECK_THAT(
      config_error(with("aliases:\n  partitions: {gpu-long: nosuch}\n")),
      Contains("aliases.partitions.gpu-long: no partition \"nosuch\" (partitions: batch, gpu)"));
  CHECK_THAT(config_error(with("aliases:\n  gpu_types: {v100: h100}\n")),
             Contains("no node pool has GPU type \"h100\" (GPU types: a100)"));
  // Accounts, QOS and reservations live in the state: any valid name loads.
  CHECK_NOTHROW(
      parse(with("aliases:\n  accounts: {a: b}\n  qos: {x: y}\n  reservations: {r: s}\n")));
}

TEST_CASE("aliases: a name this machine has cannot be an alias", "[aliases]") {
  CHECK_THAT(config_error(with("aliases:\n  partitions: {gpu: batch}\n")),
             Contains("gpu is a partition of this machine: an alias would never apply"));
  CHECK_THAT(config_error(with("aliases:\n  gpu_types: {a100: \"\"}\n")),
             Contains("a100 is a GPU type of this machine"));
  CHECK_THAT(config_error(with("aliases:\n  qos: {high: High}\n")),
             Contains("maps the name to itself"));
}

TEST_CASE("aliases: malformed maps are refused with file, line and key", "[aliases]") {
  CHECK_THAT(
      config_error(with("aliases:\n  partition: {a: batch}\n")),
      Contains("stint.yaml:8: aliases.partition: unknown key; did you mean \"partitions\"?"));
  CHECK_THAT(config_error(with("aliases: [a, b]\n")), Contains("aliases: expected a map"));
  CHECK_THAT(config_error(with("aliases:\n  qos: [high]\n")),
             Contains("aliases.qos: expected a map of the cluster's QOS name"));
  CHECK_THAT(config_error(with("aliases:\n  qos: {high: [a]}\n")),
             Contains("expected this machine's QOS name"));
  CHECK_THAT(config_error(with("aliases:\n  accounts: {\"a b\": lab}\n")),
             Contains("\"a b\" is not a valid account name"));
  CHECK_THAT(config_error(with("aliases:\n  accounts: {Lab1: x, lab1: y}\n")),
             Contains("duplicate name (first at line 8)"));
  CHECK_THAT(config_error(with("aliases:\n  qos: {a: b}\n  qos: {c: d}\n")),
             Contains("duplicate key (first at line 8)"));
}

TEST_CASE("aliases: written by config_to_yaml and read back equal", "[aliases]") {
  const auto c = parse(with(R"(aliases:
  partitions: {gpu-long: gpu}
  gpu_types: {v100: a100}
  qos: {high: normal}
  accounts: {proj123: lab}
  reservations: {maint: ""}
)"));
  const std::string text = stint::config_to_yaml(c);
  CHECK_THAT(text, Contains("maint: \"\""));
  auto back = parse(text);
  back.source_path = c.source_path;
  CHECK(back.aliases == c.aliases);
}

TEST_CASE("aliases: the seed's JSON takes them too (gpuTypes)", "[aliases]") {
  const auto c = parse(R"({"nodePools": [{"id": "g", "cpus": 2, "memory": "1G", "gpus": 1,
                            "gpuType": "a100"}],
                            "partitions": [{"id": "p", "nodePoolIds": ["g"]}],
                            "aliases": {"gpuTypes": {"v100": "a100"}}})",
                       "spec.json");
  CHECK(c.aliases.gpu_types.at("v100") == "a100");
}

TEST_CASE("aliases: changes are named in the reconfigure log", "[aliases]") {
  const auto a = parse(with("aliases:\n  partitions: {old: batch, x: gpu}\n"));
  const auto b = parse(with("aliases:\n  partitions: {old: gpu, y: \"\"}\n"));
  const auto lines = stint::config_changes(a, b);
  CHECK(std::find(lines.begin(), lines.end(), "alias partition old: batch -> gpu") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "alias partition x removed") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(), "alias partition y added: (none)") != lines.end());
}

TEST_CASE("StintForeignNames: refuse or map, anything else refused", "[aliases]") {
  CHECK(parse(k_base).conf("StintForeignNames") == "refuse");
  CHECK(parse(with("config: {StintForeignNames: map}\n")).conf("StintForeignNames") == "map");
  CHECK_THAT(config_error(with("config: {StintForeignNames: guess}\n")),
             Contains("\"guess\" is not one of refuse, map"));
}
