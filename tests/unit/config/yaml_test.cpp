#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;
using stint::ConfigOrigin;
using stint::k_infinite;
using stint::PartitionState;
using stint::test::config_error;
using stint::test::parse;

namespace {

constexpr const char* k_full = R"(# a lab server
cluster_name: lab
node_pools:
  - id: cpu
    count: 2
    cpus: 16
    memory: 64G
  - id: gpu
    count: 1
    cpus: 32
    memory: 128000
    gpus: 4
    gpu_type: a100
    node_names: [gpu-big]
partitions:
  - id: short
    node_pool_ids: [cpu, gpu]
    priority_tier: 1
    max_time: "4:00:00"
    default_time: "30"
  - id: high
    node_pool_ids: gpu
    priority_tier: 10
    max_time: 2-0
    state: drain
default_partition_id: short
login_node_pool_id: login
home_directory_storage: /srv/home
config:
  PriorityWeightAge: 1000
  preemptmode: requeue
  KillWait: 10
prolog_bash_scripts:
  - |
    #!/bin/bash
    echo prolog
epilog_bash_scripts: ["echo bye"]
)";

}  // namespace

TEST_CASE("a full stint.yaml loads", "[config][yaml]") {
  stint::Config c = parse(k_full);
  CHECK(c.cluster_name == "lab");
  CHECK(c.source_path == "stint.yaml");
  REQUIRE(c.node_pools.size() == 2);
  CHECK(c.node_pools[0].id == "cpu");
  CHECK(c.node_pools[0].count == 2);
  CHECK(c.node_pools[0].cpus == 16);
  CHECK(c.node_pools[0].memory_mb == 65536);
  CHECK(c.node_pools[0].gpus == 0);
  CHECK(c.node_pools[0].origin == ConfigOrigin::config_file);
  CHECK(c.node_pools[1].memory_mb == 128000);
  CHECK(c.node_pools[1].gpus == 4);
  CHECK(c.node_pools[1].gpu_type == "a100");
  CHECK(c.node_pools[1].node_names == std::vector<std::string>{"gpu-big"});

  REQUIRE(c.partitions.size() == 2);
  const stint::PartitionConfig& shorter = c.partitions[0];
  CHECK(shorter.node_pool_ids == std::vector<std::string>{"cpu", "gpu"});
  CHECK(shorter.priority_tier == 1);
  CHECK(shorter.max_time == 4 * 3600);
  CHECK(shorter.default_time == 30 * 60);
  CHECK(shorter.state == PartitionState::up);
  const stint::PartitionConfig& high = c.partitions[1];
  CHECK(high.node_pool_ids == std::vector<std::string>{"gpu"});  // a single string is a list of one
  CHECK(high.priority_tier == 10);
  CHECK(high.max_time == 2 * 86400);
  CHECK_FALSE(high.default_time);
  CHECK(high.state == PartitionState::drain);

  CHECK(c.default_partition_id == "short");
  CHECK(c.login_node_pool_id == "login");
  CHECK(c.home_directory_storage == "/srv/home");
  CHECK(c.slurm_conf.at("PriorityWeightAge") == "1000");
  CHECK(c.slurm_conf.at("preemptmode") == "requeue");  // the key as written
  CHECK(c.prolog_bash_scripts == std::vector<std::string>{"#!/bin/bash\necho prolog\n"});
  CHECK(c.epilog_bash_scripts == std::vector<std::string>{"echo bye"});
}

TEST_CASE("nodes expand from their pools", "[config]") {
  stint::Config c = parse(k_full);
  auto nodes = c.nodes();
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].name == "cpu-1");
  CHECK(nodes[1].name == "cpu-2");
  CHECK(nodes[2].name == "gpu-big");
  CHECK(nodes[2].pool_id == "gpu");
  CHECK(nodes[2].cpus == 32);
  CHECK(nodes[2].gpus == 4);
  CHECK(nodes[2].gpu_type == "a100");
  auto high = c.partition_nodes(*c.find_partition("high"));
  REQUIRE(high.size() == 1);
  CHECK(high[0].name == "gpu-big");
  CHECK(c.partition_nodes(*c.find_partition("short")).size() == 3);
  CHECK(c.find_partition("nosuch") == nullptr);
  CHECK(c.default_partition()->id == "short");
}

