// `scontrol show config` (Slurm 22.05's keys, order and layout, values only)
// and `stint config show` (every key with its origin, pools and partitions).

#include <algorithm>
#include <ctime>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/config_show.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using stint::Config;
using stint::ConfigPair;
using stint::ControllerFacts;
using stint::test::parse;

namespace {

std::string line_of(const std::string& text, std::string_view key) {
  std::size_t at = text.find("\n" + std::string(key) + " ");
  REQUIRE(at != std::string::npos);
  std::size_t end = text.find('\n', at + 1);
  return text.substr(at + 1, end - at - 1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A local time, as the transcript's time stamps are.
stint::Seconds local_time(int year, int month, int day, int hour, int minute, int second) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  return std::mktime(&tm);
}

/// The machine and cluster of the reference transcript (05-scontrol.txt):
/// one node "vm" with 2 CPUs, partitions cpu and high, multifactor priority,
/// partition_prio preemption with REQUEUE, associations, limits and QOS.
Config transcript_cluster() {
  return parse(R"(cluster_name: oracle
node_pools:
  - {id: vm, cpus: 2, memory: 23849, node_names: [vm]}
partitions:
  - {id: cpu, node_pool_ids: [vm]}
  - {id: high, node_pool_ids: [vm], priority_tier: 10}
config:
  AccountingStorageEnforce: associations,limits,qos
  DefMemPerCPU: 256
  JobAcctGatherFrequency: task=5
  MaxArraySize: 100001
  MaxJobCount: 100000
  PreemptMode: REQUEUE
  PreemptType: preempt/partition_prio
  PriorityWeightAge: 1000
  PriorityWeightFairshare: 10000
  PriorityWeightJobSize: 1000
  PriorityWeightPartition: 1000
  PriorityWeightQOS: 1000
)",
               "/state/stint.yaml");
}

ControllerFacts transcript_facts() {
  ControllerFacts f;
  f.now = local_time(2026, 11, 29, 18, 0, 41);
  f.boot_time = local_time(2026, 11, 29, 18, 0, 0);
  f.controller_up = true;
  f.host = "vm";
  f.machine = "x86_64";
  f.state_dir = "/state";
  f.config_file = "/state/stint.yaml";
  f.user_name = "root";
  f.uid = 0;
  f.next_job_id = 30;
  return f;
}

std::vector<std::string> keys_of(const std::vector<ConfigPair>& pairs) {
  std::vector<std::string> keys;
  for (const ConfigPair& p : pairs) keys.push_back(p.key);
  return keys;
}

}  // namespace

TEST_CASE("scontrol show config: the reference transcript's text", "[config][show]") {
  // The golden text is Slurm's own output on the reference machine with only
  // the lines that say where stint keeps things, or what stint does
  // differently (TaskPlugin, ReturnToService), and
  // the settings made by the reference cluster's slurm.conf that stint has no
  // key for (CommunicationParameters), or that it sets (MailProg), changed.
  const std::string golden = read_file(std::string(STINT_SOURCE_DIR) +
                                       "/tests/unit/config/golden/scontrol_show_config.txt");
  CHECK(stint::scontrol_show_config_text(transcript_cluster(), transcript_facts()) == golden);
}

