#pragma once
// Small text helpers shared by the parsers of this module (not installed).

#include <cstdint>
#include <optional>
#include <string_view>

namespace stint::parse::detail {

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr char to_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (to_lower(a[i]) != to_lower(b[i])) return false;
  }
  return true;
}

/// Whether `text` starts with `prefix`, ignoring ASCII case.
constexpr bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

/// A non-empty run of decimal digits no greater than `max`; nullopt for anything
/// else (signs, blanks, junk, overflow), so callers never accept part of a string.
constexpr std::optional<std::uint64_t> parse_digits(std::string_view s, std::uint64_t max) {
  if (s.empty()) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (value > (max - d) / 10) return std::nullopt;
    value = value * 10 + d;
  }
  return value;
}

/// The length of the run of digits at the start of `s`.
constexpr std::size_t digit_run(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  return n;
}

}  // namespace stint::parse::detail
