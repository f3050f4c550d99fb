#pragma once
// The one error boundary of every tool.

#include <functional>
#include <string_view>

namespace stint::cli {

/// Runs `body` and returns its exit status. A stint::Error is printed as
/// `<tool>: error: <message>` (and, for a refused submission, Slurm's second
/// line) on stderr, then a HintedError's hints as `<tool>: <hint>`, and mapped
/// to the code's exit status; anything else is an
/// internal error (exit 1). Also sets up what every tool needs (SIGPIPE).
int run_tool(std::string_view tool, const std::function<int()>& body);

}  // namespace stint::cli