TEST_CASE("defaults: count 1, no GPUs, tier 1, no time limit, UP, first partition", "[config]") {
  stint::Config c = parse(R"(
node_pools:
  - {id: p, cpus: 2, memory: 2048}
partitions:
  - {id: a, node_pool_ids: [p]}
  - {id: b, node_pool_ids: [p]}
)");
  CHECK(c.cluster_name == "stint");
  CHECK(c.node_pools[0].count == 1);
  CHECK(c.node_pools[0].gpus == 0);
  CHECK(c.partitions[0].priority_tier == 1);
  CHECK(c.partitions[0].max_time == k_infinite);
  CHECK(c.partitions[0].state == PartitionState::up);
  CHECK(c.default_partition_id.empty());
  CHECK(c.default_partition()->id == "a");
  CHECK(c.slurm_conf.empty());
}

TEST_CASE("node names may be a hostlist; count follows them", "[config]") {
  stint::Config c = parse(R"(
node_pools:
  - id: p
    cpus: 2
    memory: 1G
    node_names: "n[01-03]"
  - id: q
    cpus: 2
    memory: 1G
    count: 2
    node_names: [x1, "y[1]"]
partitions: [{id: a, node_pool_ids: [p, q]}]
)");
  CHECK(c.node_pools[0].count == 3);
  CHECK(c.node_pools[0].node_names == std::vector<std::string>{"n01", "n02", "n03"});
  CHECK(c.node_pools[1].node_names == std::vector<std::string>{"x1", "y1"});
}

TEST_CASE("partition states are case-insensitive", "[config]") {
  struct Case {
    const char* text;
    PartitionState state;
    const char* name;
  };
  for (Case k : {Case{"UP", PartitionState::up, "UP"}, Case{"down", PartitionState::down, "DOWN"},
                 Case{"Drain", PartitionState::drain, "DRAIN"},
                 Case{"INACTIVE", PartitionState::inactive, "INACTIVE"}}) {
    stint::Config c =
        parse(std::string("partitions: [{id: a, node_pool_ids: [p], state: ") + k.text + "}]\n");
    CHECK(c.partitions[0].state == k.state);
    CHECK(stint::partition_state_name(k.state) == k.name);
  }
}

TEST_CASE("null values count as absent", "[config]") {
  stint::Config c = parse(R"(
cluster_name:
node_pools:
  - id: p
    cpus: 1
    memory: 100
    gpu_type:
partitions: [{id: a, node_pool_ids: [p], max_time: ~}]
)");
  CHECK(c.cluster_name == "stint");
  CHECK(c.node_pools[0].gpu_type.empty());
  CHECK(c.partitions[0].max_time == k_infinite);
}

TEST_CASE("YAML syntax errors name the file and line", "[config][yaml][errors]") {
  CHECK_THAT(config_error("partitions:\n  - id: a\n   bad: [\n"),
             StartsWith("stint.yaml:") && Contains("YAML syntax error"));
  CHECK_THAT(config_error("a: b\n  c: d\n", "x.yaml"), StartsWith("x.yaml:2: YAML syntax error"));
  CHECK_THAT(config_error("partitions: [unclosed\n"), Contains("YAML syntax error"));
}

TEST_CASE("structural errors", "[config][errors]") {
  CHECK_THAT(config_error(""), Equals("stint.yaml:1: partitions: the file is empty; at least one "
                                      "partition is needed"));
  CHECK_THAT(config_error("# only a comment\n"), Contains("the file is empty"));
  CHECK_THAT(config_error("- a\n- b\n"), Contains("(top level): expected a map"));
  CHECK_THAT(config_error("just text\n"), Contains("(top level): expected a map"));
  CHECK_THAT(config_error("cluster_name: x\n"),
             Equals("stint.yaml:1: partitions: missing; at least one partition is needed"));
  CHECK_THAT(config_error("partitions: []\n"),
             Equals("stint.yaml:1: partitions: empty; at least one partition is needed"));
  CHECK_THAT(config_error("partitions: a\n"),
             Equals("stint.yaml:1: partitions: expected a list of partitions"));
  CHECK_THAT(config_error("partitions:\n  - a\n"),
             Equals("stint.yaml:2: partitions[0]: expected a map (a partition)"));
  CHECK_THAT(config_error("node_pools: {id: p}\npartitions: [{id: a, node_pool_ids: [p]}]\n"),
             Equals("stint.yaml:1: node_pools: expected a list of node pools"));
  CHECK_THAT(config_error("node_pools: [x]\npartitions: [{id: a, node_pool_ids: [p]}]\n"),
             Contains("node_pools[0]: expected a map (a node pool)"));
}

