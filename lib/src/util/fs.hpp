#pragma once
// Small file helpers used across modules.

#include <string>

namespace stint::fs {

/// Writes `content` to `path` atomically: a temporary file in the same folder,
/// fsync, rename, fsync of the folder. `mode` is the new file's permission bits.
void write_file_atomic(const std::string& path, const std::string& content, unsigned mode = 0644);
/// The whole file; throws Errc::io naming the path.
std::string read_file(const std::string& path);
bool exists(const std::string& path);
/// mkdir -p with `mode` for the folders it creates.
void make_dirs(const std::string& path, unsigned mode = 0755);
/// fsync of a folder: makes the names created in it (files, folders) durable.
void sync_dir(const std::string& path);

}  // namespace stint::fs
