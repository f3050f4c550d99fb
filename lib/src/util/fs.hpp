#pragma once
// Small file helpers used across modules.

#include <string>
#include <utility>
#include <vector>

namespace stint::fs {

/// Whether a write waits until the disk has it.
enum class Sync : bool { no, yes };
/// Writes `content` to `path` atomically: a temporary file in the same folder,
/// fsync, rename, fsync of the folder. `mode` is the new file's permission bits.
/// With Sync::no the fsyncs are left out: a reader still sees the old content
/// or the new, never a part, but a power cut may lose the file; for files that
/// mean nothing after one (what a running task needs: nothing runs after it).
void write_file_atomic(const std::string& path, const std::string& content, unsigned mode = 0644,
                       Sync sync = Sync::yes);
/// The whole file; throws Errc::io naming the path.
std::string read_file(const std::string& path);
bool exists(const std::string& path);
/// mkdir -p with `mode` for the folders it creates.
void make_dirs(const std::string& path, unsigned mode = 0755);
/// fsync of a folder: makes the names created in it (files, folders) durable.
void sync_dir(const std::string& path);
/// rm -r of a folder stintd made, without a shell; symbolic links are removed,
/// not followed. Never throws (the caller is already failing).
void remove_tree(const std::string& path) noexcept;

/// New files made durable together, with the folders that name them. Each
/// file is written in place, without a temporary: for files no reader looks
/// at until the caller's commit (a new job's spool folder). sync() starts the
/// writeback of every file before it waits for any, then syncs each file and
/// each folder: on ext4 the first wait commits the journal for all of them,
/// where a file-then-folder sync per file (write_file_atomic) costs a commit
/// each. Throws Errc::io naming the path on any failure.
class SyncedWrites {
 public:
  SyncedWrites() = default;
  ~SyncedWrites();
  SyncedWrites(const SyncedWrites&) = delete;
  SyncedWrites& operator=(const SyncedWrites&) = delete;
  /// Creates (or truncates) `path` with `mode` and writes `content`.
  void write(const std::string& path, const std::string& content, unsigned mode);
  /// A folder to sync after the files: one that names a new file or folder.
  void add_dir(const std::string& path);
  void sync();

 private:
  std::vector<std::pair<int, std::string>> m_files;  ///< open descriptors and their paths
  std::vector<std::string> m_dirs;
};

}  // namespace stint::fs
