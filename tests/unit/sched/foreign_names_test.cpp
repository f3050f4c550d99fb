// A cluster's names this machine lacks: mapped by stint.yaml's aliases, sent
// to the default by StintForeignNames=map, else left for Slurm's refusal.

#include "sched/foreign_names.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

Config machine() {
  Config c;
  c.source_path = "/state/stint.yaml";
  NodePool cpu;
  cpu.id = "cpu";
  NodePool gpu;
  gpu.id = "gpu";
  gpu.gpus = 2;
  gpu.gpu_type = "a100";
  c.node_pools = {cpu, gpu};
  PartitionConfig batch;
  batch.id = "batch";
  batch.node_pool_ids = {"cpu"};
  PartitionConfig gpus;
  gpus.id = "gpu";
  gpus.node_pool_ids = {"gpu"};
  c.partitions = {batch, gpus};
  c.default_partition_id = "batch";
  return c;
}

Config with_aliases() {
  Config c = machine();
  c.aliases.partitions = {{"gpu-long", "gpu"}, {"old", ""}};
  c.aliases.gpu_types = {{"v100", "a100"}, {"k80", ""}};
  c.aliases.reservations = {{"maint", ""}, {"weekly", "ours"}};
  c.aliases.accounts = {{"proj123", "lab"}, {"gone", ""}};
  c.aliases.qos = {{"high", "normal"}};
  return c;
}

Config mapping(Config c) {
  c.slurm_conf["StintForeignNames"] = "map";
  return c;
}

const auto no_reservations = [](std::string_view) { return false; };

Accounting accounting() {
  Accounting a;
  a.accounts = {Account{}, Account{}};
  a.accounts[0].name = "root";
  a.accounts[1].name = "lab";
  Qos normal;
  normal.name = "normal";
  a.qos = {normal};
  return a;
}

}  // namespace

TEST_CASE("foreign names: refused by default, nothing rewritten", "[foreign]") {
  JobSpec spec;
  spec.partition = "gpu-long";
  spec.gpu_type = "v100";
  spec.options_to_set().reservation = "maint";
  const JobSpec before = spec;
  CHECK(sched::map_foreign_names(spec, machine(), no_reservations).empty());
  CHECK(spec == before);
  CHECK_FALSE(sched::foreign_qos(machine(), accounting(), "high"));
  CHECK_FALSE(sched::foreign_account(machine(), accounting(), "proj123", true));
}

TEST_CASE("foreign names: aliases rewrite partitions, GPU types, reservations", "[foreign]") {
  JobSpec spec;
  spec.partition = "gpu-long,batch";
  spec.gpu_type = "v100";
  spec.gpus_per_node = 1;
  spec.options_to_set().gres = "gpu:v100:1";
  spec.options_to_set().reservation = "maint";
  const auto warnings = sched::map_foreign_names(spec, with_aliases(), no_reservations);
  CHECK(spec.partition == "gpu,batch");
  CHECK(spec.gpu_type == "a100");
  CHECK(spec.options().gres == "gpu:a100:1");
  CHECK(spec.options().reservation.empty());
  REQUIRE(warnings.size() == 3);
  CHECK_THAT(warnings[0], Equals("partition gpu-long is not on this machine: using gpu (aliases in "
                                 "stint.yaml)"));
  CHECK_THAT(warnings[1],
             Equals("GPU type v100 is not on this machine: using a100 (aliases in stint.yaml)"));
  CHECK_THAT(
      warnings[2],
      Equals("reservation maint is not on this machine: using none (aliases in stint.yaml)"));
}

TEST_CASE("foreign names: names this machine has are kept, aliases or not", "[foreign]") {
  JobSpec spec;
  spec.partition = "gpu";
  spec.gpu_type = "a100";
  CHECK(sched::map_foreign_names(spec, mapping(with_aliases()), no_reservations).empty());
  CHECK(spec.partition == "gpu");
  CHECK(spec.gpu_type == "a100");
  // A reservation that exists is not mapped either.
  spec.options_to_set().reservation = "maint";
  CHECK(sched::map_foreign_names(spec, with_aliases(), [](std::string_view r) {
          return r == "maint";
        }).empty());
  CHECK(spec.options().reservation == "maint");
}

TEST_CASE("foreign names: \"\" sends to the default, duplicates fold", "[foreign]") {
  JobSpec spec;
  spec.partition = "old,batch";
  spec.gpu_type = "k80";
  spec.options_to_set().gres = "gpu:k80:2";
  const auto warnings = sched::map_foreign_names(spec, with_aliases(), no_reservations);
  CHECK(spec.partition == "batch");
  CHECK(spec.gpu_type.empty());
  CHECK(spec.options().gres == "gpu:2");
  CHECK_THAT(warnings.at(0), Contains("using the default partition batch (aliases in stint.yaml)"));
  CHECK_THAT(warnings.at(1), Contains("using any GPU type"));
}

