#pragma once
// stintd's end of stint-stepd --fork-server (stepd/fork_server.hpp): started
// when the first task is, and asked for a stepd per task after that. A server
// that cannot be started, or that has died, is started again at the next
// task; meanwhile the launcher spawns stepd itself.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace stint::daemon {

/// Spawns stint-stepd with `args` (args[0] its path) as stintd starts every
/// stepd: its own session, the supervised signals blocked, stdin /dev/null,
/// stdout and stderr appended to `log_path`; `server_socket` (when >= 0) on
/// descriptor 3. Returns its pid, or the errno.
std::pair<pid_t, int> spawn_stepd(std::vector<std::string> args, const std::string& log_path,
                                  int server_socket = -1);

class StepdForks {
 public:
  /// Servers it starts write to `log_path` (their stdout and stderr, as
  /// every stepd's) and make room for launch paths of `longest_path` bytes.
  StepdForks(std::string log_path, std::size_t longest_path);
  ~StepdForks();  ///< closes the socket: the server exits, its stepds run on
  StepdForks(const StepdForks&) = delete;
  StepdForks& operator=(const StepdForks&) = delete;

  enum class Outcome {
    started,   ///< pid and start_ticks are the new stepd's
    not_sent,  ///< no server took the request: spawn stepd instead
    failed,    ///< the server could not fork: error is its errno
    unknown,   ///< asked, and no answer: a stepd may run the launch file or not
  };
  struct Start {
    Outcome outcome = Outcome::not_sent;
    std::int64_t pid = 0;
    std::uint64_t start_ticks = 0;
    int error = 0;
  };

  /// Asks the server (started first when there is none, or it is another
  /// `exe`) for a stepd of `launch_path`. Exit notices read meanwhile go to
  /// `exited`.
  Start start(const std::string& exe, const std::string& launch_path,
              const std::function<void(std::int64_t)>& exited);

  /// The socket to poll for exit notices; -1 without a server.
  int fd() const { return m_fd; }
  pid_t server_pid() const { return m_pid; }
  /// Reads the exit notices there are, each to `exited`; a server that has
  /// gone is forgotten (the next start starts another).
  void read_exits(const std::function<void(std::int64_t)>& exited);
  /// Lets the server go (it exits, its stepds run on): the next start()
  /// starts another, which opens the log file anew (after a rotation).
  void renew() { stop(false); }

 private:
  bool launch_server(const std::string& exe);
  void stop(bool stuck);

  const std::string m_log_path;
  /// argv[2] of each server: the room a child writes its launch path over
  /// (with argv[1] before it, a little more than this).
  const std::string m_padding;
  int m_fd = -1;
  pid_t m_pid = 0;
  std::string m_exe;
};

}  // namespace stint::daemon