TEST_CASE("scontrol show config: Slurm's layout, no origins, no stint keys", "[config][show]") {
  const std::string text =
      stint::scontrol_show_config_text(transcript_cluster(), transcript_facts());
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  CHECK(line == "Configuration data as of 2026-11-29T18:00:41");
  // printf's "%-23s = %s": the key padded to 23 columns, or longer and
  // followed at once by " = ".
  const std::regex pair(R"(^([A-Za-z_0-9\[\]]{23,}|[A-Za-z_0-9\[\]]+ +) = .*$)");
  int pairs = 0;
  while (std::getline(lines, line) && !line.empty()) {
    INFO(line);
    CHECK(std::regex_match(line, pair));
    CHECK(line.find(" = ") >= 23);
    if (line.size() < 26) CHECK(line.find(" = ") == 23);
    CHECK_FALSE(line.rfind("Stint", 0) == 0);
    CHECK_THAT(line, !Contains("(stint.yaml)") && !Contains("(default)"));
    ++pairs;
  }
  CHECK(pairs == 207);
  CHECK(std::getline(lines, line));
  CHECK(line == "Slurmctld(primary) at vm is UP");
  CHECK_FALSE(std::getline(lines, line));
  // Keys Toil and other engines read.
  CHECK(line_of(text, "SchedulerTimeSlice") == "SchedulerTimeSlice      = 30 sec");
  CHECK(line_of(text, "AcctGatherNodeFreq") == "AcctGatherNodeFreq      = 0 sec");
  CHECK(line_of(text, "AccountingStorageType") ==
        "AccountingStorageType   = accounting_storage/slurmdbd");
  CHECK(line_of(text, "PreemptMode") == "PreemptMode             = REQUEUE");
}

TEST_CASE("scontrol show config: the keys follow the configuration", "[config][show]") {
  Config c = parse(R"(cluster_name: lab
node_pools:
  - {id: gpu, count: 2, cpus: 8, memory: 16G, gpus: 2}
partitions:
  - {id: p, node_pool_ids: [gpu]}
config:
  KillWait: 10
  DefMemPerNode: 2G
  MaxMemPerCPU: 4096
  PreemptMode: gang,suspend
  PreemptExemptTime: -1
  AccountingStorageEnforce: safe,wckeys
  PriorityFlags: NO_NORMAL_QOS,depth_oblivious
  ReconfigFlags: KeepPartState
  DisableRootJobs: yes
  EnforcePartLimits: yes
  Prolog: /etc/stint/prolog.sh
  PriorityDecayHalfLife: 0
)");
  ControllerFacts f = transcript_facts();
  f.controller_up = false;
  f.boot_time = stint::k_no_time;
  const std::string text = stint::scontrol_show_config_text(c, f);
  CHECK(line_of(text, "ClusterName") == "ClusterName             = lab");
  CHECK(line_of(text, "KillWait") == "KillWait                = 10 sec");
  CHECK(line_of(text, "DefMemPerNode") == "DefMemPerNode           = 2048");
  CHECK(text.find("\nDefMemPerCPU ") == std::string::npos);
  CHECK(line_of(text, "MaxMemPerCPU") == "MaxMemPerCPU            = 4096");
  CHECK(text.find("\nMaxMemPerNode ") == std::string::npos);
  CHECK(line_of(text, "PreemptMode") == "PreemptMode             = GANG,SUSPEND");
  CHECK(line_of(text, "PreemptExemptTime") == "PreemptExemptTime       = NONE");
  CHECK(line_of(text, "AccountingStorageEnforce") ==
        "AccountingStorageEnforce = associations,limits,safe,wckeys");
  CHECK(line_of(text, "TrackWCKey") == "TrackWCKey              = Yes");
  CHECK(line_of(text, "PriorityFlags") ==
        "PriorityFlags           = DEPTH_OBLIVIOUS,NO_FAIR_TREE,NO_NORMAL_ALL");
  CHECK(line_of(text, "ReconfigFlags") == "ReconfigFlags           = KeepPartState");
  CHECK(line_of(text, "DisableRootJobs") == "DisableRootJobs         = Yes");
  CHECK(line_of(text, "EnforcePartLimits") == "EnforcePartLimits       = ANY");
  CHECK(line_of(text, "Prolog") == "Prolog                  = /etc/stint/prolog.sh");
  CHECK(line_of(text, "PriorityDecayHalfLife") == "PriorityDecayHalfLife   = 00:00:00");
  CHECK(line_of(text, "GresTypes") == "GresTypes               = gpu");
  CHECK(line_of(text, "AccountingStorageTRES") ==
        "AccountingStorageTRES   = cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu");
  CHECK(line_of(text, "MaxNodeCount") == "MaxNodeCount            = 2");
  CHECK(line_of(text, "MaxDBDMsgs") == "MaxDBDMsgs              = 20008");
  CHECK(line_of(text, "BOOT_TIME") == "BOOT_TIME               = Unknown");
  CHECK_THAT(text, EndsWith("\n\nSlurmctld(primary) at vm is DOWN\n"));
  f.caller_is_root = true;
  CHECK_THAT(stint::scontrol_show_config_text(c, f),
             EndsWith("is DOWN\n*****************************************\n"
                      "** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
                      "*****************************************\n"));
}

