#pragma once
// Small file helpers used across modules.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace stint::fs {

/// Whether a write waits until the disk has it.
enum class Sync : bool { no, yes };
/// Who a file belongs to, where not to its writer.
struct Owner {
  uid_t uid;
  gid_t gid;
};
/// Writes `content` to `path` atomically: a temporary file in the same folder,
/// fsync, rename, fsync of the folder. `mode` is the new file's permission bits;
/// with `owner`, the file is given to it before it takes the name.
/// With Sync::no the fsyncs are left out: a reader still sees the old content
/// or the new, never a part, but a power cut may lose the file; for files that
/// mean nothing after one (what a running task needs: nothing runs after it).
void write_file_atomic(const std::string& path, const std::string& content, unsigned mode = 0644,
                       Sync sync = Sync::yes, std::optional<Owner> owner = std::nullopt);
/// write_file_atomic, unless the file holds `content` already (one that
/// cannot be read is written): for files written again at every start.
void write_file_if_changed(const std::string& path, const std::string& content,
                           unsigned mode = 0644, Sync sync = Sync::yes);
/// The whole file; throws Errc::io naming the path.
std::string read_file(const std::string& path);
bool exists(const std::string& path);
/// mkdir -p with `mode` for the folders it creates.
void make_dirs(const std::string& path, unsigned mode = 0755);
/// fsync of a folder: makes the names created in it (files, folders) durable.
void sync_dir(const std::string& path);
/// Writes all of `bytes` to `fd`, blocking or not (it waits for room), through
/// EINTR; false when the descriptor fails (EPIPE: its reader is gone).
/// Async-signal-safe: a forked child may call it.
bool write_fully(int fd, std::string_view bytes) noexcept;
/// rm -r of a folder stintd made, without a shell; symbolic links are removed,
/// not followed. Never throws (the caller is already failing).
void remove_tree(const std::string& path) noexcept;

}  // namespace stint::fs
