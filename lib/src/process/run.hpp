#pragma once
// Running another program and waiting for it: its input, its captured and
// bounded output, a deadline that kills its process group, the user it runs
// as. Built on Boost.Process, which only run.cpp includes (its headers are
// heavy). The job's own start in stepd and stepd's start by the fork server
// keep their own spawn (docs/architecture.md, "Running other programs").

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace stint::process {

/// The user a program runs as, switched to in its process before exec.
struct Credentials {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::vector<gid_t> groups;  ///< its supplementary groups
};

/// Where one of the program's output streams goes.
enum class Output {
  captured,     ///< into Result::out (stdout) or Result::err (stderr)
  with_stdout,  ///< stderr only: wherever stdout goes (captured: into Result::out)
  discarded,    ///< /dev/null
  inherited,    ///< this process's own
};

/// When a run is over.
enum class End {
  output_closed,  ///< the program has exited and its captured output has closed
  exit,           ///< the program has exited: what it left running may keep its output open
};

struct Spec {
  /// argv[0]: a path, or a name looked up in the PATH of `environment` (else
  /// of this process); the program gets the path it runs from as its argv[0].
  std::vector<std::string> argv;
  /// "NAME=VALUE" each, as given; nullopt: this process's environment.
  std::optional<std::vector<std::string>> environment;
  /// Written to its stdin, which then closes; stdin is /dev/null when empty.
  std::string input;
  bool inherit_stdin = false;       ///< this process's stdin instead (`input` unused)
  std::string working_dir;          ///< "": this process's
  std::optional<Credentials> user;  ///< nullopt: this process's
  /// 0: none. At the deadline its process group is SIGKILLed (without a group
  /// of its own, the program alone).
  std::chrono::milliseconds timeout{0};
  /// Bytes kept of each captured stream; the rest is read and dropped.
  std::size_t output_limit = SIZE_MAX;
  Output stdout_to = Output::captured;
  Output stderr_to = Output::captured;
  /// Its own process group (setpgid), so that a kill takes what it started.
  bool new_process_group = true;
  End end = End::output_closed;
  /// Once it is over, SIGKILL what is left of its process group (a script's
  /// background jobs). Only with new_process_group.
  bool kill_group_at_end = false;
};

struct Result {
  int exit_code = 0;       ///< its exit status; 128+N when killed by signal N
  int term_signal = 0;     ///< the signal that killed it; 0 when it exited
  bool timed_out = false;  ///< killed at the deadline (exit_code 128+SIGKILL)
  std::string out;
  std::string err;
};

/// Runs `spec.argv` and waits for it. Throws Error(Errc::io) when it cannot
/// start: "<argv[0]>: command not found" (no such name in PATH), "<argv[0]>:
/// <strerror>" (exec or the user switch failed), "<argv[0]>: <working_dir>:
/// <strerror>". A program that started and failed is in the Result.
Result run(const Spec& spec);

}  // namespace stint::process
