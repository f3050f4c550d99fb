#include "cli/stint_export.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>

#include "daemon/slurm_export.hpp"
#include "util/fs.hpp"

namespace stint::cli {
namespace {

// The records a cluster starts with (the root account and user, QOS
// normal), for a state directory whose database stintd has not made yet:
// those of a new database, made aside and removed.
Accounting starting_accounting() {
  char folder[] = "/tmp/stint-export-XXXXXX";
  if (::mkdtemp(folder) == nullptr)
    throw Error(Errc::io, fmt::format("Unable to make a folder in /tmp: {}", std::strerror(errno)));
  Accounting out;
  try {
    out = Store::open(std::string(folder) + "/stint.db", Store::Mode::read_write)->accounting();
  } catch (...) {
    std::filesystem::remove_all(folder);
    throw;
  }
  std::filesystem::remove_all(folder);
  return out;
}

}  // namespace

Accounting read_accounting(const Paths& paths) {
  return Store::exists(paths.db()) ? Store::reader(paths.db())->accounting()
                                   : starting_accounting();
}

int stint_export_slurm(const Paths& paths, const ExportArgs& args) {
  daemon::SlurmExportOptions options;
  if (!args.nodes.empty()) {
    options.hosts = parse::expand_hostlist(args.nodes);
    if (options.hosts.empty())
      throw Error(Errc::invalid_argument, fmt::format("--nodes {} names no machine", args.nodes));
  }
  options.controller = args.controller;
  options.conf_dir = args.conf_dir;
  const Config config = query::read_config(paths);
  const Accounting accounting = read_accounting(paths);
  // Everything is made before anything is written: a refusal leaves no file.
  const std::vector<daemon::ExportedFile> files = daemon::export_slurm(config, accounting, options);
  if (!args.force) {
    for (const auto& f : files) {
      const std::string path = args.output + "/" + f.name;
      if (fs::exists(path))
        throw Error(Errc::invalid_argument,
                    fmt::format("{} exists: export into an empty folder, or give -f to replace "
                                "its files",
                                path));
    }
  }
  if (::mkdir(args.output.c_str(), 0755) != 0 && errno != EEXIST)
    throw Error(Errc::io, fmt::format("Unable to make {}: {}", args.output, std::strerror(errno)));
  std::vector<std::string> for_nodes;
  for (const auto& f : files) {
    const std::string path = args.output + "/" + f.name;
    fs::write_file_atomic(path, f.text, f.mode, fs::Sync::no);
    fmt::print("{}\n", path);
    if (f.name.rfind("accounts.", 0) != 0) for_nodes.push_back(f.name);
  }
  fmt::print(
      "Next, on the cluster: copy {} to {} on every node; start slurmdbd, slurmctld and "
      "slurmd; then run {}/accounts.sh where sacctmgr reaches slurmdbd\n",
      fmt::join(for_nodes, ", "), args.conf_dir, args.output);
  return 0;
}

}  // namespace stint::cli
