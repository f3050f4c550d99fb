// sacctmgr show config and show stats: what config_functions.c prints, from
// the configuration stint runs with and from stintd's request counts.

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "cli/sacctmgr.hpp"

namespace stint::cli {
namespace {

std::string value_of(const std::vector<ConfigPair>& pairs, std::string_view key) {
  for (const auto& p : pairs) {
    if (p.key == key) return p.value;
  }
  return "(null)";
}

// slurm_ctime2: "Sat Dec 06 17:33:08 2026", local time.
std::string ctime2(Seconds t) {
  const std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  char buf[32];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %d %T %Y", &tm);
  return std::string(buf, n);
}

struct Line {
  std::string name;  // message type, or the user's name
  std::uint32_t id = 0;
  std::uint64_t count = 0;
  std::uint64_t total = 0;
  std::uint64_t ave = 0;
};

// Slurm's orders (_sort_rpc_obj_by_*): the larger first, ties by id.
void sort_lines(std::vector<Line>& lines, StatsOrder order) {
  auto by_id = [](const Line& a, const Line& b) { return a.id < b.id; };
  auto by_time = [&](const Line& a, const Line& b) {
    return a.total != b.total ? a.total > b.total : by_id(a, b);
  };
  std::stable_sort(lines.begin(), lines.end(), [&](const Line& a, const Line& b) {
    switch (order) {
      case StatsOrder::ave_time:
        return a.ave != b.ave ? a.ave > b.ave : by_id(a, b);
      case StatsOrder::total_time:
        return by_time(a, b);
      case StatsOrder::count:
        break;
    }
    return a.count != b.count ? a.count > b.count : by_time(a, b);
  });
}

Line line_of(const nlohmann::json& j) {
  Line l;
  l.count = j.value("count", std::uint64_t{0});
  l.total = j.value("total_usec", std::uint64_t{0});
  l.ave = l.count > 1 ? l.total / l.count : l.total;
  return l;
}

}  // namespace

std::string sacctmgr_config_text(const std::vector<ConfigPair>& slurm, const SacctmgrDbdFacts& f) {
  const std::string null = "(null)";
  std::string out = fmt::format("Configuration data as of {}\n", parse::format_timestamp(f.now));
  // _print_slurm_config's lines, its spacing included.
  auto put = [&](std::string_view label, const std::string& value) {
    out += fmt::format("{}= {}\n", label, value);
  };
  put("AccountingStorageBackupHost  ", value_of(slurm, "AccountingStorageBackupHost"));
  put("AccountingStorageHost  ", value_of(slurm, "AccountingStorageHost"));
  put("AccountingStorageParameters ", value_of(slurm, "AccountingStorageParameters"));
  put("AccountingStoragePass  ", null);
  put("AccountingStoragePort  ", value_of(slurm, "AccountingStoragePort"));
  put("AccountingStorageType  ", value_of(slurm, "AccountingStorageType"));
  put("AccountingStorageUser  ", value_of(slurm, "AccountingStorageUser"));
  put("AuthType               ", value_of(slurm, "AuthType"));
  put("MessageTimeout         ", value_of(slurm, "MessageTimeout"));
  put("PluginDir              ", value_of(slurm, "PluginDir"));
  put("PrivateData            ", value_of(slurm, "PrivateData"));
  put("SlurmUserId            ", value_of(slurm, "SlurmUser"));
  put("SLURM_CONF             ", value_of(slurm, "SLURM_CONF"));
  put("SLURM_VERSION          ", value_of(slurm, "SLURM_VERSION"));
  put("TCPTimeout             ", value_of(slurm, "TCPTimeout"));
  const std::string track_wckey = value_of(slurm, "TrackWCKey");
  put("TrackWCKey             ", track_wckey);

  // slurmdbd's dump_config, as "%-22s = %s". stintd keeps the accounting
  // records in stint.db (SQLite), purges jobs and steps as PurgeJobAfter
  // and PurgeStepAfter say, never archives them, and keeps
  // slurmdbd's defaults where it has nothing of its own.
  // "10 sec" in slurm.conf's list is "10 secs" in slurmdbd's.
  auto secs = [](const std::string& v) { return v.ends_with(" sec") ? v + "s" : v; };
  const std::vector<ConfigPair> dbd = {
      {"AllowNoDefAcct", "No"},
      {"ArchiveDir", "/tmp"},
      {"ArchiveEvents", "No"},
      {"ArchiveJobs", "No"},
      {"ArchiveResvs", "No"},
      {"ArchiveScript", null},
      {"ArchiveSteps", "No"},
      {"ArchiveSuspend", "No"},
      {"ArchiveTXN", "No"},
      {"ArchiveUsage", "No"},
      {"AuthAltTypes", value_of(slurm, "AuthAltTypes")},
      {"AuthAltParameters", value_of(slurm, "AuthAltParameters")},
      {"AuthInfo", value_of(slurm, "AuthInfo")},
      {"AuthType", value_of(slurm, "AuthType")},
      {"BOOT_TIME", parse::format_timestamp(f.boot_time)},
      {"CommitDelay", "No"},
      {"CommunicationParameters", value_of(slurm, "CommunicationParameters")},
      {"DbdAddr", f.host},
      {"DbdBackupHost", null},
      {"DbdHost", f.host},
      {"DbdPort", "6819"},
      {"DebugFlags", null},
      {"DebugLevel", "info"},
      {"DebugLevelSyslog", "quiet"},
      {"DefaultQOS", null},
      {"LogFile", value_of(slurm, "SlurmctldLogFile")},
      {"MaxQueryTimeRange", "UNLIMITED"},
      {"MessageTimeout", secs(value_of(slurm, "MessageTimeout"))},
      {"Parameters", null},
      {"PidFile", value_of(slurm, "SlurmctldPidFile")},
      {"PluginDir", value_of(slurm, "PluginDir")},
      {"PrivateData", value_of(slurm, "PrivateData")},
      {"PurgeEventAfter", "NONE"},
      {"PurgeJobAfter", f.purge_job_after},
      {"PurgeResvAfter", "NONE"},
      {"PurgeStepAfter", f.purge_step_after},
      {"PurgeSuspendAfter", "NONE"},
      {"PurgeTXNAfter", "NONE"},
      {"PurgeUsageAfter", "NONE"},
      {"SLURMDBD_CONF", f.config_file.empty() ? null : f.config_file},
      {"SLURMDBD_VERSION", value_of(slurm, "SLURM_VERSION")},
      {"SlurmUser", value_of(slurm, "SlurmUser")},
      {"StorageBackupHost", null},
      {"StorageHost", "localhost"},
      {"StorageLoc", f.database},
      {"StorageParameters", null},
      {"StoragePort", "0"},
      {"StorageType", "accounting_storage/sqlite"},
      {"StorageUser",
       value_of(slurm, "SlurmUser").substr(0, value_of(slurm, "SlurmUser").find('('))},
      {"TCPTimeout", secs(value_of(slurm, "TCPTimeout"))},
      {"TrackWCKey", track_wckey},
      {"TrackSlurmctldDown", "No"},
  };
  out += "\nSlurmDBD configuration:\n";
  for (const auto& p : dbd) out += fmt::format("{:<22} = {}\n", p.key, p.value);
  return out;
}

std::string sacctmgr_stats_text(const nlohmann::json& reply, Seconds now, StatsOrder order,
                                const std::function<std::string(std::uint32_t)>& user_name) {
  const Seconds since = reply.value("since", Seconds{0});
  std::string out = "*******************************************************************\n";
  out += fmt::format("sacctmgr show stats output at {} ({})\n", ctime2(now), now);
  out += fmt::format("Data since                    {} ({})\n", ctime2(since), since);
  out += "All statistics are in microseconds\n";
  out += "*******************************************************************\n";
  // No rollup sections: stint computes usage from the jobs when asked
  // instead of rolling it up into tables.

  std::vector<Line> types;
  for (const auto& j : reply.value("types", nlohmann::json::array())) {
    Line l = line_of(j);
    l.name = j.value("name", std::string());
    l.id = j.value("id", std::uint32_t{0});
    types.push_back(std::move(l));
  }
  std::vector<Line> users;
  for (const auto& j : reply.value("users", nlohmann::json::array())) {
    Line l = line_of(j);
    l.id = j.value("uid", std::uint32_t{0});
    l.name = user_name(l.id);
    users.push_back(std::move(l));
  }
  sort_lines(types, order);
  sort_lines(users, order);
  auto tail = [](const Line& l) {
    return fmt::format(" count:{:<6} ave_time:{:<6} total_time:{}\n", l.count, l.ave, l.total);
  };
  out += "\nRemote Procedure Call statistics by message type\n";
  for (const Line& l : types) out += fmt::format("\t{:<25}({:>5})", l.name, l.id) + tail(l);
  out += "\nRemote Procedure Call statistics by user\n";
  for (const Line& l : users) out += fmt::format("\t{:<20}({:>10})", l.name, l.id) + tail(l);
  return out;
}

}  // namespace stint::cli
