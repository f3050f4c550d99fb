#pragma once
// What a configuration asks for that this machine cannot give, said when it
// is checked (stint config check) and loaded (stintd's start, reconfigure):
// the setting is kept, and what it needs is named.

#include <optional>
#include <string>
#include <vector>

#include <stint/config.hpp>

namespace stint {

/// StintRunSsh and StintRunSshd: whether runs' nodes get an sshd, and which.
struct RunSshd {
  bool wanted = false;  ///< StintRunSsh is YES
  std::string path;     ///< StintRunSshd
  bool usable = false;  ///< an absolute path to an executable
};
RunSshd run_sshd(const Config& config);

/// One line per setting that cannot work here, with what to do.
std::vector<std::string> config_warnings(const Config& config);

}  // namespace stint
