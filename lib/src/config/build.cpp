// Validation: the raw tree (raw.hpp) to a Config, or an Error naming the file,
// the line and the key. Nothing is returned until every rule has passed.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/aliases.hpp"
#include "config/conf_keys.hpp"
#include "config/raw.hpp"
#include "config/slurm_conf.hpp"

namespace stint::config_detail {

int line_of_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string closest(std::string_view word, const std::vector<std::string_view>& candidates) {
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 4) + 1;
  for (std::string_view c : candidates) {
    // Levenshtein distance, case-insensitive, one row at a time.
    std::vector<std::size_t> row(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= word.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j) {
        std::size_t above = row[j];
        std::size_t cost = lower(word[i - 1]) == lower(c[j - 1]) ? 0 : 1;
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
        diagonal = above;
      }
    }
    if (row[c.size()] < best_distance) {
      best_distance = row[c.size()];
      best = std::string(c);
    }
  }
  return best;
}

std::string snake_case(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != '_') out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

bool valid_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

namespace {

constexpr std::uint32_t k_max_pool_count = 4096;
constexpr std::uint32_t k_max_gpus = 1024;

// A key of Slurm's slurm.conf that stint does not take: said so, with what to
// do instead where stint has another way.
std::string unsupported_slurm_key(std::string_view key) {
  static constexpr std::pair<std::string_view, std::string_view> k_instead[] = {
      {"TmpFS", "a node's TmpDisk is its node pool's tmp_disk"},
  };
  std::string out = "a Slurm slurm.conf key that stint does not support";
  for (const auto& [name, instead] : k_instead) {
    if (iequals(name, key)) out += fmt::format(" ({})", instead);
  }
  return out + "; remove it (stint config show lists the keys stint takes)";
}

/// A map entry found by fields(): the key as written and its value.
struct Field {
  const RawKey* key = nullptr;
  const RawNode* value = nullptr;
  std::string path;
  int line() const { return value->kind == RawNode::Kind::null ? key->line : value->line; }
};

class Builder {
 public:
  Builder(const std::string& name, const std::function<Machine()>& machine)
      : m_name(name), m_machine(machine) {}

  Config build(const RawNode& root) {
    if (root.kind == RawNode::Kind::null)
      fail(1, "partitions", "the file is empty; at least one partition is needed");
    if (root.kind != RawNode::Kind::map)
      fail(root.line, "(top level)", "expected a map of keys such as partitions and node_pools");
    std::string path;
    const RawNode& spec = unwrap(root, path);
    return build_spec(spec, path);
  }

 private:
  [[noreturn]] void fail(int line, std::string_view path, std::string_view problem) const {
    throw Error(Errc::config_invalid, fmt::format("{}:{}: {}: {}", m_name, line, path, problem));
  }

  static std::string child(std::string_view path, std::string_view key) {
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
  }
  static std::string item(std::string_view path, std::size_t i) {
    return fmt::format("{}[{}]", path, i);
  }

  // The seed's whole cluster spec holds ours at orchestratorSpec.slurmSpec among
  // other settings of the cluster that are not ours to check; the bare slurmSpec
  // (or a map holding only slurmSpec) is accepted too.
  const RawNode& unwrap(const RawNode& root, std::string& path) const {
    const RawNode* node = &root;
    if (const auto* outer = find_key(root, "orchestrator_spec")) {
      path = outer->key.name;
      if (outer->value.kind != RawNode::Kind::map) fail(outer->value.line, path, "expected a map");
      node = &outer->value;
      if (!find_key(*node, "slurm_spec")) fail(outer->key.line, path, "no slurmSpec in it");
    }
    if (const auto* spec = find_key(*node, "slurm_spec")) {
      path = child(path, spec->key.name);
      if (spec->value.kind != RawNode::Kind::map) fail(spec->value.line, path, "expected a map");
      node = &spec->value;
    }
    return *node;
  }

