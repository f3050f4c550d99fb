#include "config/warnings.hpp"

#include <cctype>

#include <fmt/core.h>
#include <unistd.h>

namespace stint {

RunSshd run_sshd(const Config& config) {
  RunSshd s;
  std::string enabled = config.conf("StintRunSsh").value_or("NO");
  for (char& c : enabled) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  s.wanted = enabled == "YES";
  s.path = config.conf("StintRunSshd").value_or("/usr/sbin/sshd");
  s.usable = !s.path.empty() && s.path.front() == '/' && ::access(s.path.c_str(), X_OK) == 0;
  return s;
}

std::vector<std::string> config_warnings(const Config& config) {
  std::vector<std::string> warnings;
  if (const RunSshd sshd = run_sshd(config); sshd.wanted && !sshd.usable)
    warnings.push_back(fmt::format(
        "StintRunSsh is YES but StintRunSshd ({}) is not an executable: runs get no node SSH "
        "(install openssh-server, or set StintRunSshd to an sshd's absolute path)",
        sshd.path.empty() ? "empty" : sshd.path));
  return warnings;
}

}  // namespace stint
