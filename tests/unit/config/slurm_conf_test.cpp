// slurm.conf and gres.conf read as Slurm 22.05 reads them, and imported as a
// stint configuration.

#include "config/slurm_conf.hpp"

#include <algorithm>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "helpers.hpp"

using namespace stint;
using namespace stint::slurm_conf;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

// Files by path, for Include.
struct Files {
  std::map<std::string, std::string> texts;
  ReadFile reader() const {
    return [this](const std::string& path) {
      auto it = texts.find(path);
      if (it == texts.end()) throw Error(Errc::io, "No such file or directory");
      return it->second;
    };
  }
};

ConfFile conf(std::string_view text, const Files& files = {}) {
  return parse_slurm_conf(text, "/etc/slurm/slurm.conf", files.reader());
}

std::string conf_error(std::string_view text, const Files& files = {}) {
  try {
    conf(text, files);
  } catch (const Error& e) {
    CHECK(e.code() == Errc::config_invalid);
    return e.what();
  }
  FAIL_CHECK("parsed without an error: " << text);
  return {};
}

Imported import(std::string_view text, Shapes shapes = Shapes::virtual_nodes,
                std::string_view gres = {}) {
  const ConfFile g = parse_gres_conf(gres, "/etc/slurm/gres.conf", Files{}.reader());
  return import_cluster(conf(text), gres.empty() ? nullptr : &g, shapes, test::test_machine());
}

std::string import_error(std::string_view text) {
  try {
    import(text);
  } catch (const Error& e) {
    CHECK(e.code() == Errc::config_invalid);
    return e.what();
  }
  FAIL_CHECK("imported without an error: " << text);
  return {};
}

bool has_line_containing(const std::vector<std::string>& lines, std::string_view part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

constexpr const char* k_cluster = R"(# A small GPU cluster
ClusterName=Rivers
SlurmctldHost=head01(10.0.0.1)
SchedulerType=sched/backfill
PriorityType=priority/multifactor
PriorityWeightAge=1000
AuthType=auth/munge
GresTypes=gpu
NodeName=DEFAULT RealMemory=192000 Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 State=UNKNOWN
NodeName=cpu[001-004] TmpDisk=100000 Features=skylake,ib
NodeName=gpu[01-02] RealMemory=512000 Gres=gpu:v100:4 Weight=10
PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP
PartitionName=batch Nodes=cpu[001-004] Default=YES DefaultTime=1:00:00
PartitionName=gpu-long Nodes=gpu[01-02] MaxTime=7-0 PriorityTier=10 PreemptMode=REQUEUE \
    OverSubscribe=FORCE:2 AllowAccounts=physics
PartitionName=all Nodes=ALL MaxTime=UNLIMITED Priority=5
)";

}  // namespace

TEST_CASE("slurm.conf: keys case-insensitive, Slurm's spelling kept", "[slurm_conf]") {
  const ConfFile f = conf("clustername=a\nPRIORITYWEIGHTAGE = 10\nnodename=n1 cpus=4\n");
  REQUIRE(f.settings.size() == 2);
  CHECK(f.settings[0].key == "ClusterName");
  CHECK(f.settings[1].key == "PriorityWeightAge");
  CHECK(f.settings[1].value == "10");
  REQUIRE(f.records.size() == 1);
  CHECK(f.records[0].kind == "NodeName");
  CHECK(f.records[0].pairs.at(0).key == "CPUs");
  CHECK(*f.records[0].find("cpus") == "4");
}

TEST_CASE("slurm.conf: comments, escapes, quotes and continuations", "[slurm_conf]") {
  const ConfFile f = conf(
      "# a comment\n"
      "   \n"
      "ClusterName=a # trailing comment\n"
      "SchedulerParameters=bf_window=60\\#x\n"
      "Epilog=\"/a b/epilog\"\n"
      "NodeName=n[1-2] \\\n"
      "   CPUs=8 \\  \n"
      "   RealMemory=1000\r\n"
      "PartitionName=p Nodes=n[1-2]\n");
  REQUIRE(f.settings.size() == 3);
  CHECK(f.settings[0].value == "a");
  CHECK(f.settings[1].value == "bf_window=60#x");
  CHECK(f.settings[2].value == "/a b/epilog");
  REQUIRE(f.records.size() == 2);
  CHECK(f.records[0].origin.line == 6);
  CHECK(*f.records[0].find("RealMemory") == "1000");
  CHECK(f.records[1].origin.line == 9);
  CHECK(f.records[1].origin.text() == "/etc/slurm/slurm.conf:9");
}

