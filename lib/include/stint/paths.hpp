#pragma once
/// Where things are: the state directory and the files in it, and the helper
/// executables (stintd, stint-stepd) next to the running tool.

#include <string>
#include <string_view>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

/// The files of one state directory (DESIGN.md "State directory").
struct Paths {
  std::string state_dir;

  std::string config() const { return state_dir + "/stint.yaml"; }
  std::string db() const { return state_dir + "/stint.db"; }
  std::string socket() const { return state_dir + "/stintd.sock"; }
  std::string lock() const { return state_dir + "/stintd.lock"; }
  std::string scripts_db() const { return state_dir + "/scripts.db"; }  ///< stintd's alone
  std::string log_dir() const { return state_dir + "/log"; }
  std::string spool_root() const { return state_dir + "/spool"; }
  std::string spool(JobId id) const;  ///< spool/<id>
};

/// The system state directory of this build (CMake STINT_SYSTEM_STATE_DIR,
/// /var/lib/stint by default): a shared installation's, served by a stintd
/// running as root.
std::string_view system_state_dir();

/// Which state directory the tools use (DESIGN.md "State directory"):
/// `state_env` ($STINT_STATE_DIR) when set; else the personal one
/// (`xdg`/stint, else `home`/.local/state/stint) when it exists; else
/// `system_dir` when it exists; else the personal one (created on first use).
/// `exists` says whether a folder exists.
std::string choose_state_dir(const std::string& state_env, const std::string& xdg,
                             const std::string& home, const std::string& system_dir,
                             bool (*exists)(const std::string&));
/// choose_state_dir with this process's environment and system_state_dir().
/// Does not create it.
Paths default_paths();

/// Whether a stintd started now runs in system mode: as root, serving every
/// local user of its state directory, and starting each job as its owner.
bool system_mode();
/// Creates the state directory (and log/, spool/) if missing. A personal
/// stintd keeps them to its user (0700); in system mode the state directory
/// is 0755 (the socket, stint.yaml and stint.db are for everyone), spool/ is
/// 0711 (a job's script is reachable by its owner, listing is not) and log/
/// is 0700. Existing folders get those modes in system mode.
void ensure_state_dir(const Paths& p);

/// The absolute path of a helper executable ("stintd", "stint-stepd"): beside
/// the running executable, else in ../sbin or ../libexec/stint, else $PATH.
/// $STINT_LIBEXEC_DIR overrides. Throws Errc::io when not found.
std::string find_helper(std::string_view name);

}  // namespace stint
STINT_API_END
