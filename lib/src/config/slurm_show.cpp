// `scontrol show config` as Slurm 22.05 prints it: every key of
// slurm_ctl_conf_2_key_pairs (src/api/config_info.c) in its order, each value
// in Slurm's form, and nothing after it (scripts read values with `awk -F=`).
//
// A key stint has takes the configuration's value. A key stint does not have
// says what is true of stint where Slurm has a word for it, else what Slurm
// 22.05 prints when slurm.conf does not set it on one machine:
// - AccountingStorageType is accounting_storage/slurmdbd (port 6819, user
//   N/A, as with slurmdbd): stint always accounts (sacct, sacctmgr, limits),
//   and scripts that look for slurmdbd before using sacct or associations
//   must find it.
// - JobAcctGatherType is jobacct_gather/linux and JobAcctGatherParams
//   OverMemoryKill: stepd samples each task's memory (MaxRSS) and, without a
//   cgroup to enforce a limit, kills a task over it, as those do.
// - TaskPlugin is task/affinity (stepd binds each task to its CPUs),
//   ProctrackType proctrack/linuxproc (a task's processes are found by
//   descent), SelectTypeParameters CR_CORE_MEMORY (cores and memory are what
//   is allocated), ReturnToService 0 (a DOWN node stays down
//   until `scontrol update State=RESUME`), GresTypes gpu when a node has GPUs,
//   AccountingStorageTRES the default list with gres/gpu then.
// - Where things are: StateSaveLocation is the state directory, SlurmctldLogFile
//   and SlurmdLogFile stintd's and stepd's logs, SlurmdSpoolDir the spool,
//   SlurmctldPidFile stintd.lock (which holds stintd's pid), SLURM_CONF the
//   configuration file, SlurmUser and SlurmdUser who stintd runs as.
// - stintd listens on a Unix socket, not on ports: SlurmctldPort and
//   SlurmdPort are Slurm's defaults, which is what scripts expect a number for.
// - AuthType and CredType are Slurm's defaults (auth/munge, cred/munge):
//   stintd knows its callers from the kernel (SO_PEERCRED), which Slurm has no
//   plugin name for.

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <stint/config_show.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "config/conf_keys.hpp"
#include "config/raw.hpp"

namespace stint {
namespace {

using config_detail::iequals;

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view word = text.substr(start, comma - start);
    while (!word.empty() && (word.front() == ' ' || word.front() == '\t')) word.remove_prefix(1);
    while (!word.empty() && (word.back() == ' ' || word.back() == '\t')) word.remove_suffix(1);
    if (!word.empty()) out.emplace_back(word);
    start = comma + 1;
  }
  return out;
}

bool has_word(const std::vector<std::string>& words, std::string_view word) {
  for (const std::string& w : words) {
    if (iequals(w, word)) return true;
  }
  return false;
}

/// Reads one Config's keys in the forms Slurm prints them.
class Values {
 public:
  explicit Values(const Config& c) : m_c(c) {}

  std::string text(std::string_view key) const { return m_c.conf(key).value_or(""); }
  bool set_in_file(std::string_view key) const {
    auto v = m_c.conf_with_origin(key);
    return v && v->second == ConfigOrigin::config_file;
  }
  std::string number(std::string_view key) const { return std::to_string(m_c.conf_int(key)); }
  std::string seconds(std::string_view key) const {
    return fmt::format("{} sec", m_c.conf_int(key));
  }
  /// NULL strings print "(null)" through printf's %s, as Slurm's do.
  std::string or_null(std::string_view key) const {
    std::string v = text(key);
    return v.empty() ? std::string("(null)") : v;
  }
  /// secs2time_str: "HH:MM:SS", "D-HH:MM:SS", or "UNLIMITED".
  std::string duration(std::string_view key) const {
    return parse::format_duration_fixed(m_c.conf_time(key));
  }
  std::string yes_no(std::string_view key) const {
    return iequals(text(key), "YES") ? "Yes" : "No";
  }
  std::vector<std::string> words(std::string_view key) const { return words_of(text(key)); }
  /// A word key in the table's spelling ("preempt/partition_prio").
  std::string word(std::string_view key) const {
    return config_detail::conf_display_value(*config_detail::find_conf_key(key), text(key));
  }

