#pragma once
/// Where things are: the state directory and the files in it, and the helper
/// executables (stintd, stint-stepd) next to the running tool.

#include <string>
#include <string_view>

#include <stint/model.hpp>

namespace stint {

/// The files of one state directory (DESIGN.md "State directory").
struct Paths {
  std::string state_dir;

  std::string config() const { return state_dir + "/stint.yaml"; }
  std::string db() const { return state_dir + "/stint.db"; }
  std::string socket() const { return state_dir + "/stintd.sock"; }
  std::string lock() const { return state_dir + "/stintd.lock"; }
  std::string log_dir() const { return state_dir + "/log"; }
  std::string spool_root() const { return state_dir + "/spool"; }
  std::string spool(JobId id) const;  ///< spool/<id>
};

/// $STINT_STATE_DIR, else $XDG_STATE_HOME/stint, else ~/.local/state/stint.
/// Does not create it.
Paths default_paths();
/// Creates the state directory (and log/, spool/) with mode 0700 if missing.
void ensure_state_dir(const Paths& p);

/// The absolute path of a helper executable ("stintd", "stint-stepd"): beside
/// the running executable, else in ../sbin or ../libexec/stint, else $PATH.
/// $STINT_LIBEXEC_DIR overrides. Throws Errc::io when not found.
std::string find_helper(std::string_view name);

}  // namespace stint
