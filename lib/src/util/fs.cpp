#include "util/fs.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <fmt/core.h>
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
                       Sync sync) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw_io("Unable to create", tmp);
  try {
    write_all(fd, content, tmp);
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

SyncedWrites::~SyncedWrites() {
  for (const auto& [fd, path] : m_files) ::close(fd);
}

void SyncedWrites::write(const std::string& path, const std::string& content, unsigned mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw_io("Unable to create", path);
  m_files.emplace_back(fd, path);
  write_all(fd, content, path);
}

void SyncedWrites::add_dir(const std::string& path) { m_dirs.push_back(path); }

void SyncedWrites::sync() {
  // Every file's writeback under way first, so that their blocks are
  // allocated in the journal transaction the first sync commits.
  for (const auto& [fd, path] : m_files) ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  std::vector<std::pair<int, std::string>> targets = m_files;
  std::vector<int> dirs;
  for (const std::string& path : m_dirs) {
    int dir = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
      const int saved = errno;
      for (int d : dirs) ::close(d);
      errno = saved;
      throw_io("Unable to open folder", path);
    }
    dirs.push_back(dir);
    targets.emplace_back(dir, path);
  }
  // Each fsync ends with a flush of the disk's cache, a few milliseconds on a
  // virtual disk even when the journal has nothing left to commit: issued
  // together, the kernel merges them into one commit and a flush or two.
  // fsync, not fdatasync: a file's owner and mode matter too (a system
  // stintd gives the script to its owner).
  std::vector<int> failed(targets.size(), 0);
  const auto sync_one = [&](std::size_t i) {
    failed[i] = ::fsync(targets[i].first) == 0 ? 0 : errno;
  };
  {
    std::vector<std::thread> threads;
    std::size_t spawned = 1;  // targets[0] is this thread's
    try {
      for (; spawned < targets.size(); ++spawned) threads.emplace_back(sync_one, spawned);
    } catch (const std::system_error&) {
      // No thread to be had: the rest are synced here, one after another.
    }
    for (std::size_t i = spawned; i < targets.size(); ++i) sync_one(i);
    if (!targets.empty()) sync_one(0);
    for (std::thread& t : threads) t.join();
  }
  for (int d : dirs) ::close(d);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (failed[i] != 0) {
      errno = failed[i];
      throw_io("Unable to sync", targets[i].second);
    }
  }
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

}  // namespace stint::fs