TEST_CASE("slurm.conf: Include relative to the file, %c the cluster name", "[slurm_conf]") {
  Files files;
  files.texts["/etc/slurm/nodes.conf"] = "NodeName=n1 CPUs=2\n";
  files.texts["/etc/slurm/rivers/parts.conf"] = "PartitionName=p Nodes=n1\n";
  files.texts["/abs/more.conf"] = "KillWait=10\n";
  const ConfFile f = conf(
      "ClusterName=Rivers\ninclude nodes.conf\nInclude rivers/parts.conf\n"
      "INCLUDE /abs/more.conf\n",
      files);
  REQUIRE(f.records.size() == 2);
  CHECK(f.records[0].origin.text() == "/etc/slurm/nodes.conf:1");
  CHECK(f.records[1].origin.file == "/etc/slurm/rivers/parts.conf");
  CHECK(f.settings.back().key == "KillWait");
  files.texts["/etc/slurm/rivers.conf"] = "MinJobAge=5\n";
  CHECK(conf("ClusterName=Rivers\nInclude %c.conf\n", files).settings.back().value == "5");
  CHECK_THAT(conf_error("Include %c.conf\n", files), Contains("%c needs ClusterName"));
  CHECK_THAT(conf_error("Include missing.conf\n", files),
             Contains("slurm.conf:1: Include /etc/slurm/missing.conf: No such file"));
  files.texts["/etc/slurm/loop.conf"] = "Include loop.conf\n";
  CHECK_THAT(conf_error("Include loop.conf\n", files), Contains("nested more than 16 deep"));
}

TEST_CASE("slurm.conf: what slurmctld refuses is refused", "[slurm_conf]") {
  CHECK_THAT(conf_error("ClusterName=a\nNoSuchKey=1\n"),
             Equals("/etc/slurm/slurm.conf:2: unknown key NoSuchKey (Slurm 22.05's slurm.conf has "
                    "no such key)"));
  CHECK_THAT(conf_error("NodeName=n1 CPUs=2 Colour=red\n"),
             Contains("NodeName=n1: unknown key Colour"));
  CHECK_THAT(conf_error("just some words\n"), Contains(":1: parse error: \"just some words\""));
  CHECK_THAT(conf_error("KillWait=30 MinJobAge=5\n"), Contains("(one key a line)"));
  CHECK_THAT(conf_error("KillWait=\n"), Contains("is not Key=Value"));
  CHECK_THAT(conf_error("NodeName=n1 CPUs\n"), Contains("parse error in NodeName=n1"));
  CHECK_THAT(conf_error("DebugFlags+=Backfill\n"), Contains("operators other than ="));
}

TEST_CASE("gres.conf: Name= and NodeName= lines", "[slurm_conf]") {
  const ConfFile g = parse_gres_conf(
      "AutoDetect=nvml\nName=gpu Type=a100 File=/dev/nvidia[0-3]\n"
      "NodeName=g[1-2] Name=gpu Type=v100 Count=2\n",
      "gres.conf", Files{}.reader());
  REQUIRE(g.settings.size() == 1);
  REQUIRE(g.records.size() == 2);
  CHECK(g.records[0].kind == "Name");
  CHECK(*g.records[1].find("type") == "v100");
}