TEST_CASE("scontrol show config: defaults, and priority/basic's shorter list", "[config][show]") {
  const std::vector<ConfigPair> pairs = stint::slurm_config_pairs(Config{}, ControllerFacts{});
  const std::vector<std::string> keys = keys_of(pairs);
  auto value = [&](std::string_view key) {
    for (const ConfigPair& p : pairs) {
      if (p.key == key) return p.value;
    }
    FAIL("no key " << key);
    return std::string();
  };
  CHECK(value("DefMemPerNode") == "UNLIMITED");
  CHECK(value("MaxMemPerNode") == "UNLIMITED");
  CHECK(value("JobAcctGatherFrequency") == "30");
  CHECK(value("AccountingStorageEnforce") == "none");
  CHECK(value("PriorityFlags").empty());
  CHECK(value("PowerPlugin").empty());
  CHECK(value("ReconfigFlags") == "(null)");
  CHECK(value("GresTypes") == "(null)");
  CHECK(value("PreemptMode") == "OFF");
  CHECK(value("TrackWCKey") == "No");
  CHECK(value("FairShareDampeningFactor") == "1");
  CHECK(value("PriorityType") == "priority/multifactor");
  CHECK(value("SLURM_VERSION") == "22.05.8");
  CHECK(value("SLURM_CONF") == "(null)");

  Config basic;
  basic.set_conf("PriorityType", "priority/basic");
  const std::vector<std::string> basic_keys =
      keys_of(stint::slurm_config_pairs(basic, ControllerFacts{}));
  // Without multifactor, Slurm prints PriorityType alone of the Priority* keys
  // and no FairShareDampeningFactor.
  CHECK(basic_keys.size() == keys.size() - 14);
  CHECK(std::find(basic_keys.begin(), basic_keys.end(), "PriorityType") != basic_keys.end());
  CHECK(std::find(basic_keys.begin(), basic_keys.end(), "PriorityWeightAge") == basic_keys.end());
  CHECK(std::find(basic_keys.begin(), basic_keys.end(), "FairShareDampeningFactor") ==
        basic_keys.end());
}

