#include <fcntl.h>
#include <unistd.h>

#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "daemon/server.hpp"
#include "util/fs.hpp"

namespace stint::tools {
namespace {

// Puts the process in the background with its output in the log, as a daemon
// started by hand expects; the parent returns at once (a fork of stintd
// itself, not another program run).
bool daemonize(const Paths& paths) {
  pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid > 0) ::_exit(0);
  ::setsid();
  int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::string log = paths.log_dir() + "/stintd.log";
  int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (null >= 0) ::dup2(null, 0);
  if (out >= 0) {
    ::dup2(out, 1);
    ::dup2(out, 2);
  }
  return true;
}

}  // namespace

int stintd(int argc, char** argv) {
  return cli::run_tool("stintd", [&]() -> int {
    CLI::App app{"stintd: the stint controller daemon (one per state directory)"};
    cli::configure_app(app, "stintd");
    std::string state_dir;
    bool foreground = false;
    bool detached = false;
    std::optional<Seconds> idle_exit;
    app.add_option("--state-dir", state_dir,
                   "State directory (default: $STINT_STATE_DIR, else the personal one "
                   "($XDG_STATE_HOME/stint, ~/.local/state/stint) if it exists, else the "
                   "system one if it exists)");
    app.add_flag("-D,--foreground", foreground, "Stay in the foreground, log to stderr (systemd)");
    app.add_flag("--detached", detached, "Already detached by the tool that started it")->group("");
    app.add_option("--idle-exit", idle_exit,
                   "Exit after this many seconds with no job pending or running (0: never)");
    if (int rc = cli::parse_args(app, "stintd", argc, argv); rc >= 0) return rc;

    Paths paths = state_dir.empty() ? default_paths() : Paths{state_dir};
    ensure_state_dir(paths);
    if (!foreground && !detached) daemonize(paths);
    daemon::ServerOptions options;
    options.idle_exit = idle_exit;
    return daemon::serve(paths, options);
  });
}

}  // namespace stint::tools
