// storage_create and storage_delete: a storage is a folder under the state
// directory's storages/, owned by the user who created it (stintd makes it
// and hands it over, so in system mode a user cannot create folders there
// by hand), mounted into the runs that name it. The folder is the record:
// its owner and its time come from the file system (run-storage list).

#include <cerrno>
#include <cstring>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/run.hpp>

#include "daemon/handlers/handlers.hpp"
#include "daemon/log.hpp"
#include "run/name_rule.hpp"

namespace stint::daemon {
namespace {

std::string storage_name(const Json& req) {
  std::string name = req.at("name").get<std::string>();
  if (!run::valid_project_name(name))
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid storage name: {} (a name is {})", name, run::k_name_rule));
  return name;
}

// The storage's owner, or nullopt if there is no such storage.
std::optional<std::uint32_t> storage_owner(Controller& c, const std::string& name) {
  struct stat st {};
  const std::string path = run::storage_path(c.paths().state_dir, name);
  if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return static_cast<std::uint32_t>(st.st_uid);
}

}  // namespace

void check_storage_use(Controller& c, const std::string& name, std::uint32_t uid) {
  const auto owner = storage_owner(c, name);
  if (!owner)
    throw Error(Errc::invalid_argument,
                fmt::format("No storage {} (run-storage create {} makes one)", name, name));
  if (uid != 0 && *owner != uid)
    throw Error(Errc::access_denied, fmt::format("Storage {} belongs to another user", name));
}

Json handle_storage_create(Controller& c, const Json& req, const Caller& caller) {
  const std::string name = storage_name(req);
  const std::string root = c.paths().state_dir + "/storages";
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST)
    throw Error(Errc::io, fmt::format("{}: {}", root, std::strerror(errno)));
  const std::string path = run::storage_path(c.paths().state_dir, name);
  if (::mkdir(path.c_str(), 0700) != 0) {
    if (errno == EEXIST)
      throw Error(Errc::invalid_argument, fmt::format("Storage {} already exists", name));
    throw Error(Errc::io, fmt::format("{}: {}", path, std::strerror(errno)));
  }
  if (::geteuid() == 0 && ::chown(path.c_str(), caller.uid, caller.gid) != 0) {
    const int err = errno;
    ::rmdir(path.c_str());
    throw Error(Errc::io, fmt::format("{}: {}", path, std::strerror(err)));
  }
  log_info("storage {} created by {}", name, Controller::who(caller));
  return {{"path", path}};
}

Json handle_storage_delete(Controller& c, const Json& req, const Caller& caller) {
  const std::string name = storage_name(req);
  const auto owner = storage_owner(c, name);
  if (!owner) throw Error(Errc::invalid_argument, fmt::format("No storage {}", name));
  if (!c.may_act_for(caller, *owner))
    throw Error(Errc::access_denied, fmt::format("Storage {} belongs to another user", name));
  for (const auto& [id, job] : c.live()) {
    if (!job.spec.run) continue;
    for (const auto& [used, mount] : job.spec.run->storages) {
      if (used == name)
        throw Error(Errc::job_state_invalid,
                    fmt::format("Storage {} is in use by run {}", name, job.spec.name));
    }
  }
  c.delete_storage(run::storage_path(c.paths().state_dir, name), name, *owner);
  log_info("storage {} deleted by {}", name, Controller::who(caller));
  return Json::object();
}

}  // namespace stint::daemon