TEST_CASE("stint config show: every key with its origin", "[config][show]") {
  Config c = parse(R"(cluster_name: lab
node_pools:
  - {id: cpu, count: 3, cpus: 4, memory: 8G}
  - {id: gpu, cpus: 8, memory: 16G, gpus: 2, gpu_type: a100, node_names: [g1]}
partitions:
  - {id: short, node_pool_ids: [cpu], max_time: 60, default_time: 10}
  - {id: high, node_pool_ids: [cpu, gpu], priority_tier: 10, state: DRAIN}
default_partition_id: high
config:
  PriorityWeightAge: 1000
  KillWait: 10
  PreemptMode: requeue
  PriorityMaxAge: 1-0
)",
                   "/state/stint.yaml");
  std::string text = "\n" + stint::stint_config_show_text(c);
  CHECK(line_of(text, "KillWait") == "KillWait                = 10 sec (stint.yaml)");
  CHECK(line_of(text, "MinJobAge") == "MinJobAge               = 300 sec (default)");
  CHECK(line_of(text, "PriorityWeightAge") == "PriorityWeightAge       = 1000 (stint.yaml)");
  CHECK(line_of(text, "PreemptMode") == "PreemptMode             = REQUEUE (stint.yaml)");
  CHECK(line_of(text, "PriorityMaxAge") == "PriorityMaxAge          = 1-00:00:00 (stint.yaml)");
  CHECK(line_of(text, "PriorityCalcPeriod") == "PriorityCalcPeriod      = 00:05:00 (default)");
  CHECK(line_of(text, "AccountingStorageEnforce") == "AccountingStorageEnforce = none (default)");
  CHECK(line_of(text, "ClusterName") == "ClusterName             = lab (stint.yaml)");
  CHECK(line_of(text, "Prolog") == "Prolog                  = (null) (default)");
  // No default memory set: stint's rule is said, not only UNLIMITED.
  CHECK(line_of(text, "DefMemPerCPU") ==
        "DefMemPerCPU            = UNLIMITED (default: a job without --mem gets a share of its "
        "node's memory by its CPUs)");
  c.set_conf("DefMemPerCPU", "512");
  const std::string set_text = "\n" + stint::stint_config_show_text(c);
  CHECK(line_of(set_text, "DefMemPerNode") == "DefMemPerNode           = UNLIMITED (default)");
  // stint's own keys are here, and only here.
  CHECK(line_of(text, "StintIdleExit") == "StintIdleExit           = 300 sec (default)");
  CHECK(line_of(text, "StintRequeueDelay") == "StintRequeueDelay       = 120 sec (default)");
  CHECK(line_of(text, "ConfigFile") == "ConfigFile              = /state/stint.yaml");
  CHECK(line_of(text, "DefaultPartition") == "DefaultPartition        = high (stint.yaml)");
  CHECK(line_of(text, "LoginNodePool") == "LoginNodePool           = (null) (default)");
  CHECK_THAT(
      text,
      Contains("\nNodePool=cpu Count=3 Nodes=cpu-[1-3] CPUs=4 RealMemory=8192 Gres=(null)\n"));
  CHECK_THAT(text,
             Contains("\nNodePool=gpu Count=1 Nodes=g1 CPUs=8 RealMemory=16384 Gres=gpu:a100:2\n"));
  CHECK_THAT(text, Contains("\nPartitionName=short NodePools=cpu Nodes=cpu-[1-3] Default=NO "
                            "PriorityTier=1 MaxTime=01:00:00 DefaultTime=00:10:00 State=UP\n"));
  CHECK_THAT(text, EndsWith("PartitionName=high NodePools=cpu,gpu Nodes=cpu-[1-3],g1 Default=YES "
                            "PriorityTier=10 MaxTime=UNLIMITED DefaultTime=NONE State=DRAIN\n"));
  CHECK(text.find("\nKillWait ") < text.find("\nMaxArraySize "));
  CHECK(text.find("\nMaxArraySize ") < text.find("\nPriorityWeightAge "));
}

TEST_CASE("stint config show names a JSON source and autodetected pools", "[config][show]") {
  Config c = parse(R"({"partitions": [{"id": "a4", "node_pool_ids": ["a4"]}],
                       "login_node_pool_id": "login",
                       "config": {"PriorityWeightAge": "1000"}})",
                   "/x/seed-spec.json");
  std::string text = "\n" + stint::stint_config_show_text(c);
  CHECK(line_of(text, "PriorityWeightAge") == "PriorityWeightAge       = 1000 (seed-spec.json)");
  CHECK(line_of(text, "LoginNodePool") == "LoginNodePool           = login (seed-spec.json)");
  CHECK_THAT(text,
             Contains("NodePool=a4 Count=1 Nodes=a4-1 CPUs=8 RealMemory=32000 Gres=gpu:h200:2 "
                      "(autodetected: this machine's shape)\n"));
}
