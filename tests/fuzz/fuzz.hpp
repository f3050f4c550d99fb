#pragma once
// What every fuzz target shares: the input as text, and the rule that a parser
// may refuse input only with stint::Error. Any other exception escapes the
// target, and libFuzzer reports it as a crash ("uncaught exception"), as it
// does a sanitizer report, a timeout or running out of memory.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <stint/error.hpp>

namespace stint::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs `parse`; a stint::Error is a refusal as documented, and is fine.
template <typename Parse>
void refused_or_parsed(Parse&& parse) {
  try {
    parse();
  } catch (const stint::Error&) {
  }
}

/// An invariant the parser documents (a round trip) that the input broke.
[[noreturn]] inline void broken(const char* what, std::string_view detail) {
  std::fprintf(stderr, "invariant broken: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

}  // namespace stint::fuzz
