#pragma once
/// The configuration as the tools print it: `scontrol show config` (Slurm
/// 22.05's keys in its order and layout, values only, for scripts that read
/// them with `awk -F=`) and `stint config show` (stint's own keys too, with
/// where each value came from, and the node pools and partitions).

#include <cstdint>
#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/export.hpp>

STINT_API_BEGIN
namespace stint {

/// What `scontrol show config` prints beside the configuration: facts about
/// stintd (slurmctld's stand-in) and this machine, gathered by the tool.
struct ControllerFacts {
  Seconds now = 0;                 ///< "Configuration data as of"
  Seconds boot_time = 0;           ///< BOOT_TIME, when stintd started; k_no_time: unknown
  bool controller_up = false;      ///< "Slurmctld(primary) at <host> is UP" (or DOWN)
  std::string host = "localhost";  ///< SlurmctldHost[0]: this machine's short name
  std::string machine = "x86_64";  ///< uname's machine, for Debian's PluginDir
  /// StateSaveLocation; the log files, the spool and the pid file are in it.
  std::string state_dir;
  std::string config_file;  ///< SLURM_CONF: the file the configuration came from
  /// SlurmUser and SlurmdUser: who stintd (and so stepd) runs as.
  std::string user_name = "root";
  std::uint32_t uid = 0;
  std::uint32_t next_job_id = 1;  ///< NEXT_JOB_ID
  /// Whether root runs scontrol: Slurm then follows a DOWN line with its
  /// "RESTORE SLURMCTLD DAEMON TO SERVICE" banner.
  bool caller_is_root = false;
};

/// One line of `scontrol show config`: Slurm's key and the value it prints.
struct ConfigPair {
  std::string key;
  std::string value;
  bool operator==(const ConfigPair&) const = default;
};

/// Every key Slurm 22.05's `scontrol show config` prints, in its order
/// (slurm_ctl_conf_2_key_pairs), with stint's effective value: from the
/// configuration for the keys stint has, else what is true of stint here, else
/// what Slurm prints by default on one machine.
std::vector<ConfigPair> slurm_config_pairs(const Config& c, const ControllerFacts& f);

/// `scontrol show config`: "Configuration data as of <now>", each pair as
/// `%-23s = %s`, a blank line, and "Slurmctld(primary) at <host> is UP".
std::string scontrol_show_config_text(const Config& c, const ControllerFacts& f);

/// `stint config show`: every slurm.conf key stint knows (its own Stint* keys
/// included) as `Key = value (origin)`, then the file's other settings, the
/// node pools and the partitions.
std::string stint_config_show_text(const Config& c);

}  // namespace stint
STINT_API_END
