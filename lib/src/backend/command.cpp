#include "backend/command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/core.h>
#include <unistd.h>

#include "process/run.hpp"
#include "util/proc.hpp"

extern char** environ;

namespace stint::backend {

std::string program(const CommandTarget& target, const std::string& name) {
  return target.bin_dir.empty() ? name : target.bin_dir + "/" + name;
}

std::string find_bin_dir(const std::string& name, const std::string& path) {
  std::error_code ec;
  const auto self = std::filesystem::canonical("/proc/self/exe", ec).parent_path();
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    start = end + 1;
    if (dir.empty()) continue;
    const auto candidate = std::filesystem::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) != 0) continue;
    if (std::filesystem::canonical(dir, ec) == self) continue;
    return dir;
  }
  return {};
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

CommandResult run_command(const CommandTarget& target, const std::vector<std::string>& argv,
                          const std::string& input) {
  process::Spec spec;
  if (!target.environment.empty()) spec.environment = target.environment;
  if (target.login.empty()) {
    spec.argv = argv;
    if (!target.conf.empty()) {
      if (!spec.environment) {
        spec.environment.emplace();
        for (char** e = environ; *e; ++e) spec.environment->emplace_back(*e);
      }
      std::erase_if(*spec.environment,
                    [](const std::string& e) { return e.rfind("SLURM_CONF=", 0) == 0; });
      spec.environment->push_back("SLURM_CONF=" + target.conf);
    }
  } else {
    // ssh joins its arguments into one line for the remote shell: quote each.
    std::string line;
    if (!target.conf.empty()) line = "SLURM_CONF=" + shell_quote(target.conf) + " ";
    for (const auto& a : argv)
      line += (line.empty() || line.back() == ' ' ? "" : " ") + shell_quote(a);
    spec.argv = {"ssh",
                 "-o",
                 "BatchMode=yes",
                 "-o",
                 fmt::format("ConnectTimeout={}", std::max(1, target.timeout_s / 2)),
                 target.login,
                 line};
  }
  spec.input = input;
  if (::geteuid() == 0 && target.uid && *target.uid != 0) {
    const std::uint32_t gid = target.gid.value_or(*target.uid);
    spec.user = process::Credentials{*target.uid, gid,
                                     proc::login_groups(proc::user_name(*target.uid), gid)};
  }
  spec.timeout = std::chrono::seconds(std::max(1, target.timeout_s));
  const process::Result r = process::run(spec);
  return {r.exit_code, r.timed_out, r.out, r.err};
}

}  // namespace stint::backend
