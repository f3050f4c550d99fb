// Partition overrides (scontrol update PartitionName=) and the change list
// scontrol reconfigure logs.

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using stint::test::parse;

namespace {

constexpr std::string_view k_two = R"(
node_pools:
  - {id: a, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [a], max_time: "1:00:00"}
  - {id: long, node_pool_ids: [a]}
config:
  PriorityWeightAge: "1000"
)";

}  // namespace

TEST_CASE("a partition override goes to JSON and back unchanged") {
  stint::PartitionOverride o;
  o.state = stint::PartitionState::drain;
  o.max_time = 1800;
  o.priority_tier = 5;
  o.nodes = std::vector<std::string>{"a-1"};
  CHECK(stint::partition_override_from_json(stint::partition_override_to_json(o)) == o);
  CHECK(stint::partition_override_from_json("{}").empty());
  CHECK_THROWS_AS(stint::partition_override_from_json("{\"state\":\"SIDEWAYS\"}"), stint::Error);
  CHECK_THROWS_AS(stint::partition_override_from_json("not json"), stint::Error);
}

TEST_CASE("an override changes only what it sets, and Nodes= names nodes") {
  stint::Config c = parse(k_two);
  stint::PartitionOverride o;
  o.state = stint::PartitionState::down;
  o.nodes = std::vector<std::string>{"a-2"};
  stint::apply_partition_override(c, "debug", o);
  const stint::PartitionConfig* p = c.find_partition("debug");
  REQUIRE(p);
  CHECK(p->state == stint::PartitionState::down);
  CHECK(p->max_time == 3600);
  REQUIRE(c.partition_nodes(*p).size() == 1);
  CHECK(c.partition_nodes(*p)[0].name == "a-2");
  CHECK(c.find_partition("long")->state == stint::PartitionState::up);
  stint::apply_partition_override(c, "nope", o);  // no such partition: nothing
}

TEST_CASE("every field of an override survives JSON") {
  stint::PartitionOverride o;
  o.default_time = stint::k_infinite;
  o.priority_job_factor = 7;
  o.allow_accounts = std::vector<std::string>{"physics", "chem"};
  o.deny_accounts = std::vector<std::string>{};
  o.allow_qos = std::vector<std::string>{"high"};
  o.deny_qos = std::vector<std::string>{"none"};
  o.created = true;
  CHECK(stint::partition_override_from_json(stint::partition_override_to_json(o)) == o);
  stint::PartitionOverride gone;
  gone.deleted = true;
  gone.default_time_none = true;
  CHECK(stint::partition_override_from_json(stint::partition_override_to_json(gone)) == gone);
  CHECK_THROWS_AS(stint::partition_override_from_json("[1]"), stint::Error);
  CHECK_THROWS_AS(stint::partition_override_from_json("{\"nodes\": 3}"), stint::Error);
}

TEST_CASE("a created partition is added after the file's, of its nodes' pools") {
  stint::Config c = parse(R"(
node_pools:
  - {id: a, count: 2, cpus: 4, memory: 4G}
  - {id: b, count: 2, cpus: 8, memory: 8G}
partitions:
  - {id: debug, node_pool_ids: [a]}
)");
  stint::PartitionOverride o;
  o.created = true;
  o.nodes = std::vector<std::string>{"a-2", "b-1"};
  o.max_time = 1800;
  o.priority_tier = o.priority_job_factor = 3;
  stint::apply_partition_override(c, "mixed", o);
  REQUIRE(c.partitions.size() == 2);
  const stint::PartitionConfig& p = c.partitions.back();
  CHECK(p.id == "mixed");
  CHECK(p.node_pool_ids == std::vector<std::string>{"a", "b"});
  CHECK(p.max_time == 1800);
  CHECK(p.priority_job_factor == 3u);
  std::vector<std::string> names;
  for (const stint::NodeDef& n : c.partition_nodes(p)) names.push_back(n.name);
  CHECK(names == std::vector<std::string>{"a-2", "b-1"});
  CHECK(c.default_partition()->id == "debug");
  // Applied again (every pass of the tools applies them all): still one.
  stint::apply_partition_override(c, "mixed", o);
  CHECK(c.partitions.size() == 2);

  stint::PartitionOverride empty_one;
  empty_one.created = true;
  empty_one.nodes = std::vector<std::string>{};
  stint::apply_partition_override(c, "empty", empty_one);
  REQUIRE(c.find_partition("empty"));
  CHECK(c.partition_nodes(*c.find_partition("empty")).empty());
}

