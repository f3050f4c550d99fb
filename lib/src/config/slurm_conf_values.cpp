// Values in slurm.conf as Slurm 22.05 reads them (src/common/parse_value.c,
// read_config.c's _parse_nodename), for slurm_conf_import.cpp.

#include "config/slurm_conf_values.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

namespace stint::slurm_conf::detail {

using config_detail::iequals;

[[noreturn]] void fail(const Origin& at, std::string_view problem) {
  throw Error(Errc::config_invalid, fmt::format("{}: {}", at.text(), problem));
}

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// A whole number as Slurm's s_p_handle_uint* takes it (decimal here).
std::uint64_t number(const Origin& at, std::string_view key, const std::string& value,
                     std::uint64_t max) {
  const bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (!digits) fail(at, fmt::format("{} value \"{}\" is not a valid number", key, value));
  std::uint64_t n = 0;
  for (char c : value) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (max - digit) / 10) fail(at, fmt::format("{} value ({}) is out of range", key, value));
    n = n * 10 + digit;
  }
  return n;
}

bool boolean(const Origin& at, std::string_view key, const std::string& value) {
  for (std::string_view yes : {"yes", "up", "true", "1"}) {
    if (iequals(value, yes)) return true;
  }
  for (std::string_view no : {"no", "down", "false", "0"}) {
    if (iequals(value, no)) return false;
  }
  fail(at, fmt::format("\"{}\" is not a valid option for \"{}\"", value, key));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find(sep, start), s.size());
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Commas outside brackets: "n[1-3,5],gpu1" is two items.
std::vector<std::string> split_hostlists(std::string_view s) {
  std::vector<std::string> out;
  std::string item;
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if ((c == ',' || c == ' ') && depth == 0) {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
      continue;
    }
    item += c;
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

std::vector<std::string> hostlist(const Origin& at, std::string_view what,
                                  const std::string& text) {
  try {
    return parse::expand_hostlist(text);
  } catch (const Error& e) {
    fail(at, fmt::format("{}={}: {}", what, text, e.what()));
  }
}

// "Key=Value Key=Value" of the pairs of `r` that `used` does not name.
std::string unused_pairs(const Record& r, std::initializer_list<std::string_view> used) {
  std::vector<std::string> out;
  for (const Pair& p : r.pairs) {
    if (std::none_of(used.begin(), used.end(),
                     [&](std::string_view u) { return iequals(u, p.key); }))
      out.push_back(fmt::format("{}={}", p.key, p.value));
  }
  return fmt::format("{}", fmt::join(out, " "));
}

std::uint32_t gres_count(const Origin& at, const std::string& text) {
  std::string digits = text;
  std::uint64_t scale = 1;
  if (!digits.empty()) {
    const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
    const std::uint64_t factor = suffix == 'K'   ? 1024
                                 : suffix == 'M' ? 1024 * 1024
                                 : suffix == 'G' ? 1024 * 1024 * 1024
                                                 : 1;
    if (factor != 1) {
      digits.pop_back();
      scale = factor;
    }
  }
  const std::uint64_t n = number(at, "Gres count", digits, 1ULL << 40) * scale;
  if (n > 1024) fail(at, fmt::format("a GPU count of {} is more than stint holds (1024)", n));
  return static_cast<std::uint32_t>(n);
}

// slurm.conf's Gres=: "gpu:a100:4,gpu:v100:2(S:0),mps:100". Its GPUs; the
// rest goes to `others`.
std::vector<GpuCount> node_gpus(const Origin& at, const std::string& gres,
                                std::vector<std::string>& others) {
  std::vector<GpuCount> out;
  for (std::string item : split_hostlists(gres)) {
    const std::string written = item;
    if (auto paren = item.find('('); paren != std::string::npos) item.resize(paren);
    std::vector<std::string> parts = split(item, ':');
    if (parts.empty() || parts.size() > 3)
      fail(at, fmt::format("Gres={}: \"{}\" is not name[:type][:count]", gres, written));
    if (parts[0] != "gpu") {
      others.push_back(written);
      continue;
    }
    GpuCount g;
    g.count = 1;
    if (parts.size() == 3) {
      g.type = parts[1];
      g.count = gres_count(at, parts[2]);
    } else if (parts.size() == 2) {
      if (std::isdigit(static_cast<unsigned char>(parts[1].front())))
        g.count = gres_count(at, parts[1]);
      else
        g.type = parts[1];
    }
    out.push_back(g);
  }
  return out;
}

NodeShape node_shape(const WithDefaults& v, std::vector<std::string>& notes) {
  const Origin& at = v.line.origin;
  auto note = [&](const Origin& where, std::string_view text) {
    notes.push_back(fmt::format("{}: {}", where.text(), text));
  };
  auto at_least_one = [&](std::string_view key, std::uint64_t n) -> std::uint64_t {
    if (n != 0) return n;
    note(at, fmt::format("NodeName={} {}=0 is invalid: 1 instead (as in Slurm)", v.line.name, key));
    return 1;
  };
  const std::uint64_t boards = at_least_one("Boards", v.num("Boards", 65535).value_or(1));
  const std::uint64_t cores =
      at_least_one("CoresPerSocket", v.num("CoresPerSocket", 65535).value_or(1));
  const std::uint64_t threads =
      at_least_one("ThreadsPerCore", v.num("ThreadsPerCore", 65535).value_or(1));
  std::optional<std::uint64_t> cpus = v.num("CPUs", 65535);
  if (!cpus) cpus = v.num("Procs", 65535);
  if (cpus && *cpus == 0) cpus = at_least_one("CPUs", 0);
  std::optional<std::uint64_t> sockets = v.num("Sockets", 65535);
  if (sockets && *sockets == 0) sockets = at_least_one("Sockets", 0);
  std::optional<std::uint64_t> per_board = v.num("SocketsPerBoard", 65535);
  if (per_board && *per_board == 0) per_board = at_least_one("SocketsPerBoard", 0);
  if (sockets && per_board) {
    note(at, fmt::format("NodeName={}: Sockets= and SocketsPerBoard= together: SocketsPerBoard "
                         "counts (as in Slurm)",
                         v.line.name));
    sockets.reset();
  }
  if (!sockets) {
    if (per_board)
      sockets = boards * *per_board;
    else if (cpus && *cpus / (cores * threads) > 0 && *cpus % (cores * threads) == 0)
      sockets = *cpus / (cores * threads);
    else
      sockets = boards;
  }
  const std::uint64_t all_threads = *sockets * cores * threads;
  if (!cpus) cpus = all_threads;
  if (*cpus != *sockets && *cpus != *sockets * cores && *cpus != all_threads) {
    note(at, fmt::format("NodeName={} CPUs={} match no Sockets, Sockets*CoresPerSocket or "
                         "Sockets*CoresPerSocket*ThreadsPerCore: {} (as in Slurm)",
                         v.line.name, *cpus, all_threads));
    cpus = all_threads;
  }
  if (*cpus > 65536)
    fail(at,
         fmt::format("NodeName={}: {} CPUs is more than stint holds (65536)", v.line.name, *cpus));
  NodeShape s;
  s.cpus = static_cast<std::uint32_t>(*cpus);
  // The layout is kept where the CPUs are every thread (the common case);
  // CPUs=Sockets or Sockets*CoresPerSocket leaves one socket of cores.
  if (*cpus == all_threads && *sockets <= 64 && threads <= 16) {
    s.sockets = static_cast<std::uint32_t>(*sockets);
    s.threads_per_core = static_cast<std::uint32_t>(threads);
  }
  // Without RealMemory Slurm counts 1 MB, which it enforces only with cgroup
  // limits; stepd would hold each job to it, so the caller fills it in.
  s.memory_mb = v.num("RealMemory", std::numeric_limits<std::uint64_t>::max());
  if (s.memory_mb && *s.memory_mb == 0) s.memory_mb = 1;
  s.tmp_disk_mb = v.num("TmpDisk", 0xffffffffULL).value_or(0);
  if (const std::string* f = v.get("Features"); f || (f = v.get("Feature")))
    s.features = split(*f, ',');
  if (const std::string* g = v.get("Gres")) {
    std::vector<std::string> others;
    s.gpus = node_gpus(at, *g, others);
    if (!others.empty())
      note(at, fmt::format("NodeName={} Gres={}: not used here (GPUs only)", v.line.name,
                           fmt::join(others, ",")));
  }
  return s;
}

}  // namespace stint::slurm_conf::detail