  static const RawEntry* find_key(const RawNode& map, std::string_view name) {
    for (const auto& entry : map.entries) {
      if (snake_case(entry.key.name) == name) return &entry;
    }
    return nullptr;
  }

  // The entries of a map by snake_case name. Unknown keys and two spellings of
  // one key are errors; a null value counts as absent.
  std::map<std::string, Field> fields(const RawNode& map, std::string_view path,
                                      const std::vector<std::string_view>& known) const {
    std::map<std::string, Field> out;
    std::map<std::string, int> seen;
    for (const auto& [key, value] : map.entries) {
      std::string name = snake_case(key.name);
      std::string key_path = child(path, key.name);
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string guess = closest(name, known);
        fail(key.line, key_path,
             guess.empty() ? fmt::format("unknown key (known: {})", fmt::join(known, ", "))
                           : fmt::format("unknown key; did you mean \"{}\"?", guess));
      }
      if (auto it = seen.find(name); it != seen.end())
        fail(key.line, key_path, fmt::format("duplicate key (first at line {})", it->second));
      seen.emplace(name, key.line);
      if (value.kind != RawNode::Kind::null) out.emplace(name, Field{&key, &value, key_path});
    }
    return out;
  }

  const RawNode& expect(const Field& f, RawNode::Kind kind, std::string_view what) const {
    if (f.value->kind != kind) fail(f.line(), f.path, fmt::format("expected {}", what));
    return *f.value;
  }

  std::string text(const RawNode& node, std::string_view path) const {
    if (node.kind != RawNode::Kind::scalar || node.scalar == RawNode::Scalar::boolean)
      fail(node.line, path, "expected a string");
    return node.text;
  }
  std::string text(const Field& f) const { return text(*f.value, f.path); }

  std::string name(const Field& f, std::string_view what) const {
    std::string s = text(f);
    if (!valid_name(s))
      fail(f.line(), f.path,
           fmt::format("\"{}\" is not a valid {} (letters, digits, '_', '-', '.')", s, what));
    return s;
  }

  std::uint64_t whole(const Field& f, std::uint64_t min, std::uint64_t max) const {
    const RawNode& node = *f.value;
    if (node.kind != RawNode::Kind::scalar || node.scalar == RawNode::Scalar::boolean)
      fail(f.line(), f.path, "expected a whole number");
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(node.text.data(), node.text.data() + node.text.size(), n);
    if (node.text.empty() || ec != std::errc() || end != node.text.data() + node.text.size())
      fail(f.line(), f.path, fmt::format("\"{}\" is not a whole number", node.text));
    if (n < min) fail(f.line(), f.path, fmt::format("must be at least {}", min));
    if (n > max) fail(f.line(), f.path, fmt::format("must be at most {}", max));
    return n;
  }

