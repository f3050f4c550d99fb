#include "cli/boundary.hpp"

#include <csignal>
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "cli/refusal.hpp"

namespace stint::cli {

int run_tool(std::string_view tool, const std::function<int()>& body) {
  // A tool piped into `head` ends quietly instead of dying on SIGPIPE mid-line.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return body();
  } catch (const HintedError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: {}\n", tool, e.what());
    for (const std::string& hint : e.hints()) fmt::print(stderr, "{}: {}\n", tool, hint);
    return errc_exit_status(e.code());
  } catch (const Error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: {}\n", tool, e.what());
    return errc_exit_status(e.code());
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: error: {}\n", tool, e.what());
    return 1;
  }
}

}  // namespace stint::cli
