#include "cli/scontrol_config.hpp"

#include <cstdint>
#include <optional>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/config_show.hpp>
#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>

#include "cli/read_common.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::cli {
namespace {

/// When the process `pid` started, from its start in clock ticks since boot.
Seconds process_start(std::int64_t pid, Seconds boot_time) {
  const std::optional<std::uint64_t> ticks = proc::start_ticks(pid);
  const long per_second = ::sysconf(_SC_CLK_TCK);
  if (!ticks || per_second <= 0 || boot_time == k_no_time) return k_no_time;
  return boot_time + static_cast<Seconds>(*ticks / static_cast<std::uint64_t>(per_second));
}

/// The uid stintd runs as: the running one's, else the state directory's
/// owner (a personal stintd runs as its user, a system one as root, who owns
/// the system state directory).
std::uint32_t stintd_uid(const Paths& paths, std::optional<std::int64_t> pid) {
  if (pid) {
    if (auto uid = proc::real_uid(*pid)) return *uid;
  }
  struct stat st {};
  if (::stat(paths.state_dir.c_str(), &st) == 0) return st.st_uid;
  return ::geteuid();
}

/// The id the next submission gets (stintd keeps it in the database).
std::uint32_t next_job_id(const Paths& paths) {
  if (!Store::exists(paths.db())) return 1;
  const std::optional<std::string> next = Store::reader(paths.db())->meta("next_job_id");
  return next ? static_cast<std::uint32_t>(std::stoul(*next)) : 1;
}

}  // namespace

int show_config() {
  const Paths paths = default_paths();
  // Asked first, so that a personal stintd is started (as slurmctld would be
  // running) and the configuration read below is the one it runs with.
  std::optional<std::int64_t> pid;
  try {
    const nlohmann::json reply = rpc::call(paths, {{"op", "ping"}});
    pid = reply.value("pid", std::int64_t{0});
  } catch (const Error& e) {
    if (e.code() != Errc::daemon_unavailable) throw;
  }
  const Config config = query::read_config(paths);
  const format::Context ctx = read_context(config);

  ControllerFacts f;
  f.now = ctx.now;
  f.controller_up = pid.has_value();
  f.boot_time = pid ? process_start(*pid, ctx.boot_time) : k_no_time;
  f.host = proc::short_hostname();
  f.machine = ctx.arch;
  f.state_dir = paths.state_dir;
  f.config_file = config.source_path.empty() ? paths.config() : config.source_path;
  f.uid = stintd_uid(paths, pid);
  f.user_name = proc::user_name(f.uid);
  f.next_job_id = next_job_id(paths);
  f.caller_is_root = ::getuid() == 0;
  fmt::print("{}", scontrol_show_config_text(config, f));
  return f.controller_up ? 0 : 1;
}

}  // namespace stint::cli
