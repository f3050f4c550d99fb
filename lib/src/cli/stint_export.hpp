#pragma once
// `stint export slurm`: the files a real Slurm cluster needs to take over from
// this one (daemon/slurm_export.hpp), written into a folder.

#include <string>

#include <stint/accounts.hpp>
#include <stint/paths.hpp>

namespace stint::cli {

struct ExportArgs {
  std::string output = "slurm-export";  ///< -o: the folder (made if missing)
  std::string nodes;                    ///< --nodes: the new machines, a hostlist
  std::string controller;               ///< --controller: SlurmctldHost
  std::string conf_dir = "/etc/slurm";  ///< --conf-dir: where the files go on the cluster
  bool force = false;                   ///< -f: replace files already in the folder
};

/// The accounts of the state directory's database; without one yet, those
/// every cluster starts with (the root account and user, QOS normal).
Accounting read_accounting(const Paths& paths);

/// Writes the files from the configuration stintd runs with (stint.yaml when
/// it has not run) and the accounts, and says what it wrote and what comes
/// next. Returns the exit status.
int stint_export_slurm(const Paths& paths, const ExportArgs& args);

}  // namespace stint::cli
