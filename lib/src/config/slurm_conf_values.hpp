#pragma once
// What slurm_conf_import.cpp reads values with: Slurm's number, boolean and
// hostlist rules, a line's settings over its kind's DEFAULT lines, and a
// NodeName= line's shape as read_config.c derives it.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/raw.hpp"
#include "config/slurm_conf.hpp"

namespace stint::slurm_conf::detail {

/// Throws Errc::config_invalid "<file>:<line>: <problem>".
[[noreturn]] void fail(const Origin& at, std::string_view problem);
std::string upper(std::string_view s);
/// A whole number as Slurm's s_p_handle_uint* takes it (decimal here), at most `max`.
std::uint64_t number(const Origin& at, std::string_view key, const std::string& value,
                     std::uint64_t max);
/// YES/UP/TRUE/1 or NO/DOWN/FALSE/0, any case, as s_p_handle_boolean.
bool boolean(const Origin& at, std::string_view key, const std::string& value);
/// The non-empty items of `s` between `sep`s.
std::vector<std::string> split(std::string_view s, char sep);
/// Items split at commas and blanks outside brackets: "n[1-3,5],gpu1" is two.
std::vector<std::string> split_hostlists(std::string_view s);
/// A hostlist's names; a bad one fails as "<what>=<text>: <problem>".
std::vector<std::string> hostlist(const Origin& at, std::string_view what, const std::string& text);
/// "Key=Value Key=Value" of the pairs of `r` that `used` does not name.
std::string unused_pairs(const Record& r, std::initializer_list<std::string_view> used);

/// A line's settings: its own, else its kind's DEFAULT lines' (later ones win).
struct WithDefaults {
  const Record& line;
  const std::vector<Pair>& defaults;
  const std::string* get(std::string_view key) const {
    if (const std::string* v = line.find(key)) return v;
    for (auto it = defaults.rbegin(); it != defaults.rend(); ++it) {
      if (config_detail::iequals(it->key, key)) return &it->value;
    }
    return nullptr;
  }
  std::optional<std::uint64_t> num(std::string_view key, std::uint64_t max) const {
    const std::string* v = get(key);
    if (!v) return std::nullopt;
    return number(line.origin, key, *v, max);
  }
};

/// GPUs of one type ("" none named).
struct GpuCount {
  std::string type;
  std::uint32_t count = 0;
};

/// A GRES count: a number with an optional K, M or G; at most 1024 GPUs.
std::uint32_t gres_count(const Origin& at, const std::string& text);
/// slurm.conf's Gres= ("gpu:a100:4,gpu:2(S:0),mps:100"): its GPUs; the other
/// GRES go to `others` as written.
std::vector<GpuCount> node_gpus(const Origin& at, const std::string& gres,
                                std::vector<std::string>& others);

/// What a NodeName= line declares of its nodes.
struct NodeShape {
  std::uint32_t cpus = 1;
  std::optional<std::uint64_t> memory_mb;  ///< RealMemory; unset when not given
  std::vector<GpuCount> gpus;
  std::vector<std::string> features;
  std::uint64_t tmp_disk_mb = 0;
  std::uint32_t sockets = 1;  ///< when CPUs count every thread of every core
  std::uint32_t threads_per_core = 1;
};

/// A NodeName= line's shape, from its settings and its DEFAULT lines': CPUs as
/// read_config.c derives them (Boards, Sockets, SocketsPerBoard,
/// CoresPerSocket, ThreadsPerCore; a count that matches none reset as Slurm
/// does), RealMemory, Gres, Features, TmpDisk.
/// What it corrects or leaves out goes to `notes` ("<file>:<line>: ...").
NodeShape node_shape(const WithDefaults& v, std::vector<std::string>& notes);

}  // namespace stint::slurm_conf::detail
