#pragma once
// stintd's event loop: the lock, the socket, signals, the periodic pass.

#include <stint/paths.hpp>

namespace stint::daemon {

struct ServerOptions {
  /// Exit after this long with nothing pending or running (0: never). When
  /// unset, the config's StintIdleExit decides.
  std::optional<Seconds> idle_exit;
};

/// Runs stintd for `paths` until SIGTERM, a shutdown request or idle exit.
/// Returns the exit status. Running jobs are left running.
int serve(const Paths& paths, const ServerOptions& options);

}  // namespace stint::daemon
