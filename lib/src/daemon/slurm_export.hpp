#pragma once
// stint export slurm: the files a real Slurm 22.05 cluster needs to take over
// from this one. slurm.conf (the keys configured here, the node pools as
// NodeName lines under the new machines' names, the partitions), gres.conf,
// cgroup.conf (the limits stint enforces), the prolog and epilog beside them,
// accounts.cfg in the format `sacctmgr load` reads (the association tree with
// its shares and limits) and accounts.sh, which makes the QOS `sacctmgr load`
// cannot and then loads accounts.cfg. What Slurm has no place for (stint's
// own keys, the run tools' settings) ends slurm.conf as comments that say
// what to do about each: nothing is dropped silently.

#include <string>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/config.hpp>

namespace stint::daemon {

struct SlurmExportOptions {
  /// The new machines' names, one per declared node in the order of
  /// Config::nodes(); empty: the declared names.
  std::vector<std::string> hosts;
  /// SlurmctldHost; empty: the first node's name.
  std::string controller;
  /// Where the files will be on the cluster (Prolog= and Epilog= name them
  /// there).
  std::string conf_dir = "/etc/slurm";
};

struct ExportedFile {
  std::string name;  ///< a file name, no directory
  std::string text;
  unsigned mode = 0644;
};

/// Every file, in the order an admin reads them. Throws Errc::invalid_argument
/// when `hosts` does not name exactly one machine per declared node, and
/// Errc::io when a prolog or epilog script cannot be read.
std::vector<ExportedFile> export_slurm(const Config& config, const Accounting& accounting,
                                       const SlurmExportOptions& options);

/// The association tree in the format of `sacctmgr dump` (which `sacctmgr
/// load` reads): a Cluster line, then under each Parent line its users and
/// sub-accounts, with their shares, QOS and limits.
std::string sacctmgr_dump_text(const Accounting& accounting, const std::string& cluster);

}  // namespace stint::daemon