TEST_CASE("unknown keys are errors, with a suggestion when close", "[config][errors]") {
  CHECK_THAT(config_error("partitions: [{id: a, node_pool_ids: [p]}]\nnode_pool: []\n"),
             Equals("stint.yaml:2: node_pool: unknown key; did you mean \"node_pools\"?"));
  CHECK_THAT(config_error("partitions: [{id: a, node_pool_ids: [p]}]\nwhatever: 1\n"),
             StartsWith("stint.yaml:2: whatever: unknown key (known: cluster_name, node_pools,"));
  CHECK_THAT(
      config_error("partitions:\n  - id: a\n    node_pool_ids: [p]\n    maxtime: 5\n"),
      Equals("stint.yaml:4: partitions[0].maxtime: unknown key; did you mean \"max_time\"?"));
  CHECK_THAT(
      config_error(
          "node_pools:\n  - id: p\n    cpus: 1\n    memory: 1\n    cpu: 2\npartitions: [{id: a, "
          "node_pool_ids: [p]}]\n"),
      Equals("stint.yaml:5: node_pools[0].cpu: unknown key; did you mean \"cpus\"?"));
}

TEST_CASE("duplicate keys are errors, also across spellings", "[config][errors]") {
  CHECK_THAT(config_error("partitions: []\npartitions: []\n"),
             Equals("stint.yaml:2: partitions: duplicate key (first at line 1)"));
  CHECK_THAT(config_error("partitions:\n  - id: a\n    node_pool_ids: [p]\n    nodePoolIds: [q]\n"),
             Equals("stint.yaml:4: partitions[0].nodePoolIds: duplicate key (first at line 3)"));
}

TEST_CASE("wrong types", "[config][errors]") {
  const std::string parts = "partitions: [{id: a, node_pool_ids: [p]}]\n";
  CHECK_THAT(config_error("cluster_name: [a]\n" + parts),
             Equals("stint.yaml:1: cluster_name: expected a string"));
  CHECK_THAT(config_error("cluster_name: my cluster\n" + parts),
             Contains("cluster_name: \"my cluster\" is not a valid cluster name"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: four, memory: 1}]\n" + parts),
             Equals("stint.yaml:1: node_pools[0].cpus: \"four\" is not a whole number"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: -1, memory: 1}]\n" + parts),
             Contains("node_pools[0].cpus: \"-1\" is not a whole number"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 2.5, memory: 1}]\n" + parts),
             Contains("node_pools[0].cpus: \"2.5\" is not a whole number"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: [1], memory: 1}]\n" + parts),
             Contains("node_pools[0].cpus: expected a whole number"));
  CHECK_THAT(config_error("node_pools: [{id: [p], cpus: 1, memory: 1}]\n" + parts),
             Contains("node_pools[0].id: expected a string"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: 1, gpus: x}]\n" + parts),
             Contains("node_pools[0].gpus: \"x\" is not a whole number"));
  CHECK_THAT(config_error("partitions: [{id: a, node_pool_ids: {p: 1}}]\n"),
             Contains("partitions[0].node_pool_ids: expected a list of strings"));
  CHECK_THAT(config_error("partitions: [{id: a, node_pool_ids: [[p]]}]\n"),
             Contains("partitions[0].node_pool_ids[0]: expected a string"));
  CHECK_THAT(config_error("partitions: [{id: a, node_pool_ids: [p], priority_tier: high}]\n"),
             Contains("partitions[0].priority_tier: \"high\" is not a whole number"));
  CHECK_THAT(config_error(parts + "config: [KillWait]\n"),
             Equals("stint.yaml:2: config: expected a map of slurm.conf keys"));
  CHECK_THAT(config_error(parts + "config:\n  KillWait: [1]\n"),
             Equals("stint.yaml:3: config.KillWait: expected a value"));
  CHECK_THAT(config_error(parts + "prolog_bash_scripts: echo\n"),
             Equals("stint.yaml:2: prolog_bash_scripts: expected a list of strings"));
  CHECK_THAT(config_error(parts + "epilog_bash_scripts: [{a: b}]\n"),
             Equals("stint.yaml:2: epilog_bash_scripts[0]: expected a string"));
  CHECK_THAT(config_error(parts + "default_partition_id: [a]\n"),
             Contains("default_partition_id: expected a string"));
}

