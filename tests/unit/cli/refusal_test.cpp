#include "cli/refusal.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

Config mixed_cluster() {
  Config c;
  NodePool cpu;
  cpu.id = "c";
  cpu.count = 2;
  cpu.cpus = 4;
  cpu.memory_mb = 8192;
  NodePool gpu;
  gpu.id = "g";
  gpu.count = 1;
  gpu.cpus = 16;
  gpu.memory_mb = 1536;
  gpu.gpus = 2;
  gpu.gpu_type = "a100";
  c.node_pools = {cpu, gpu};
  PartitionConfig all;
  all.id = "all";
  all.node_pool_ids = {"c", "g"};
  PartitionConfig gpus;
  gpus.id = "gpu";
  gpus.node_pool_ids = {"g"};
  c.partitions = {all, gpus};
  return c;
}

}  // namespace

TEST_CASE("nodes_shape groups nodes by shape, in their order", "[refusal]") {
  const Config c = mixed_cluster();
  CHECK(cli::nodes_shape(c.partition_nodes(c.partitions[0])) ==
        "2 nodes of 4 CPUs, 8G, no GPUs; 1 node of 16 CPUs, 1536M, 2 GPUs (a100)");
  CHECK(cli::nodes_shape({}) == "no nodes");
  NodeDef one;
  one.cpus = 1;
  one.memory_mb = 100;
  one.gpus = 1;
  CHECK(cli::nodes_shape({one}) == "1 node of 1 CPU, 100M, 1 GPU");
}

TEST_CASE("a refusal for resources shows the shape of each partition asked for", "[refusal]") {
  const Config c = mixed_cluster();
  using V = std::vector<std::string>;
  // No partition asked: the default one (the first).
  CHECK(
      cli::refusal_hints(c, Errc::node_config_unavailable, "", "") ==
      V{"partition all: 2 nodes of 4 CPUs, 8G, no GPUs; 1 node of 16 CPUs, 1536M, 2 GPUs (a100)"});
  CHECK(cli::refusal_hints(c, Errc::invalid_gres, "gpu", "") ==
        V{"partition gpu: 1 node of 16 CPUs, 1536M, 2 GPUs (a100)"});
  CHECK(
      cli::refusal_hints(c, Errc::invalid_node_count, "gpu,nosuch,all", "", "server type").size() ==
      2);
  CHECK(cli::refusal_hints(c, Errc::invalid_node_count, "gpu", "", "server type") ==
        V{"server type gpu: 1 node of 16 CPUs, 1536M, 2 GPUs (a100)"});
  // Refusals that are not about resources have nothing to add.
  CHECK(cli::refusal_hints(c, Errc::invalid_qos, "gpu", "").empty());
  CHECK(cli::refusal_hints(c, Errc::access_denied, "", "").empty());
}

TEST_CASE("an unknown partition is answered with the partitions there are", "[refusal]") {
  const Config c = mixed_cluster();
  using V = std::vector<std::string>;
  CHECK(cli::refusal_hints(c, Errc::invalid_partition, "nosuch", "") == V{"partitions: all, gpu"});
  CHECK(cli::refusal_hints(c, Errc::invalid_partition, "nosuch", "", "server type") ==
        V{"server types: all, gpu"});
}

TEST_CASE("an array past MaxArraySize names the limit", "[refusal]") {
  Config c = mixed_cluster();
  c.slurm_conf["MaxArraySize"] = "100";
  using V = std::vector<std::string>;
  CHECK(cli::refusal_hints(c, Errc::invalid_array, "", "0-100") ==
        V{"MaxArraySize is 100: task ids go from 0 to 99 (stint.yaml's config: MaxArraySize)"});
  // Within the limit, or malformed whatever the limit: the limit is not why.
  CHECK(cli::refusal_hints(c, Errc::invalid_array, "", "0-99").empty());
  CHECK(cli::refusal_hints(c, Errc::invalid_array, "", "5-1").empty());
  CHECK(cli::refusal_hints(c, Errc::invalid_array, "", "x").empty());
  CHECK(cli::refusal_hints(c, Errc::invalid_array, "", "").empty());
}
