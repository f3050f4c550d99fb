// run-storage create|list|delete: named folders kept across runs. stintd
// makes and removes them (it owns the state directory); list reads the
// folders themselves, as squeue reads the database.

#include <filesystem>

#include <fcntl.h>
#include <fmt/core.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/run.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

struct StorageRow {
  std::string name;
  std::string owner;
  std::uint64_t bytes = 0;
  Seconds created = k_no_time;
  std::string path;
};

std::uint64_t folder_bytes(const std::string& path) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(
           path, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) total += it->file_size(size_ec);
  }
  return total;
}

// When the folder was made: its birth time where the file system keeps one
// (ext4, xfs, btrfs, tmpfs); else its ctime, which moves with its mode and
// owner but not with the files written into it.
Seconds creation_time(const std::string& path, const struct stat& st) {
  struct statx sx {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) == 0 &&
      (sx.stx_mask & STATX_BTIME) != 0)
    return static_cast<Seconds>(sx.stx_btime.tv_sec);
  return static_cast<Seconds>(st.st_ctim.tv_sec);
}

std::vector<StorageRow> read_storages(const Paths& paths) {
  std::vector<StorageRow> rows;
  std::error_code ec;
  const std::string root = paths.state_dir + "/storages";
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    struct stat st {};
    const std::string path = entry.path().string();
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    // .deleted-*: a deleted storage stintd is still emptying.
    if (entry.path().filename().string().starts_with('.')) continue;
    StorageRow r;
    r.name = entry.path().filename().string();
    r.owner = proc::user_name(static_cast<std::uint32_t>(st.st_uid));
    r.bytes = folder_bytes(path);
    r.created = creation_time(path, st);
    r.path = path;
    rows.push_back(std::move(r));
  }
  std::sort(rows.begin(), rows.end(),
            [](const StorageRow& a, const StorageRow& b) { return a.name < b.name; });
  return rows;
}

std::string size_text(std::uint64_t bytes) {
  const char* units = "BKMGT";
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{}B", bytes) : fmt::format("{:.1f}{}", v, units[u]);
}

}  // namespace

int run_storage(int argc, char** argv) {
  constexpr std::string_view k_tool = "run-storage";
  return cli::run_tool(k_tool, [&] {
    CLI::App app{"run-storage: named folders kept across runs, mounted with run-create --storage"};
    cli::configure_app(app, k_tool);
    app.require_subcommand(1);
    std::string name;
    auto* create = app.add_subcommand("create", "make an empty storage");
    create->add_option("name", name, "the storage's name")->required();
    auto* list = app.add_subcommand("list", "the storages, their owners, sizes and paths");
    bool no_header = false;
    list->add_flag("-n,--noheader", no_header, "no header line");
    auto* remove = app.add_subcommand("delete", "delete a storage and everything in it");
    remove->add_option("name", name, "the storage's name")->required();
    if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;

    const Paths paths = default_paths();
    if (create->parsed()) {
      const nlohmann::json reply = rpc::call(paths, {{"op", "storage_create"}, {"name", name}});
      fmt::print("{}\n", reply.value("path", std::string()));
      return 0;
    }
    if (remove->parsed()) {
      rpc::call(paths, {{"op", "storage_delete"}, {"name", name}});
      return 0;
    }
    const std::vector<StorageRow> rows = read_storages(paths);
    std::size_t w = 4;
    for (const auto& r : rows) w = std::max(w, r.name.size());
    if (!no_header)
      fmt::print("{:<{}} {:<10} {:>8} {:<19} {}\n", "NAME", w, "OWNER", "SIZE", "CREATED", "PATH");
    for (const auto& r : rows) {
      fmt::print("{:<{}} {:<10} {:>8} {:<19} {}\n", r.name, w, r.owner, size_text(r.bytes),
                 parse::format_timestamp(r.created), r.path);
    }
    return 0;
  });
}

}  // namespace stint::tools