TEST_CASE("import: a cluster's nodes, partitions and keys", "[slurm_conf]") {
  const Imported im = import(k_cluster);
  const Config& c = im.config;
  CHECK(c.cluster_name == "Rivers");
  REQUIRE(c.node_pools.size() == 2);
  const NodePool& cpu = c.node_pools[0];
  CHECK(cpu.id == "cpu");
  CHECK(cpu.count == 4);
  CHECK(cpu.cpus == 64);  // 2 sockets x 16 cores x 2 threads
  CHECK(cpu.memory_mb == 192000);
  CHECK(cpu.node_names.front() == "cpu001");
  CHECK(cpu.features == std::vector<std::string>{"skylake", "ib"});
  CHECK(cpu.tmp_disk_mb == 100000);
  const NodePool& gpu = c.node_pools[1];
  CHECK(gpu.count == 2);
  CHECK(gpu.memory_mb == 512000);
  CHECK(gpu.gpus == 4);
  CHECK(gpu.gpu_type == "v100");

  REQUIRE(c.partitions.size() == 3);
  CHECK(c.default_partition_id == "batch");
  const PartitionConfig& batch = c.partitions[0];
  CHECK(batch.node_pool_ids == std::vector<std::string>{"cpu"});
  CHECK(batch.max_time == 2 * 86400);  // from PartitionName=DEFAULT
  CHECK(batch.default_time == 3600);
  const PartitionConfig& gl = c.partitions[1];
  CHECK(gl.id == "gpu-long");
  CHECK(gl.max_time == 7 * 86400);
  CHECK(gl.priority_tier == 10);
  CHECK(gl.preempt_mode == "REQUEUE");
  CHECK(gl.over_subscribe == "FORCE:2");
  const PartitionConfig& all = c.partitions[2];
  CHECK(all.node_pool_ids == std::vector<std::string>{"cpu", "gpu"});
  CHECK(all.max_time == k_infinite);
  CHECK(all.priority_tier == 5);
  CHECK(all.priority_job_factor == 5u);

  CHECK(c.slurm_conf.at("PriorityWeightAge") == "1000");
  CHECK(c.slurm_conf.at("GresTypes") == "gpu");
  CHECK(c.slurm_conf.count("AuthType") == 0);
  // Nothing dropped without a word.
  CHECK(has_line_containing(im.unused, "slurm.conf:3: SlurmctldHost=head01(10.0.0.1): not used"));
  CHECK(has_line_containing(im.unused, "slurm.conf:7: AuthType=auth/munge: not used here"));
  CHECK(has_line_containing(im.unused, "NodeName=DEFAULT State=UNKNOWN: not used here"));
  CHECK(has_line_containing(im.unused, "NodeName=gpu[01-02] Weight=10: not used here"));
  // AllowAccounts is the partition's, as stint.yaml's allow_accounts.
  CHECK(im.config.find_partition("gpu-long")->allow_accounts ==
        std::vector<std::string>{"physics"});
  CHECK_FALSE(has_line_containing(im.unused, "AllowAccounts"));
}

TEST_CASE("import: the result is a stint.yaml that loads as the same cluster", "[slurm_conf]") {
  const Imported im = import(k_cluster);
  const std::string text = imported_yaml(im, "slurm.conf", test::test_machine());
  CHECK_THAT(text, Contains("# Imported from slurm.conf by `stint init --from-slurm-conf`."));
  CHECK_THAT(text, Contains("#   /etc/slurm/slurm.conf:3: SlurmctldHost="));
  const Config back = test::parse(text);
  CHECK(back.cluster_name == "Rivers");
  CHECK(back.nodes().size() == 6);
  CHECK(back.nodes().front().name == "cpu001");
  CHECK(back.default_partition()->id == "batch");
  CHECK(back.find_partition("gpu-long")->priority_tier == 10);
  CHECK(back.conf("PriorityWeightAge") == "1000");
}

TEST_CASE("import: a pool is split where its nodes' partitions differ", "[slurm_conf]") {
  const Imported im = import(
      "NodeName=n[1-4] CPUs=4 RealMemory=1000\n"
      "PartitionName=a Nodes=n[1-2]\nPartitionName=b Nodes=n[1-4]\n");
  REQUIRE(im.config.node_pools.size() == 2);
  CHECK(im.config.node_pools[0].id == "n");
  CHECK(im.config.node_pools[1].id == "n-2");
  CHECK(im.config.partitions[0].node_pool_ids == std::vector<std::string>{"n"});
  CHECK(im.config.partitions[1].node_pool_ids == std::vector<std::string>{"n", "n-2"});
  CHECK(has_line_containing(im.unused, "no partition is Default=YES"));
}

TEST_CASE("import: CPUs as read_config.c infers them", "[slurm_conf]") {
  auto cpus = [](std::string_view node) {
    return import(std::string("NodeName=n1 RealMemory=100 ") + std::string(node) +
                  "\nPartitionName=p Nodes=n1\n")
        .config.node_pools.at(0)
        .cpus;
  };
  CHECK(cpus("") == 1);
  CHECK(cpus("CPUs=12") == 12);
  CHECK(cpus("Procs=6") == 6);
  CHECK(cpus("Sockets=2 CoresPerSocket=8") == 16);
  CHECK(cpus("Boards=2 SocketsPerBoard=2 CoresPerSocket=4 ThreadsPerCore=2") == 32);
  // CPUs that match no socket count are reset, as Slurm does.
  CHECK(cpus("CPUs=10 Sockets=2 CoresPerSocket=4") == 8);
}

