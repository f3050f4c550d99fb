#include "util/fs.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

namespace stint::fs {
namespace {

[[noreturn]] void throw_io(std::string_view what, const std::string& path) {
  throw Error(Errc::io, fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

void write_all(int fd, const std::string& content, const std::string& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("Unable to write", path);
    }
    done += static_cast<std::size_t>(n);
  }
}

std::string parent_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& content, unsigned mode,
                       Sync sync, std::optional<Owner> owner) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw_io("Unable to create", tmp);
  try {
    write_all(fd, content, tmp);
    if (owner && ::fchown(fd, owner->uid, owner->gid) != 0)
      throw_io("Unable to change the owner of", tmp);
    if (sync == Sync::yes && ::fsync(fd) != 0) throw_io("Unable to sync", tmp);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    throw_io("Unable to rename into", path);
  }
  // The rename is durable only once the folder itself is synced.
  if (sync == Sync::yes) sync_dir(parent_of(path));
}

void sync_dir(const std::string& path) {
  int dir = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void write_file_if_changed(const std::string& path, const std::string& content, unsigned mode,
                           Sync sync) {
  if (exists(path)) {
    try {
      if (read_file(path) == content) return;
    } catch (const Error&) {
      // Unreadable: written again below.
    }
  }
  write_file_atomic(path, content, mode, sync);
}

std::string read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io("Unable to open file", path);
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      throw_io("Unable to read", path);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void make_dirs(const std::string& path, unsigned mode) {
  if (path.empty() || exists(path)) return;
  make_dirs(parent_of(path), mode);
  if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST) throw_io("Unable to create", path);
}

void remove_tree(const std::string& path) noexcept {
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
}

bool write_fully(int fd, std::string_view bytes) noexcept {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace stint::fs
