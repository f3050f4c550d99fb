// A parsed slurm.conf (and gres.conf) to a stint Config: node shapes as
// read_config.c derives them, partitions with their defaults, the keys stint
// knows; everything else said in `unused`, never dropped without a word.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/conf_keys.hpp"
#include "config/raw.hpp"
#include "config/slurm_conf.hpp"
#include "config/slurm_conf_values.hpp"

namespace stint::slurm_conf {
namespace {

using config_detail::iequals;
using namespace detail;

constexpr std::uint32_t k_max_pool_nodes = 4096;  // what stint.yaml holds in one pool

class Importer {
 public:
  Importer(const ConfFile& slurm, const ConfFile* gres) : m_slurm(slurm), m_gres(gres) {}

  Imported run(Shapes shapes, const Machine& machine) {
    settings();
    nodes();
    gres_conf();
    node_sets();
    partitions();
    pools(machine);
    if (shapes == Shapes::scaled) scale(machine);
    return std::move(m_out);
  }

 private:
  struct NodeLine {
    const Record* record = nullptr;
    std::vector<std::string> names;
    NodeShape shape;
  };

  void note(const Origin& at, std::string_view text) {
    m_out.unused.push_back(fmt::format("{}: {}", at.text(), text));
  }

  // Plain keys: ClusterName, the keys stint knows, and a word for the rest.
  void settings() {
    std::map<std::string, const Setting*> last;
    for (const Setting& s : m_slurm.settings) {
      if (auto it = last.find(s.key); it != last.end())
        note(it->second->origin, fmt::format("{}={}: given again at {}, which counts (as in Slurm)",
                                             s.key, it->second->value, s.origin.text()));
      last[s.key] = &s;
    }
    bool cluster_named = false;
    for (const Setting& s : m_slurm.settings) {
      if (last.at(s.key) != &s) continue;
      const std::string pair = fmt::format("{}={}", s.key, s.value);
      if (s.key == "ClusterName") {
        if (config_detail::valid_name(s.value)) {
          m_out.config.cluster_name = s.value;
          cluster_named = true;
        } else {
          note(s.origin,
               fmt::format("{}: not a cluster name stint takes (letters, digits, '_', '-', '.')",
                           pair));
        }
        continue;
      }
      // The cluster's own scripts, by their paths there.
      if (s.key == "Prolog" || s.key == "Epilog") {
        note(s.origin,
             fmt::format("{}: not used here (a script on the cluster; put it under config: "
                         "if this machine has it)",
                         pair));
        continue;
      }
      const config_detail::ConfKey* k = config_detail::find_conf_key(s.key);
      if (!k) {
        note(s.origin, fmt::format("{}: not used here", pair));
        continue;
      }
      if (std::string problem = config_detail::conf_value_problem(*k, s.value); !problem.empty()) {
        note(s.origin, fmt::format("{}: not used here ({})", pair, problem));
        continue;
      }
      m_out.config.slurm_conf[std::string(k->name)] = s.value;
    }
    if (!cluster_named)
      m_out.unused.push_back(
          fmt::format("ClusterName is not set: the cluster is \"{}\"", m_out.config.cluster_name));
  }