 private:
  const Config& m_c;
};

// accounting_enforce_string over the flags slurm.conf's words set: a word
// implies associations (all but nojobs and nosteps), "all" is every flag but
// those two.
std::string accounting_enforce(const std::vector<std::string>& words) {
  bool all = has_word(words, "all");
  auto any = [&](std::initializer_list<std::string_view> names) {
    for (std::string_view n : names) {
      if (has_word(words, n)) return true;
    }
    return false;
  };
  struct Flag {
    std::string_view name;
    bool on;
  };
  const Flag flags[] = {
      {"associations", all || any({"associations", "limits", "safe", "wckeys", "qos"})},
      {"limits", all || any({"limits", "safe"})},
      {"nojobs", any({"nojobs"})},
      {"nosteps", any({"nojobs", "nosteps"})},
      {"qos", all || any({"qos"})},
      {"safe", all || any({"safe"})},
      {"wckeys", all || any({"wckeys"})},
  };
  std::vector<std::string_view> on;
  for (const Flag& f : flags) {
    if (f.on) on.push_back(f.name);
  }
  return on.empty() ? std::string("none") : fmt::format("{}", fmt::join(on, ","));
}

// preempt_mode_string: one mode, optionally with GANG or WITHIN before it.
std::string preempt_mode(const std::vector<std::string>& words) {
  std::string mode = "OFF";
  for (std::string_view m : {"CANCEL", "REQUEUE", "SUSPEND"}) {
    if (has_word(words, m)) mode = m;
  }
  for (std::string_view prefix : {"GANG", "WITHIN"}) {
    if (has_word(words, prefix))
      return mode == "OFF" ? std::string(prefix) : fmt::format("{},{}", prefix, mode);
  }
  return mode;
}

// priority_flags_string, 22.05's order. Fair tree is on unless NO_FAIR_TREE or
// DEPTH_OBLIVIOUS turns it off; any NO_NORMAL_* flag prints as NO_NORMAL_ALL,
// as 22.05 does.
std::string priority_flags(const std::vector<std::string>& words) {
  std::vector<std::string_view> out;
  for (std::string_view f :
       {"ACCRUE_ALWAYS", "SMALL_RELATIVE_TO_TIME", "CALCULATE_RUNNING", "DEPTH_OBLIVIOUS"}) {
    if (has_word(words, f)) out.push_back(f);
  }
  if (has_word(words, "NO_FAIR_TREE") || has_word(words, "DEPTH_OBLIVIOUS"))
    out.emplace_back("NO_FAIR_TREE");
  for (std::string_view f : {"INCR_ONLY", "MAX_TRES"}) {
    if (has_word(words, f)) out.push_back(f);
  }
  for (std::string_view f :
       {"NO_NORMAL_ALL", "NO_NORMAL_ASSOC", "NO_NORMAL_PART", "NO_NORMAL_QOS", "NO_NORMAL_TRES"}) {
    if (has_word(words, f)) {
      out.emplace_back("NO_NORMAL_ALL");
      break;
    }
  }
  return fmt::format("{}", fmt::join(out, ","));
}

// reconfig_flags2str; NULL (no flag) prints "(null)".
std::string reconfig_flags(const std::vector<std::string>& words) {
  std::vector<std::string_view> out;
  for (std::string_view f : {"KeepPartInfo", "KeepPartState"}) {
    if (has_word(words, f)) out.push_back(f);
  }
  return out.empty() ? std::string("(null)") : fmt::format("{}", fmt::join(out, ","));
}

