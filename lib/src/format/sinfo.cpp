// sinfo: its columns (-o letters), how nodes fold into lines, and its modes.

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "format/internal.hpp"

namespace stint::format {

using query::NodeInfo;
using query::NodeState;
using query::PartitionInfo;

std::string_view node_state_short(NodeState s) {
  switch (s) {
    case NodeState::idle:
      return "idle";
    case NodeState::mixed:
      return "mix";
    case NodeState::allocated:
      return "alloc";
    case NodeState::completing:
      return "comp";
    case NodeState::down:
      return "down";
    case NodeState::drained:
      return "drain";
    case NodeState::draining:
      return "drng";
  }
  return "unk";
}

std::string_view node_state_long(NodeState s) {
  switch (s) {
    case NodeState::idle:
      return "idle";
    case NodeState::mixed:
      return "mixed";
    case NodeState::allocated:
      return "allocated";
    case NodeState::completing:
      return "completing";
    case NodeState::down:
      return "down";
    case NodeState::drained:
      return "drained";
    case NodeState::draining:
      return "draining";
  }
  return "unknown";
}

std::string_view node_state_upper(NodeState s) {
  switch (s) {
    case NodeState::idle:
      return "IDLE";
    case NodeState::mixed:
      return "MIXED";
    case NodeState::allocated:
      return "ALLOCATED";
    case NodeState::completing:
      return "COMPLETING";
    case NodeState::down:
      return "DOWN";
    case NodeState::drained:
      return "IDLE+DRAIN";
    case NodeState::draining:
      return "MIXED+DRAIN";
  }
  return "UNKNOWN";
}

std::string node_state_short(const NodeInfo& n) {
  // node_state_string_compact: an idle node in a maintenance reservation is
  // "maint", in another reservation "resv"; a busy or unavailable one in a
  // maintenance reservation has '$' after its state.
  if (n.state == NodeState::idle) {
    if (n.maint) return "maint";
    if (n.reserved) return "resv";
  }
  std::string s(node_state_short(n.state));
  return n.maint ? s + "$" : s;
}

std::string node_state_long(const NodeInfo& n) {
  if (n.state == NodeState::idle) {
    if (n.maint) return "maint";
    if (n.reserved) return "reserved";
  }
  std::string s(node_state_long(n.state));
  return n.maint ? s + "$" : s;
}

std::string node_state_scontrol(const NodeInfo& n) {
  // node_state_string_complete: the base state, then its flags in Slurm's
  // order (DRAIN, MAINTENANCE, RESERVED).
  std::string s(node_state_upper(n.admin == NodeAdminState::down_drain ? NodeState::down
                                 : n.admin == NodeAdminState::drain    ? n.alloc_state
                                                                       : n.state));
  if (is_drain(n.admin)) s += "+DRAIN";
  if (n.maint) s += "+MAINTENANCE";
  if (n.reserved) s += "+RESERVED";
  return s;
}

std::string sinfo_reservations(const std::vector<Reservation>& reservations, bool no_header,
                               const Context& ctx) {
  if (reservations.empty()) return "No reservations in the system\n";
  // print_sinfo_reservation: the name column is as wide as the widest name
  // (at least 9), worked out only when the header is printed.
  std::size_t width = 9;
  std::string out;
  if (!no_header) {
    for (const Reservation& r : reservations) width = std::max(width, r.name.size());
    out += fmt::format("{:<{}}  {:>8}  {:>19}  {:>19}  {:>11}  {}\n", "RESV_NAME", width, "STATE",
                       "START_TIME", "END_TIME", "DURATION", "NODELIST");
  }
  for (const Reservation& r : reservations) {
    out += fmt::format("{:<{}}  {:>8}  {:>19}  {:>19}  {:>11}  {}\n", r.name, width,
                       reservation_active(r, ctx.now) ? "ACTIVE" : "INACTIVE",
                       parse::format_timestamp(r.start_time), parse::format_timestamp(r.end_time),
                       parse::format_duration_fixed(r.end_time - r.start_time),
                       parse::compress_hostlist(r.nodes));
  }
  return out;
}

namespace {

/// One line of sinfo: a partition and the nodes folded into the line.
struct Row {
  const PartitionInfo* part = nullptr;
  std::vector<const NodeInfo*> nodes;
};

struct NodeColumn {
  char letter;
  std::string_view header;
  bool cut;
  std::string (*value)(const Row&, const Context&);
};

bool is_other(NodeState s) {
  return s == NodeState::down || s == NodeState::drained || s == NodeState::draining;
}

bool is_alloc(NodeState s) {
  return s == NodeState::mixed || s == NodeState::allocated || s == NodeState::completing;
}

/// The smallest value of the row's nodes, with "+" when they differ.
template <typename F>
std::string min_plus(const Row& r, F&& value) {
  if (r.nodes.empty()) return "0";
  auto lo = value(*r.nodes.front());
  auto hi = lo;
  for (const NodeInfo* n : r.nodes) {
    lo = std::min(lo, value(*n));
    hi = std::max(hi, value(*n));
  }
  return fmt::format("{}{}", lo, lo == hi ? "" : "+");
}

std::string sockets(const Row& r, const Context&) {
  return min_plus(r, [](const NodeInfo& n) { return n.sockets; });
}
std::string cores(const Row& r, const Context&) {
  return min_plus(r, [](const NodeInfo& n) { return detail::cores_per_socket(n); });
}
std::string threads(const Row& r, const Context&) {
  return min_plus(r, [](const NodeInfo& n) { return n.threads_per_core; });
}

/// The features of the row's nodes: its first node's (a row is nodes of one
/// state; pools that declare different features are rarely in one partition).
std::string features(const Row& r) {
  if (r.nodes.empty() || r.nodes.front()->features.empty()) return "(null)";
  return fmt::format("{}", fmt::join(r.nodes.front()->features, ","));
}

std::string nodelist(const Row& r, const Context&) {
  if (r.nodes.empty()) return "";
  std::vector<std::string> names;
  for (const NodeInfo* n : r.nodes) names.push_back(n->name);
  return parse::compress_hostlist(names);
}

std::string node_addrs(const Row& r, const Context&) {
  if (r.nodes.empty()) return "";
  std::vector<std::string> addrs;
  for (const NodeInfo* n : r.nodes) addrs.push_back(n->addr.empty() ? n->name : n->addr);
  return parse::compress_hostlist(addrs);
}

std::string state_of(const Row& r, bool long_form) {
  if (r.nodes.empty()) return "n/a";
  const NodeInfo& n = *r.nodes.front();
  return long_form ? node_state_long(n) : node_state_short(n);
}

// node_state_string_complete in lower case: the base state and every flag.
std::string state_complete(const Row& r, const Context&) {
  if (r.nodes.empty()) return "n/a";
  std::string s = node_state_scontrol(*r.nodes.front());
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Whether two nodes print the same state (they share a line).
bool same_state(const NodeInfo& a, const NodeInfo& b) {
  return a.state == b.state && a.maint == b.maint && a.reserved == b.reserved;
}

std::string avail(const Row& r, const Context&) {
  switch (r.part->state) {
    case PartitionState::up:
      return "up";
    case PartitionState::down:
      return "down";
    case PartitionState::drain:
      return "drain";
    case PartitionState::inactive:
      return "inact";
  }
  return "unk";
}

std::string time_text(Seconds s, std::string_view none) {
  if (s == k_infinite) return std::string(none);
  return parse::format_duration(s);
}

std::string cpus_aiot(const Row& r, const Context&) {
  std::uint32_t a = 0, i = 0, o = 0, t = 0;
  for (const NodeInfo* n : r.nodes) {
    t += n->cpus;
    if (is_other(n->state)) {
      o += n->cpus;
    } else {
      a += n->cpus_alloc;
      i += n->cpus - n->cpus_alloc;
    }
  }
  return fmt::format("{}/{}/{}/{}", a, i, o, t);
}

std::string nodes_aiot(const Row& r, bool with_other) {
  std::uint32_t a = 0, i = 0, o = 0;
  for (const NodeInfo* n : r.nodes) {
    if (is_other(n->state))
      ++o;
    else if (is_alloc(n->state))
      ++a;
    else
      ++i;
  }
  if (!with_other) return fmt::format("{}/{}", a, i);
  return fmt::format("{}/{}/{}/{}", a, i, o, r.nodes.size());
}

std::string gres(const Row& r, const Context&) {
  if (r.nodes.empty() || r.nodes.front()->gpus == 0) return "(null)";
  const NodeInfo& n = *r.nodes.front();
  if (n.gpu_type.empty()) return fmt::format("gpu:{}", n.gpus);
  return fmt::format("gpu:{}:{}", n.gpu_type, n.gpus);
}

// Slurm's GresUsed: "gpu:a100:1(IDX:0)", "gpu:0(IDX:N/A)" with none in use.
std::string gres_used(const Row& r, const Context&) {
  if (r.nodes.empty() || r.nodes.front()->gpus == 0) return "(null)";
  const NodeInfo& n = *r.nodes.front();
  const std::string name = n.gpu_type.empty() ? "gpu" : "gpu:" + n.gpu_type;
  if (n.gpu_ids_alloc.empty()) return name + ":0(IDX:N/A)";
  return fmt::format("{}:{}(IDX:{})", name, n.gpu_ids_alloc.size(),
                     parse::format_task_ids(n.gpu_ids_alloc));
}

bool with_reason(const Row& r) {
  return !r.nodes.empty() && r.nodes.front()->admin != NodeAdminState::up;
}

std::string reason(const Row& r, const Context&) {
  return with_reason(r) ? r.nodes.front()->reason : std::string("none");
}

std::string reason_user(const Row& r, bool with_uid) {
  if (!with_reason(r)) return "Unknown";
  const NodeInfo& n = *r.nodes.front();
  return with_uid ? fmt::format("{}({})", n.reason_user, n.reason_uid) : n.reason_user;
}

// clang-format off
const std::array k_columns = {
  NodeColumn{'P', "PARTITION", true, [](const Row& r, const Context&) { return r.part->name + (r.part->is_default ? "*" : ""); }},
  NodeColumn{'R', "PARTITION", true, [](const Row& r, const Context&) { return r.part->name; }},
  NodeColumn{'a', "AVAIL", true, avail},
  NodeColumn{'l', "TIMELIMIT", true, [](const Row& r, const Context&) { return time_text(r.part->max_time, "infinite"); }},
  NodeColumn{'L', "DEFAULTTIME", true, [](const Row& r, const Context&) { return r.part->default_time ? time_text(*r.part->default_time, "infinite") : std::string("n/a"); }},
  NodeColumn{'s', "JOB_SIZE", true, [](const Row&, const Context&) { return std::string("1-infinite"); }},
  NodeColumn{'r', "ROOT", true, [](const Row&, const Context&) { return std::string("no"); }},
  NodeColumn{'h', "OVERSUBSCRIBE", true, [](const Row& r, const Context&) { return r.part->over_subscribe; }},
  NodeColumn{'g', "GROUPS", true, [](const Row&, const Context&) { return std::string("all"); }},
  NodeColumn{'p', "PRIO_TIER", true, [](const Row& r, const Context&) { return std::to_string(r.part->priority_tier); }},
  NodeColumn{'D', "NODES", true, [](const Row& r, const Context&) { return std::to_string(r.nodes.size()); }},
  NodeColumn{'t', "STATE", true, [](const Row& r, const Context&) { return state_of(r, false); }},
  NodeColumn{'T', "STATE", true, [](const Row& r, const Context&) { return state_of(r, true); }},
  NodeColumn{'N', "NODELIST", false, nodelist},
  NodeColumn{'n', "HOSTNAMES", false, nodelist},
  NodeColumn{'o', "NODE_ADDR", false, node_addrs},
  NodeColumn{'C', "CPUS(A/I/O/T)", true, cpus_aiot},
  NodeColumn{'A', "NODES(A/I)", true, [](const Row& r, const Context&) { return nodes_aiot(r, false); }},
  NodeColumn{'F', "NODES(A/I/O/T)", true, [](const Row& r, const Context&) { return nodes_aiot(r, true); }},
  NodeColumn{'c', "CPUS", true, [](const Row& r, const Context&) { return min_plus(r, [](const NodeInfo& n) { return n.cpus; }); }},
  NodeColumn{'m', "MEMORY", true, [](const Row& r, const Context&) { return min_plus(r, [](const NodeInfo& n) { return n.memory_mb; }); }},
  NodeColumn{'e', "FREE_MEM", true, [](const Row& r, const Context&) { return min_plus(r, [](const NodeInfo& n) { return n.memory_mb - std::min(n.memory_mb, n.memory_alloc_mb); }); }},
  NodeColumn{'z', "S:C:T", true, [](const Row& r, const Context& c) { return sockets(r, c) + ":" + cores(r, c) + ":" + threads(r, c); }},
  NodeColumn{'X', "SOCKETS", true, sockets},
  NodeColumn{'Y', "CORES", true, cores},
  NodeColumn{'Z', "THREADS", true, threads},
  NodeColumn{'d', "TMP_DISK", true, [](const Row& r, const Context&) { return min_plus(r, [](const NodeInfo& n) { return n.tmp_disk_mb; }); }},
  NodeColumn{'w', "WEIGHT", true, [](const Row&, const Context&) { return std::string("1"); }},
  NodeColumn{'f', "AVAIL_FEATURES", true, [](const Row& r, const Context&) { return features(r); }},
  NodeColumn{'b', "ACTIVE_FEATURES", true, [](const Row& r, const Context&) { return features(r); }},
  NodeColumn{'E', "REASON", false, reason},
  NodeColumn{'G', "GRES", true, gres},
  NodeColumn{'O', "CPU_LOAD", true, [](const Row&, const Context& ctx) { return detail::cpu_load_text(ctx); }},
  NodeColumn{'u', "USER", true, [](const Row& r, const Context&) { return reason_user(r, false); }},
  NodeColumn{'U', "USER", true, [](const Row& r, const Context&) { return reason_user(r, true); }},
  NodeColumn{'H', "TIMESTAMP", true, [](const Row& r, const Context&) { return with_reason(r) ? detail::timestamp_or(r.nodes.front()->reason_time, "Unknown") : std::string("Unknown"); }},
  NodeColumn{'V', "CLUSTER", true, [](const Row&, const Context& c) { return c.cluster_name; }},
  // -O's fields that have no -o letter (cli/sinfo.cpp maps them to these).
  NodeColumn{'~', "ALLOCMEM", true, [](const Row& r, const Context&) { return min_plus(r, [](const NodeInfo& n) { return n.memory_alloc_mb; }); }},
  NodeColumn{'!', "ALLOCNODES", true, [](const Row&, const Context&) { return std::string("all"); }},
  NodeColumn{'$', "COMMENT", true, [](const Row&, const Context&) { return std::string("(null)"); }},
  NodeColumn{'&', "EXTRA", true, [](const Row&, const Context&) { return std::string("(null)"); }},
  NodeColumn{'+', "GRES_USED", true, gres_used},
  NodeColumn{'^', "MAX_CPUS_PER_NODE", true, [](const Row&, const Context&) { return std::string("UNLIMITED"); }},
  NodeColumn{'=', "PRIO_JOB_FACTOR", true, [](const Row& r, const Context&) { return std::to_string(r.part->priority_job_factor.value_or(r.part->priority_tier)); }},
  NodeColumn{'@', "VERSION", true, [](const Row&, const Context&) { return std::string(stint::slurm_release()); }},
  NodeColumn{'*', "PREEMPT_MODE", true, [](const Row&, const Context& c) { return c.preempt_mode; }},
  NodeColumn{'#', "STATECOMPLETE", true, state_complete},
};
// clang-format on

std::optional<std::size_t> column_by_letter(char c) {
  for (std::size_t i = 0; i < k_columns.size(); ++i) {
    if (k_columns[i].letter == c) return i;
  }
  return std::nullopt;
}

/// Slurm's sinfo order for the lines of one partition: its sort "-t" on the
/// numeric state, so flagged states (drain, completing) first, then mixed,
/// allocated, idle, down.
int state_rank(NodeState s) {
  switch (s) {
    case NodeState::drained:
    case NodeState::draining:
    case NodeState::completing:
      return 0;
    case NodeState::mixed:
      return 1;
    case NodeState::allocated:
      return 2;
    case NodeState::idle:
      return 3;
    case NodeState::down:
      return 4;
  }
  return 5;
}

/// What nodes of a partition must share to share a line: sinfo's match
/// flags, set by the fields the format prints (a field that would print
/// differently for them splits them; sizes split only with -e).
struct Matching {
  bool state = false;      ///< %t, %T, StateComplete
  bool features = false;   ///< %f, %b
  bool gres = false;       ///< %G
  bool gres_used = false;  ///< GresUsed
  bool reason = false;     ///< %E, %u, %U, %H
};

bool matches(const NodeInfo& a, const NodeInfo& b, const Matching& m) {
  if (m.state && !same_state(a, b)) return false;
  if (m.features && a.features != b.features) return false;
  if (m.gres && (a.gpus != b.gpus || a.gpu_type != b.gpu_type)) return false;
  if (m.gres_used && a.gpu_ids_alloc != b.gpu_ids_alloc) return false;
  if (m.reason &&
      (a.reason != b.reason || a.reason_user != b.reason_user || a.reason_time != b.reason_time))
    return false;
  return true;
}

Matching matching_of(const Layout& layout) {
  Matching m;
  for (const Field& f : layout.fields) {
    switch (k_columns[f.column].letter) {
      case 't':
      case 'T':
      case '#':
        m.state = true;
        break;
      case 'f':
      case 'b':
        m.features = true;
        break;
      case 'G':
        m.gres = true;
        break;
      case '+':
        m.gres_used = true;
        break;
      case 'E':
      case 'u':
      case 'U':
      case 'H':
        m.reason = true;
        break;
      default:
        break;
    }
  }
  return m;
}

std::vector<Row> build_rows(const std::vector<PartitionInfo>& parts,
                            const std::vector<NodeInfo>& nodes, const SinfoOptions& o,
                            const Matching& matching) {
  std::vector<const PartitionInfo*> shown;
  for (const PartitionInfo& p : parts) {
    if (o.partitions.empty() ||
        std::find(o.partitions.begin(), o.partitions.end(), p.name) != o.partitions.end())
      shown.push_back(&p);
  }
  auto node_named = [&](const std::string& name) -> const NodeInfo* {
    for (const NodeInfo& n : nodes) {
      if (n.name == name) return &n;
    }
    return nullptr;
  };

  std::vector<Row> rows;
  if (o.reasons) {
    // One line per reason (with its user and time), whatever the partition,
    // as Slurm folds them.
    for (const NodeInfo& n : nodes) {
      if (n.admin == NodeAdminState::up) continue;
      const PartitionInfo* part = nullptr;
      for (const PartitionInfo* p : shown) {
        if (std::find(p->nodes.begin(), p->nodes.end(), n.name) != p->nodes.end()) {
          part = p;
          break;
        }
      }
      if (!part) continue;
      auto same = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
        const NodeInfo& m = *r.nodes.front();
        return m.reason == n.reason && m.reason_user == n.reason_user &&
               m.reason_time == n.reason_time;
      });
      if (same != rows.end())
        same->nodes.push_back(&n);
      else
        rows.push_back(Row{part, {&n}});
    }
    return rows;
  }
  if (o.node_oriented) {
    for (const NodeInfo& n : nodes) {
      for (const PartitionInfo* p : shown) {
        if (std::find(p->nodes.begin(), p->nodes.end(), n.name) == p->nodes.end()) continue;
        rows.push_back(Row{p, {&n}});
      }
    }
    return rows;
  }
  for (const PartitionInfo* p : shown) {
    std::vector<const NodeInfo*> members;
    for (const std::string& name : p->nodes) {
      if (const NodeInfo* n = node_named(name)) members.push_back(n);
    }
    if (members.empty() && o.hide_empty) continue;
    if (members.empty() || o.summarize) {
      rows.push_back(Row{p, members});
      continue;
    }
    // -e: nodes of one shape only (a pool's) share a line.
    std::stable_sort(members.begin(), members.end(), [&o](const NodeInfo* a, const NodeInfo* b) {
      if (state_rank(a->state) != state_rank(b->state))
        return state_rank(a->state) < state_rank(b->state);
      return o.exact && a->pool_id < b->pool_id;
    });
    // A node joins the partition's first line it matches, as sinfo's.
    const std::size_t first_of_partition = rows.size();
    for (const NodeInfo* n : members) {
      auto joined = std::find_if(rows.begin() + static_cast<std::ptrdiff_t>(first_of_partition),
                                 rows.end(), [&](const Row& r) {
                                   const NodeInfo& first = *r.nodes.front();
                                   return matches(first, *n, matching) &&
                                          (!o.exact || first.pool_id == n->pool_id);
                                 });
      if (joined != rows.end())
        joined->nodes.push_back(n);
      else
        rows.push_back(Row{p, {n}});
    }
    // Each line's nodes in the cluster's order (the pointers are into `nodes`, which
    // is in that order), as sinfo sorts its host lists.
    for (auto r = rows.begin() + static_cast<std::ptrdiff_t>(first_of_partition); r != rows.end();
         ++r)
      std::sort(r->nodes.begin(), r->nodes.end(),
                [](const NodeInfo* a, const NodeInfo* b) { return a < b; });
  }
  return rows;
}

std::string default_format(const SinfoOptions& o) {
  if (o.reasons) return "%20E %9u %19H %N";
  if (o.summarize) return "%#P %.5a %.10l %.16F %N";
  if (o.node_oriented) {
    return o.long_list ? "%#N %.6D %.#P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E"
                       : "%#N %.6D %.#P %6t";
  }
  return o.long_list ? "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N"
                     : "%#P %.5a %.10l %.6D %.6t %N";
}

// -S: by each key's value in turn, numbers as numbers; a stable sort, so
// rows equal on every key keep Slurm's order.
void sort_rows(std::vector<Row>& rows, std::string_view sort, const Context& ctx) {
  struct Key {
    const NodeColumn* column;
    bool descending;
  };
  std::vector<Key> keys;
  for (std::size_t i = 0; i < sort.size(); ++i) {
    bool descending = false;
    if (sort[i] == '+' || sort[i] == '-') {
      descending = sort[i] == '-';
      if (++i >= sort.size()) break;
    }
    if (sort[i] == ',' || sort[i] == '#') continue;
    const auto it = std::find_if(std::begin(k_columns), std::end(k_columns),
                                 [&](const NodeColumn& c) { return c.letter == sort[i]; });
    if (it == std::end(k_columns)) {
      throw Error(Errc::invalid_argument, fmt::format("Invalid sort specification: {}", sort[i]));
    }
    keys.push_back({&*it, descending});
  }
  if (keys.empty()) return;
  auto number = [](const std::string& s) -> std::optional<double> {
    if (s.empty() || s.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
    return std::strtod(s.c_str(), nullptr);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    for (const Key& k : keys) {
      const std::string va = k.column->value(a, ctx);
      const std::string vb = k.column->value(b, ctx);
      if (va == vb) continue;
      const auto na = number(va);
      const auto nb = number(vb);
      const bool less = na && nb ? *na < *nb : va < vb;
      return k.descending ? !less : less;
    }
    return false;
  });
}

}  // namespace