  // A list of strings; `single` also accepts one string for a list of one.
  std::vector<std::string> strings(const Field& f, bool single) const {
    if (single && f.value->kind == RawNode::Kind::scalar) return {text(f)};
    const RawNode& seq = expect(f, RawNode::Kind::sequence, "a list of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < seq.items.size(); ++i)
      out.push_back(text(seq.items[i], item(f.path, i)));
    return out;
  }

  // sbatch's grammar and meaning: "0" is no limit, seconds round up to minutes.
  Seconds time(const Field& f) const {
    std::string s = text(f);
    Seconds t = 0;
    try {
      t = parse::time_limit(s);
    } catch (const Error&) {
      fail(f.line(), f.path,
           fmt::format("\"{}\" is not a time limit (e.g. 30, 1:00:00, 2-0, UNLIMITED)", s));
    }
    return t;
  }

  // GraceTime's: a plain number is seconds, as in slurm.conf; else a duration
  // ("0:30", "00:01:00"), exact.
  Seconds exact_duration(const Field& f) const {
    std::string s = text(f);
    Seconds t = 0;
    try {
      const bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch)) != 0;
      });
      t = digits ? std::stoll(s) : parse::duration(s);
    } catch (const Error&) {
      fail(f.line(), f.path, fmt::format("\"{}\" is not a duration (e.g. 30, 0:30, 00:01:00)", s));
    }
    return t;
  }

  Config build_spec(const RawNode& spec, const std::string& path) {
    auto f = fields(
        spec, path,
        {"cluster_name", "node_pools", "partitions", "default_partition_id", "login_node_pool_id",
         "home_directory_storage", "config", "prolog_bash_scripts", "epilog_bash_scripts",
         "run_backend", "slurm", "projects", "aliases", "node_addr_base"});
    Config c;
    c.source_path = m_name;
    bool cluster_name_given = false;
    if (auto it = f.find("cluster_name"); it != f.end()) {
      c.cluster_name = name(it->second, "cluster name");
      cluster_name_given = true;
    }
    if (auto it = f.find("node_addr_base"); it != f.end()) {
      c.node_addr_base = text(it->second);
      if (!parse_ipv4(c.node_addr_base))
        fail(it->second.line(), it->second.path,
             fmt::format("\"{}\" is not an IPv4 address (e.g. 127.0.1.1)", c.node_addr_base));
    }
    if (auto it = f.find("node_pools"); it != f.end()) build_pools(it->second, c);
    check_node_addrs(f, spec, path, c);
    auto parts = f.find("partitions");
    if (parts == f.end())
      fail(spec.line, child(path, "partitions"), "missing; at least one partition is needed");
    build_partitions(parts->second, c);
    if (auto it = f.find("default_partition_id"); it != f.end()) {
      c.default_partition_id = text(it->second);
      if (!c.find_partition(c.default_partition_id))
        fail(it->second.line(), it->second.path,
             fmt::format("no partition \"{}\" (partitions: {})", c.default_partition_id,
                         partition_ids(c)));
    }
    if (auto it = f.find("login_node_pool_id"); it != f.end())
      c.login_node_pool_id = name(it->second, "node pool id");
    if (auto it = f.find("home_directory_storage"); it != f.end())
      c.home_directory_storage = text(it->second);
    if (auto it = f.find("config"); it != f.end())
      build_slurm_conf(it->second, c, cluster_name_given);
    if (auto it = f.find("prolog_bash_scripts"); it != f.end())
      c.prolog_bash_scripts = strings(it->second, false);
    if (auto it = f.find("epilog_bash_scripts"); it != f.end())
      c.epilog_bash_scripts = strings(it->second, false);
    if (auto it = f.find("run_backend"); it != f.end()) c.run_backend = backend(it->second);
    if (auto it = f.find("slurm"); it != f.end()) c.slurm = slurm_backend(it->second, c.slurm);
    if (auto it = f.find("projects"); it != f.end()) build_projects(it->second, c);
    // After the pools and partitions: the aliases' targets are checked against them.
    if (auto it = f.find("aliases"); it != f.end())
      c.aliases = build_aliases(*it->second.value, it->second.path, m_name, c);
    return c;
  }

  // The run backends: where a project's runs execute.
  std::string backend(const Field& f) const {
    std::string s = text(f);
    if (s != "local" && s != "slurm")
      fail(f.line(), f.path, fmt::format("\"{}\" is not a run backend (local, slurm)", s));
    return s;
  }

  // Keys not given keep `base`'s values: a project's slurm map changes only
  // what it names.
  SlurmBackendConfig slurm_backend(const Field& field, const SlurmBackendConfig& base) const {
    const RawNode& node = expect(field, RawNode::Kind::map, "a map (the slurm run backend)");
    auto f = fields(
        node, field.path,
        {"login", "conf", "account", "bin_dir", "partitions", "poll_interval", "command_timeout"});
    SlurmBackendConfig s = base;
    if (auto it = f.find("login"); it != f.end()) {
      s.login = text(it->second);
      if (!s.login.empty() &&
          (s.login.front() == '-' || s.login.find_first_of(" \t\n'\"") != std::string::npos))
        fail(it->second.line(), it->second.path,
             fmt::format("\"{}\" is not a login (\"\", host or user@host)", s.login));
    }
    if (auto it = f.find("conf"); it != f.end()) s.conf = text(it->second);
    if (auto it = f.find("account"); it != f.end()) s.account = text(it->second);
    if (auto it = f.find("bin_dir"); it != f.end()) s.bin_dir = text(it->second);
    if (auto it = f.find("partitions"); it != f.end()) {
      const RawNode& map =
          expect(it->second, RawNode::Kind::map, "a map of server type: partition");
      s.partitions.clear();
      for (const auto& [key, value] : map.entries) {
        const std::string path = child(it->second.path, key.name);
        if (!valid_name(key.name))
          fail(key.line, path, "not a valid server type (letters, digits, '_', '-', '.')");
        const std::string partition = text(value, path);
        if (!valid_name(partition))
          fail(value.line, path, fmt::format("\"{}\" is not a valid partition name", partition));
        s.partitions[key.name] = partition;
      }
    }
    if (auto it = f.find("poll_interval"); it != f.end())
      s.poll_interval = static_cast<Seconds>(whole(it->second, 1, 3600));
    if (auto it = f.find("command_timeout"); it != f.end())
      s.command_timeout = static_cast<Seconds>(whole(it->second, 1, 3600));
    return s;
  }

  void build_projects(const Field& field, Config& c) const {
    const RawNode& map = expect(field, RawNode::Kind::map, "a map of project: settings");
    for (const auto& [key, value] : map.entries) {
      const std::string path = child(field.path, key.name);
      if (!valid_name(key.name) || key.name.front() == '.' || key.name.front() == '-')
        fail(key.line, path, "not a valid project name");
      if (c.projects.count(key.name)) fail(key.line, path, "duplicate project");
      if (value.kind != RawNode::Kind::map) fail(value.line, path, "expected a map");
      auto f = fields(value, path, {"run_backend", "slurm"});
      ProjectConfig p;
      if (auto it = f.find("run_backend"); it != f.end()) p.run_backend = backend(it->second);
      if (auto it = f.find("slurm"); it != f.end()) p.slurm = slurm_backend(it->second, c.slurm);
      c.projects.emplace(key.name, std::move(p));
    }
  }

  void build_pools(const Field& field, Config& c) {
    const RawNode& seq = expect(field, RawNode::Kind::sequence, "a list of node pools");
    std::map<std::string, int> node_lines;
    for (std::size_t i = 0; i < seq.items.size(); ++i) {
      const RawNode& node = seq.items[i];
      std::string path = item(field.path, i);
      if (node.kind != RawNode::Kind::map) fail(node.line, path, "expected a map (a node pool)");
      auto f = fields(node, path,
                      {"id", "count", "cpus", "memory", "gpus", "gpu_type", "node_names",
                       "features", "tmp_disk", "sockets", "threads_per_core", "node_addrs"});
      NodePool pool;
      pool.id = required_name(f, node, path, "id", "node pool id");
      for (const NodePool& other : c.node_pools) {
        if (other.id == pool.id)
          fail(f.at("id").line(), f.at("id").path,
               fmt::format("duplicate node pool id \"{}\"", pool.id));
      }
      auto count = f.find("count");
      if (count != f.end())
        pool.count = static_cast<std::uint32_t>(whole(count->second, 1, k_max_pool_count));
      pool.cpus = static_cast<std::uint32_t>(whole(required(f, node, path, "cpus"), 1, 65536));
      pool.memory_mb = memory(required(f, node, path, "memory"));
      if (auto it = f.find("gpus"); it != f.end())
        pool.gpus = static_cast<std::uint32_t>(whole(it->second, 0, k_max_gpus));
      if (auto it = f.find("gpu_type"); it != f.end()) {
        pool.gpu_type = name(it->second, "GPU type");
        if (pool.gpus == 0) fail(it->second.line(), it->second.path, "a GPU type, but no gpus");
      }
      if (auto it = f.find("features"); it != f.end()) {
        // Slurm's feature names: what -C/--constraint can name ('&', '|',
        // '*', brackets and parentheses are its operators).
        for (const std::string& feature : strings(it->second, true)) {
          if (!valid_name(feature))
            fail(it->second.line(), it->second.path,
                 fmt::format("\"{}\" is not a valid feature name", feature));
          pool.features.push_back(feature);
        }
      }
      if (auto it = f.find("tmp_disk"); it != f.end()) pool.tmp_disk_mb = memory(it->second);
      if (auto it = f.find("sockets"); it != f.end())
        pool.sockets = static_cast<std::uint32_t>(whole(it->second, 1, 64));
      if (auto it = f.find("threads_per_core"); it != f.end())
        pool.threads_per_core = static_cast<std::uint32_t>(whole(it->second, 1, 16));
      if (pool.cpus % (pool.sockets * pool.threads_per_core) != 0) {
        const Field& at = f.count("sockets") ? f.at("sockets") : f.at("threads_per_core");
        fail(at.line(), at.path,
             fmt::format("{} cpus do not divide into {} sockets of {}-thread cores", pool.cpus,
                         pool.sockets, pool.threads_per_core));
      }
      if (auto it = f.find("node_names"); it != f.end()) {
        pool.node_names = node_names(it->second);
        if (count == f.end()) {
          pool.count = static_cast<std::uint32_t>(pool.node_names.size());
        } else if (pool.node_names.size() != pool.count) {
          fail(it->second.line(), it->second.path,
               fmt::format("{} names for count {}", pool.node_names.size(), pool.count));
        }
      }
      if (auto it = f.find("node_addrs"); it != f.end()) {
        for (const std::string& addr : strings(it->second, true)) {
          if (!parse_ipv4(addr))
            fail(it->second.line(), it->second.path,
                 fmt::format("\"{}\" is not an IPv4 address (e.g. 127.0.1.1)", addr));
          pool.node_addrs.push_back(addr);
        }
        if (pool.node_addrs.size() != pool.count)
          fail(it->second.line(), it->second.path,
               fmt::format("{} addresses for {} nodes", pool.node_addrs.size(), pool.count));
      }
      int line = f.at("id").line();
      c.node_pools.push_back(pool);
      // Default names ("<id>-<n>") may collide with another pool's given names.
      for (std::uint32_t n = 0; n < pool.count; ++n) {
        std::string node_name =
            pool.node_names.empty() ? fmt::format("{}-{}", pool.id, n + 1) : pool.node_names[n];
        if (auto [it, fresh] = node_lines.emplace(node_name, line); !fresh)
          fail(line, path,
               fmt::format("node name \"{}\" is also used at line {}", node_name, it->second));
      }
    }
  }

  // Every node's address is its own: two nodes at one address could not
  // both listen on a port, and a name would resolve to the other node.
  void check_node_addrs(const std::map<std::string, Field>& f, const RawNode& spec,
                        std::string_view path, const Config& c) const {
    const std::uint32_t base = *parse_ipv4(c.node_addr_base);
    std::uint64_t total = 0;
    for (const NodePool& pool : c.node_pools) total += pool.count;
    auto where = [&]() {
      auto it = f.find("node_addr_base");
      return it != f.end() ? std::pair{it->second.line(), it->second.path}
                           : std::pair{spec.line, child(path, "node_pools")};
    };
    if (total > 0 && std::uint64_t{base} + total - 1 > 0xffffffffULL) {
      const auto [line, at] = where();
      fail(line, at,
           fmt::format("{} nodes do not fit after node_addr_base {}", total, c.node_addr_base));
    }
    std::map<std::string, std::string> seen;  // address -> node
    for (const NodeDef& n : c.nodes()) {
      if (auto [it, fresh] = seen.emplace(n.addr, n.name); !fresh) {
        const auto [line, at] = where();
        fail(line, at,
             fmt::format("nodes {} and {} would share the address {}; give node_addrs "
                         "or another node_addr_base",
                         it->second, n.name, n.addr));
      }
    }
  }

  std::vector<std::string> node_names(const Field& f) const {
    std::vector<std::string> out;
    std::vector<std::string> written = strings(f, true);
    for (const std::string& w : written) {
      std::vector<std::string> expanded;
      try {
        expanded = parse::expand_hostlist(w);
      } catch (const Error& e) {
        fail(f.line(), f.path, fmt::format("\"{}\": {}", w, e.what()));
      }
      for (std::string& n : expanded) {
        if (!valid_name(n))
          fail(f.line(), f.path, fmt::format("\"{}\" is not a valid node name", n));
        out.push_back(std::move(n));
      }
    }
    if (out.empty()) fail(f.line(), f.path, "empty; leave it out for the default names");
    return out;
  }

  std::uint64_t memory(const Field& f) const {
    std::string s = text(f);
    std::uint64_t mb = 0;
    try {
      mb = parse::memory_mb(s);
    } catch (const Error&) {
      fail(f.line(), f.path,
           fmt::format("\"{}\" is not a memory size (MiB, or a number with K, M, G or T)", s));
    }
    if (mb == 0) fail(f.line(), f.path, "must be more than 0");
    return mb;
  }

  const Field& required(const std::map<std::string, Field>& f, const RawNode& node,
                        std::string_view path, const std::string& key) const {
    auto it = f.find(key);
    if (it == f.end()) fail(node.line, child(path, key), "missing");
    return it->second;
  }
  std::string required_name(const std::map<std::string, Field>& f, const RawNode& node,
                            std::string_view path, const std::string& key,
                            std::string_view what) const {
    return name(required(f, node, path, key), what);
  }

  static std::string partition_ids(const Config& c) {
    std::vector<std::string_view> ids;
    for (const PartitionConfig& p : c.partitions) ids.push_back(p.id);
    return fmt::format("{}", fmt::join(ids, ", "));
  }

  void build_partitions(const Field& field, Config& c) {
    const RawNode& seq = expect(field, RawNode::Kind::sequence, "a list of partitions");
    if (seq.items.empty())
      fail(field.line(), field.path, "empty; at least one partition is needed");
    // Pools the file names but does not define (the seed's spec): one node each,
    // this machine's shape. Only when the file defines no pools at all; once it
    // defines some, naming another is a mistake worth reporting.
    bool pools_defined = !c.node_pools.empty();
    for (std::size_t i = 0; i < seq.items.size(); ++i) {
      const RawNode& node = seq.items[i];
      std::string path = item(field.path, i);
      if (node.kind != RawNode::Kind::map) fail(node.line, path, "expected a map (a partition)");
      auto f = fields(node, path,
                      {"id", "node_pool_ids", "priority_tier", "priority_job_factor", "max_time",
                       "default_time", "state", "preempt_mode", "grace_time", "oversubscribe",
                       "allow_accounts", "deny_accounts", "allow_qos", "deny_qos"});
      PartitionConfig p;
      p.id = required_name(f, node, path, "id", "partition id");
      if (c.find_partition(p.id))
        fail(f.at("id").line(), f.at("id").path,
             fmt::format("duplicate partition id \"{}\"", p.id));
      const Field& pools = required(f, node, path, "node_pool_ids");
      p.node_pool_ids = strings(pools, true);
      if (p.node_pool_ids.empty())
        fail(pools.line(), pools.path, "empty; name at least one node pool");
      for (std::size_t j = 0; j < p.node_pool_ids.size(); ++j) {
        const std::string& id = p.node_pool_ids[j];
        int line = pools.value->kind == RawNode::Kind::sequence ? pools.value->items[j].line
                                                                : pools.line();
        if (!valid_name(id))
          fail(line, item(pools.path, j), fmt::format("\"{}\" is not a valid node pool id", id));
        if (std::count(p.node_pool_ids.begin(), p.node_pool_ids.begin() + static_cast<long>(j), id))
          fail(line, item(pools.path, j), fmt::format("node pool \"{}\" is named twice", id));
        bool known = std::any_of(c.node_pools.begin(), c.node_pools.end(),
                                 [&](const NodePool& np) { return np.id == id; });
        if (known) continue;
        if (pools_defined) {
          std::vector<std::string_view> ids;
          for (const NodePool& np : c.node_pools) ids.push_back(np.id);
          fail(line, item(pools.path, j),
               fmt::format("no node pool \"{}\" (node_pools: {})", id, fmt::join(ids, ", ")));
        }
        c.node_pools.push_back(machine_pool(id));
      }
      if (auto it = f.find("priority_tier"); it != f.end())
        p.priority_tier = static_cast<std::uint32_t>(whole(it->second, 0, 65533));
      if (auto it = f.find("priority_job_factor"); it != f.end())
        p.priority_job_factor = static_cast<std::uint32_t>(whole(it->second, 0, 65533));
      if (auto it = f.find("max_time"); it != f.end()) p.max_time = time(it->second);
      if (auto it = f.find("default_time"); it != f.end()) {
        p.default_time = time(it->second);
        if (p.max_time != k_infinite &&
            (*p.default_time == k_infinite || *p.default_time > p.max_time))
          fail(it->second.line(), it->second.path,
               fmt::format("{} is longer than max_time {}", text(it->second),
                           parse::format_time_limit(p.max_time)));
      }
      if (auto it = f.find("state"); it != f.end()) p.state = state(it->second);
      if (auto it = f.find("preempt_mode"); it != f.end()) {
        p.preempt_mode = text(it->second);
        std::transform(p.preempt_mode.begin(), p.preempt_mode.end(), p.preempt_mode.begin(),
                       [](char ch) { return static_cast<char>(std::toupper(ch)); });
        if (p.preempt_mode != "OFF" && p.preempt_mode != "CANCEL" && p.preempt_mode != "REQUEUE" &&
            p.preempt_mode != "SUSPEND")
          fail(it->second.line(), it->second.path,
               fmt::format("\"{}\" is not one of OFF, CANCEL, REQUEUE, SUSPEND", text(it->second)));
      }
      if (auto it = f.find("grace_time"); it != f.end()) {
        p.grace_time = exact_duration(it->second);
        if (p.grace_time == k_infinite)
          fail(it->second.line(), it->second.path, "grace_time cannot be UNLIMITED");
      }
      if (auto it = f.find("oversubscribe"); it != f.end()) {
        // Slurm's OverSubscribe=: NO (the default) and EXCLUSIVE are what one
        // machine's scheduler does; YES and FORCE share CPUs between jobs,
        // which stint's per-CPU binding does not.
        std::string v = text(it->second);
        std::transform(v.begin(), v.end(), v.begin(),
                       [](char ch) { return static_cast<char>(std::toupper(ch)); });
        if (v != "NO" && v != "EXCLUSIVE")
          fail(it->second.line(), it->second.path,
               fmt::format("\"{}\" is not supported: NO (jobs share nodes, never CPUs) or "
                           "EXCLUSIVE (each job has whole nodes)",
                           text(it->second)));
        p.over_subscribe = v == "NO" ? "" : v;
      }
      // slurm.conf's AllowAccounts= and the rest: a name or a list of names.
      for (auto [key, into] :
           {std::pair{"allow_accounts", &p.allow_accounts},
            std::pair{"deny_accounts", &p.deny_accounts}, std::pair{"allow_qos", &p.allow_qos},
            std::pair{"deny_qos", &p.deny_qos}}) {
        if (auto it = f.find(key); it != f.end()) *into = strings(it->second, true);
      }
      c.partitions.push_back(std::move(p));
    }
  }

  NodePool machine_pool(const std::string& id) {
    if (!m_detected) m_detected = m_machine();
    NodePool pool;
    pool.id = id;
    pool.count = 1;
    pool.cpus = m_detected->cpus;
    pool.memory_mb = m_detected->memory_mb;
    pool.gpus = m_detected->gpus;
    pool.gpu_type = m_detected->gpu_type;
    pool.origin = ConfigOrigin::autodetected;
    return pool;
  }

  PartitionState state(const Field& f) const {
    std::string s = text(f);
    for (PartitionState st : {PartitionState::up, PartitionState::down, PartitionState::drain,
                              PartitionState::inactive}) {
      if (iequals(s, partition_state_name(st))) return st;
    }
    fail(f.line(), f.path, fmt::format("\"{}\" is not one of UP, DOWN, DRAIN, INACTIVE", s));
  }

  void build_slurm_conf(const Field& field, Config& c, bool cluster_name_given) const {
    const RawNode& map = expect(field, RawNode::Kind::map, "a map of slurm.conf keys");
    std::vector<std::string_view> known;
    for (const ConfKey& k : conf_keys()) known.push_back(k.name);
    std::map<std::string, int> seen;  // lower-case key -> line
    for (const auto& [key, value] : map.entries) {
      std::string path = child(field.path, key.name);
      const ConfKey* k = find_conf_key(key.name);
      if (!k && slurm_conf::is_slurm_conf_key(key.name))
        fail(key.line, path, unsupported_slurm_key(key.name));
      if (!k) {
        std::string guess = closest(key.name, known);
        fail(key.line, path,
             guess.empty() ? std::string("unknown slurm.conf key")
                           : fmt::format("unknown slurm.conf key; did you mean {}?", guess));
      }
      std::string lower(k->name);
      std::transform(lower.begin(), lower.end(), lower.begin(), [](char ch) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      });
      if (auto it = seen.find(lower); it != seen.end())
        fail(key.line, path, fmt::format("duplicate key (first at line {})", it->second));
      seen.emplace(lower, key.line);
      if (value.kind != RawNode::Kind::scalar) fail(value.line, path, "expected a value");
      std::string v = value.text;
      // JSON true/false for Slurm's YES/NO keys.
      if (value.scalar == RawNode::Scalar::boolean) v = v == "true" ? "YES" : "NO";
      if (std::string problem = conf_value_problem(*k, v); !problem.empty())
        fail(value.line, path, problem);
      if (k->name == "ClusterName") {
        if (cluster_name_given) fail(key.line, path, "cluster_name is set too; keep one");
        if (!valid_name(v))
          fail(value.line, path, fmt::format("\"{}\" is not a valid cluster name", v));
        c.cluster_name = v;
        continue;
      }
      // As slurm.conf(5): only one of the two, each the other's complement.
      if (k->name == "PropagateResourceLimits" || k->name == "PropagateResourceLimitsExcept") {
        const bool except = k->name == "PropagateResourceLimitsExcept";
        const std::string other =
            except ? "PropagateResourceLimits" : "PropagateResourceLimitsExcept";
        const std::string other_lower =
            except ? "propagateresourcelimits" : "propagateresourcelimitsexcept";
        if (auto it = seen.find(other_lower); it != seen.end())
          fail(key.line, path, fmt::format("{} is set too (line {}); keep one", other, it->second));
      }
      c.slurm_conf.emplace(key.name, v);
    }
  }

  const std::string& m_name;
  const std::function<Machine()>& m_machine;
  std::optional<Machine> m_detected;
};

}  // namespace

Config build_config(const RawNode& root, const std::string& name,
                    const std::function<Machine()>& machine) {
  return Builder(name, machine).build(root);
}

}  // namespace stint::config_detail
