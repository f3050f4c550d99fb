#pragma once
// stint-stepd --fork-server: one stepd that stintd starts once and asks, over
// a SOCK_SEQPACKET socket on descriptor 3, for a stepd per task. It forks: the
// child is a stepd that has already paid for its program's start (the
// loader, libc's CPU detection, the time zone), which here cost more of a
// trivial job's CPU than anything stepd itself does.
//
// The child is what `stint-stepd <launch file>` would be: its own session,
// the supervised signals blocked, stdin /dev/null and stdout/stderr stepd's
// log (the server's own), and its command line rewritten in place to read
// `stint-stepd <launch file>`, so that a stintd that was killed before it
// recorded the pid finds it as it finds a spawned one (proc::find_process).
// The server reaps its children and tells stintd of each that exits. When
// stintd's end of the socket closes (stintd stopped or killed) the server
// exits; the stepds it started run on, to be collected by the next stintd.
//
// Messages: stintd sends a launch file's path (one message, no terminator);
// the server answers each with a ForkReply (started or failed), and sends an
// exited ForkReply, unasked, for each child it has reaped.

#include <cstdint>
#include <string_view>

namespace stint::stepd {

inline constexpr std::string_view k_fork_server_flag = "--fork-server";
/// The descriptor the server's socket is on.
inline constexpr int k_fork_server_fd = 3;

/// One message from the server to stintd.
struct ForkReply {
  enum Kind : std::int32_t { started = 1, failed = 2, exited = 3 };
  std::int32_t kind = 0;
  std::int32_t error = 0;         ///< failed: errno
  std::int64_t pid = 0;           ///< started, exited
  std::uint64_t start_ticks = 0;  ///< started: read before the child can be reaped
};

/// The server's loop (argv as the process got it: the flag, then padding
/// that makes room for a child to write its launch path over both). Each
/// child runs `run_launch(path)` and exits with what it returns.
int serve_forks(int argc, char** argv, int (*run_launch)(const char* path));

}  // namespace stint::stepd
