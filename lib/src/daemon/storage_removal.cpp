// Deleting a storage off the request path. run-storage delete renames the
// folder (storages/<name> -> storages/.deleted-<name>-<n>, one rename in
// root's storages/), answers, and leaves the emptying to a child process: as
// the folder's owner when stintd is root, since what is inside is theirs to
// change at any moment and root must not walk it. That child is the owner's
// to stop (SIGSTOP) or to keep busy with a million files; either delays this
// removal alone. The reaper (server.cpp) hands its end here; the empty folder
// goes then. A stintd that stops meanwhile finds the renamed folder at its
// next start and begins again.

#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>

#include <fmt/core.h>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"

namespace stint::daemon {
namespace {

constexpr std::string_view k_deleted_prefix = ".deleted-";

[[noreturn]] void empty_folder_and_exit(const std::string& folder, std::uint32_t owner, gid_t gid) {
  // Nothing of stintd's stays open here: not its lock (a stintd started
  // after this one must not wait for the removal), not its sockets.
  ::close_range(3, ~0U, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // What ps shows: an administrator sees what this child is.
  ::prctl(PR_SET_NAME, "stintd-rmstore");
  if (::geteuid() == 0 && owner != 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(owner) != 0) ::_exit(2);
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (ec) break;
    std::filesystem::remove_all(entry.path(), ec);
    if (ec) break;
  }
  ::_exit(ec ? 1 : 0);
}

}  // namespace

void Controller::remove_storage_later(const std::string& folder, std::uint32_t owner) {
  gid_t gid = static_cast<gid_t>(owner);
  if (const passwd* pw = ::getpwuid(owner)) gid = pw->pw_gid;
  // A fork, not process::run: the child runs this code, not a program, and is
  // reaped by stintd's loop while requests go on.
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(Errc::io, fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) empty_folder_and_exit(folder, owner, gid);
  m_storage_removals[pid] = folder;
}

bool Controller::storage_removal_ended(std::int64_t pid, int status) {
  const auto it = m_storage_removals.find(pid);
  if (it == m_storage_removals.end()) return false;
  const std::string folder = it->second;
  m_storage_removals.erase(it);
  // The folder itself is an entry of root's storages/: its owner emptied it,
  // stintd removes it (rmdir follows no link and removes only an empty one).
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    log_error("{}: could not be emptied as its owner; left for the next start of stintd", folder);
  } else if (::rmdir(folder.c_str()) != 0) {
    log_error("{}: {}", folder, std::strerror(errno));
  }
  return true;
}

void Controller::resume_storage_removals() {
  const std::string root = m_paths.state_dir + "/storages";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(k_deleted_prefix, 0) != 0) continue;
    struct stat st {};
    const std::string folder = entry.path().string();
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    try {
      remove_storage_later(folder, static_cast<std::uint32_t>(st.st_uid));
      log_info("{}: its removal begins again", folder);
    } catch (const Error& e) {
      log_error("{}: {}", folder, e.what());
    }
  }
}

void Controller::delete_storage(const std::string& folder, const std::string& name,
                                std::uint32_t owner) {
  // A new name no storage can have (theirs start with a letter or digit),
  // unique for this stintd's life and across restarts (the clock).
  static std::uint64_t serial = 0;
  const std::string renamed =
      fmt::format("{}/storages/{}{}-{}-{}", m_paths.state_dir, k_deleted_prefix, name,
                  static_cast<long long>(::time(nullptr)), ++serial);
  if (::rename(folder.c_str(), renamed.c_str()) != 0)
    throw Error(Errc::io, fmt::format("{}: {}", folder, std::strerror(errno)));
  try {
    remove_storage_later(renamed, owner);
  } catch (const Error& e) {
    // Gone from the list all the same; the next start removes it.
    log_error("{}: {}", renamed, e.what());
  }
}

}  // namespace stint::daemon
