#include "config/warnings.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include "util/text.hpp"

namespace stint {

RunSshd run_sshd(const Config& config) {
  RunSshd s;
  s.wanted = text::iequals(config.conf("StintRunSsh").value_or("NO"), "YES");
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