TEST_CASE("node pool rules", "[config][errors]") {
  const std::string parts = "partitions: [{id: a, node_pool_ids: [p]}]\n";
  CHECK_THAT(config_error("node_pools: [{cpus: 1, memory: 1}]\n" + parts),
             Equals("stint.yaml:1: node_pools[0].id: missing"));
  CHECK_THAT(config_error("node_pools: [{id: p, memory: 1}]\n" + parts),
             Contains("node_pools[0].cpus: missing"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1}]\n" + parts),
             Contains("node_pools[0].memory: missing"));
  CHECK_THAT(config_error("node_pools: [{id: p, count: 0, cpus: 1, memory: 1}]\n" + parts),
             Equals("stint.yaml:1: node_pools[0].count: must be at least 1"));
  CHECK_THAT(config_error("node_pools: [{id: p, count: 100000, cpus: 1, memory: 1}]\n" + parts),
             Contains("node_pools[0].count: must be at most 4096"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 0, memory: 1}]\n" + parts),
             Contains("node_pools[0].cpus: must be at least 1"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: 0}]\n" + parts),
             Contains("node_pools[0].memory: must be more than 0"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: 16Q}]\n" + parts),
             Contains("node_pools[0].memory: \"16Q\" is not a memory size"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: -5}]\n" + parts),
             Contains("node_pools[0].memory: \"-5\" is not a memory size"));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: 1, gpu_type: a100}]\n" + parts),
             Contains("node_pools[0].gpu_type: a GPU type, but no gpus"));
  CHECK_THAT(config_error("node_pools: [{id: 'p q', cpus: 1, memory: 1}]\n" + parts),
             Contains("node_pools[0].id: \"p q\" is not a valid node pool id"));
  CHECK_THAT(config_error("node_pools:\n  - {id: p, cpus: 1, memory: 1}\n  - {id: p, cpus: 2, "
                          "memory: 1}\n" +
                          parts),
             Equals("stint.yaml:3: node_pools[1].id: duplicate node pool id \"p\""));
  CHECK_THAT(config_error("node_pools: [{id: p, count: 2, cpus: 1, memory: 1, node_names: [a]}]\n" +
                          parts),
             Contains("node_pools[0].node_names: 1 names for count 2"));
  CHECK_THAT(
      config_error("node_pools: [{id: p, cpus: 1, memory: 1, node_names: 'n[3-1]'}]\n" + parts),
      Contains("node_pools[0].node_names: \"n[3-1]\""));
  CHECK_THAT(config_error("node_pools: [{id: p, cpus: 1, memory: 1, node_names: []}]\n" + parts),
             Contains("node_pools[0].node_names: empty"));
  CHECK_THAT(config_error("node_pools:\n  - {id: p, count: 2, cpus: 1, memory: 1}\n"
                          "  - {id: q, cpus: 1, memory: 1, node_names: [p-2]}\n" +
                          parts),
             Equals("stint.yaml:3: node_pools[1]: node name \"p-2\" is also used at line 2"));
}

