#include "config/aliases.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include <fmt/format.h>

#include <stint/error.hpp>

namespace stint::config_detail {
namespace {

enum class Kind : std::uint8_t { partitions, qos, accounts, reservations, gpu_types };

struct KindRow {
  Kind kind;
  std::string_view key;   ///< as stint.yaml spells it
  std::string_view what;  ///< in messages
};

constexpr KindRow k_kinds[] = {
    {Kind::partitions, "partitions", "partition"},
    {Kind::qos, "qos", "QOS"},
    {Kind::accounts, "accounts", "account"},
    {Kind::reservations, "reservations", "reservation"},
    {Kind::gpu_types, "gpu_types", "GPU type"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

class AliasBuilder {
 public:
  AliasBuilder(const std::string& name, const Config& c) : m_name(name), m_config(c) {}

  ForeignNames build(const RawNode& node, const std::string& path) const {
    if (node.kind != RawNode::Kind::map)
      fail(node.line, path, "expected a map of partitions, qos, accounts, reservations, gpu_types");
    ForeignNames out;
    std::map<std::string, int> seen;
    for (const auto& [key, value] : node.entries) {
      const std::string key_path = fmt::format("{}.{}", path, key.name);
      const std::string snake = snake_case(key.name);
      const KindRow* row = nullptr;
      for (const KindRow& r : k_kinds) {
        if (r.key == snake) row = &r;
      }
      if (!row) {
        std::vector<std::string_view> known;
        for (const KindRow& r : k_kinds) known.push_back(r.key);
        const std::string guess = closest(snake, known);
        fail(key.line, key_path,
             guess.empty() ? fmt::format("unknown key (known: {})", fmt::join(known, ", "))
                           : fmt::format("unknown key; did you mean \"{}\"?", guess));
      }
      if (auto [it, fresh] = seen.emplace(snake, key.line); !fresh)
        fail(key.line, key_path, fmt::format("duplicate key (first at line {})", it->second));
      if (value.kind == RawNode::Kind::null) continue;
      target_map(*row, out) = names(*row, value, key_path);
    }
    return out;
  }

 private:
  [[noreturn]] void fail(int line, std::string_view path, std::string_view problem) const {
    throw Error(Errc::config_invalid, fmt::format("{}:{}: {}: {}", m_name, line, path, problem));
  }

  static std::map<std::string, std::string>& target_map(const KindRow& row, ForeignNames& out) {
    switch (row.kind) {
      case Kind::partitions:
        return out.partitions;
      case Kind::qos:
        return out.qos;
      case Kind::accounts:
        return out.accounts;
      case Kind::reservations:
        return out.reservations;
      case Kind::gpu_types:
        break;
    }
    return out.gpu_types;
  }

  bool is_partition(std::string_view id) const { return m_config.find_partition(id) != nullptr; }
  bool is_gpu_type(std::string_view type) const {
    return std::any_of(m_config.node_pools.begin(), m_config.node_pools.end(),
                       [&](const NodePool& p) { return p.gpus > 0 && p.gpu_type == type; });
  }
  std::string partition_ids() const {
    std::vector<std::string_view> ids;
    for (const PartitionConfig& p : m_config.partitions) ids.push_back(p.id);
    return fmt::format("{}", fmt::join(ids, ", "));
  }
  std::string gpu_types() const {
    std::vector<std::string_view> types;
    for (const NodePool& p : m_config.node_pools) {
      if (p.gpus > 0 && !p.gpu_type.empty() &&
          std::find(types.begin(), types.end(), p.gpu_type) == types.end())
        types.push_back(p.gpu_type);
    }
    return types.empty() ? std::string("none") : fmt::format("{}", fmt::join(types, ", "));
  }

  std::map<std::string, std::string> names(const KindRow& row, const RawNode& map,
                                           const std::string& path) const {
    if (map.kind != RawNode::Kind::map)
      fail(map.line, path,
           fmt::format("expected a map of the cluster's {} name: this machine's (\"\" drops it)",
                       row.what));
    // QOS and accounts are lower-cased everywhere (sacctmgr, sbatch -A/-q).
    const bool folded = row.kind == Kind::qos || row.kind == Kind::accounts;
    std::map<std::string, std::string> out;
    std::map<std::string, int> lines;
    for (const auto& [key, value] : map.entries) {
      const std::string entry_path = fmt::format("{}.{}", path, key.name);
      if (!valid_name(key.name))
        fail(key.line, entry_path,
             fmt::format("\"{}\" is not a valid {} name (letters, digits, '_', '-', '.')", key.name,
                         row.what));
      std::string target;
      if (value.kind == RawNode::Kind::scalar && value.scalar != RawNode::Scalar::boolean) {
        target = value.text;
      } else if (value.kind != RawNode::Kind::null) {
        fail(value.line, entry_path,
             fmt::format("expected this machine's {} name, or \"\" to drop the request", row.what));
      }
      if (!target.empty() && !valid_name(target))
        fail(value.line, entry_path,
             fmt::format("\"{}\" is not a valid {} name (letters, digits, '_', '-', '.')", target,
                         row.what));
      const std::string from = folded ? lower(key.name) : key.name;
      if (folded) target = lower(target);
      if (auto [it, fresh] = lines.emplace(from, key.line); !fresh)
        fail(key.line, entry_path, fmt::format("duplicate name (first at line {})", it->second));
      if (from == target) fail(value.line, entry_path, "maps the name to itself");
      check(row, from, target, key.line, value.line, entry_path);
      out.emplace(from, std::move(target));
    }
    return out;
  }

  // What can be checked here: partitions and GPU types are the file's own.
  void check(const KindRow& row, const std::string& from, const std::string& target, int key_line,
             int value_line, const std::string& path) const {
    if (row.kind == Kind::partitions) {
      if (is_partition(from))
        fail(key_line, path,
             fmt::format("{} is a partition of this machine: an alias would never apply", from));
      if (!target.empty() && !is_partition(target))
        fail(value_line, path,
             fmt::format("no partition \"{}\" (partitions: {})", target, partition_ids()));
    } else if (row.kind == Kind::gpu_types) {
      if (is_gpu_type(from))
        fail(key_line, path,
             fmt::format("{} is a GPU type of this machine: an alias would never apply", from));
      if (!target.empty() && !is_gpu_type(target))
        fail(value_line, path,
             fmt::format("no node pool has GPU type \"{}\" (GPU types: {})", target, gpu_types()));
    }
  }

  const std::string& m_name;
  const Config& m_config;
};

}  // namespace

ForeignNames build_aliases(const RawNode& node, const std::string& path, const std::string& name,
                           const Config& c) {
  return AliasBuilder(name, c).build(node, path);
}

}  // namespace stint::config_detail