std::string enforce_part_limits(const std::string& value) {
  if (iequals(value, "ALL")) return "ALL";
  if (iequals(value, "YES") || iequals(value, "ANY")) return "ANY";
  return "NO";
}

std::string mem_megabytes(const Config& c, std::string_view key) {
  return std::to_string(c.conf_int(key));
}

/// DefMemPerCPU or DefMemPerNode (MaxMem... likewise): Slurm prints the one
/// in force, "<prefix>PerNode = UNLIMITED" when neither is. stint uses the
/// per-CPU value when it is not 0 (sched/request.cpp), else the per-node one.
ConfigPair memory_pair(const Config& c, std::string_view prefix) {
  const std::string per_cpu = fmt::format("{}PerCPU", prefix);
  const std::string per_node = fmt::format("{}PerNode", prefix);
  if (c.conf_int(per_cpu) != 0) return {per_cpu, mem_megabytes(c, per_cpu)};
  if (c.conf_int(per_node) != 0) return {per_node, mem_megabytes(c, per_node)};
  return {per_node, "UNLIMITED"};
}

std::uint32_t gpu_count(const Config& c) {
  std::uint32_t gpus = 0;
  for (const NodePool& p : c.node_pools) gpus += p.gpus * p.count;
  return gpus;
}

std::uint32_t node_count(const Config& c) {
  std::uint32_t nodes = 0;
  for (const NodePool& p : c.node_pools) nodes += p.count;
  return nodes;
}

}  // namespace