TEST_CASE("partition rules", "[config][errors]") {
  const std::string pools = "node_pools: [{id: p, cpus: 1, memory: 1}]\n";
  CHECK_THAT(config_error(pools + "partitions: [{node_pool_ids: [p]}]\n"),
             Equals("stint.yaml:2: partitions[0].id: missing"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a}]\n"),
             Equals("stint.yaml:2: partitions[0].node_pool_ids: missing"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: []}]\n"),
             Contains("partitions[0].node_pool_ids: empty"));
  CHECK_THAT(config_error(pools + "partitions:\n  - {id: a, node_pool_ids: [p]}\n"
                                  "  - {id: a, node_pool_ids: [p]}\n"),
             Equals("stint.yaml:4: partitions[1].id: duplicate partition id \"a\""));
  CHECK_THAT(
      config_error(pools + "partitions:\n  - id: a\n    node_pool_ids:\n      - p\n      - q\n"),
      Equals("stint.yaml:6: partitions[0].node_pool_ids[1]: no node pool \"q\" (node_pools: p)"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p, p]}]\n"),
             Contains("partitions[0].node_pool_ids[1]: node pool \"p\" is named twice"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p], max_time: soon}]\n"),
             Contains("partitions[0].max_time: \"soon\" is not a time limit"));
  CHECK_THAT(
      config_error(pools + "partitions: [{id: a, node_pool_ids: [p], default_time: '1:2:3:4'}]\n"),
      Contains("partitions[0].default_time: \"1:2:3:4\" is not a time limit"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p], max_time: -5}]\n"),
             Contains("partitions[0].max_time: \"-5\" is not a time limit"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p], max_time: 10, "
                                  "default_time: 20}]\n"),
             Contains("partitions[0].default_time: 20 is longer than max_time 10:00"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p], max_time: 10, "
                                  "default_time: UNLIMITED}]\n"),
             Contains("partitions[0].default_time: UNLIMITED is longer than max_time"));
  CHECK_THAT(config_error(pools + "partitions: [{id: a, node_pool_ids: [p], state: OPEN}]\n"),
             Contains("partitions[0].state: \"OPEN\" is not one of UP, DOWN, DRAIN, INACTIVE"));
  CHECK_THAT(
      config_error(pools + "partitions: [{id: a, node_pool_ids: [p], priority_tier: 70000}]\n"),
      Contains("partitions[0].priority_tier: must be at most 65533"));
  CHECK_THAT(
      config_error(pools + "partitions: [{id: a, node_pool_ids: [p]}]\ndefault_partition_id: b\n"),
      Equals("stint.yaml:3: default_partition_id: no partition \"b\" (partitions: a)"));
}

TEST_CASE("a partition with default_time within max_time, and UNLIMITED max", "[config]") {
  stint::Config c =
      parse("partitions: [{id: a, node_pool_ids: [p], max_time: UNLIMITED, default_time: 1-0}]\n");
  CHECK(c.partitions[0].max_time == k_infinite);
  CHECK(c.partitions[0].default_time == 86400);
}

TEST_CASE("slurm.conf keys in config are checked", "[config][errors]") {
  const std::string parts = "partitions: [{id: a, node_pool_ids: [p]}]\n";
  CHECK_THAT(config_error(parts + "config:\n  PriorityWeightAgee: 10\n"),
             Equals("stint.yaml:3: config.PriorityWeightAgee: unknown slurm.conf key; did you mean "
                    "PriorityWeightAge?"));
  CHECK_THAT(
      config_error(parts + "config:\n  SlurmctldPort: 6817\n"),
      Equals("stint.yaml:3: config.SlurmctldPort: a Slurm slurm.conf key that stint does not "
             "support; remove it (stint config show lists the keys stint takes)"));
  CHECK_THAT(config_error(parts + "config:\n  KillWait: 10\n  killwait: 20\n"),
             Equals("stint.yaml:4: config.killwait: duplicate key (first at line 3)"));
  CHECK_THAT(config_error(parts + "config:\n  KillWait: soon\n"),
             Equals("stint.yaml:3: config.KillWait: \"soon\" is not a whole number"));
  CHECK_THAT(config_error(parts + "config:\n  MaxArraySize: 5000000\n"),
             Contains("config.MaxArraySize: 5000000 is out of range (0 to 4000001)"));
  CHECK_THAT(config_error(parts + "config:\n  PreemptMode: SOMETIMES\n"),
             Contains("config.PreemptMode: \"SOMETIMES\" is not one of OFF, CANCEL, REQUEUE"));
  CHECK_THAT(config_error(parts + "config:\n  PreemptType: preempt/magic\n"),
             Contains("config.PreemptType: \"preempt/magic\" is not one of preempt/none"));
  CHECK_THAT(config_error(parts + "config:\n  AccountingStorageEnforce: limits,bogus\n"),
             Contains("config.AccountingStorageEnforce: \"bogus\" is not one of"));
  CHECK_THAT(config_error(parts + "config:\n  PriorityMaxAge: 7 days\n"),
             Contains("config.PriorityMaxAge: \"7 days\" is not a time"));
  CHECK_THAT(config_error(parts + "config:\n  DefMemPerCPU: lots\n"),
             Contains("config.DefMemPerCPU: \"lots\" is not a memory size"));
  CHECK_THAT(config_error("cluster_name: a\n" + parts + "config:\n  ClusterName: b\n"),
             Contains("config.ClusterName: cluster_name is set too; keep one"));
}

