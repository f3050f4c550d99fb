#pragma once
// The config file as a plain tree with line numbers. YAML and the seed's JSON
// both become this tree, so one builder (build.cpp) validates both the same way.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stint/config.hpp>

namespace stint::config_detail {

struct RawEntry;

/// A map key as written, with its line.
struct RawKey {
  std::string name;
  int line = 1;
};

struct RawNode {
  enum class Kind : std::uint8_t { null, scalar, sequence, map };
  /// What a scalar was written as: JSON keeps its types, YAML's plain scalars
  /// are untyped text.
  enum class Scalar : std::uint8_t { text, number, boolean };

  Kind kind = Kind::null;
  Scalar scalar = Scalar::text;
  std::string text;  ///< a scalar's text ("true"/"false" for JSON booleans)
  int line = 1;      ///< 1-based
  std::vector<RawNode> items;
  std::vector<RawEntry> entries;  ///< in file order, duplicates kept
};

/// A map's entry. A struct of its own, not a std::pair: clang (with
/// libstdc++) refuses a pair holding the class that is being defined.
struct RawEntry {
  RawKey key;
  RawNode value;
};

/// YAML text to the tree; throws Errc::config_invalid "<name>:<line>: ..." on
/// a syntax error.
RawNode yaml_to_raw(std::string_view text, const std::string& name);
/// JSON text with `//` and `/* */` comments to the tree; throws as yaml_to_raw.
RawNode json_to_raw(std::string_view text, const std::string& name);

/// Validates the tree and builds the Config. `machine` is called only when a
/// partition names a pool that no node_pools entry defines.
Config build_config(const RawNode& root, const std::string& name,
                    const std::function<Machine()>& machine);

/// The line of byte `offset` in `text` (1-based).
int line_of_offset(std::string_view text, std::size_t offset);

/// A key in snake_case: "nodePoolIds" and "node_pool_ids" name the same key.
std::string snake_case(std::string_view key);
/// A name stint.yaml accepts for an id: letters, digits, '_', '-', '.'; not empty.
bool valid_name(std::string_view s);

/// Case-insensitive ASCII equality.
bool iequals(std::string_view a, std::string_view b);
/// The candidate closest to `word` by edit distance, if close enough to be a
/// likely typo; "" otherwise.
std::string closest(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace stint::config_detail
