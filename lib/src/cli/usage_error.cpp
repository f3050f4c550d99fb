#include "cli/usage_error.hpp"

#include <cstdio>

#include <fmt/core.h>

namespace stint::cli {

int print_usage_error(std::string_view tool, const UsageError& e) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: {}\n", tool, e.what());
  if (!e.detail().empty()) {
    fmt::print(stderr, "{}: error: {}\n", tool, e.detail());
  } else if (!e.suggestion().empty()) {
    fmt::print(stderr, "{}: error: did you mean '{}'?\n", tool, e.suggestion());
  }
  fmt::print(stderr, "Try \"{} --help\" for more information\n", tool);
  return 255;
}

}  // namespace stint::cli