TEST_CASE("ClusterName in config sets cluster_name", "[config]") {
  stint::Config c =
      parse("partitions: [{id: a, node_pool_ids: [p]}]\nconfig: {ClusterName: lab}\n");
  CHECK(c.cluster_name == "lab");
  CHECK(c.slurm_conf.empty());
  CHECK(c.conf("clustername") == "lab");
}

TEST_CASE("camelCase keys work in YAML too", "[config]") {
  stint::Config c = parse(R"(
clusterName: lab
nodePools: [{id: p, cpus: 1, memory: 1G, gpus: 1, gpuType: t4, nodeNames: [n1]}]
partitions: [{id: a, nodePoolIds: [p], priorityTier: 3, maxTime: 60, defaultTime: 5}]
defaultPartitionId: a
)");
  CHECK(c.cluster_name == "lab");
  CHECK(c.node_pools[0].gpu_type == "t4");
  CHECK(c.node_pools[0].node_names == std::vector<std::string>{"n1"});
  CHECK(c.partitions[0].priority_tier == 3);
  CHECK(c.partitions[0].max_time == 3600);
  CHECK(c.default_partition_id == "a");
}

TEST_CASE("placement keys: features, tmp_disk, sockets, threads_per_core, oversubscribe",
          "[config]") {
  stint::Config c = parse(R"(
node_pools:
  - {id: p, cpus: 16, memory: 1G, features: [fast, ib], tmp_disk: 10G, sockets: 2,
     threads_per_core: 2}
partitions: [{id: a, node_pool_ids: [p], oversubscribe: exclusive}]
)");
  CHECK(c.node_pools[0].features == std::vector<std::string>{"fast", "ib"});
  CHECK(c.node_pools[0].tmp_disk_mb == 10 * 1024);
  CHECK(c.nodes().front().cores_per_socket() == 4);
  CHECK(c.partitions[0].over_subscribe == "EXCLUSIVE");
  CHECK_THAT(config_error("node_pools:\n  - {id: p, cpus: 6, memory: 1G, sockets: 4}\n"
                          "partitions: [{id: a, node_pool_ids: [p]}]\n"),
             Contains("6 cpus do not divide into 4 sockets of 1-thread cores"));
  CHECK_THAT(config_error("node_pools:\n  - {id: p, cpus: 2, memory: 1G, features: [\"a&b\"]}\n"
                          "partitions: [{id: a, node_pool_ids: [p]}]\n"),
             Contains("\"a&b\" is not a valid feature name"));
  CHECK_THAT(config_error("node_pools:\n  - {id: p, cpus: 2, memory: 1G}\n"
                          "partitions: [{id: a, node_pool_ids: [p], oversubscribe: FORCE}]\n"),
             Contains("\"FORCE\" is not supported"));
}

