// stint export slurm's files, from a configuration and accounts built here.

#include "daemon/slurm_export.hpp"

#include <cstdlib>
#include <fstream>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/error.hpp>

using namespace stint;

namespace {

Config two_pools() {
  Config c;
  c.cluster_name = "lab";
  NodePool cpu;
  cpu.id = "cpu";
  cpu.count = 2;
  cpu.cpus = 4;
  cpu.memory_mb = 8192;
  NodePool gpu;
  gpu.id = "gpu";
  gpu.count = 2;
  gpu.cpus = 8;
  gpu.memory_mb = 32768;
  gpu.gpus = 2;
  gpu.gpu_type = "a100";
  gpu.sockets = 2;
  gpu.threads_per_core = 2;
  c.node_pools = {cpu, gpu};
  PartitionConfig main;
  main.id = "main";
  main.node_pool_ids = {"cpu", "gpu"};
  PartitionConfig g;
  g.id = "gpu";
  g.node_pool_ids = {"gpu"};
  g.priority_tier = 2;
  c.partitions = {main, g};
  return c;
}

std::string file(const std::vector<daemon::ExportedFile>& files, const std::string& name) {
  for (const auto& f : files) {
    if (f.name == name) return f.text;
  }
  FAIL("no file " << name);
  return {};
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("slurm.conf: the pools as nodes, the partitions with stint's memory share") {
  const auto files = daemon::export_slurm(two_pools(), Accounting{}, {});
  const std::string conf = file(files, "slurm.conf");
  CHECK(has_line(conf, "ClusterName=lab"));
  CHECK(has_line(conf, "SlurmctldHost=cpu-1"));
  CHECK(has_line(conf, "GresTypes=gpu"));
  CHECK(has_line(conf, "AccountingStorageTRES=gres/gpu"));
  CHECK(has_line(conf, "NodeName=cpu-[1-2] CPUs=4 RealMemory=8192 State=UNKNOWN"));
  CHECK(has_line(conf,
                 "NodeName=gpu-[1-2] CPUs=8 Sockets=2 CoresPerSocket=2 ThreadsPerCore=2 "
                 "RealMemory=32768 Gres=gpu:a100:2 State=UNKNOWN"));
  // The least share of the partition's nodes: 8192/4 beside 32768/8.
  CHECK(has_line(conf,
                 "PartitionName=main Nodes=cpu-[1-2],gpu-[1-2] Default=YES "
                 "MaxTime=UNLIMITED PriorityTier=1 DefMemPerCPU=2048 State=UP"));
  CHECK(has_line(conf,
                 "PartitionName=gpu Nodes=gpu-[1-2] MaxTime=UNLIMITED PriorityTier=2 "
                 "DefMemPerCPU=4096 State=UP"));
  CHECK(has_line(file(files, "gres.conf"),
                 "NodeName=gpu-[1-2] Name=gpu Type=a100 File=/dev/nvidia[0-1]"));
  CHECK(has_line(file(files, "cgroup.conf"), "ConstrainRAMSpace=yes"));
}

TEST_CASE("slurm.conf: DefMemPerCPU set leaves the partitions alone; Stint keys are comments") {
  Config c = two_pools();
  c.slurm_conf["DefMemPerCPU"] = "1000";
  c.slurm_conf["StintRunPorts"] = "30000-30099";
  c.slurm_conf["StintIdleExit"] = "60";
  const std::string conf = file(daemon::export_slurm(c, Accounting{}, {}), "slurm.conf");
  CHECK(has_line(conf, "DefMemPerCPU=1000"));
  CHECK(conf.find("PartitionName=main Nodes=cpu-[1-2],gpu-[1-2] Default=YES MaxTime=UNLIMITED "
                  "PriorityTier=1 State=UP") != std::string::npos);
  // stint's own keys are comments that say what to do, never settings.
  CHECK(conf.find("\nStint") == std::string::npos);
  CHECK(conf.find("#   StintRunPorts=30000-30099: the run tools' port range") != std::string::npos);
  CHECK(conf.find("#   StintIdleExit=60: ") != std::string::npos);
}

TEST_CASE("the new machines (--nodes) rename the declared nodes in order, one machine each") {
  daemon::SlurmExportOptions o;
  o.hosts = {"a1", "a2", "b1", "b2"};
  o.controller = "head";
  const auto files = daemon::export_slurm(two_pools(), Accounting{}, o);
  const std::string conf = file(files, "slurm.conf");
  CHECK(has_line(conf, "SlurmctldHost=head"));
  CHECK(conf.find("NodeName=a[1-2] CPUs=4") != std::string::npos);
  CHECK(conf.find("PartitionName=gpu Nodes=b[1-2] ") != std::string::npos);
  CHECK(has_line(file(files, "gres.conf"),
                 "NodeName=b[1-2] Name=gpu Type=a100 File=/dev/nvidia[0-1]"));
  o.hosts = {"a1", "a2", "b1"};
  CHECK_THROWS_WITH(daemon::export_slurm(two_pools(), Accounting{}, o),
                    "--nodes names 3 machines, and the cluster declares 4 nodes "
                    "(cpu-[1-2],gpu-[1-2]): give one name per node, in that order");
  o.hosts = {"a1", "a2", "b1", "a1"};
  CHECK_THROWS_WITH(daemon::export_slurm(two_pools(), Accounting{}, o),
                    "--nodes names a1 twice: each node needs a machine of its own");
}

TEST_CASE("the prolog: the file's own copied, the bash scripts after it in one program") {
  char dir[] = "/tmp/stint-export-test-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string own = std::string(dir) + "/site-prolog";
  std::ofstream(own) << "#!/bin/sh\necho site\n";
  Config c = two_pools();
  c.slurm_conf["Prolog"] = own;
  c.prolog_bash_scripts = {"echo 'it''s' two"};
  daemon::SlurmExportOptions o;
  o.conf_dir = "/etc/slurm";
  const auto files = daemon::export_slurm(c, Accounting{}, o);
  CHECK(has_line(file(files, "slurm.conf"), "Prolog=/etc/slurm/prolog"));
  CHECK(file(files, "prolog.site") == "#!/bin/sh\necho site\n");
  const std::string prolog = file(files, "prolog");
  CHECK(prolog.find("/etc/slurm/prolog.site || exit $?\n") != std::string::npos);
  CHECK(prolog.find("/bin/bash -c 'echo '\\''it'\\'''\\''s'\\'' two' prolog || exit $?") !=
        std::string::npos);
  CHECK(file(files, "slurm.conf").find("Epilog=") == std::string::npos);
  // A Prolog= that cannot be read is said, not skipped.
  c.slurm_conf["Prolog"] = std::string(dir) + "/missing";
  CHECK_THROWS_AS(daemon::export_slurm(c, Accounting{}, o), Error);
  std::system(("rm -rf '" + std::string(dir) + "'").c_str());
}

TEST_CASE("accounts.cfg: sacctmgr dump's tree, users before sub-accounts") {
  Accounting a;
  a.accounts = {
      {"lab", "the lab", "uni", "root"}, {"root", "", "", ""}, {"vision", "v", "lab", "lab"}};
  a.users = {{"alice", "vision", AdminLevel::operator_level}, {"root", "root", AdminLevel::admin}};
  Association root_own;
  root_own.account = "root";
  root_own.qos = {"normal"};
  Association lab_own;
  lab_own.account = "lab";
  lab_own.shares = 3;
  Association vision_own;
  vision_own.account = "vision";
  vision_own.shares = k_shares_parent;
  vision_own.limits.grp_tres = {{"cpu", 8}};
  vision_own.limits.max_wall = 3600;
  Association alice;
  alice.account = "vision";
  alice.user = "alice";
  alice.limits.max_jobs = 4;
  alice.qos = {"high", "normal"};
  alice.default_qos = "normal";
  Association root_user;
  root_user.account = "root";
  root_user.user = "root";
  a.associations = {root_own, lab_own, vision_own, alice, root_user};
  const std::string dump = daemon::sacctmgr_dump_text(a, "lab");
  const std::string tree = dump.substr(dump.rfind("\nCluster - ") + 1);
  CHECK(tree ==
        "Cluster - 'lab':Fairshare=1:QOS='normal'\n"
        "Parent - 'root'\n"
        "User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1\n"
        "Account - 'lab':Description='the lab':Organization='uni':Fairshare=3\n"
        "Parent - 'lab'\n"
        "Account - 'vision':Description='v':Organization='lab':Fairshare=parent:GrpTRES=cpu=8:"
        "MaxWallDurationPerJob=60\n"
        "Parent - 'vision'\n"
        "User - 'alice':DefaultAccount='vision':AdminLevel='Operator':DefaultQOS='normal':"
        "Fairshare=1:MaxJobs=4:QOS='high,normal'\n");
}

TEST_CASE("accounts.sh: every QOS made before any is changed, then the load") {
  Accounting a;
  Qos normal;
  normal.name = "normal";
  normal.description = "Normal QOS default";
  Qos high;
  high.name = "high";
  high.priority = 10;
  high.preempt = {"low"};
  high.limits.max_tres_per_user = {{"gres/gpu", 2}};
  Qos low;
  low.name = "low";
  low.description = "it's cheap";
  low.usage_factor = 0.5;
  a.qos = {normal, high, low};
  const std::string script = file(daemon::export_slurm(two_pools(), a, {}), "accounts.sh");
  CHECK(script.find("sacctmgr -i add qos high\nsacctmgr -i add qos low\n"
                    "sacctmgr -i modify qos where name=high set Priority=10 Preempt=low "
                    "MaxTRESPerUser=gres/gpu=2\n"
                    "sacctmgr -i modify qos where name=low set Description='it'\\''s cheap' "
                    "UsageFactor=0.5\n"
                    "sacctmgr -i load accounts.cfg\n") != std::string::npos);
  CHECK(script.find("name=normal") == std::string::npos);
}