std::vector<ConfigPair> slurm_config_pairs(const Config& c, const ControllerFacts& f) {
  const Values v(c);
  std::vector<ConfigPair> out;
  out.reserve(200);
  auto add = [&](std::string_view key, std::string value) {
    out.push_back(ConfigPair{std::string(key), std::move(value)});
  };
  const std::string null = "(null)";
  const bool gpus = gpu_count(c) > 0;
  const std::vector<std::string> enforce = v.words("AccountingStorageEnforce");

  add("AccountingStorageBackupHost", null);
  add("AccountingStorageEnforce", accounting_enforce(enforce));
  add("AccountingStorageHost", "localhost");
  add("AccountingStorageExternalHost", null);
  add("AccountingStorageParameters", null);
  add("AccountingStoragePort", "6819");
  add("AccountingStorageTRES",
      fmt::format("cpu,mem,energy,node,billing,fs/disk,vmem,pages{}", gpus ? ",gres/gpu" : ""));
  add("AccountingStorageType", "accounting_storage/slurmdbd");
  add("AccountingStorageUser", "N/A");
  add("AccountingStoreFlags", null);
  add("AcctGatherEnergyType", "acct_gather_energy/none");
  add("AcctGatherFilesystemType", "acct_gather_filesystem/none");
  add("AcctGatherInterconnectType", "acct_gather_interconnect/none");
  add("AcctGatherNodeFreq", "0 sec");
  add("AcctGatherProfileType", "acct_gather_profile/none");
  add("AllowSpecResourcesUsage", "No");
  add("AuthAltTypes", null);
  add("AuthAltParameters", null);
  add("AuthInfo", null);
  add("AuthType", "auth/munge");
  add("BatchStartTimeout", v.seconds("BatchStartTimeout"));
  add("BcastExclude", "/lib,/usr/lib,/lib64,/usr/lib64");
  add("BcastParameters", null);
  add("BOOT_TIME", parse::format_timestamp(f.boot_time));
  add("BurstBufferType", null);
  add("CliFilterPlugins", null);
  add("ClusterName", c.cluster_name);
  add("CommunicationParameters", null);
  add("CompleteWait", v.seconds("CompleteWait"));
  add("CoreSpecPlugin", "core_spec/none");
  add("CpuFreqDef", "Unknown");
  add("CpuFreqGovernors", "OnDemand,Performance,UserSpace");
  add("CredType", "cred/munge");
  add("DebugFlags", null);
  out.push_back(memory_pair(c, "DefMem"));
  add("DependencyParameters", null);
  add("DisableRootJobs", v.yes_no("DisableRootJobs"));
  add("EioTimeout", "60");
  add("EnforcePartLimits", enforce_part_limits(v.text("EnforcePartLimits")));
  add("Epilog", v.or_null("Epilog"));
  add("EpilogMsgTime", "2000 usec");
  add("EpilogSlurmctld", null);
  add("ExtSensorsType", "ext_sensors/none");
  add("ExtSensorsFreq", "0 sec");
  const bool basic_priority = iequals(v.text("PriorityType"), "priority/basic");
  if (!basic_priority) add("FairShareDampeningFactor", v.number("FairShareDampeningFactor"));
  add("FederationParameters", null);
  add("FirstJobId", v.number("FirstJobId"));
  add("GetEnvTimeout", "2 sec");
  add("GresTypes", v.set_in_file("GresTypes") ? v.or_null("GresTypes") : gpus ? "gpu" : null);
  add("GpuFreqDef", "high,memory=high");
  add("GroupUpdateForce", "1");
  add("GroupUpdateTime", "600 sec");
  add("HASH_VAL", "Match");
  add("HealthCheckInterval", "0 sec");
  add("HealthCheckNodeState", "ANY");
  add("HealthCheckProgram", null);
  add("InactiveLimit", v.seconds("InactiveLimit"));
  add("InteractiveStepOptions", v.text("InteractiveStepOptions"));
  add("JobAcctGatherFrequency", v.or_null("JobAcctGatherFrequency"));
  add("JobAcctGatherType", "jobacct_gather/linux");
  add("JobAcctGatherParams", "OverMemoryKill");
  add("JobCompHost", "localhost");
  add("JobCompLoc", "/var/log/slurm_jobcomp.log");
  add("JobCompPort", "0");
  add("JobCompType", "jobcomp/none");
  add("JobCompUser", "root");
  add("JobContainerType", "job_container/none");
  add("JobCredentialPrivateKey", null);
  add("JobCredentialPublicCertificate", null);
  add("JobDefaults", null);
  add("JobFileAppend", v.number("JobFileAppend"));
  add("JobRequeue", v.number("JobRequeue"));
  add("JobSubmitPlugins", null);
  add("KillOnBadExit", v.number("KillOnBadExit"));
  add("KillWait", v.seconds("KillWait"));
  add("LaunchParameters", v.or_null("LaunchParameters"));
  add("LaunchType", "launch/slurm");
  add("Licenses", v.or_null("Licenses"));
  add("LogTimeFormat", "iso8601_ms");
  add("MailDomain", v.or_null("MailDomain"));
  add("MailProg", v.or_null("MailProg"));
  add("MaxArraySize", v.number("MaxArraySize"));
  // The slurmdbd plugin's queue: room for two messages a job and four a node.
  add("MaxDBDMsgs", std::to_string(std::max<std::int64_t>(
                        10000, 2 * c.conf_int("MaxJobCount") + 4 * std::int64_t{node_count(c)})));
  add("MaxJobCount", v.number("MaxJobCount"));
  add("MaxJobId", v.number("MaxJobId"));
  out.push_back(memory_pair(c, "MaxMem"));
  add("MaxNodeCount", std::to_string(node_count(c)));
  add("MaxStepCount", "40000");
  add("MaxTasksPerNode", v.number("MaxTasksPerNode"));
  add("MCSPlugin", "mcs/none");
  add("MCSParameters", null);
  add("MessageTimeout", v.seconds("MessageTimeout"));
  add("MinJobAge", v.seconds("MinJobAge"));
  add("MpiDefault", v.text("MpiDefault"));
  add("MpiParams", null);
  // Debian's slurm-wlm is built with --enable-multiple-slurmd, and stint's
  // virtual nodes are several nodes on one machine.
  add("MULTIPLE_SLURMD", "Yes");
  add("NEXT_JOB_ID", std::to_string(f.next_job_id));
  add("NodeFeaturesPlugins", null);
  add("OverTimeLimit", fmt::format("{} min", c.conf_int("OverTimeLimit")));
  add("PluginDir", fmt::format("/usr/lib/{}-linux-gnu/slurm-wlm", f.machine));
  add("PlugStackConfig", null);
  add("PowerParameters", null);
  add("PowerPlugin", "");
  add("PreemptMode", preempt_mode(v.words("PreemptMode")));
  add("PreemptType", v.word("PreemptType"));
  const Seconds exempt = c.conf_time("PreemptExemptTime");
  add("PreemptExemptTime",
      exempt == k_infinite ? std::string("NONE") : parse::format_duration_fixed(exempt));
  add("PrEpParameters", null);
  add("PrEpPlugins", "prep/script");
  add("PriorityParameters", null);
  add("PrioritySiteFactorParameters", null);
  add("PrioritySiteFactorPlugin", null);
  if (basic_priority) {
    add("PriorityType", "priority/basic");
  } else {
    add("PriorityDecayHalfLife", v.duration("PriorityDecayHalfLife"));
    add("PriorityCalcPeriod", v.duration("PriorityCalcPeriod"));
    add("PriorityFavorSmall", v.yes_no("PriorityFavorSmall"));
    add("PriorityFlags", priority_flags(v.words("PriorityFlags")));
    add("PriorityMaxAge", v.duration("PriorityMaxAge"));
    add("PriorityUsageResetPeriod", v.word("PriorityUsageResetPeriod"));
    add("PriorityType", v.word("PriorityType"));
    add("PriorityWeightAge", v.number("PriorityWeightAge"));
    add("PriorityWeightAssoc", v.number("PriorityWeightAssoc"));
    add("PriorityWeightFairShare", v.number("PriorityWeightFairshare"));
    add("PriorityWeightJobSize", v.number("PriorityWeightJobSize"));
    add("PriorityWeightPartition", v.number("PriorityWeightPartition"));
    add("PriorityWeightQOS", v.number("PriorityWeightQOS"));
    add("PriorityWeightTRES", v.or_null("PriorityWeightTRES"));
  }
  add("PrivateData", "none");
  add("ProctrackType", "proctrack/linuxproc");
  add("Prolog", v.or_null("Prolog"));
  add("PrologEpilogTimeout", v.number("PrologEpilogTimeout"));
  add("PrologSlurmctld", null);
  add("PrologFlags", null);
  add("PropagatePrioProcess", "0");
  // With an Except list Slurm prints the list and no PropagateResourceLimits.
  if (v.text("PropagateResourceLimitsExcept").empty()) {
    add("PropagateResourceLimits", v.or_null("PropagateResourceLimits"));
    add("PropagateResourceLimitsExcept", null);
  } else {
    add("PropagateResourceLimits", null);
    add("PropagateResourceLimitsExcept", v.text("PropagateResourceLimitsExcept"));
  }
  add("RebootProgram", null);
  add("ReconfigFlags", reconfig_flags(v.words("ReconfigFlags")));
  add("RequeueExit", v.or_null("RequeueExit"));
  add("RequeueExitHold", v.or_null("RequeueExitHold"));
  add("ResumeFailProgram", null);
  add("ResumeProgram", null);
  add("ResumeRate", "300 nodes/min");
  add("ResumeTimeout", "60 sec");
  add("ResvEpilog", null);
  add("ResvOverRun", "0 min");
  add("ResvProlog", null);
  add("ReturnToService", "0");
  add("RoutePlugin", "route/default");
  add("SchedulerParameters", v.or_null("SchedulerParameters"));
  add("SchedulerTimeSlice", "30 sec");
  add("SchedulerType", v.word("SchedulerType"));
  add("ScronParameters", null);
  add("SelectType", v.word("SelectType"));
  add("SelectTypeParameters", "CR_CORE_MEMORY");
  const std::string user = fmt::format("{}({})", f.user_name, f.uid);
  add("SlurmUser", user);
  add("SlurmctldAddr", null);
  add("SlurmctldDebug", "info");
  add("SlurmctldHost[0]", f.host);
  add("SlurmctldLogFile", f.state_dir + "/log/stintd.log");
  add("SlurmctldPort", "6817");
  add("SlurmctldSyslogDebug", null);
  add("SlurmctldPrimaryOffProg", null);
  add("SlurmctldPrimaryOnProg", null);
  add("SlurmctldTimeout", "120 sec");
  add("SlurmctldParameters", null);
  add("SlurmdDebug", "info");
  add("SlurmdLogFile", f.state_dir + "/log/stepd.log");
  add("SlurmdParameters", null);
  add("SlurmdPidFile", "/var/run/slurmd.pid");
  add("SlurmdPort", "6818");
  add("SlurmdSpoolDir", f.state_dir + "/spool");
  add("SlurmdSyslogDebug", null);
  add("SlurmdTimeout", "300 sec");
  add("SlurmdUser", user);
  add("SlurmSchedLogFile", null);
  add("SlurmSchedLogLevel", "0");
  add("SlurmctldPidFile", f.state_dir + "/stintd.lock");
  add("SlurmctldPlugstack", null);
  add("SLURM_CONF", f.config_file.empty() ? null : f.config_file);
  add("SLURM_VERSION", std::string(stint::slurm_release()));
  add("SrunEpilog", null);
  add("SrunPortRange", "0-0");
  add("SrunProlog", null);
  add("StateSaveLocation", f.state_dir);
  add("SuspendExcNodes", null);
  add("SuspendExcParts", null);
  add("SuspendProgram", null);
  add("SuspendRate", "60 nodes/min");
  add("SuspendTime", "INFINITE");
  add("SuspendTimeout", "30 sec");
  add("SwitchParameters", null);
  add("SwitchType", "switch/none");
  add("TaskEpilog", null);
  add("TaskPlugin", "task/affinity");
  add("TaskPluginParam", "(null type)");
  add("TaskProlog", null);
  add("TCPTimeout", "2 sec");
  // Not a key of stint's (config::unsupported_slurm_key): Slurm's default.
  add("TmpFS", "/tmp");
  add("TopologyParam", null);
  add("TopologyPlugin", "topology/none");
  add("TrackWCKey", has_word(enforce, "wckeys") || has_word(enforce, "all") ||
                            v.text("TrackWCKey") == "YES" || v.text("TrackWCKey") == "yes"
                        ? "Yes"
                        : "No");
  add("TreeWidth", "50");
  add("UsePam", "No");
  add("UnkillableStepProgram", null);
  add("UnkillableStepTimeout", v.seconds("UnkillableStepTimeout"));
  add("VSizeFactor", "0 percent");
  add("WaitTime", v.seconds("WaitTime"));
  add("X11Parameters", null);
  return out;
}

std::string scontrol_show_config_text(const Config& c, const ControllerFacts& f) {
  std::string out = fmt::format("Configuration data as of {}\n", parse::format_timestamp(f.now));
  for (const ConfigPair& p : slurm_config_pairs(c, f))
    out += fmt::format("{:<23} = {}\n", p.key, p.value);
  // scontrol's blank line, then its ping of each controller.
  out += fmt::format("\nSlurmctld(primary) at {} is {}\n", f.host, f.controller_up ? "UP" : "DOWN");
  if (!f.controller_up && f.caller_is_root) {
    out +=
        "*****************************************\n"
        "** RESTORE SLURMCTLD DAEMON TO SERVICE **\n"
        "*****************************************\n";
  }
  return out;
}

}  // namespace stint