TEST_CASE("node addresses: counted on from node_addr_base, or pinned by a pool", "[config]") {
  stint::Config c = parse(R"(
node_pools:
  - {id: g, count: 2, cpus: 1, memory: 1G}
  - {id: h, count: 2, cpus: 1, memory: 1G, node_addrs: [10.0.0.7, 10.0.0.9]}
  - {id: k, cpus: 1, memory: 1G}
partitions: [{id: a, node_pool_ids: [g, h, k]}]
)");
  const auto nodes = c.nodes();
  REQUIRE(nodes.size() == 5);
  CHECK(nodes[0].addr == "127.0.1.1");
  CHECK(nodes[1].addr == "127.0.1.2");
  CHECK(nodes[2].addr == "10.0.0.7");
  CHECK(nodes[3].addr == "10.0.0.9");
  // Its place in the cluster, pinned nodes counted.
  CHECK(nodes[4].addr == "127.0.1.5");
  const stint::Config based = parse(R"(
node_addr_base: 127.0.2.254
node_pools: [{id: g, count: 3, cpus: 1, memory: 1G}]
partitions: [{id: a, node_pool_ids: [g]}]
)");
  CHECK(based.nodes()[2].addr == "127.0.3.0");
  // stint init's text keeps them.
  const stint::Config again = parse(stint::config_to_yaml(based));
  CHECK(again.node_addr_base == "127.0.2.254");
  CHECK(parse(stint::config_to_yaml(c)).node_pools[1].node_addrs == c.node_pools[1].node_addrs);
}

TEST_CASE("node address rules", "[config][errors]") {
  const std::string parts = "partitions: [{id: a, node_pool_ids: [p]}]\n";
  CHECK_THAT(
      config_error("node_addr_base: 127.0.1\nnode_pools: [{id: p, cpus: 1, memory: 1}]\n" + parts),
      Equals("stint.yaml:1: node_addr_base: \"127.0.1\" is not an IPv4 address (e.g. "
             "127.0.1.1)"));
  CHECK_THAT(config_error("node_pools: [{id: p, count: 2, cpus: 1, memory: 1, node_addrs: "
                          "[127.0.0.300, 1.2.3.4]}]\n" +
                          parts),
             Contains("node_pools[0].node_addrs: \"127.0.0.300\" is not an IPv4 address"));
  CHECK_THAT(config_error("node_pools: [{id: p, count: 2, cpus: 1, memory: 1, node_addrs: "
                          "[1.2.3.4]}]\n" +
                          parts),
             Contains("node_pools[0].node_addrs: 1 addresses for 2 nodes"));
  CHECK_THAT(config_error("node_pools:\n  - {id: p, count: 2, cpus: 1, memory: 1}\n"
                          "  - {id: q, cpus: 1, memory: 1, node_addrs: [127.0.1.2]}\n" +
                          parts),
             Contains("nodes p-2 and q-1 would share the address 127.0.1.2"));
  CHECK_THAT(config_error("node_addr_base: 255.255.255.255\n"
                          "node_pools: [{id: p, count: 2, cpus: 1, memory: 1}]\n" +
                          parts),
             Contains("2 nodes do not fit after node_addr_base 255.255.255.255"));
}

TEST_CASE("IPv4 text", "[config][parse]") {
  CHECK(stint::parse_ipv4("127.0.1.1") == 0x7f000101U);
  CHECK(stint::parse_ipv4("0.0.0.0") == 0U);
  CHECK(stint::parse_ipv4("255.255.255.255") == 0xffffffffU);
  for (const char* bad : {"", "1.2.3", "1.2.3.4.5", "1.2.3.256", "1..2.3", "a.b.c.d", "1.2.3.4 ",
                          " 1.2.3.4", "1.2.3.0004", "-1.2.3.4"})
    CHECK_FALSE(stint::parse_ipv4(bad));
  CHECK(stint::format_ipv4(0x7f000101U) == "127.0.1.1");
}

TEST_CASE("the machine itself as its one node has no virtual nodes", "[config]") {
  const auto one = [](const std::string& extra) {
    return parse("node_pools: [{id: p, cpus: 1, memory: 1, node_names: [box]" + extra +
                 "}]\npartitions: [{id: a, node_pool_ids: [p]}]\n");
  };
  CHECK_FALSE(one("").has_virtual_nodes("box"));
  CHECK(one("").has_virtual_nodes("other"));
  CHECK(one(", node_addrs: [10.1.1.1]").has_virtual_nodes("box"));
  CHECK(parse("node_pools: [{id: p, count: 2, cpus: 1, memory: 1}]\n"
              "partitions: [{id: a, node_pool_ids: [p]}]\n")
            .has_virtual_nodes("p-1"));
}
