#pragma once
// Running a cluster's commands (sbatch, sacct, scancel, ...): here, or on a
// login node over ssh; as the run's user when stintd runs as root; with a
// deadline, so that a cluster that does not answer cannot hold stintd.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stint::backend {

/// Where and as whom a command runs.
struct CommandTarget {
  std::string login;    ///< "" this machine; else an ssh destination ("user@host")
  std::string conf;     ///< SLURM_CONF to set ("" leaves the environment's)
  std::string bin_dir;  ///< where the cluster's commands are ("" PATH); see program()
  /// Run as this user (only when this process is root and it is not root);
  /// nullopt: as this process.
  std::optional<std::uint32_t> uid;
  std::optional<std::uint32_t> gid;
  int timeout_s = 60;
  /// The environment of a local command, "NAME=VALUE" each; empty: this
  /// process's. SLURM_CONF above is set over it.
  std::vector<std::string> environment;
};

struct CommandResult {
  int exit_code = 0;  ///< the exit status; 128+N when killed by signal N
  bool timed_out = false;
  std::string out;
  std::string err;
};

/// Runs `argv` (argv[0] is looked up in PATH) and waits for it, feeding it
/// `input` on stdin. Over ssh the command line is quoted for the remote
/// shell. Throws Errc::io when it cannot be started at all (not installed);
/// a command that ran and failed is in the result.
CommandResult run_command(const CommandTarget& target, const std::vector<std::string>& argv,
                          const std::string& input = {});

/// The path of a cluster command `name` for `target`: in its bin_dir, else
/// the bare name (PATH).
std::string program(const CommandTarget& target, const std::string& name);
/// The folder of `name` in `path` (a PATH value), skipping the folder this
/// program is in (stint's own sbatch is not the cluster's); "" when none.
std::string find_bin_dir(const std::string& name, const std::string& path);

/// `text` quoted for a POSIX shell: 'text', with ' as '\''.
std::string shell_quote(const std::string& text);

}  // namespace stint::backend