Layout parse_sinfo_format(std::string_view format) {
  return detail::parse_percent(format, column_by_letter, "node", true);
}

std::string render_sinfo(const std::vector<PartitionInfo>& partitions,
                         const std::vector<NodeInfo>& nodes, const SinfoOptions& options,
                         const Context& ctx) {
  Layout layout = parse_sinfo_format(options.format.empty() ? default_format(options)
                                                            : std::string_view(options.format));
  std::vector<Row> rows = build_rows(partitions, nodes, options, matching_of(layout));
  sort_rows(rows, options.sort, ctx);

  // "%#X": as wide as the widest value, and never narrower than 9, as Slurm
  // sizes its partition and node list columns.
  for (Field& f : layout.fields) {
    if (f.width != -1) continue;
    std::size_t widest = 9;
    for (const Row& r : rows) widest = std::max(widest, k_columns[f.column].value(r, ctx).size());
    f.width = static_cast<int>(widest);
  }

  std::string out;
  if (!options.no_header) {
    if (options.long_list) out += date_line(ctx.now) + "\n";
    out += detail::render_layout(layout, [](const Field& f) {
      return std::pair<std::string, bool>(std::string(k_columns[f.column].header), true);
    });
  }
  for (const Row& r : rows) {
    out += detail::render_layout(layout, [&](const Field& f) {
      const NodeColumn& c = k_columns[f.column];
      return std::pair<std::string, bool>(c.value(r, ctx), c.cut);
    });
  }
  return out;
}

}  // namespace stint::format