  // NodeName= lines: their names and shapes (read_config.c's _parse_nodename).
  void nodes() {
    std::vector<Pair> defaults;
    for (const Record& r : m_slurm.records) {
      if (r.kind == "SlurmctldHost") {
        note(r.origin,
             fmt::format("SlurmctldHost={}: not used here (stintd is this machine's controller)",
                         r.name));
        continue;
      }
      if (r.kind == "DownNodes") {
        note(r.origin,
             fmt::format(
                 "DownNodes={} {}: not used here (scontrol update NodeName=... State=DOWN does it)",
                 r.name, unused_pairs(r, {})));
        continue;
      }
      if (r.kind == "FrontendName") {
        note(r.origin, fmt::format("FrontendName={}: not used here", r.name));
        continue;
      }
      if (r.kind != "NodeName") continue;
      const std::string unused = unused_pairs(
          r, {"Boards", "CoresPerSocket", "CPUs", "Feature", "Features", "Gres", "Procs",
              "RealMemory", "Sockets", "SocketsPerBoard", "ThreadsPerCore", "TmpDisk"});
      if (!unused.empty())
        note(r.origin, fmt::format("NodeName={} {}: not used here", r.name, unused));
      if (iequals(r.name, "DEFAULT")) {
        for (std::string_view forbidden : {"NodeHostname", "BcastAddr", "NodeAddr"}) {
          if (r.find(forbidden))
            fail(r.origin, fmt::format("{} not allowed with NodeName=DEFAULT", forbidden));
        }
        defaults.insert(defaults.end(), r.pairs.begin(), r.pairs.end());
        continue;
      }
      if (iequals(r.name, "ALL"))
        fail(r.origin, "'ALL' is a reserved word disallowed for use with NodeName");
      NodeLine line{&r, hostlist(r.origin, "NodeName", r.name), shape(WithDefaults{r, defaults})};
      for (const std::string& n : line.names) {
        if (!config_detail::valid_name(n))
          fail(r.origin,
               fmt::format(
                   "node name \"{}\" is not one stint takes (letters, digits, '_', '-', '.')", n));
        if (auto [it, fresh] = m_node_line.emplace(n, m_lines.size()); !fresh)
          fail(r.origin, fmt::format("Duplicated NodeName {} (first at {})", n,
                                     m_lines[it->second].record->origin.text()));
      }
      m_lines.push_back(std::move(line));
    }
    if (m_lines.empty()) m_out.unused.push_back("no NodeName= line: a cluster here needs nodes");
  }

  NodeShape shape(const WithDefaults& v) { return node_shape(v, m_out.unused); }

  // gres.conf: GPU types for nodes whose Gres= gives none.
  void gres_conf() {
    if (!m_gres) return;
    for (const Setting& s : m_gres->settings)
      note(s.origin, fmt::format("{}={}: not used here (GPU counts come from slurm.conf's Gres=)",
                                 s.key, s.value));
    for (const Record& r : m_gres->records) {
      const std::string* name = r.kind == "Name" ? &r.name : r.find("Name");
      const std::string unused =
          unused_pairs(r, {"Name", "Type", "Count", "File", "Files", "MultipleFiles"});
      if (!unused.empty())
        note(r.origin, fmt::format("{}={} {}: not used here", r.kind, r.name, unused));
      if (!name) fail(r.origin, fmt::format("NodeName={}: no Name= (which GRES?)", r.name));
      if (*name != "gpu") {
        note(r.origin, fmt::format("Name={}: not used here (GPUs only)", *name));
        continue;
      }
      GpuCount g;
      if (const std::string* t = r.find("Type")) g.type = *t;
      if (const std::string* c = r.find("Count")) {
        g.count = gres_count(r.origin, *c);
      } else if (const std::string* f = r.find("File");
                 f || (f = r.find("Files")) || (f = r.find("MultipleFiles"))) {
        std::size_t files = 0;
        for (const std::string& item : split_hostlists(*f)) {
          try {
            files += parse::expand_hostlist(item).size();
          } catch (const Error&) {
            ++files;
          }
        }
        g.count = static_cast<std::uint32_t>(std::min<std::size_t>(files, 1024));
      } else {
        g.count = 1;
      }
      if (r.kind == "Name") {
        m_gres_all.push_back(g);
      } else {
        for (const std::string& n : hostlist(r.origin, "NodeName", r.name))
          m_gres_node[n].push_back(g);
      }
    }
  }

  void node_sets() {
    for (const Record& r : m_slurm.records) {
      if (r.kind != "NodeSet") continue;
      std::vector<std::string> names;
      if (const std::string* nodes = r.find("Nodes")) {
        names = resolve_nodes(r.origin, *nodes);
      } else if (const std::string* feature = r.find("Feature")) {
        for (const NodeLine& line : m_lines) {
          const auto& f = line.shape.features;
          if (std::find(f.begin(), f.end(), *feature) != f.end())
            names.insert(names.end(), line.names.begin(), line.names.end());
        }
      } else {
        fail(r.origin, fmt::format("NodeSet={}: neither Nodes= nor Feature=", r.name));
      }
      m_node_sets[r.name] = std::move(names);
    }
  }

  std::vector<std::string> resolve_nodes(const Origin& at, const std::string& text) {
    std::vector<std::string> out;
    for (const std::string& item : split_hostlists(text)) {
      if (iequals(item, "ALL")) {
        for (const NodeLine& line : m_lines)
          out.insert(out.end(), line.names.begin(), line.names.end());
        continue;
      }
      if (auto it = m_node_sets.find(item); it != m_node_sets.end()) {
        out.insert(out.end(), it->second.begin(), it->second.end());
        continue;
      }
      for (std::string& n : hostlist(at, "Nodes", item)) {
        if (!m_node_line.count(n))
          fail(at, fmt::format("Nodes={}: no NodeName= line declares node {}", text, n));
        out.push_back(std::move(n));
      }
    }
    return out;
  }

