// sacctmgr dump: the association tree in the format sacctmgr load reads, as
// Slurm's sacctmgr writes it (cluster_functions.c, sacctmgr_dump_cluster).

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/query.hpp>

#include "cli/sacctmgr.hpp"
#include "cli/stint_export.hpp"
#include "daemon/slurm_export.hpp"
#include "util/text.hpp"

namespace stint::cli {
namespace {

// At least `min` letters of `full`, any case: sacctmgr's abbreviations.
bool abbreviates(std::string_view word, std::string_view full, std::size_t min) {
  return word.size() >= min && word.size() <= full.size() &&
         text::iequals(word, full.substr(0, word.size()));
}

}  // namespace

std::optional<int> sacctmgr_dump(const std::vector<std::string>& words, const Paths& paths) {
  if (words.empty() || !abbreviates(words[0], "dump", 3)) return std::nullopt;
  std::string cluster;
  std::string file;
  int rc = 0;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    const std::size_t eq = w.find('=');
    const std::string key = eq == std::string::npos ? std::string() : w.substr(0, eq);
    const std::string value = eq == std::string::npos ? w : w.substr(eq + 1);
    if (eq == std::string::npos || abbreviates(key, "Cluster", 1) || abbreviates(key, "Name", 1)) {
      if (!cluster.empty()) {
        fmt::print(stderr, " Can only do one cluster at a time.  Already doing {}\n", cluster);
        rc = 1;
        continue;
      }
      cluster = value;
    } else if (abbreviates(key, "File", 1)) {
      if (!file.empty()) {
        fmt::print(stderr, " File name already set to {}\n", file);
        rc = 1;
        continue;
      }
      file = value;
    } else {
      fmt::print(stderr, " Unknown option: {}\n", w);
      rc = 1;
    }
  }
  if (cluster.empty()) {
    fmt::print(stderr, " We need a cluster to dump.\n");
    return 1;
  }
  const Config config = query::read_config(paths);
  if (cluster != config.cluster_name) {
    fmt::print(stderr, " Cluster {} doesn't exist.\n", cluster);
    return 1;
  }
  if (file.empty()) {
    file = fmt::format("./{}.cfg", cluster);
    fmt::print(" No filename given, using {}.\n", file);
  }
  const std::string text = daemon::sacctmgr_dump_text(read_accounting(paths), cluster);
  // Written in place, as sacctmgr's fopen(file, "w") writes it.
  std::FILE* out = std::fopen(file.c_str(), "w");
  if (out == nullptr) {
    fmt::print(stderr, "Can't open file {}, {}\n", file, std::strerror(errno));
    return 1;
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (std::fclose(out) != 0 || !written) {
    fmt::print(stderr, " Can't write to file {}: {}\n", file, std::strerror(errno));
    return 1;
  }
  return rc;
}

}  // namespace stint::cli
