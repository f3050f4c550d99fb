// slurm.conf and gres.conf read as Slurm 22.05's parser reads them
// (src/common/parse_config.c): logical lines, comments, escapes, quoted
// values, Include, and Slurm's key vocabulary (src/common/read_config.c,
// src/common/gres.c), so a file slurmctld refuses is refused here too.

#include "config/slurm_conf.hpp"

#include <algorithm>
#include <cctype>
#include <span>

#include <fmt/format.h>

#include <stint/error.hpp>

#include "config/raw.hpp"

namespace stint::slurm_conf {
namespace {

using config_detail::iequals;

// slurm.conf's plain keys, as Slurm 22.05 spells them.
constexpr std::string_view k_plain_keys[] = {"AccountingStorageTRES",
                                             "AccountingStorageEnforce",
                                             "AccountingStorageExternalHost",
                                             "AccountingStorageHost",
                                             "AccountingStorageBackupHost",
                                             "AccountingStorageLoc",
                                             "AccountingStorageParameters",
                                             "AccountingStoragePass",
                                             "AccountingStoragePort",
                                             "AccountingStorageType",
                                             "AccountingStorageUser",
                                             "AccountingStoreFlags",
                                             "AccountingStoreJobComment",
                                             "AcctGatherEnergyType",
                                             "AcctGatherNodeFreq",
                                             "AcctGatherProfileType",
                                             "AcctGatherInterconnectType",
                                             "AcctGatherInfinibandType",
                                             "AcctGatherFilesystemType",
                                             "AllowSpecResourcesUsage",
                                             "AuthAltTypes",
                                             "AuthAltParameters",
                                             "AuthInfo",
                                             "AuthType",
                                             "BackupAddr",
                                             "BackupController",
                                             "BatchStartTimeout",
                                             "BcastExclude",
                                             "BcastParameters",
                                             "BurstBufferParameters",
                                             "BurstBufferType",
                                             "CoreSpecPlugin",
                                             "CliFilterPlugins",
                                             "ClusterName",
                                             "CommunicationParameters",
                                             "CompleteWait",
                                             "ControlAddr",
                                             "ControlMachine",
                                             "CpuFreqDef",
                                             "CpuFreqGovernors",
                                             "CredType",
                                             "CryptoType",
                                             "DebugFlags",
                                             "DefCPUPerGPU",
                                             "DefMemPerCPU",
                                             "DefMemPerGPU",
                                             "DefMemPerNode",
                                             "DependencyParameters",
                                             "DisableRootJobs",
                                             "EioTimeout",
                                             "EnforcePartLimits",
                                             "Epilog",
                                             "EpilogMsgTime",
                                             "EpilogSlurmctld",
                                             "ExtSensorsType",
                                             "ExtSensorsFreq",
                                             "FairShareDampeningFactor",
                                             "FastSchedule",
                                             "FederationParameters",
                                             "FirstJobId",
                                             "GetEnvTimeout",
                                             "GresTypes",
                                             "GroupUpdateForce",
                                             "GroupUpdateTime",
                                             "GpuFreqDef",
                                             "HealthCheckInterval",
                                             "HealthCheckNodeState",
                                             "HealthCheckProgram",
                                             "InteractiveStepOptions",
                                             "InactiveLimit",
                                             "JobAcctGatherType",
                                             "JobAcctGatherFrequency",
                                             "JobAcctGatherParams",
                                             "JobCompHost",
                                             "JobCompLoc",
                                             "JobCompParams",
                                             "JobCompPass",
                                             "JobCompPort",
                                             "JobCompType",
                                             "JobContainerType",
                                             "JobCompUser",
                                             "JobCredentialPrivateKey",
                                             "JobCredentialPublicCertificate",
                                             "JobFileAppend",
                                             "JobRequeue",
                                             "JobSubmitPlugins",
                                             "KeepAliveTime",
                                             "KillOnBadExit",
                                             "KillWait",
                                             "LaunchParameters",
                                             "LaunchType",
                                             "Licenses",
                                             "LogTimeFormat",
                                             "MailDomain",
                                             "MailProg",
                                             "MaxArraySize",
                                             "MaxDBDMsgs",
                                             "MaxJobCount",
                                             "MaxNodeCount",
                                             "MaxJobId",
                                             "MaxMemPerCPU",
                                             "MaxMemPerNode",
                                             "MaxStepCount",
                                             "MaxTasksPerNode",
                                             "MCSParameters",
                                             "MCSPlugin",
                                             "MessageTimeout",
                                             "MinJobAge",
                                             "MpiDefault",
                                             "MpiParams",
                                             "NodeFeaturesPlugins",
                                             "OverTimeLimit",
                                             "PluginDir",
                                             "PlugStackConfig",
                                             "PowerParameters",
                                             "PowerPlugin",
                                             "PreemptMode",
                                             "PreemptType",
                                             "PreemptExemptTime",
                                             "PrEpParameters",
                                             "PrEpPlugins",
                                             "PriorityDecayHalfLife",
                                             "PriorityCalcPeriod",
                                             "PriorityFavorSmall",
                                             "PriorityMaxAge",
                                             "PriorityParameters",
                                             "PriorityUsageResetPeriod",
                                             "PriorityType",
                                             "PriorityFlags",
                                             "PrioritySiteFactorParameters",
                                             "PrioritySiteFactorPlugin",
                                             "PriorityWeightAge",
                                             "PriorityWeightAssoc",
                                             "PriorityWeightFairshare",
                                             "PriorityWeightJobSize",
                                             "PriorityWeightPartition",
                                             "PriorityWeightQOS",
                                             "PriorityWeightTRES",
                                             "PrivateData",
                                             "ProctrackType",
                                             "Prolog",
                                             "PrologSlurmctld",
                                             "PrologEpilogTimeout",
                                             "PrologFlags",
                                             "PropagatePrioProcess",
                                             "PropagateResourceLimitsExcept",
                                             "PropagateResourceLimits",
                                             "RebootProgram",
                                             "ReconfigFlags",
                                             "RequeueExit",
                                             "RequeueExitHold",
                                             "ResumeFailProgram",
                                             "ResumeProgram",
                                             "ResumeRate",
                                             "ResumeTimeout",
                                             "ResvEpilog",
                                             "ResvOverRun",
                                             "ResvProlog",
                                             "ReturnToService",
                                             "RoutePlugin",
                                             "SallocDefaultCommand",
                                             "SbcastParameters",
                                             "SchedulerAuth",
                                             "SchedulerParameters",
                                             "SchedulerTimeSlice",
                                             "SchedulerType",
                                             "ScronParameters",
                                             "SelectType",
                                             "SelectTypeParameters",
                                             "SlurmUser",
                                             "SlurmdUser",
                                             "SlurmctldAddr",
                                             "SlurmctldDebug",
                                             "SlurmctldLogFile",
                                             "SlurmctldPidFile",
                                             "SlurmctldPlugstack",
                                             "SlurmctldPort",
                                             "SlurmctldPrimaryOffProg",
                                             "SlurmctldPrimaryOnProg",
                                             "SlurmctldSyslogDebug",
                                             "SlurmctldTimeout",
                                             "SlurmctldParameters",
                                             "SlurmdDebug",
                                             "SlurmdLogFile",
                                             "SlurmdParameters",
                                             "SlurmdPidFile",
                                             "SlurmdPort",
                                             "SlurmdSpoolDir",
                                             "SlurmdSyslogDebug",
                                             "SlurmdTimeout",
                                             "SlurmSchedLogFile",
                                             "SlurmSchedLogLevel",
                                             "SrunEpilog",
                                             "SrunProlog",
                                             "SrunPortRange",
                                             "StateSaveLocation",
                                             "SuspendExcNodes",
                                             "SuspendExcParts",
                                             "SuspendProgram",
                                             "SuspendRate",
                                             "SuspendTime",
                                             "SuspendTimeout",
                                             "SwitchParameters",
                                             "SwitchType",
                                             "TaskEpilog",
                                             "TaskProlog",
                                             "TaskPlugin",
                                             "TaskPluginParam",
                                             "TCPTimeout",
                                             "TmpFS",
                                             "TopologyParam",
                                             "TopologyPlugin",
                                             "TrackWCKey",
                                             "TreeWidth",
                                             "UnkillableStepProgram",
                                             "UnkillableStepTimeout",
                                             "UsePAM",
                                             "VSizeFactor",
                                             "WaitTime"};

constexpr std::string_view k_node_keys[] = {
    "BcastAddr",       "Boards",  "CoreSpecCount",  "CoresPerSocket", "CPUs",         "CPUSpecList",
    "CpuBind",         "Feature", "Features",       "Gres",           "MemSpecLimit", "NodeAddr",
    "NodeHostname",    "Port",    "Procs",          "RealMemory",     "Reason",       "Sockets",
    "SocketsPerBoard", "State",   "ThreadsPerCore", "TmpDisk",        "TRESWeights",  "Weight"};

constexpr std::string_view k_partition_keys[] = {"AllocNodes",
                                                 "AllowAccounts",
                                                 "AllowGroups",
                                                 "AllowQos",
                                                 "Alternate",
                                                 "CpuBind",
                                                 "DefCPUPerGPU",
                                                 "DefMemPerCPU",
                                                 "DefMemPerGPU",
                                                 "DefMemPerNode",
                                                 "Default",
                                                 "DefaultTime",
                                                 "DenyAccounts",
                                                 "DenyQos",
                                                 "DisableRootJobs",
                                                 "ExclusiveUser",
                                                 "GraceTime",
                                                 "Hidden",
                                                 "LLN",
                                                 "MaxCPUsPerNode",
                                                 "MaxMemPerCPU",
                                                 "MaxMemPerNode",
                                                 "MaxTime",
                                                 "MaxNodes",
                                                 "MinNodes",
                                                 "Nodes",
                                                 "OverSubscribe",
                                                 "OverTimeLimit",
                                                 "PreemptMode",
                                                 "Priority",
                                                 "PriorityJobFactor",
                                                 "PriorityTier",
                                                 "QOS",
                                                 "RootOnly",
                                                 "ReqResv",
                                                 "ResumeTimeout",
                                                 "SelectTypeParameters",
                                                 "Shared",
                                                 "State",
                                                 "SuspendTime",
                                                 "SuspendTimeout",
                                                 "TRESBillingWeights"};

constexpr std::string_view k_nodeset_keys[] = {"Feature", "Nodes"};
constexpr std::string_view k_downnodes_keys[] = {"Reason", "State"};
constexpr std::string_view k_frontend_keys[] = {"AllowGroups", "AllowUsers",   "DenyGroups",
                                                "DenyUsers",   "FrontendAddr", "Port",
                                                "Reason",      "State"};

// gres.conf (src/common/gres.c).
constexpr std::string_view k_gres_plain_keys[] = {"AutoDetect"};
constexpr std::string_view k_gres_line_keys[] = {"AutoDetect", "Count",         "CPUs",  "Cores",
                                                 "File",       "Files",         "Flags", "Link",
                                                 "Links",      "MultipleFiles", "Name",  "Type"};

struct RecordKind {
  std::string_view name;
  std::span<const std::string_view> keys;
};

constexpr RecordKind k_slurm_records[] = {
    {"DownNodes", k_downnodes_keys}, {"FrontendName", k_frontend_keys},   {"NodeName", k_node_keys},
    {"NodeSet", k_nodeset_keys},     {"PartitionName", k_partition_keys}, {"SlurmctldHost", {}}};

constexpr RecordKind k_gres_records[] = {{"Name", k_gres_line_keys},
                                         {"NodeName", k_gres_line_keys}};

struct Grammar {
  std::span<const std::string_view> plain;
  std::span<const RecordKind> records;
};

constexpr int k_max_include_depth = 16;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool all_space(std::string_view s) { return std::all_of(s.begin(), s.end(), is_space); }

// Everything from the first '#' not escaped by an odd run of '\' on.
std::string strip_comment(std::string_view line) {
  int backslashes = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && backslashes % 2 == 0) return std::string(line.substr(0, i));
    backslashes = line[i] == '\\' ? backslashes + 1 : 0;
  }
  return std::string(line);
}