TEST_CASE("import: GPU types from gres.conf when Gres= gives none", "[slurm_conf]") {
  const char* text =
      "NodeName=g[1-2] CPUs=8 RealMemory=1000 Gres=gpu:2,mps:200\n"
      "NodeName=h1 CPUs=8 RealMemory=1000 Gres=gpu:4\n"
      "PartitionName=p Nodes=g[1-2],h1\n";
  const Imported im = import(text, Shapes::virtual_nodes,
                             "Name=gpu Type=a100 File=/dev/nvidia[0-1]\n"
                             "NodeName=h1 Name=gpu Type=h100 File=/dev/nvidia[0-1]\n"
                             "NodeName=h1 Name=gpu Type=l4 Count=2 Cores=0-3\n");
  REQUIRE(im.config.node_pools.size() == 2);
  CHECK(im.config.node_pools[0].gpu_type == "a100");
  CHECK(im.config.node_pools[0].gpus == 2);
  CHECK(im.config.node_pools[1].gpus == 4);
  CHECK(im.config.node_pools[1].gpu_type.empty());  // two types on one node
  CHECK(has_line_containing(im.unused, "GPUs of types h100,l4"));
  CHECK(has_line_containing(im.unused, "Gres=mps:200: not used here (GPUs only)"));
  CHECK(has_line_containing(im.unused, "Cores=0-3: not used here"));
}

TEST_CASE("import: --scale fits the largest node to this machine", "[slurm_conf]") {
  // The test machine: 8 CPUs, 32000 MiB, 2 GPUs (h200).
  const Imported im = import(
      "NodeName=big CPUs=64 RealMemory=256000 Gres=gpu:a100:8\n"
      "NodeName=small CPUs=16 RealMemory=64000\n"
      "PartitionName=p Nodes=big,small Default=YES\n",
      Shapes::scaled);
  const NodePool& big = im.config.node_pools.at(0);
  const NodePool& small = im.config.node_pools.at(1);
  CHECK(big.cpus == 8);
  CHECK(big.memory_mb == 32000);
  CHECK(big.gpus == 2);
  CHECK(big.gpu_type == "a100");
  CHECK(small.cpus == 2);
  CHECK(small.memory_mb == 8000);
  CHECK(has_line_containing(im.unused, "node pool big: CPUs 64 -> 8"));
  // --virtual keeps them.
  CHECK(import("NodeName=big CPUs=64 RealMemory=256000\nPartitionName=p Nodes=big\n")
            .config.node_pools.at(0)
            .cpus == 64);
}

TEST_CASE("import: the node's sockets and threads, kept while they divide its CPUs",
          "[slurm_conf]") {
  const char* conf =
      "NodeName=big Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 RealMemory=1000\n"
      "NodeName=odd Sockets=4 CoresPerSocket=3 ThreadsPerCore=1 RealMemory=1000\n"
      "PartitionName=p Nodes=big,odd Default=YES\n";
  const Imported kept = import(conf);
  CHECK(kept.config.node_pools.at(0).cpus == 64);
  CHECK(kept.config.node_pools.at(0).sockets == 2);
  CHECK(kept.config.node_pools.at(0).threads_per_core == 2);
  // Scaled to 8 CPUs: 2 x 2 x 2 still fits; 12 -> 1 CPU cannot hold 4 sockets.
  const Imported scaled = import(conf, Shapes::scaled);
  const NodePool& big = scaled.config.node_pools.at(0);
  const NodePool& odd = scaled.config.node_pools.at(1);
  CHECK(big.cpus == 8);
  CHECK(big.sockets == 2);
  CHECK(big.threads_per_core == 2);
  CHECK(odd.cpus == 1);
  CHECK(odd.sockets == 1);
  CHECK(odd.threads_per_core == 1);
  CHECK(has_line_containing(scaled.unused, "node pool odd: CPUs 12 -> 1, Sockets 4 -> 1"));
  // What is written reads back.
  CHECK_NOTHROW(parse_config(config_to_yaml(scaled.config), "stint.yaml", test::test_machine()));
}

