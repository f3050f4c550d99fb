#include "sched/placement.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "sched/sched.hpp"

namespace stint::sched {
namespace {

// -C/--constraint as Slurm's sbatch(1) writes it: names joined by '&' (AND;
// ',' too) and '|' (OR, binding looser), parentheses, a count after a name or
// a group ("gpu*2": that many of the job's nodes have it), and one matching
// OR in brackets ("[rack1|rack2]": every node of the job takes the same one).
// A count is kept by asking every node of the job for the feature: stricter
// than Slurm for a job with more nodes than the count, the same otherwise.
struct FeatureExpr {
  enum class Kind { name, all, any, bracket };
  Kind kind = Kind::name;
  std::string name;
  std::vector<FeatureExpr> kids;
};

class FeatureParser {
 public:
  explicit FeatureParser(std::string_view text) : m_text(text) {}

  FeatureExpr parse() {
    FeatureExpr e = parse_or();
    if (m_pos != m_text.size()) bad();
    return e;
  }

 private:
  [[noreturn]] void bad() const {
    throw Error(Errc::invalid_feature, std::string(errc_slurm_message(Errc::invalid_feature)));
  }
  bool eat(char c) {
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' ||
           c == ':' || c == '=' || c == '+' || c == '@';
  }
  FeatureExpr parse_or() {
    FeatureExpr first = parse_and();
    if (m_pos >= m_text.size() || m_text[m_pos] != '|') return first;
    FeatureExpr any{FeatureExpr::Kind::any, {}, {std::move(first)}};
    while (eat('|')) any.kids.push_back(parse_and());
    return any;
  }
  FeatureExpr parse_and() {
    FeatureExpr first = parse_term();
    if (m_pos >= m_text.size() || (m_text[m_pos] != '&' && m_text[m_pos] != ',')) return first;
    FeatureExpr all{FeatureExpr::Kind::all, {}, {std::move(first)}};
    while (eat('&') || eat(',')) all.kids.push_back(parse_term());
    return all;
  }
  void count() {
    if (!eat('*')) return;
    const std::size_t from = m_pos;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
    if (m_pos == from) bad();
  }
  FeatureExpr parse_term() {
    if (eat('(')) {
      FeatureExpr inner = parse_or();
      if (!eat(')')) bad();
      count();
      return inner;
    }
    if (eat('[')) {
      if (m_in_bracket) bad();  // Slurm allows one level of brackets
      m_in_bracket = true;
      FeatureExpr inner = parse_or();
      m_in_bracket = false;
      if (!eat(']')) bad();
      FeatureExpr bracket{FeatureExpr::Kind::bracket, {}, {}};
      // "[a*2&b*4]" (nodes of each kind) is a choice per node as well.
      if (inner.kind == FeatureExpr::Kind::any || inner.kind == FeatureExpr::Kind::all)
        bracket.kids = std::move(inner.kids);
      else
        bracket.kids.push_back(std::move(inner));
      return bracket;
    }
    const std::size_t from = m_pos;
    while (m_pos < m_text.size() && name_char(m_text[m_pos])) ++m_pos;
    if (m_pos == from) bad();
    FeatureExpr e{FeatureExpr::Kind::name, std::string(m_text.substr(from, m_pos - from)), {}};
    count();
    return e;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  bool m_in_bracket = false;
};

void collect_names(const FeatureExpr& e, std::vector<std::string>& out) {
  if (e.kind == FeatureExpr::Kind::name) out.push_back(e.name);
  for (const FeatureExpr& k : e.kids) collect_names(k, out);
}

const FeatureExpr* find_bracket(const FeatureExpr& e) {
  if (e.kind == FeatureExpr::Kind::bracket) return &e;
  for (const FeatureExpr& k : e.kids) {
    if (const FeatureExpr* b = find_bracket(k)) return b;
  }
  return nullptr;
}

// Whether a node with `features` matches; `choice` picks the operand of the
// bracket (nullopt: any of them).
bool matches(const FeatureExpr& e, const std::vector<std::string>& features,
             std::optional<std::size_t> choice) {
  switch (e.kind) {
    case FeatureExpr::Kind::name:
      return std::find(features.begin(), features.end(), e.name) != features.end();
    case FeatureExpr::Kind::all:
      return std::all_of(e.kids.begin(), e.kids.end(),
                         [&](const FeatureExpr& k) { return matches(k, features, choice); });
    case FeatureExpr::Kind::any:
      return std::any_of(e.kids.begin(), e.kids.end(),
                         [&](const FeatureExpr& k) { return matches(k, features, choice); });
    case FeatureExpr::Kind::bracket:
      if (choice) return *choice < e.kids.size() && matches(e.kids[*choice], features, choice);
      return std::any_of(e.kids.begin(), e.kids.end(),
                         [&](const FeatureExpr& k) { return matches(k, features, choice); });
  }
  return false;
}

std::vector<std::string> names_of(const std::string& hostlist) {
  if (hostlist.empty()) return {};
  return parse::expand_hostlist(hostlist);
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// What the node's shape (its pool's sockets, cores and threads, as scontrol
// show node prints them), --mincpus and --tmp leave.
bool shape_fits(const JobOptions& o, const NodeDef& n) {
  if (o.sockets_per_node && *o.sockets_per_node > n.sockets) return false;
  if (o.cores_per_socket && *o.cores_per_socket > n.cores_per_socket()) return false;
  if (o.threads_per_core && *o.threads_per_core > n.threads_per_core) return false;
  if (o.mincpus && *o.mincpus > n.cpus) return false;
  if (o.tmp_mb && *o.tmp_mb > n.tmp_disk_mb) return false;
  return true;
}

}  // namespace

bool NodeChoice::any() const {
  return std::any_of(masks.begin(), masks.end(), [](const std::vector<bool>& m) {
    return std::find(m.begin(), m.end(), true) != m.end();
  });
}

bool narrows_nodes(const JobSpec& spec) {
  const JobOptions& o = spec.options();
  return !o.nodelist.empty() || !o.exclude.empty() || !o.constraint.empty() || !o.prefer.empty() ||
         o.contiguous || o.mincpus || o.tmp_mb || o.sockets_per_node || o.cores_per_socket ||
         o.threads_per_core;
}

NodeChoice choose_nodes(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes) {
  const JobOptions& o = spec.options();
  NodeChoice c;
  c.contiguous = o.contiguous;
  const std::vector<std::string> excluded = names_of(o.exclude);
  std::vector<bool> base(partition_nodes.size(), false);
  for (std::size_t i = 0; i < partition_nodes.size(); ++i) {
    const NodeDef& n = partition_nodes[i];
    base[i] = !contains(excluded, n.name) && shape_fits(o, n);
  }
  if (o.constraint.empty()) {
    c.masks.push_back(base);
  } else {
    const FeatureExpr expr = FeatureParser(o.constraint).parse();
    const FeatureExpr* bracket = find_bracket(expr);
    const std::size_t choices = bracket ? bracket->kids.size() : 1;
    for (std::size_t k = 0; k < choices; ++k) {
      std::vector<bool> mask = base;
      for (std::size_t i = 0; i < mask.size(); ++i) {
        if (mask[i])
          mask[i] = matches(expr, partition_nodes[i].features,
                            bracket ? std::optional<std::size_t>(k) : std::nullopt);
      }
      c.masks.push_back(std::move(mask));
    }
  }
  if (!o.nodelist.empty()) {
    const std::vector<std::string> wanted = names_of(o.nodelist);
    c.required.assign(partition_nodes.size(), false);
    for (std::size_t i = 0; i < partition_nodes.size(); ++i) {
      if (contains(wanted, partition_nodes[i].name)) {
        c.required[i] = true;
        ++c.required_count;
      }
    }
    // A required node the other options rule out leaves no choice at all.
    for (std::vector<bool>& mask : c.masks) {
      for (std::size_t i = 0; i < mask.size(); ++i) {
        if (c.required[i] && !mask[i]) std::fill(mask.begin(), mask.end(), false);
      }
    }
  }
  if (!o.prefer.empty()) {
    const FeatureExpr expr = FeatureParser(o.prefer).parse();
    c.preferred.assign(partition_nodes.size(), false);
    for (std::size_t i = 0; i < partition_nodes.size(); ++i)
      c.preferred[i] = matches(expr, partition_nodes[i].features, std::nullopt);
  }
  return c;
}

void check_placement(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes,
                     const Config& config) {
  const JobOptions& o = spec.options();
  const std::vector<NodeDef> all = config.nodes();
  auto known_names = [&](const std::string& hostlist) {
    std::vector<std::string> names;
    try {
      names = names_of(hostlist);
    } catch (const Error&) {
      throw Error(Errc::invalid_node_name, "");
    }
    for (const std::string& name : names) {
      if (std::none_of(all.begin(), all.end(), [&](const NodeDef& n) { return n.name == name; }))
        throw Error(Errc::invalid_node_name, "");
    }
    return names;
  };
  const std::vector<std::string> wanted = known_names(o.nodelist);
  known_names(o.exclude);
  for (const std::string* expr : {&o.constraint, &o.prefer}) {
    if (expr->empty()) continue;
    std::vector<std::string> features;
    collect_names(FeatureParser(*expr).parse(), features);
    for (const std::string& f : features) {
      const bool declared = std::any_of(all.begin(), all.end(), [&](const NodeDef& n) {
        return std::find(n.features.begin(), n.features.end(), f) != n.features.end();
      });
      if (!declared) throw Error(Errc::invalid_feature, "");
    }
  }
  if (!o.licenses.empty()) {
    const auto total = parse_licenses(config.conf("Licenses").value_or(""));
    for (const auto& [name, count] : parse_licenses(o.licenses)) {
      auto it = total.find(name);
      if (it == total.end() || it->second < count) throw Error(Errc::invalid_license, "");
    }
  }
  // A -w node outside the partition, or ruled out by the other options.
  for (const std::string& name : wanted) {
    if (std::none_of(partition_nodes.begin(), partition_nodes.end(),
                     [&](const NodeDef& n) { return n.name == name; }))
      throw Error(Errc::node_config_unavailable, "");
  }
  if (!narrows_nodes(spec)) return;
  const NodeChoice choice = choose_nodes(spec, partition_nodes);
  if (!choice.any()) throw Error(Errc::node_config_unavailable, "");
}

ResourceRequest checked_request(const JobSpec& spec, const PartitionConfig& partition,
                                const Config& config) {
  std::vector<NodeDef> nodes = config.partition_nodes(partition);
  ResourceRequest req = make_request(spec, nodes, config);
  apply_partition(req, partition);
  check_placement(spec, nodes, config);
  if (narrows_nodes(spec)) {
    const NodeChoice choice = choose_nodes(spec, nodes);
    std::vector<NodeDef> left;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (std::any_of(choice.masks.begin(), choice.masks.end(),
                      [i](const std::vector<bool>& m) { return m[i]; }))
        left.push_back(nodes[i]);
    }
    nodes = std::move(left);
  }
  // EnforcePartLimits other than NO: slurmctld's _part_access_check refuses
  // more CPUs, then more nodes, than the partition has, in its words.
  std::string enforce = config.conf("EnforcePartLimits").value_or("NO");
  std::transform(enforce.begin(), enforce.end(), enforce.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (enforce != "NO") {
    const std::vector<NodeDef> all = config.partition_nodes(partition);
    std::uint64_t total_cpus = 0;
    for (const NodeDef& n : all) total_cpus += n.cpus;
    const std::uint64_t min_cpus = std::max<std::uint64_t>(
        static_cast<std::uint64_t>(req.tasks) * req.cpus_per_task, req.nodes);
    if (min_cpus > total_cpus)
      throw Error(Errc::node_config_unavailable, "More processors requested than permitted");
    if (req.nodes > all.size())
      throw Error(Errc::invalid_node_count,
                  std::string(errc_slurm_message(Errc::invalid_node_count)));
  }
  if (auto refusal = never_fits(req, nodes)) throw *refusal;
  return req;
}

std::map<std::string, std::uint32_t> parse_licenses(std::string_view text) {
  std::map<std::string, std::uint32_t> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    start = end + 1;
    // "name:count", "name*count" (an older spelling slurm.conf still reads), or "name".
    const std::size_t sep = item.find_first_of(":*");
    std::string name(item.substr(0, sep));
    std::uint32_t count = 1;
    if (sep != std::string_view::npos) {
      const std::string digits(item.substr(sep + 1));
      if (digits.empty() || digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }))
        throw Error(Errc::invalid_license, "");
      count = static_cast<std::uint32_t>(std::stoul(digits));
    }
    if (name.empty() || name.find_first_of("|&() ") != std::string::npos)
      throw Error(Errc::invalid_license, "");
    out[name] += count;
  }
  return out;
}

LicensePool::LicensePool(const Config& config) {
  try {
    m_total = parse_licenses(config.conf("Licenses").value_or(""));
  } catch (const Error&) {
    m_total.clear();  // every job naming one was refused at submission
  }
}

bool LicensePool::available(const Job& job) const {
  if (job.spec.options().licenses.empty()) return true;
  for (const auto& [name, count] : parse_licenses(job.spec.options().licenses)) {
    auto total = m_total.find(name);
    auto used = m_used.find(name);
    const std::uint32_t in_use = used == m_used.end() ? 0 : used->second;
    if (total == m_total.end() || total->second < in_use + count) return false;
  }
  return true;
}

void LicensePool::take(const Job& job) {
  if (job.spec.options().licenses.empty()) return;
  for (const auto& [name, count] : parse_licenses(job.spec.options().licenses))
    m_used[name] += count;
}

}  // namespace stint::sched