  void partitions() {
    std::vector<Pair> defaults;
    for (const Record& r : m_slurm.records) {
      if (r.kind != "PartitionName") continue;
      const std::string unused = unused_pairs(
          r, {"AllowAccounts", "AllowQos", "Default", "DefaultTime", "DenyAccounts", "DenyQos",
              "GraceTime", "MaxTime", "Nodes", "OverSubscribe", "PreemptMode", "Priority",
              "PriorityJobFactor", "PriorityTier", "Shared", "State"});
      if (!unused.empty())
        note(r.origin, fmt::format("PartitionName={} {}: not used here", r.name, unused));
      if (iequals(r.name, "DEFAULT")) {
        defaults.insert(defaults.end(), r.pairs.begin(), r.pairs.end());
        continue;
      }
      partition(WithDefaults{r, defaults});
    }
    if (m_out.config.partitions.empty())
      throw Error(Errc::config_invalid,
                  "no PartitionName= line: a cluster here needs at least one partition");
    if (m_out.config.default_partition_id.empty())
      m_out.unused.push_back(
          fmt::format("no partition is Default=YES: Slurm would need -p on every job; here the "
                      "first, {}, is the default",
                      m_out.config.partitions.front().id));
  }

  void partition(const WithDefaults& v) {
    const Record& r = v.line;
    const Origin& at = r.origin;
    PartitionConfig p;
    p.id = r.name;
    if (!config_detail::valid_name(p.id))
      fail(at, fmt::format(
                   "partition name \"{}\" is not one stint takes (letters, digits, '_', '-', '.')",
                   p.id));
    if (m_out.config.find_partition(p.id))
      fail(at, fmt::format("PartitionName={} is declared twice", p.id));
    const std::string* nodes = v.get("Nodes");
    if (!nodes)
      fail(at, fmt::format("PartitionName={} has no Nodes= (a partition here needs nodes)", p.id));
    std::vector<std::string> names = resolve_nodes(at, *nodes);
    if (names.empty()) fail(at, fmt::format("PartitionName={} Nodes={}: no nodes", p.id, *nodes));
    const std::size_t index = m_out.config.partitions.size();
    for (const std::string& n : names) m_membership[n].insert(index);
    if (const std::string* d = v.get("Default"); d && boolean(at, "Default", *d)) {
      if (!m_out.config.default_partition_id.empty())
        note(at, fmt::format("PartitionName={} Default=YES: the default instead of {} (the last "
                             "counts, as in Slurm)",
                             p.id, m_out.config.default_partition_id));
      m_out.config.default_partition_id = p.id;
    }
    if (const std::string* t = v.get("MaxTime")) p.max_time = time_value(at, "MaxTime", *t);
    if (const std::string* t = v.get("DefaultTime")) {
      p.default_time = time_value(at, "DefaultTime", *t);
      if (p.max_time != k_infinite &&
          (*p.default_time == k_infinite || *p.default_time > p.max_time))
        fail(at, fmt::format("PartitionName={}: DefaultTime={} is longer than MaxTime", p.id, *t));
    }
    if (auto n = v.num("PriorityTier", 65535)) p.priority_tier = priority(at, "PriorityTier", *n);
    if (auto n = v.num("PriorityJobFactor", 65535))
      p.priority_job_factor = priority(at, "PriorityJobFactor", *n);
    if (auto n = v.num("Priority", 65535)) {
      p.priority_tier = priority(at, "Priority", *n);
      p.priority_job_factor = p.priority_tier;
    }
    if (const std::string* s = v.get("State")) p.state = state(at, *s);
    if (const std::string* m = v.get("PreemptMode")) {
      const std::string mode = upper(*m);
      if (mode == "OFF" || mode == "CANCEL" || mode == "REQUEUE" || mode == "SUSPEND")
        p.preempt_mode = mode;
      else
        note(at,
             fmt::format(
                 "PartitionName={} PreemptMode={}: not used here (OFF, CANCEL, REQUEUE or SUSPEND)",
                 p.id, *m));
    }
    if (auto n = v.num("GraceTime", 0xffffffffULL)) p.grace_time = static_cast<Seconds>(*n);
    const std::string* share = v.get("OverSubscribe");
    if (!share) share = v.get("Shared");
    if (share) p.over_subscribe = over_subscribe(at, p.id, *share);
    // ALL (Slurm's word for no list) is no list here too.
    for (auto [key, into] :
         {std::pair{"AllowAccounts", &p.allow_accounts},
          std::pair{"DenyAccounts", &p.deny_accounts}, std::pair{"AllowQos", &p.allow_qos},
          std::pair{"DenyQos", &p.deny_qos}}) {
      const std::string* listed = v.get(key);
      if (!listed || iequals(*listed, "ALL")) continue;
      std::size_t start = 0;
      while (start <= listed->size()) {
        std::size_t end = listed->find(',', start);
        if (end == std::string::npos) end = listed->size();
        if (end > start) into->push_back(listed->substr(start, end - start));
        start = end + 1;
      }
    }
    m_out.config.partitions.push_back(std::move(p));
  }