TEST_CASE("foreign names: StintForeignNames=map sends every unknown one to the default",
          "[foreign]") {
  JobSpec spec;
  spec.partition = "nosuch";
  spec.gpu_type = "h100";
  spec.options_to_set().reservation = "r1,r2";
  const auto warnings = sched::map_foreign_names(spec, mapping(machine()), no_reservations);
  CHECK(spec.partition == "batch");
  CHECK(spec.gpu_type.empty());
  CHECK(spec.options().reservation.empty());
  REQUIRE(warnings.size() == 4);
  CHECK_THAT(warnings[0], Equals("partition nosuch is not on this machine: using the default "
                                 "partition batch (StintForeignNames=map)"));
  CHECK_THAT(warnings[3], Contains("reservation r2 is not on this machine: using none"));
  // An alias still wins over the default.
  JobSpec aliased;
  aliased.partition = "gpu-long";
  sched::map_foreign_names(aliased, mapping(with_aliases()), no_reservations);
  CHECK(aliased.partition == "gpu");
}

TEST_CASE("foreign names: an alias to a reservation that does not exist is refused", "[foreign]") {
  JobSpec spec;
  spec.options_to_set().reservation = "weekly";
  try {
    sched::map_foreign_names(spec, with_aliases(), no_reservations);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Equals("aliases in stint.yaml map reservation weekly to ours, which does "
                                "not exist"));
  }
  CHECK(sched::map_foreign_names(spec, with_aliases(), [](std::string_view r) {
          return r == "ours";
        }).size() == 1);
  CHECK(spec.options().reservation == "ours");
}

TEST_CASE("foreign names: accounts map where no record has the name", "[foreign]") {
  const Config c = with_aliases();
  const Accounting data = accounting();
  // An alias applies whether or not enforcement would refuse.
  auto s = sched::foreign_account(c, data, "proj123", false);
  REQUIRE(s);
  CHECK(s->to == "lab");
  CHECK(s->by_alias);
  CHECK_FALSE(sched::foreign_account(c, data, "lab", true));
  // Under map, an unknown account goes to the default only where enforced:
  // without enforcement Slurm takes any account name.
  CHECK_FALSE(sched::foreign_account(mapping(machine()), data, "other", false));
  s = sched::foreign_account(mapping(machine()), data, "other", true);
  REQUIRE(s);
  CHECK(s->to.empty());
  CHECK_FALSE(s->by_alias);
}

TEST_CASE("foreign names: QOS map where none has the name", "[foreign]") {
  const Accounting data = accounting();
  auto s = sched::foreign_qos(with_aliases(), data, "high");
  REQUIRE(s);
  CHECK(s->to == "normal");
  CHECK_FALSE(sched::foreign_qos(with_aliases(), data, "normal"));
  CHECK_FALSE(sched::foreign_qos(with_aliases(), data, "other"));
  s = sched::foreign_qos(mapping(machine()), data, "other");
  REQUIRE(s);
  CHECK(s->to.empty());
  CHECK_THAT(sched::foreign_warning(machine(), "QOS", "other", "the default QOS normal", *s),
             Equals("QOS other is not on this machine: using the default QOS normal "
                    "(StintForeignNames=map)"));
}

TEST_CASE("foreign names: --gres as given keeps other items and counts", "[foreign]") {
  CHECK(sched::replace_gres_type("gpu:v100:2", "v100", "a100") == "gpu:a100:2");
  CHECK(sched::replace_gres_type("gpu:v100", "v100", "a100") == "gpu:a100");
  CHECK(sched::replace_gres_type("gpu:v100", "v100", "") == "gpu");
  CHECK(sched::replace_gres_type("gpu:v1000:1", "v100", "a100") == "gpu:v1000:1");
  CHECK(sched::replace_gres_type("gpu:2", "v100", "a100") == "gpu:2");
}

TEST_CASE("foreign names: StintForeignNames=map leaves out node names this machine lacks",
          "[foreign]") {
  const Config c = mapping(machine());
  const std::string here = c.nodes().front().name;
  JobSpec spec;
  spec.options_to_set().nodelist = "compute[136-137]," + here;
  spec.options_to_set().exclude = "gpu052";
  const auto warnings = sched::map_foreign_names(spec, c, no_reservations);
  CHECK(spec.options().nodelist == here);
  CHECK(spec.options().exclude.empty());
  REQUIRE(warnings.size() == 2);
  CHECK_THAT(warnings[0], Equals("nodes compute[136-137] are not on this machine: left out of "
                                 "--nodelist (StintForeignNames=map)"));
  CHECK_THAT(warnings[1], Equals("node gpu052 is not on this machine: left out of --exclude "
                                 "(StintForeignNames=map)"));
  // Refused as Slurm refuses them by default: nothing rewritten.
  JobSpec kept;
  kept.options_to_set().nodelist = "compute1";
  CHECK(sched::map_foreign_names(kept, machine(), no_reservations).empty());
  CHECK(kept.options().nodelist == "compute1");
}
