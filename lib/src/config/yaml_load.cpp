// stint.yaml to the raw tree (raw.hpp), keeping each node's line.

#include <string>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <stint/error.hpp>

#include "config/raw.hpp"

namespace stint::config_detail {
namespace {

int line_of(const YAML::Node& node) {
  YAML::Mark mark = node.Mark();
  return mark.is_null() ? 1 : mark.line + 1;
}

RawNode convert(const YAML::Node& node, const std::string& name) {
  RawNode out;
  out.line = line_of(node);
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out.kind = RawNode::Kind::null;
      break;
    case YAML::NodeType::Scalar:
      out.kind = RawNode::Kind::scalar;
      out.text = node.Scalar();
      break;
    case YAML::NodeType::Sequence:
      out.kind = RawNode::Kind::sequence;
      for (const YAML::Node& item : node) out.items.push_back(convert(item, name));
      break;
    case YAML::NodeType::Map:
      out.kind = RawNode::Kind::map;
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar())
          throw Error(Errc::config_invalid, fmt::format("{}:{}: a map key must be a plain name",
                                                        name, line_of(it->first)));
        out.entries.push_back(
            RawEntry{RawKey{it->first.Scalar(), line_of(it->first)}, convert(it->second, name)});
      }
      break;
  }
  return out;
}

}  // namespace

RawNode yaml_to_raw(std::string_view text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    int line = e.mark.is_null() ? 1 : e.mark.line + 1;
    throw Error(Errc::config_invalid,
                fmt::format("{}:{}: YAML syntax error: {}", name, line, e.msg));
  }
  RawNode raw = convert(root, name);
  if (raw.kind == RawNode::Kind::null) raw.line = 1;
  return raw;
}

}  // namespace stint::config_detail