  static Seconds time_value(const Origin& at, std::string_view key, const std::string& text) {
    try {
      return parse::time_limit(text);
    } catch (const Error&) {
      fail(at, fmt::format("Bad value \"{}\" for {}", text, key));
    }
  }

  static std::uint32_t priority(const Origin& at, std::string_view key, std::uint64_t n) {
    if (n > 65533) fail(at, fmt::format("{}={}: stint holds at most 65533", key, n));
    return static_cast<std::uint32_t>(n);
  }

  // Slurm matches the state's first letters (strncasecmp).
  static PartitionState state(const Origin& at, const std::string& text) {
    for (const auto& [word, st] :
         {std::pair{"DOWN", PartitionState::down}, std::pair{"UP", PartitionState::up},
          std::pair{"DRAIN", PartitionState::drain},
          std::pair{"INACTIVE", PartitionState::inactive}}) {
      const std::string_view w = word;
      if (text.size() >= w.size() && iequals(std::string_view(text).substr(0, w.size()), w))
        return st;
    }
    fail(at, fmt::format("Bad value \"{}\" for State", text));
  }

  // As scontrol show partition prints it: EXCLUSIVE, YES:N, FORCE:N; NO is "".
  std::string over_subscribe(const Origin& at, const std::string& id, const std::string& text) {
    const std::string u = upper(text);
    auto count = [&](std::size_t from, std::uint64_t least) -> std::optional<std::uint64_t> {
      const std::string digits = u.substr(from);
      std::uint64_t n = 0;
      try {
        n = number(at, "OverSubscribe", digits, 65535);
      } catch (const Error&) {
        n = 0;
      }
      if (n < least) {
        note(at, fmt::format("PartitionName={} OverSubscribe={}: ignored, NO instead (as in Slurm)",
                             id, text));
        return std::nullopt;
      }
      return n;
    };
    if (u == "NO") return {};
    if (u == "EXCLUSIVE") return "EXCLUSIVE";
    if (u == "YES") return "YES:4";
    if (u == "FORCE") return "FORCE:4";
    if (u.rfind("YES:", 0) == 0) {
      auto n = count(4, 2);
      return n ? fmt::format("YES:{}", *n) : std::string();
    }
    if (u.rfind("FORCE:", 0) == 0) {
      auto n = count(6, 1);
      return n ? fmt::format("FORCE:{}", *n) : std::string();
    }
    fail(at, fmt::format("Bad value \"{}\" for OverSubscribe", text));
  }

  // A node's GPUs: slurm.conf's Gres=, typed by gres.conf where it says none.
  GpuCount gpus_of(const NodeLine& line, const std::string& node) {
    GpuCount out;
    std::set<std::string> types;
    bool untyped = false;
    for (const GpuCount& g : line.shape.gpus) {
      out.count += g.count;
      if (g.type.empty())
        untyped = true;
      else
        types.insert(g.type);
    }
    if (out.count == 0) return out;
    if (types.empty() && untyped) {
      auto it = m_gres_node.find(node);
      for (const GpuCount& g : it != m_gres_node.end() ? it->second : m_gres_all) {
        if (!g.type.empty()) types.insert(g.type);
      }
    }
    if (types.size() == 1) {
      out.type = *types.begin();
    } else if (types.size() > 1 && m_mixed_noted.insert(line.record).second) {
      note(line.record->origin, fmt::format("NodeName={}: GPUs of types {}: one node pool holds "
                                            "one type here, so these nodes' GPUs have none",
                                            line.record->name, fmt::join(types, ",")));
    }
    return out;
  }

