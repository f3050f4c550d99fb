// squeue --yaml and sinfo --yaml: the --json document as Slurm's YAML
// serializer writes it (libyaml, every node tagged).

#include <cstdio>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <stint/format.hpp>

namespace stint::format {
namespace {

using ojson = nlohmann::ordered_json;

// libyaml writes a string plain unless plain text would read otherwise.
std::string scalar_text(const std::string& s) {
  bool plain = !s.empty() && s.front() != ' ' && s.back() != ' ' &&
               std::string_view("-?:,[]{}#&*!|>'\"%@`").find(s.front()) == std::string_view::npos &&
               s.find(": ") == std::string::npos && s.find(" #") == std::string::npos &&
               s.back() != ':';
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) plain = false;
  if (plain) return s;
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\x{:02X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
        else
          out += c;
    }
  }
  return out + "\"";
}

// A node that fits on its key's line ("!!int 3", "!!seq []").
bool inline_node(const ojson& v) { return !(v.is_object() || v.is_array()) || v.empty(); }

std::string inline_text(const ojson& v) {
  if (v.is_null()) return "!!null null";
  if (v.is_boolean()) return v.get<bool>() ? "!!bool true" : "!!bool false";
  if (v.is_number_float()) return fmt::format("!!float {:f}", v.get<double>());
  if (v.is_number()) return "!!int " + v.dump();
  if (v.is_string()) return "!!str " + scalar_text(v.get<std::string>());
  return v.is_array() ? "!!seq []" : "!!map {}";
}

void emit(const ojson& v, int indent, std::string& out);

// The entries of a collection, each on its own lines at `indent`.
void emit_entries(const ojson& v, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      out += pad + "!!str " + scalar_text(key) + ": ";
      emit(value, indent + 2, out);
    }
    return;
  }
  for (const ojson& item : v) {
    out += pad + "- ";
    emit(item, indent + 2, out);
  }
}

// A node after "key: " or "- ": its tag on that line, its entries below.
void emit(const ojson& v, int indent, std::string& out) {
  if (inline_node(v)) {
    out += inline_text(v) + "\n";
    return;
  }
  out += v.is_object() ? "!!map\n" : "!!seq\n";
  // A sequence in a map sits at the map's own indentation, as libyaml writes it.
  emit_entries(v, v.is_array() ? indent - 2 : indent, out);
}

}  // namespace

std::string yaml_from_json(std::string_view json) {
  const ojson doc = ojson::parse(json);
  std::string out = "%YAML 1.1\n--- ";
  emit(doc, 0, out);
  return out;
}

}  // namespace stint::format
