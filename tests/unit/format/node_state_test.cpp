// Drained and down nodes as sinfo and scontrol show them (transcript
// 11-reasons.txt: a node drained with reason "maintenance test" by root).

#include <catch2/catch.hpp>

#include <stint/format.hpp>

#include "fixtures.hpp"

using namespace fixtures;

namespace {

std::vector<stint::query::NodeInfo> drained(stint::query::NodeState alloc_state) {
  use_utc();
  auto nodes = cluster_nodes();
  stint::query::NodeInfo& vm = nodes[0];
  vm.alloc_state = alloc_state;
  if (alloc_state == stint::query::NodeState::idle) {
    vm.cpus_alloc = 0;
    vm.memory_alloc_mb = 0;
    vm.jobs.clear();
  }
  vm.state = alloc_state == stint::query::NodeState::idle ? stint::query::NodeState::drained
                                                          : stint::query::NodeState::draining;
  vm.admin = stint::NodeAdminState::drain;
  vm.reason = "maintenance test";
  vm.reason_user = "root";
  vm.reason_uid = 0;
  vm.reason_time = at(18, 3, 22);
  return nodes;
}

std::string sinfo(const std::vector<stint::query::NodeInfo>& nodes, stint::format::SinfoOptions o) {
  return stint::format::render_sinfo(cluster_partitions(), nodes, o, context(at(18, 3, 22)));
}

}  // namespace

TEST_CASE("sinfo shows a draining node as drng, and its reason with -R and -N -l") {
  const auto nodes = drained(stint::query::NodeState::allocated);
  CHECK(sinfo(nodes, {}) ==
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "cpu*         up   infinite      1   drng vm\n"
        "high         up   infinite      1   drng vm\n");
  stint::format::SinfoOptions reasons;
  reasons.reasons = true;
  CHECK(sinfo(nodes, reasons) ==
        "REASON               USER      TIMESTAMP           NODELIST\n"
        "maintenance test     root      2026-11-29T18:03:22 vm\n");
  stint::format::SinfoOptions node_long;
  node_long.node_oriented = true;
  node_long.long_list = true;
  CHECK(sinfo(nodes, node_long) ==
        "Sun Nov 29 18:03:22 2026\n"
        "NODELIST   NODES PARTITION       STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE "
        "REASON              \n"
        "vm             1      cpu*    draining 2       1:2:1  23849        0      1   (null) "
        "maintenance test    \n"
        "vm             1      high    draining 2       1:2:1  23849        0      1   (null) "
        "maintenance test    \n");
}

TEST_CASE("sinfo -R folds nodes with one reason and leaves out nodes that are up") {
  use_utc();
  auto nodes = four_nodes();
  for (std::size_t i = 0; i < 3; ++i) {
    nodes[i].admin = i == 2 ? stint::NodeAdminState::down : stint::NodeAdminState::drain;
    nodes[i].state = i == 2 ? stint::query::NodeState::down : stint::query::NodeState::drained;
    nodes[i].reason = i == 2 ? "dead" : "disk";
    nodes[i].reason_user = "root";
    nodes[i].reason_time = at(18, 0, 0);
  }
  stint::format::SinfoOptions reasons;
  reasons.reasons = true;
  CHECK(stint::format::render_sinfo(four_partitions(), nodes, reasons, context(at(18, 3, 22))) ==
        "REASON               USER      TIMESTAMP           NODELIST\n"
        "disk                 root      2026-11-29T18:00:00 n[1-2]\n"
        "dead                 root      2026-11-29T18:00:00 n3\n");
}

TEST_CASE("scontrol show node: State=IDLE+DRAIN and the reason with who and when") {
  const std::string idle = stint::format::scontrol_node(drained(stint::query::NodeState::idle)[0],
                                                        context(at(18, 3, 22)), false);
  CHECK_THAT(idle, Catch::Matchers::Contains(
                       "   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A"));
  CHECK_THAT(
      idle, Catch::Matchers::EndsWith("   Reason=maintenance test [root@2026-11-29T18:03:22]\n\n"));
  const std::string busy = stint::format::scontrol_node(drained(stint::query::NodeState::mixed)[0],
                                                        context(at(18, 3, 22)), false);
  CHECK_THAT(busy, Catch::Matchers::Contains("State=MIXED+DRAIN "));
}

TEST_CASE("sinfo --json: a drained node keeps its base state with the DRAIN flag and its reason") {
  const std::string json =
      stint::format::sinfo_json(drained(stint::query::NodeState::idle), context(at(18, 3, 22)));
  CHECK_THAT(json, Catch::Matchers::Contains("\"state\": \"idle\""));
  CHECK_THAT(json, Catch::Matchers::Contains("\"DRAIN\""));
  CHECK_THAT(json, Catch::Matchers::Contains("\"reason\": \"maintenance test\""));
  CHECK_THAT(json, Catch::Matchers::Contains("\"reason_set_by_user\": \"root\""));
}

TEST_CASE("sinfo: nodes share a line unless a field the format prints tells them apart") {
  use_utc();
  auto nodes = four_nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i].features = {i % 2 == 0 ? "a" : "b"};
  nodes[1].state = stint::query::NodeState::allocated;  // as n3 is
  auto sinfo_with = [&](const std::string& format) {
    stint::format::SinfoOptions o;
    o.format = format;
    o.no_header = true;
    return stint::format::render_sinfo(four_partitions(), nodes, o, context(at(18, 3, 22)));
  };
  // Features printed: n1 and n3 share "a" though n2 lies between them.
  const std::string by_features = sinfo_with("%P %D %N %f");
  CHECK_THAT(by_features, Catch::Matchers::Contains(" 2 n[1,3] a\n"));
  CHECK_THAT(by_features, Catch::Matchers::Contains(" 2 n[2,4] b\n"));
  // Neither features nor the state printed: one line, as sinfo's.
  CHECK_THAT(sinfo_with("%P %D %N"), Catch::Matchers::Contains(" 4 n[1-4]\n"));
  // The state printed: the allocated nodes apart.
  const std::string by_state = sinfo_with("%P %D %t %N");
  CHECK_THAT(by_state, Catch::Matchers::Contains(" 2 alloc n[2-3]\n"));
  CHECK_THAT(by_state, Catch::Matchers::Contains(" 2 idle n[1,4]\n"));
}