TEST_CASE("import: malformed or unholdable input is refused with file and line", "[slurm_conf]") {
  CHECK_THAT(import_error("NodeName=n1 CPUs=abc\nPartitionName=p Nodes=n1\n"),
             Equals("/etc/slurm/slurm.conf:1: CPUs value \"abc\" is not a valid number"));
  CHECK_THAT(import_error("NodeName=n1 CPUs=99999\nPartitionName=p Nodes=n1\n"),
             Contains("CPUs value (99999) is out of range"));
  CHECK_THAT(import_error("NodeName=n1 RealMemory=-5\nPartitionName=p Nodes=n1\n"),
             Contains("RealMemory value \"-5\" is not a valid number"));
  CHECK_THAT(import_error("NodeName=n1 CPUs=2\nPartitionName=p Default=YES\n"),
             Equals("/etc/slurm/slurm.conf:2: PartitionName=p has no Nodes= (a partition here "
                    "needs nodes)"));
  CHECK_THAT(import_error("NodeName=n1 CPUs=2\nPartitionName=p Nodes=n[1-2]\n"),
             Contains("Nodes=n[1-2]: no NodeName= line declares node n2"));
  CHECK_THAT(import_error("NodeName=n1 CPUs=2\nNodeName=n1 CPUs=4\nPartitionName=p Nodes=n1\n"),
             Contains(":2: Duplicated NodeName n1 (first at /etc/slurm/slurm.conf:1)"));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1 MaxTime=soon\n"),
             Contains("Bad value \"soon\" for MaxTime"));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1 State=SIDEWAYS\n"),
             Contains("Bad value \"SIDEWAYS\" for State"));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1 OverSubscribe=MAYBE\n"),
             Contains("Bad value \"MAYBE\" for OverSubscribe"));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1 Default=perhaps\n"),
             Contains("\"perhaps\" is not a valid option for \"Default\""));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1 MaxTime=1:00:00 "
                          "DefaultTime=2:00:00\n"),
             Contains("DefaultTime=2:00:00 is longer than MaxTime"));
  CHECK_THAT(import_error("NodeName=n1 Gres=gpu:a:b:c\nPartitionName=p Nodes=n1\n"),
             Contains("is not name[:type][:count]"));
  CHECK_THAT(import_error("NodeName=DEFAULT NodeAddr=x\n"),
             Contains("NodeAddr not allowed with NodeName=DEFAULT"));
  CHECK_THAT(import_error("NodeName=n1\n"), Contains("no PartitionName= line"));
  CHECK_THAT(import_error("NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=p Nodes=n1\n"),
             Contains("PartitionName=p is declared twice"));
}

TEST_CASE("import: known keys with values stint does not take are listed, not kept",
          "[slurm_conf]") {
  const Imported im = import(
      "SelectType=select/linear\nPrologFlags=Alloc\nProlog=/etc/slurm/prolog.sh\n"
      "KillWait=10\nKillWait=20\nNodeName=n1\nPartitionName=p Nodes=n1 PreemptMode=GANG\n");
  CHECK(im.config.slurm_conf.count("SelectType") == 0);
  CHECK(im.config.slurm_conf.at("KillWait") == "20");
  CHECK(
      has_line_containing(im.unused, "SelectType=select/linear: not used here (\"select/linear\""));
  CHECK(has_line_containing(im.unused, "Prolog=/etc/slurm/prolog.sh: not used here (a script"));
  CHECK(has_line_containing(im.unused, "KillWait=10: given again at /etc/slurm/slurm.conf:5"));
  CHECK(has_line_containing(im.unused, "PreemptMode=GANG: not used here"));
  CHECK(has_line_containing(
      im.unused,
      "NodeName=n1: no RealMemory (Slurm counts 1 MB): this machine's memory, 32000 MiB"));
  CHECK(im.config.node_pools.at(0).memory_mb == 32000);
}

TEST_CASE("import: NodeSet names in Nodes=", "[slurm_conf]") {
  const Imported im = import(
      "NodeName=a[1-2] Features=fast\nNodeName=b1\n"
      "NodeSet=quick Feature=fast\nNodeSet=others Nodes=b1\n"
      "PartitionName=p Nodes=quick\nPartitionName=q Nodes=others,a1\n");
  // a1 is in both partitions, a2 in p only: line a becomes two pools.
  CHECK(im.config.partitions[0].node_pool_ids == std::vector<std::string>{"a", "a-2"});
  CHECK(im.config.partitions[1].node_pool_ids == std::vector<std::string>{"a", "b"});
  const Config& c = im.config;
  std::vector<std::string> names;
  for (const NodeDef& n : c.partition_nodes(c.partitions[1])) names.push_back(n.name);
  CHECK(names == std::vector<std::string>{"a1", "b1"});
}