TEST_CASE("a deleted partition is gone, the default with it") {
  stint::Config c = parse(k_two);
  c.default_partition_id = "debug";
  stint::PartitionOverride gone;
  gone.deleted = true;
  stint::apply_partition_override(c, "debug", gone);
  CHECK_FALSE(c.find_partition("debug"));
  CHECK(c.default_partition_id.empty());
  CHECK(c.default_partition()->id == "long");
}

TEST_CASE("merging changes: later wins, a deletion forgets, a created one deleted is nothing") {
  stint::PartitionOverride o;
  o.max_time = 60;
  stint::PartitionOverride later;
  later.max_time = 120;
  later.default_time_none = true;
  later.allow_accounts = std::vector<std::string>{};
  stint::merge_partition_override(o, later);
  CHECK(o.max_time == 120);
  CHECK(o.default_time_none);
  CHECK(o.allow_accounts == std::vector<std::string>{});

  stint::PartitionOverride gone;
  gone.deleted = true;
  stint::merge_partition_override(o, gone);
  CHECK(o.deleted);
  CHECK_FALSE(o.max_time);

  stint::PartitionOverride made;
  made.created = true;
  made.nodes = std::vector<std::string>{"a-1"};
  stint::PartitionOverride again = made;
  stint::merge_partition_override(again, gone);
  CHECK(again.empty());
  // Deleted, then created anew: the new one alone.
  stint::merge_partition_override(o, made);
  CHECK(o == made);
}

TEST_CASE("reconfigure keeps overrides as ReconfigFlags says") {
  stint::PartitionOverride o;
  o.state = stint::PartitionState::down;
  o.max_time = 60;
  CHECK(stint::kept_on_reconfigure(parse(k_two), o).empty());
  const std::string state_only = std::string(k_two) + "  ReconfigFlags: KeepPartState\n";
  stint::PartitionOverride kept = stint::kept_on_reconfigure(parse(state_only), o);
  CHECK(kept.state == stint::PartitionState::down);
  CHECK_FALSE(kept.max_time);
  const std::string all = std::string(k_two) + "  ReconfigFlags: KeepPartInfo\n";
  CHECK(stint::kept_on_reconfigure(parse(all), o) == o);
}

TEST_CASE("config_changes names each change and nothing else") {
  const stint::Config before = parse(k_two);
  CHECK(stint::config_changes(before, before).empty());
  const stint::Config after = parse(R"(
node_pools:
  - {id: a, count: 3, cpus: 4, memory: 4G}
  - {id: g, count: 1, cpus: 8, memory: 8G, gpus: 2}
partitions:
  - {id: debug, node_pool_ids: [a], max_time: "2:00:00"}
  - {id: gpu, node_pool_ids: [g]}
config:
  PriorityWeightAge: "2000"
)");
  const auto changes = stint::config_changes(before, after);
  auto has = [&](std::string_view text) {
    return std::any_of(changes.begin(), changes.end(),
                       [&](const std::string& c) { return c.find(text) != std::string::npos; });
  };
  CHECK(has("node pool a: count=2"));
  CHECK(has("node pool g added"));
  CHECK(has("partition debug: "));
  CHECK(has("MaxTime=01:00:00"));
  CHECK(has("partition gpu added"));
  CHECK(has("partition long removed"));
  CHECK(has("PriorityWeightAge: 1000 -> 2000"));
  CHECK(changes.size() == 6);
}
