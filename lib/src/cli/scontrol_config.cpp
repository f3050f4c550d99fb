#include "cli/scontrol_config.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string_view>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/config_show.hpp>
#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>

#include "cli/read_common.hpp"
#include "config/raw.hpp"
#include "daemon/slurm_conf_file.hpp"
#include "rpc/client.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

namespace stint::cli {
namespace {

/// When the process `pid` started, from its start in clock ticks since boot.
Seconds process_start(std::int64_t pid, Seconds boot_time) {
  const std::optional<std::uint64_t> ticks = proc::start_ticks(pid);
  const long per_second = ::sysconf(_SC_CLK_TCK);
  if (!ticks || per_second <= 0 || boot_time == k_no_time) return k_no_time;
  return boot_time + static_cast<Seconds>(*ticks / static_cast<std::uint64_t>(per_second));
}

/// The uid stintd runs as: the running one's, else the state directory's
/// owner (a personal stintd runs as its user, a system one as root, who owns
/// the system state directory).
std::uint32_t stintd_uid(const Paths& paths, std::optional<std::int64_t> pid) {
  if (pid) {
    if (auto uid = proc::real_uid(*pid)) return *uid;
  }
  struct stat st {};
  if (::stat(paths.state_dir.c_str(), &st) == 0) return st.st_uid;
  return ::geteuid();
}

/// The id the next submission gets (stintd keeps it in the database).
std::uint32_t next_job_id(const Paths& paths) {
  if (!Store::exists(paths.db())) return 1;
  const std::optional<std::string> next = Store::reader(paths.db())->meta("next_job_id");
  return next ? static_cast<std::uint32_t>(std::stoul(*next)) : 1;
}

ControllerFacts gather_facts(const Paths& paths, const Config& config) {
  // Asked first, so that a personal stintd is started (as slurmctld would be
  // running) and the configuration read after is the one it runs with.
  std::optional<std::int64_t> pid;
  try {
    const nlohmann::json reply = rpc::call(paths, {{"op", "ping"}});
    pid = reply.value("pid", std::int64_t{0});
  } catch (const Error& e) {
    if (e.code() != Errc::daemon_unavailable) throw;
  }
  const format::Context ctx = read_context(config);
  ControllerFacts f;
  f.now = ctx.now;
  f.controller_up = pid.has_value();
  f.boot_time = pid ? process_start(*pid, ctx.boot_time) : k_no_time;
  f.host = proc::short_hostname();
  f.machine = ctx.arch;
  f.state_dir = paths.state_dir;
  // SLURM_CONF: the slurm.conf stintd keeps for scripts, which jobs find in
  // their SLURM_CONF; stint.yaml is `stint config show`'s to name.
  f.config_file = daemon::slurm_conf_path(paths.state_dir);
  f.uid = stintd_uid(paths, pid);
  f.user_name = proc::user_name(f.uid);
  f.next_job_id = next_job_id(paths);
  f.caller_is_root = ::getuid() == 0;
  return f;
}

bool is_any(std::string_view key, std::initializer_list<std::string_view> names) {
  return std::any_of(names.begin(), names.end(),
                     [&](std::string_view n) { return config_detail::iequals(key, n); });
}

/// slurm.conf's line for one `show config` pair, as _write_key_pairs writes
/// it: "#Key=" for a value that is none, else the value up to its first
/// blank or parenthesis ("30 sec" is 30), quoted if it keeps a blank.
std::string conf_line(const ConfigPair& pair) {
  std::string key = pair.key.substr(0, pair.key.find('['));
  const std::string& v = pair.value;
  if (v.empty() || config_detail::iequals(v, "(null type)") ||
      config_detail::iequals(v, "(null)") || config_detail::iequals(v, "N/A") ||
      (config_detail::iequals(key, "DefMemPerNode") && config_detail::iequals(v, "UNLIMITED")) ||
      (is_any(key, {"SlurmctldSyslogDebug", "SlurmdSyslogDebug"}) &&
       config_detail::iequals(v, "unknown")) ||
      (config_detail::iequals(key, "CpuFreqDef") && config_detail::iequals(v, "Unknown")))
    return fmt::format("#{}=", key);
  std::string value = v;
  if (!is_any(key, {"Epilog", "EpilogSlurmctld", "HealthCheckProgram", "MailProg", "Prolog",
                    "PrologSlurmctld", "RebootProgram", "ResumeProgram", "ResvEpilog", "ResvProlog",
                    "SrunEpilog", "SrunProlog", "SuspendProgram", "TaskEpilog", "TaskProlog",
                    "UnkillableStepProgram"})) {
    const std::size_t start = value.find_first_not_of(" (");
    value = start == std::string::npos ? std::string() : value.substr(start);
    value = value.substr(0, value.find_first_of(" ("));
  }
  if (value.find(' ') != std::string::npos) return fmt::format("{}=\"{}\"", key, value);
  return fmt::format("{}={}", key, value);
}

std::string group_header(std::string_view header) {
  constexpr int k_width = 48;
  const int len = static_cast<int>(header.size());
  const int left = (k_width - len) / 2 - 1;
  const int right = left + ((k_width - len) % 2 != 0 ? 1 : 0);
  const std::string rule(k_width, '#');
  return fmt::format("#\n{}\n#{}{}{}#\n{}\n", rule,
                     std::string(static_cast<std::size_t>(left), ' '), header,
                     std::string(static_cast<std::size_t>(right), ' '), rule);
}

// config_info.c's sections, in its order, and the keys each gathers; the
// rest go to OTHER.
struct Section {
  std::string_view title;
  std::initializer_list<std::string_view> keys;
};
const std::array<Section, 11> k_sections{{
    {"CONTROL",
     {"ControlMachine", "ControlAddr", "ClusterName", "SlurmUser", "SlurmdUser", "SlurmctldHost",
      "SlurmctldPort", "SlurmdPort", "BackupAddr", "BackupController"}},
    {"LOGGING & OTHER PATHS",
     {"StateSaveLocation", "SlurmdSpoolDir", "SlurmctldLogFile", "SlurmdLogFile",
      "SlurmctldPidFile", "SlurmdPidFile", "SlurmSchedLogFile", "SlurmEventHandlerLogfile"}},
    {"ACCOUNTING",
     {"AccountingStorageBackupHost", "AccountingStorageEnforce", "AccountingStorageHost",
      "AccountingStoragePort", "AccountingStorageType", "AccountingStorageUser",
      "AccountingStoreFlags", "AcctGatherEnergyType", "AcctGatherFilesystemType",
      "AcctGatherInterconnectType", "AcctGatherNodeFreq", "AcctGatherProfileType",
      "JobAcctGatherFrequency", "JobAcctGatherType", "ExtSensorsType", "ExtSensorsFreq"}},
    {"SCHEDULING & ALLOCATION",
     {"SelectType", "SelectTypeParameters", "SchedulerParameters", "SchedulerTimeSlice",
      "SchedulerType", "SlurmSchedLogLevel", "PreemptMode", "PreemptType", "PreemptExemptTime",
      "PriorityType", "FastSchedule"}},
    {"TOPOLOGY", {"TopologyPlugin"}},
    {"TIMERS",
     {"SlurmctldTimeout", "SlurmdTimeout", "InactiveLimit", "MinJobAge", "KillWait",
      "BatchStartTimeout", "CompleteWait", "EpilogMsgTime", "GetEnvTimeout", "Waittime"}},
    {"POWER",
     {"SuspendExcNodes", "SuspendExcParts", "SuspendProgram", "SuspendRate", "SuspendTime",
      "SuspendTimeout", "ResumeProgram", "ResumeRate", "ResumeTimeout"}},
    {"DEBUG", {"SlurmctldDebug", "SlurmdDebug", "DebugFlags"}},
    {"EPILOG & PROLOG",
     {"Epilog", "Prolog", "SrunProlog", "SrunEpilog", "TaskEpilog", "TaskProlog"}},
    {"PROCESS TRACKING", {"ProcTrackType"}},
    {"RESOURCE CONFINEMENT", {"TaskPlugin", "TaskPluginParam"}},
}};

}  // namespace

int show_config() {
  const Paths paths = default_paths();
  Config config = query::read_config(paths);
  const ControllerFacts f = gather_facts(paths, config);
  config = query::read_config(paths);
  fmt::print("{}", scontrol_show_config_text(config, f));
  return f.controller_up ? 0 : 1;
}

int write_config(const std::optional<std::string>& file_name) {
  const Paths paths = default_paths();
  Config config = query::read_config(paths);
  const ControllerFacts f = gather_facts(paths, config);
  config = query::read_config(paths);
  // slurm_write_ctl_conf's name: SLURM_CONF_OUT (the argument sets it), else
  // SLURM_CONF, else this cluster's slurm.conf, with the time after a dot.
  std::string base;
  if (file_name) {
    base = *file_name;
  } else if (const char* out = std::getenv("SLURM_CONF_OUT"); out && *out) {
    base = out;
  } else if (const char* conf = std::getenv("SLURM_CONF"); conf && *conf) {
    base = conf;
  } else {
    base = daemon::slurm_conf_path(paths.state_dir);
  }
  const std::string time_text = parse::format_timestamp(f.now);
  const std::string path = fmt::format("{}.{}", base, time_text);

  std::array<std::string, k_sections.size()> grouped;
  std::string other;
  for (const ConfigPair& pair : slurm_config_pairs(config, f)) {
    // What the environment says, not the file.
    if (is_any(pair.key, {"BOOT_TIME", "HASH_VAL", "MULTIPLE_SLURMD", "NEXT_JOB_ID", "SLURM_CONF",
                          "SLURM_VERSION"}))
      continue;
    const std::string line = conf_line(pair) + "\n";
    const std::string key = pair.key.substr(0, pair.key.find('['));
    bool placed = false;
    for (std::size_t i = 0; i < k_sections.size() && !placed; ++i) {
      if (is_any(key, k_sections[i].keys)) {
        grouped[i] += line;
        placed = true;
      }
    }
    if (!placed) other += line;
  }
  std::string text = "########################################################\n";
  text += fmt::format("#  Configuration file for Slurm - {}  #\n", time_text);
  text += "########################################################\n#\n#\n";
  for (std::size_t i = 0; i < k_sections.size(); ++i)
    text += group_header(k_sections[i].title) + grouped[i];
  text += group_header("OTHER") + other;
  // The nodes and partitions as the slurm.conf stintd keeps for scripts.
  std::string nodes;
  std::string partitions;
  const std::string conf = daemon::slurm_conf_text(config, f.host);
  std::size_t start = 0;
  while (start < conf.size()) {
    std::size_t end = conf.find('\n', start);
    if (end == std::string::npos) end = conf.size();
    const std::string line = conf.substr(start, end - start);
    if (line.rfind("NodeName=", 0) == 0) nodes += line + "\n";
    if (line.rfind("PartitionName=", 0) == 0) partitions += line + "\n";
    start = end + 1;
  }
  text += group_header("NODES") + nodes + group_header("PARTITIONS") + partitions;
  try {
    fs::write_file_atomic(path, text, 0644);
  } catch (const Error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "Could not create file {}: {}\n", path, e.what());
    return 1;
  }
  fmt::print("Slurm config saved to {}\n", path);
  return 0;
}

}  // namespace stint::cli