// A line that ends (blanks aside) in an odd run of '\' goes on with the next;
// the last '\' and what follows it go.
bool strip_continuation(std::string& line) {
  std::size_t end = line.size();
  while (end > 0 && is_space(line[end - 1])) --end;
  std::size_t run = 0;
  while (run < end && line[end - 1 - run] == '\\') ++run;
  if (run % 2 == 0) return false;
  line.resize(end - 1);
  return true;
}

// "\x" is "x" ("\#" a '#', "\\" a '\').
std::string strip_escapes(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      if (++i >= line.size()) break;
    }
    out += line[i];
  }
  return out;
}

struct Match {
  std::string key;
  char op = 0;  ///< '+', '-', '*' or '/' before '=', else 0
  std::string value;
  std::size_t end = 0;  ///< where the rest of the line starts
};

// Slurm's key=value pattern: blanks, a key of letters, digits, '_' and '.',
// blanks, an optional operator, '=', blanks, then a quoted value (blanks
// allowed) or a run of non-blanks, followed by a blank or the end.
std::optional<Match> next_pair(std::string_view line, std::size_t from) {
  std::size_t i = from;
  while (i < line.size() && is_space(line[i])) ++i;
  const std::size_t key_start = i;
  while (i < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '.'))
    ++i;
  if (i == key_start) return std::nullopt;
  Match m;
  m.key = std::string(line.substr(key_start, i - key_start));
  while (i < line.size() && is_space(line[i])) ++i;
  if (i < line.size() && std::string_view("-*+/").find(line[i]) != std::string_view::npos &&
      i + 1 < line.size() && line[i + 1] == '=')
    m.op = line[i++];
  if (i >= line.size() || line[i] != '=') return std::nullopt;
  ++i;
  while (i < line.size() && is_space(line[i])) ++i;
  if (i < line.size() && line[i] == '"') {
    const std::size_t close = line.find('"', i + 1);
    if (close != std::string_view::npos &&
        (close + 1 == line.size() || is_space(line[close + 1]))) {
      m.value = std::string(line.substr(i + 1, close - i - 1));
      m.end = close + 1;
      return m;
    }
  }
  const std::size_t value_start = i;
  while (i < line.size() && !is_space(line[i])) ++i;
  if (i == value_start) return std::nullopt;
  m.value = std::string(line.substr(value_start, i - value_start));
  m.end = i;
  return m;
}

