// The seed's JSON cluster spec to the raw tree (raw.hpp). nlohmann's DOM keeps
// no positions, so this parses with its SAX interface over an iterator that
// counts the bytes the lexer has read: at each callback the count is just past
// the token (one past for a number, whose end the lexer finds by reading one
// more character), which gives every node and key its line.

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>

#include "config/raw.hpp"

namespace stint::config_detail {
namespace {

class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator() = default;
  CountingIterator(const char* p, std::size_t* read) : m_p(p), m_read(read) {}

  reference operator*() const { return *m_p; }
  CountingIterator& operator++() {
    ++m_p;
    if (m_read) ++*m_read;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return m_p == o.m_p; }
  bool operator!=(const CountingIterator& o) const { return m_p != o.m_p; }

 private:
  const char* m_p = nullptr;
  std::size_t* m_read = nullptr;
};

class RawSax {
 public:
  using json = nlohmann::json;

  RawSax(std::string_view text, const std::size_t* read) : m_text(text), m_read(read) {}

  bool null() { return value(RawNode::Kind::null, RawNode::Scalar::text, ""); }
  bool boolean(bool b) {
    return value(RawNode::Kind::scalar, RawNode::Scalar::boolean, b ? "true" : "false");
  }
  bool number_integer(json::number_integer_t n) {
    return value(RawNode::Kind::scalar, RawNode::Scalar::number, std::to_string(n));
  }
  bool number_unsigned(json::number_unsigned_t n) {
    return value(RawNode::Kind::scalar, RawNode::Scalar::number, std::to_string(n));
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    return value(RawNode::Kind::scalar, RawNode::Scalar::number, text);
  }
  bool string(json::string_t& s) { return value(RawNode::Kind::scalar, RawNode::Scalar::text, s); }
  bool binary(json::binary_t&) { return false; }  // not produced by the JSON lexer

  bool start_object(std::size_t) { return open(RawNode::Kind::map); }
  bool key(json::string_t& k) {
    m_keys.push_back(RawKey{k, here()});
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(RawNode::Kind::sequence); }
  bool end_array() { return close(); }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    m_error_offset = position == 0 ? 0 : position - 1;
    m_error = e.what();
    return false;
  }

  RawNode& root() { return m_root; }
  const std::string& error() const { return m_error; }
  std::size_t error_offset() const { return m_error_offset; }

 private:
  int here() const { return line_of_offset(m_text, *m_read == 0 ? 0 : *m_read - 1); }

  // Puts a finished node where it belongs: the root, an array's next item, or
  // the value of the map key read last.
  void place(RawNode node) {
    if (m_stack.empty()) {
      m_root = std::move(node);
      return;
    }
    RawNode& parent = m_stack.back();
    if (parent.kind == RawNode::Kind::sequence) {
      parent.items.push_back(std::move(node));
    } else {
      parent.entries.push_back(RawEntry{std::move(m_keys.back()), std::move(node)});
      m_keys.pop_back();
    }
  }

  bool value(RawNode::Kind kind, RawNode::Scalar scalar, std::string text) {
    RawNode node;
    node.kind = kind;
    node.scalar = scalar;
    node.text = std::move(text);
    node.line = here();
    place(std::move(node));
    return true;
  }

  bool open(RawNode::Kind kind) {
    RawNode node;
    node.kind = kind;
    node.line = here();
    m_stack.push_back(std::move(node));
    return true;
  }

  bool close() {
    RawNode node = std::move(m_stack.back());
    m_stack.pop_back();
    place(std::move(node));
    return true;
  }

  std::string_view m_text;
  const std::size_t* m_read;
  std::vector<RawNode> m_stack;
  std::vector<RawKey> m_keys;
  RawNode m_root;
  std::string m_error;
  std::size_t m_error_offset = 0;
};

// nlohmann's message is "[json.exception.parse_error.101] parse error at line
// 3, column 5: syntax error while parsing ..."; keep what follows the position.
std::string short_message(const std::string& what) {
  std::size_t col = what.find("column ");
  if (col != std::string::npos) {
    std::size_t colon = what.find(": ", col);
    if (colon != std::string::npos) return what.substr(colon + 2);
  }
  std::size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

}  // namespace

RawNode json_to_raw(std::string_view text, const std::string& name) {
  std::size_t read = 0;
  RawSax sax(text, &read);
  CountingIterator first(text.data(), &read);
  CountingIterator last(text.data() + text.size(), nullptr);
  bool ok = nlohmann::json::sax_parse(first, last, &sax, nlohmann::json::input_format_t::json,
                                      /*strict=*/true, /*ignore_comments=*/true);
  if (!ok) {
    throw Error(Errc::config_invalid,
                fmt::format("{}:{}: JSON syntax error: {}", name,
                            line_of_offset(text, sax.error_offset()), short_message(sax.error())));
  }
  return std::move(sax.root());
}

}  // namespace stint::config_detail