  // One pool per NodeName= line, split where its nodes' partitions or GPUs differ.
  void pools(const Machine& machine) {
    std::set<std::string> ids;
    for (const NodeLine& line : m_lines) {
      // Slurm's 1 MB would be every job's memory limit here: a job's RSS is held
      // to its share, which Slurm without cgroup limits does not do.
      if (!line.shape.memory_mb)
        note(line.record->origin,
             fmt::format("NodeName={}: no RealMemory (Slurm counts 1 MB): this machine's "
                         "memory, {} MiB, instead",
                         line.record->name, machine.memory_mb));
      struct Group {
        std::set<std::size_t> partitions;
        GpuCount gpus;
        std::vector<std::string> names;
      };
      std::vector<Group> groups;
      for (const std::string& n : line.names) {
        const std::set<std::size_t>& member = m_membership[n];
        const GpuCount g = gpus_of(line, n);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& gr) {
          return gr.partitions == member && gr.gpus.count == g.count && gr.gpus.type == g.type;
        });
        if (it == groups.end()) it = groups.insert(groups.end(), Group{member, g, {}});
        it->names.push_back(n);
      }
      for (const Group& gr : groups) {
        for (std::size_t start = 0; start < gr.names.size(); start += k_max_pool_nodes) {
          NodePool pool;
          pool.id = pool_id(gr.names[start], ids);
          const std::size_t end = std::min<std::size_t>(gr.names.size(), start + k_max_pool_nodes);
          pool.node_names.assign(gr.names.begin() + static_cast<long>(start),
                                 gr.names.begin() + static_cast<long>(end));
          pool.count = static_cast<std::uint32_t>(pool.node_names.size());
          pool.cpus = line.shape.cpus;
          pool.memory_mb = line.shape.memory_mb.value_or(machine.memory_mb);
          pool.gpus = gr.gpus.count;
          pool.gpu_type = gr.gpus.type;
          pool.features = line.shape.features;
          pool.tmp_disk_mb = line.shape.tmp_disk_mb;
          pool.sockets = line.shape.sockets;
          pool.threads_per_core = line.shape.threads_per_core;
          for (std::size_t p : gr.partitions)
            m_out.config.partitions[p].node_pool_ids.push_back(pool.id);
          m_pool_line.push_back(line.record);
          m_out.config.node_pools.push_back(std::move(pool));
        }
      }
    }
  }

  // "gpu01" -> "gpu"; a taken id gets "-2", "-3", ...
  static std::string pool_id(const std::string& node, std::set<std::string>& taken) {
    std::string base = node;
    while (!base.empty() && std::isdigit(static_cast<unsigned char>(base.back()))) base.pop_back();
    while (!base.empty() && (base.back() == '-' || base.back() == '_' || base.back() == '.'))
      base.pop_back();
    if (base.empty()) base = "nodes";
    std::string id = base;
    for (int n = 2; taken.count(id); ++n) id = fmt::format("{}-{}", base, n);
    taken.insert(id);
    return id;
  }