std::string_view spelled(std::span<const std::string_view> keys, std::string_view key) {
  for (std::string_view k : keys) {
    if (iequals(k, key)) return k;
  }
  return {};
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

class Parser {
 public:
  Parser(const Grammar& grammar, std::string_view what, const ReadFile& read)
      : m_grammar(grammar), m_what(what), m_read(read) {}

  void file(std::string_view text, const std::string& path, int depth) {
    std::size_t pos = 0;
    int line_number = 1;
    while (pos < text.size()) {
      // One logical line: physical lines joined by continuations.
      const int first_line = line_number;
      std::string logical;
      for (;;) {
        const std::size_t nl = std::min(text.find('\n', pos), text.size());
        std::string physical(text.substr(pos, nl - pos));
        if (!physical.empty() && physical.back() == '\r') physical.pop_back();
        pos = nl + 1;
        ++line_number;
        logical += strip_comment(physical);
        if (!strip_continuation(logical) || pos >= text.size()) break;
      }
      line(strip_escapes(logical), Origin{path, first_line}, depth);
    }
  }

  ConfFile take() { return std::move(m_out); }

 private:
  [[noreturn]] static void fail(const Origin& at, std::string_view problem) {
    throw Error(Errc::config_invalid, fmt::format("{}: {}", at.text(), problem));
  }

  void line(const std::string& text, const Origin& at, int depth) {
    if (all_space(text)) return;
    if (include(text, at, depth)) return;
    auto m = next_pair(text, 0);
    if (!m) fail(at, fmt::format("parse error: \"{}\" is not Key=Value", trimmed(text)));
    if (m->op != 0)
      fail(at, fmt::format("{}{}=: operators other than = are not supported here", m->key, m->op));
    if (std::string_view key = spelled(m_grammar.plain, m->key); !key.empty()) {
      if (!all_space(std::string_view(text).substr(m->end)))
        fail(at, fmt::format("parse error: \"{}\" after {}={} (one key a line)",
                             trimmed(text.substr(m->end)), m->key, m->value));
      m_out.settings.push_back(Setting{at, std::string(key), m->value});
      return;
    }
    for (const RecordKind& kind : m_grammar.records) {
      if (iequals(kind.name, m->key)) return record(kind, *m, text, at);
    }
    fail(at, fmt::format("unknown key {} (Slurm 22.05's {} has no such key)", m->key, m_what));
  }

  void record(const RecordKind& kind, const Match& first, const std::string& text,
              const Origin& at) {
    Record r;
    r.origin = at;
    r.kind = std::string(kind.name);
    r.name = first.value;
    std::size_t pos = first.end;
    while (!all_space(std::string_view(text).substr(pos))) {
      auto m = next_pair(text, pos);
      if (!m)
        fail(at, fmt::format("parse error in {}={}: \"{}\" is not Key=Value", r.kind, r.name,
                             trimmed(text.substr(pos))));
      std::string_view key = spelled(kind.keys, m->key);
      if (key.empty())
        fail(at, fmt::format("{}={}: unknown key {} (Slurm 22.05's {} lines have no such key)",
                             r.kind, r.name, m->key, r.kind));
      if (m->op != 0)
        fail(at, fmt::format("{}={}: {}{}=: operators other than = are not supported here", r.kind,
                             r.name, m->key, m->op));
      r.pairs.push_back(Pair{std::string(key), m->value});
      pos = m->end;
    }
    m_out.records.push_back(std::move(r));
  }

  // "Include FILE": FILE relative to this file's folder, %c the ClusterName.
  bool include(const std::string& text, const Origin& at, int depth) {
    constexpr std::string_view word = "include";
    if (text.size() <= word.size() ||
        !iequals(std::string_view(text).substr(0, word.size()), word) ||
        !is_space(text[word.size()]))
      return false;
    std::size_t i = word.size();
    while (i < text.size() && is_space(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    std::string name = text.substr(start, i - start);
    if (name.empty()) fail(at, "Include without a file name");
    if (!all_space(std::string_view(text).substr(i)))
      fail(at, fmt::format("parse error: \"{}\" after Include {}", trimmed(text.substr(i)), name));
    for (std::size_t c = name.find("%c"); c != std::string::npos; c = name.find("%c")) {
      const Setting* cluster = nullptr;
      for (const Setting& s : m_out.settings) {
        if (s.key == "ClusterName") cluster = &s;
      }
      if (!cluster) fail(at, fmt::format("Include {}: %c needs ClusterName set before it", name));
      std::string lower = cluster->value;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      name.replace(c, 2, lower);
    }
    if (depth >= k_max_include_depth)
      fail(at, fmt::format("Include {}: nested more than {} deep (does a file include itself?)",
                           name, k_max_include_depth));
    const std::string path = name.front() == '/' ? name : folder_of(at.file) + name;
    std::string included;
    try {
      included = m_read(path);
    } catch (const Error& e) {
      fail(at, fmt::format("Include {}: {}", path, e.what()));
    }
    file(included, path, depth + 1);
    return true;
  }

  static std::string trimmed(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return std::string(s);
  }

  const Grammar& m_grammar;
  std::string_view m_what;
  const ReadFile& m_read;
  ConfFile m_out;
};

ConfFile parse(const Grammar& grammar, std::string_view what, std::string_view text,
               const std::string& path, const ReadFile& read) {
  Parser p(grammar, what, read);
  p.file(text, path, 0);
  return p.take();
}

}  // namespace

std::string Origin::text() const { return fmt::format("{}:{}", file, line); }

const std::string* Record::find(std::string_view key) const {
  // A key given twice on one line: the later counts, as in Slurm.
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it) {
    if (iequals(it->key, key)) return &it->value;
  }
  return nullptr;
}

bool is_slurm_conf_key(std::string_view key) {
  return std::any_of(std::begin(k_plain_keys), std::end(k_plain_keys),
                     [&](std::string_view k) { return iequals(k, key); });
}

ConfFile parse_slurm_conf(std::string_view text, const std::string& path, const ReadFile& read) {
  return parse(Grammar{k_plain_keys, k_slurm_records}, "slurm.conf", text, path, read);
}

ConfFile parse_gres_conf(std::string_view text, const std::string& path, const ReadFile& read) {
  return parse(Grammar{k_gres_plain_keys, k_gres_records}, "gres.conf", text, path, read);
}

}  // namespace stint::slurm_conf
