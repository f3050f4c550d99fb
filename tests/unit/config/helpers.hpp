#pragma once
// Shared by the config tests: a fixed machine, and the message of a config error.

#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

namespace stint::test {

/// The shape undefined pools get in tests, so no test depends on this machine.
inline Machine test_machine() {
  Machine m;
  m.hostname = "box";
  m.cpus = 8;
  m.memory_mb = 32000;
  m.gpus = 2;
  m.gpu_type = "h200";
  return m;
}

inline Config parse(std::string_view text, const std::string& name = "stint.yaml") {
  return parse_config(text, name, test_machine());
}

/// The message of the Errc::config_invalid that parsing `text` throws; fails
/// the test when it parses.
inline std::string config_error(std::string_view text, const std::string& name = "stint.yaml") {
  try {
    parse_config(text, name, test_machine());
  } catch (const Error& e) {
    CHECK(e.code() == Errc::config_invalid);
    return e.what();
  }
  FAIL_CHECK("parsed without an error: " << text);
  return {};
}

}  // namespace stint::test
