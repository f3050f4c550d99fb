#include "cli/run_metrics.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <sys/stat.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "daemon/job_env.hpp"
#include "util/fs.hpp"

namespace stint::cli {
namespace {

struct FileTimes {
  std::optional<Seconds> born;  ///< when the file system keeps it
  Seconds modified = 0;
};

std::optional<FileTimes> times_of(const std::string& path) {
  struct statx st {};
  if (::statx(AT_FDCWD, path.c_str(), 0, STATX_MTIME | STATX_BTIME, &st) != 0) return std::nullopt;
  FileTimes t;
  t.modified = static_cast<Seconds>(st.stx_mtime.tv_sec);
  if (st.stx_mask & STATX_BTIME) t.born = static_cast<Seconds>(st.stx_btime.tv_sec);
  return t;
}

// Whether a file a training library wrote in the working directory is this
// run's: made no earlier than the run's start and written while it ran (a
// minute's grace after its end). Runs of one working directory at the same
// time cannot be told apart this way; STINT_METRICS or --metrics-file can.
bool written_by(const Job& job, const FileTimes& t) {
  constexpr Seconds k_clock_slack = 2;
  constexpr Seconds k_after_end = 60;
  if (job.start_time <= 0) return false;
  if (t.modified + k_clock_slack < job.start_time) return false;
  if (t.born && *t.born + k_clock_slack < job.start_time) return false;
  if (is_terminal(job.state) && job.end_time > 0 && t.modified > job.end_time + k_after_end)
    return false;
  return true;
}

std::vector<std::string> glob_paths(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0) {
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  }
  ::globfree(&g);
  return out;
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// One file's records, read as its name says: Hugging Face's trainer state,
// CSV with a header, else JSON lines.
void add_file(run::RunMetrics& m, const std::string& path) {
  std::string text;
  try {
    text = fs::read_file(path);
  } catch (const Error&) {
    return;
  }
  if (ends_with(path, "trainer_state.json"))
    run::add_trainer_state(m, text);
  else if (ends_with(path, ".csv"))
    run::add_csv(m, text);
  else
    run::add_json_lines(m, text);
}

// Of the files `patterns` find, the one this run wrote that `better` prefers.
template <typename Better>
std::optional<std::string> pick_written(const Job& job, const std::vector<std::string>& patterns,
                                        Better better) {
  std::optional<std::pair<std::string, FileTimes>> best;
  for (const std::string& pattern : patterns) {
    for (const std::string& path : glob_paths(pattern)) {
      const auto t = times_of(path);
      if (!t || !written_by(job, *t)) continue;
      if (!best || better(*t, best->second)) best = std::pair{path, *t};
    }
  }
  if (!best) return std::nullopt;
  return best->first;
}

// Walks `dir` up to `depth` folders down, adding the matching files the
// run wrote. Hidden folders (.git, .venv) are not entered; links are not
// followed.
void find_checkpoints(const Job& job, const std::string& dir, int depth,
                      const std::vector<std::string>& patterns, std::vector<RunFile>& out) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth > 0 && name.front() != '.') find_checkpoints(job, path, depth - 1, patterns, out);
      continue;
    }
    if (!S_ISREG(st.st_mode)) continue;
    bool matches = false;
    for (const std::string& p : patterns)
      matches = matches || ::fnmatch(p.c_str(), name.c_str(), 0) == 0;
    if (!matches) continue;
    const auto t = times_of(path);
    if (!t || !written_by(job, *t)) continue;
    out.push_back({path, static_cast<std::uint64_t>(st.st_size), t->modified});
  }
  ::closedir(d);
}

}  // namespace

std::vector<RunFile> run_checkpoints(const Job& job, const std::vector<std::string>& patterns,
                                     const std::string& state_dir) {
  std::vector<RunFile> out;
  if (!job.spec.run || !job.spec.run->backend.empty() || patterns.empty()) return out;
  constexpr int k_depth = 4;
  find_checkpoints(job, daemon::work_dir(job), k_depth, patterns, out);
  for (const auto& [name, mount] : job.spec.run->storages)
    find_checkpoints(job, run::storage_path(state_dir, name), k_depth, patterns, out);
  std::sort(out.begin(), out.end(), [](const RunFile& a, const RunFile& b) {
    return std::tie(a.modified, a.path) < std::tie(b.modified, b.path);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const RunFile& a, const RunFile& b) { return a.path == b.path; }),
            out.end());
  return out;
}

run::RunMetrics read_run_metrics(const Job& job) {
  run::RunMetrics m;
  if (!job.spec.run || !job.spec.run->backend.empty()) return m;
  const RunInfo& r = *job.spec.run;
  const std::string dir = daemon::work_dir(job);
  const std::uint32_t ranks = r.metrics_all_ranks ? std::max<std::uint32_t>(1, job.req.nodes) : 1;
  for (std::uint32_t rank = 0; rank < ranks; ++rank)
    add_file(m, run::metrics_file(dir, job.id, rank));
  for (const std::string& pattern : r.metrics_files) {
    for (const std::string& path :
         glob_paths(pattern.front() == '/' ? pattern : dir + "/" + pattern))
      add_file(m, path);
  }
  // PyTorch Lightning's CSVLogger: a version_N folder per run, the first
  // made after this one started.
  if (auto csv = pick_written(job, {dir + "/lightning_logs/version_*/metrics.csv"},
                              [](const FileTimes& a, const FileTimes& b) {
                                return a.born.value_or(a.modified) < b.born.value_or(b.modified);
                              }))
    add_file(m, *csv);
  // Hugging Face Trainer: trainer_state.json in its output folder (here or
  // one folder down) and in each checkpoint's; the one written last holds
  // the longest history.
  const auto state =
      pick_written(job, {dir + "/trainer_state.json", dir + "/*/trainer_state.json"},
                   [](const FileTimes& a, const FileTimes& b) { return a.modified > b.modified; });
  if (state) add_file(m, *state);
  return m;
}

}  // namespace stint::cli
