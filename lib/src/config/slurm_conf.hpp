#pragma once
// A real cluster's slurm.conf (and gres.conf), read as Slurm 22.05 reads them,
// and turned into a stint configuration (`stint init --from-slurm-conf`).
// Pure: files come through a ReadFile callback, the machine as an argument.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/config.hpp>

namespace stint::slurm_conf {

/// Where something was written: the file (an Include's path as resolved)
/// and the line its logical line starts on.
struct Origin {
  std::string file;
  int line = 0;
  std::string text() const;  ///< "slurm.conf:12"
};

/// One Key=Value; the key in Slurm's spelling whatever case the file used.
struct Pair {
  std::string key;
  std::string value;
};

/// A line that declares something by its first key (NodeName=, PartitionName=,
/// NodeSet=, DownNodes=, FrontendName=, SlurmctldHost= in slurm.conf; Name=
/// and NodeName= in gres.conf), with the rest of its pairs in file order.
struct Record {
  Origin origin;
  std::string kind;  ///< the first key, Slurm's spelling
  std::string name;  ///< its value ("DEFAULT" for defaults)
  std::vector<Pair> pairs;
  /// The value of `key` (case-insensitive); nullptr when the line lacks it.
  const std::string* find(std::string_view key) const;
};

/// A plain Key=Value line.
struct Setting {
  Origin origin;
  std::string key;  ///< Slurm's spelling
  std::string value;
};

/// A file after Include lines were followed, in file order.
struct ConfFile {
  std::vector<Setting> settings;
  std::vector<Record> records;
};

/// Returns the text of the file at a path; throws Error (Errc::io) when it
/// cannot be read.
using ReadFile = std::function<std::string(const std::string& path)>;

/// slurm.conf as Slurm reads it: keys case-insensitive, `#` starts a comment
/// (`\#` is a '#'), a line ending in an odd number of `\` goes on with the
/// next, values may be quoted ("a b"), one plain key a line, NodeName= and
/// PartitionName= lines hold more pairs, `Include FILE` reads FILE (relative
/// to the including file's folder; %c is the ClusterName). A key Slurm 22.05
/// does not know, or a line that is not Key=Value, is an error, as it is for
/// slurmctld. Throws Errc::config_invalid "<file>:<line>: <problem>".
/// Whether `key` is one of Slurm 22.05's plain slurm.conf keys (any case).
bool is_slurm_conf_key(std::string_view key);

ConfFile parse_slurm_conf(std::string_view text, const std::string& path, const ReadFile& read);
/// gres.conf, the same way: AutoDetect=, Name= lines (for every node) and
/// NodeName= lines.
ConfFile parse_gres_conf(std::string_view text, const std::string& path, const ReadFile& read);

/// How the cluster's node shapes become this machine's node pools.
enum class Shapes : std::uint8_t {
  virtual_nodes,  ///< as declared (virtual nodes: stint folds them onto this machine)
  scaled,         ///< CPUs and memory scaled so the largest node fits this machine; GPUs capped
};

/// The cluster as a stint configuration, and what the files say that it does
/// not hold (each a line "<file>:<line>: <what>: <why>"), so nothing is
/// dropped without a word.
struct Imported {
  Config config;
  std::vector<std::string> unused;
};

/// NodeName= lines become node pools (one per line, split where the nodes'
/// partitions or GPUs differ; node names kept), PartitionName= lines
/// partitions, NodeName=DEFAULT and PartitionName=DEFAULT their defaults, the
/// keys stint knows its `config` map. Throws Errc::config_invalid
/// "<file>:<line>: <problem>" for what Slurm would refuse or stint cannot
/// hold (a partition without Nodes=, a node no NodeName= line declares, a bad
/// number).
Imported import_cluster(const ConfFile& slurm, const ConfFile* gres, Shapes shapes,
                        const Machine& machine);

/// The stint.yaml text for it: a header naming `sources`, config_to_yaml, then
/// the unused lines as comments, with whatever the written file cannot hold
/// (read back and compared) among them.
std::string imported_yaml(const Imported& imported, std::string_view sources,
                          const Machine& machine);

}  // namespace stint::slurm_conf
