#pragma once
// sacctmgr's command language and its output (pure, for the tool and its
// tests). The tool is cli/sacctmgr.cpp; listings are cli/sacctmgr_show.cpp,
// the lines printed for add, modify and delete cli/sacctmgr_print.cpp.
//
//   sacctmgr [OPTIONS] add|create  ENTITY NAME... [Key=value...]
//   sacctmgr [OPTIONS] modify|update ENTITY [NAME...] [where Key=value...] set Key=value...
//   sacctmgr [OPTIONS] delete|remove ENTITY [NAME...] [where Key=value...]
//   sacctmgr [OPTIONS] show|list ENTITY [NAME...] [where Key=value...] [format=...]
//                      [withassoc] [tree] [woplimits]

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <stint/accounts.hpp>
#include <stint/config_show.hpp>
#include <stint/error.hpp>
#include <stint/paths.hpp>

#include "sched/limits.hpp"

namespace stint::cli {

enum class SacctmgrVerb { add, modify, remove, show, clear };

/// What sacctmgr acts on: records, or (show only) the configuration and
/// (show and clear) stintd's request statistics.
enum class SacctmgrEntity { account, association, cluster, qos, user, tres, config, stats };

/// One command line after the options.
struct SacctmgrCommand {
  SacctmgrVerb verb = SacctmgrVerb::show;
  SacctmgrEntity entity = SacctmgrEntity::account;
  std::vector<std::string> names;        ///< bare words and Name=/Names= values
  std::vector<sched::Setting> where;     ///< conditions (modify, delete, show)
  std::vector<sched::Setting> settings;  ///< Key=value to set (add, modify)
  std::vector<std::string> format;       ///< format=a,b%20 fields (show)
  bool with_assoc = false;               ///< withassoc (or -s)
  bool tree = false;                     ///< tree
  bool without_parent_limits = false;    ///< woplimits
};

/// An error sacctmgr prints as it is (Slurm prints these lines without
/// "sacctmgr: error: "), exiting 1.
class SacctmgrError : public Error {
 public:
  explicit SacctmgrError(const std::string& message) : Error(Errc::invalid_argument, message) {}
};

/// Parses the words after the options. Verbs and entities may be abbreviated
/// as Slurm allows ("list assoc", "show qos", "add acct"); keywords and keys
/// are case-insensitive. Throws SacctmgrError with Slurm's text: "invalid
/// keyword: X", "No valid entity in add command\nInput line must include
/// ...", " Unknown option: X" (a word in add that is neither a name nor a known
/// Key=value), " You didn't give me anything to set" (modify without set).
SacctmgrCommand parse_sacctmgr(const std::vector<std::string>& words);

/// `sacctmgr dump CLUSTER [File=PATH]` (sacctmgr_dump.cpp): the association
/// tree written in the format `sacctmgr load` reads (stint export slurm's
/// accounts.cfg). Returns the exit status; nullopt when `words` is not a dump.
std::optional<int> sacctmgr_dump(const std::vector<std::string>& words, const Paths& paths);

/// The acct_add / acct_modify / acct_delete request for a command
/// (docs/protocol.md). Cluster modifications go to the root account's
/// association, as the cluster's limits are root's in Slurm.
nlohmann::json sacctmgr_request(const SacctmgrCommand& cmd, bool commit);

/// The lines sacctmgr prints for a reply: what is (or would be) added,
/// modified or deleted, in Slurm's words and columns; `nothing` is set when
/// nothing would change (" Nothing new added.", exit 1).
std::string sacctmgr_summary(const SacctmgrCommand& cmd, const nlohmann::json& reply,
                             const std::string& cluster, bool& nothing);

/// The records of a state directory where stintd never ran: what migration 3
/// creates (root, its user, the QOS normal).
Accounting default_accounting();

/// Output options of show/list.
struct SacctmgrTable {
  bool no_header = false;  ///< -n
  bool parsable = false;   ///< -p: '|' after every field
  bool parsable2 = false;  ///< -P: '|' between fields
  bool gres_gpu = false;   ///< the cluster has GPUs: show tres lists gres/gpu
};

/// `sacctmgr show ...` over `data`. Throws SacctmgrError "Unknown field 'x'".
std::string sacctmgr_show(const SacctmgrCommand& cmd, const Accounting& data,
                          const std::string& cluster, const SacctmgrTable& table);

/// What `sacctmgr show config` says of the accounting side beside the
/// slurm.conf keys: stint's database stands in for slurmdbd's.
struct SacctmgrDbdFacts {
  Seconds now = 0;                        ///< "Configuration data as of"
  Seconds boot_time = 0;                  ///< BOOT_TIME: stintd's start; k_no_time if it is down
  std::string database;                   ///< StorageLoc: stint.db
  std::string config_file;                ///< SLURMDBD_CONF: the file accounting is configured in
  std::string host = "localhost";         ///< DbdHost and DbdAddr: this machine
  std::string purge_job_after = "NONE";   ///< PurgeJobAfter, as slurmdbd prints it
  std::string purge_step_after = "NONE";  ///< PurgeStepAfter
};

/// `sacctmgr show config` (config_functions.c): "Configuration data as of",
/// the slurm.conf keys sacctmgr prints, taken from `slurm` (the pairs of
/// `scontrol show config`), then "SlurmDBD configuration:" and slurmdbd's
/// keys in its order with stint's values.
std::string sacctmgr_config_text(const std::vector<ConfigPair>& slurm, const SacctmgrDbdFacts& f);

/// How `sacctmgr show stats [ave_time|total_time]` orders its lines.
enum class StatsOrder { count, ave_time, total_time };

/// `sacctmgr show stats` over stintd's acct_stats reply (docs/protocol.md):
/// the banner with `now` and the time the counts start, then the requests by
/// message type and by user (`user_name` names a uid), in microseconds.
std::string sacctmgr_stats_text(const nlohmann::json& reply, Seconds now, StatsOrder order,
                                const std::function<std::string(std::uint32_t)>& user_name);

}  // namespace stint::cli