  // --scale: one factor for every pool, so the largest node fits this machine
  // and the others keep their proportions to it; GPUs capped at the machine's.
  void scale(const Machine& machine) {
    std::uint32_t max_cpus = 1;
    std::uint64_t max_mem = 1;
    for (const NodePool& p : m_out.config.node_pools) {
      max_cpus = std::max(max_cpus, p.cpus);
      max_mem = std::max(max_mem, p.memory_mb);
    }
    for (std::size_t i = 0; i < m_out.config.node_pools.size(); ++i) {
      NodePool& p = m_out.config.node_pools[i];
      const NodePool before = p;
      if (max_cpus > machine.cpus)
        p.cpus = std::max<std::uint32_t>(
            1, static_cast<std::uint32_t>(static_cast<std::uint64_t>(p.cpus) * machine.cpus /
                                          max_cpus));
      // Fewer CPUs may no longer fill the sockets and threads: the layout
      // keeps what still divides them (stint.yaml refuses one that does not).
      if (p.cpus % (p.sockets * p.threads_per_core) != 0) {
        if (p.cpus % p.threads_per_core != 0) p.threads_per_core = 1;
        p.sockets = 1;
      }
      if (max_mem > machine.memory_mb)
        p.memory_mb = std::max<std::uint64_t>(
            1, static_cast<std::uint64_t>(std::floor(static_cast<long double>(p.memory_mb) *
                                                     machine.memory_mb / max_mem)));
      p.gpus = std::min(p.gpus, machine.gpus);
      if (p.gpus == 0) p.gpu_type.clear();
      if (p == before) continue;
      std::vector<std::string> changes;
      if (p.cpus != before.cpus)
        changes.push_back(fmt::format("CPUs {} -> {}", before.cpus, p.cpus));
      if (p.memory_mb != before.memory_mb)
        changes.push_back(fmt::format("RealMemory {} -> {}", before.memory_mb, p.memory_mb));
      if (p.gpus != before.gpus)
        changes.push_back(fmt::format("GPUs {} -> {}", before.gpus, p.gpus));
      if (p.sockets != before.sockets || p.threads_per_core != before.threads_per_core)
        changes.push_back(fmt::format("Sockets {} -> {}, ThreadsPerCore {} -> {}", before.sockets,
                                      p.sockets, before.threads_per_core, p.threads_per_core));
      note(m_pool_line[i]->origin,
           fmt::format("node pool {}: {} (--scale, to this machine's {} CPUs, {} MiB, {} GPUs)",
                       p.id, fmt::join(changes, ", "), machine.cpus, machine.memory_mb,
                       machine.gpus));
    }
  }

  const ConfFile& m_slurm;
  const ConfFile* m_gres;
  Imported m_out;
  std::vector<NodeLine> m_lines;
  std::map<std::string, std::size_t> m_node_line;  // node -> its line in m_lines
  std::map<std::string, std::vector<std::string>> m_node_sets;
  std::map<std::string, std::set<std::size_t>> m_membership;  // node -> partition indices
  std::map<std::string, std::vector<GpuCount>> m_gres_node;   // gres.conf NodeName= lines
  std::vector<GpuCount> m_gres_all;                           // gres.conf Name= lines
  std::set<const Record*> m_mixed_noted;
  std::vector<const Record*> m_pool_line;  // each pool's NodeName= line
};

}  // namespace

Imported import_cluster(const ConfFile& slurm, const ConfFile* gres, Shapes shapes,
                        const Machine& machine) {
  return Importer(slurm, gres).run(shapes, machine);
}

std::string imported_yaml(const Imported& imported, std::string_view sources,
                          const Machine& machine) {
  const Config& c = imported.config;
  const std::string body = config_to_yaml(c);
  // What the written file cannot hold (a setting this stint.yaml has no key
  // for) shows when it is read back.
  std::vector<std::string> lost;
  const Config back = parse_config(body, "stint.yaml", machine);
  for (std::size_t i = 0; i < c.node_pools.size() && i < back.node_pools.size(); ++i) {
    const NodePool& a = c.node_pools[i];
    const NodePool& b = back.node_pools[i];
    if (a.features != b.features)
      lost.push_back(fmt::format("node pool {}: Features={}: not kept (not valid feature names)",
                                 a.id, fmt::join(a.features, ",")));
    if (a.tmp_disk_mb != b.tmp_disk_mb)
      lost.push_back(fmt::format("node pool {}: TmpDisk={}: not kept", a.id, a.tmp_disk_mb));
  }
  for (std::size_t i = 0; i < c.partitions.size() && i < back.partitions.size(); ++i) {
    const PartitionConfig& a = c.partitions[i];
    if (a.over_subscribe != back.partitions[i].over_subscribe)
      lost.push_back(fmt::format(
          "partition {}: OverSubscribe={}: not kept (stint never shares a CPU between jobs: "
          "oversubscribe is NO or EXCLUSIVE)",
          a.id, a.over_subscribe));
  }
  std::string out =
      fmt::format("# Imported from {} by `stint init --from-slurm-conf`.\n{}", sources, body);
  if (imported.unused.empty() && lost.empty()) return out;
  // "slurm.conf says", "slurm.conf and gres.conf say".
  const bool several = sources.find(" and ") != std::string_view::npos;
  out += fmt::format("\n# What {} {} that this file does not hold:\n", sources,
                     several ? "say" : "says");
  for (const std::string& line : imported.unused) out += fmt::format("#   {}\n", line);
  for (const std::string& line : lost) out += fmt::format("#   {}\n", line);
  return out;
}

}  // namespace stint::slurm_conf
