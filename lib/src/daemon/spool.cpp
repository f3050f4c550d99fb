#include "daemon/spool.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "store/scripts.hpp"
#include "util/fs.hpp"

namespace stint::daemon {

std::optional<SubmittedScript> submitted_script(ScriptStore& scripts, const Paths& paths,
                                                JobId script_id) {
  if (auto kept = scripts.get(script_id)) return kept;
  const std::string folder = paths.spool(script_id);
  if (!fs::exists(folder + "/script") || !fs::exists(folder + "/environment.json"))
    return std::nullopt;
  return SubmittedScript{fs::read_file(folder + "/script"),
                         fs::read_file(folder + "/environment.json")};
}

namespace {

// Whether `path` is a regular file holding `content`. The file is its
// owner's to write: one grown large is told by its size, not read.
bool holds(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<std::size_t>(st.st_size) == content.size();
  if (same) {
    std::string text(content.size(), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
      ssize_t n = ::read(fd, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    same = done == text.size() && text == content;
  }
  ::close(fd);
  return same;
}

}  // namespace

std::string place_script(const Paths& paths, JobId script_id, const std::string& script,
                         const Job& owner) {
  const std::string folder = paths.spool(script_id);
  std::string path = folder + "/script";
  if (holds(path, script)) return path;
  fs::make_dirs(folder, 0700);
  std::optional<fs::Owner> given;
  if (system_mode()) {
    if (::chmod(folder.c_str(), 0711) != 0)
      throw Error(Errc::io, fmt::format("Unable to open {} to uid {}: {}", folder, owner.user_id,
                                        std::strerror(errno)));
    given = fs::Owner{owner.user_id, owner.group_id};
  }
  fs::write_file_atomic(path, script, 0700, fs::Sync::no, given);
  return path;
}

void remove_job_spool(const Paths& paths, const Job& job) {
  const std::string folder = paths.spool(job.id);
  if (!job.is_array_task() || job.array_job_id != job.id) {
    fs::remove_tree(folder);
    return;
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.path().filename() != "script") fs::remove_tree(entry.path().string());
  }
}

std::string task_file(const Paths& paths, JobId id, std::uint32_t node_index,
                      std::string_view kind) {
  return fmt::format("{}/task-{}.{}.json", paths.spool(id), node_index, kind);
}

std::uint32_t task_count(const Job& job) {
  if (job.spec.run) return static_cast<std::uint32_t>(job.alloc.size());
  return job.alloc.empty() ? 0 : 1;
}

JobState state_from_result(const TaskResult& r) {
  if (r.cancelled) return JobState::cancelled;
  if (r.out_of_memory) return JobState::out_of_memory;
  if (r.timed_out) return JobState::timeout;
  if (r.launch_failed || r.exit_signal != 0 || r.exit_status != 0) return JobState::failed;
  return JobState::completed;
}

namespace {
std::string marker_path(const Paths& paths, JobId id) { return paths.spool(id) + "/requeue"; }
}  // namespace

// The marker is a few lines: "requeue", "hold" or "admin-hold" first, then
// for a preemption "preempted", "cancel" and "kill_at=<time>".
void write_requeue_marker(const Paths& paths, JobId id, const RequeueMarker& m) {
  fs::make_dirs(paths.spool(id), 0700);
  std::string text = !m.requeue     ? "end\n"
                     : m.admin_hold ? "admin-hold\n"
                     : m.hold       ? "hold\n"
                                    : "requeue\n";
  if (m.node_fail) text += "node-fail\n";
  if (m.reservation_ended) text += "reservation-ended\n";
  if (m.special_exit) text += "special-exit\n";
  if (m.preempted) text += "preempted\n";
  if (m.cancel) text += "cancel\n";
  if (m.user_cancel) text += "user-cancel\n";
  if (m.kill_at != 0) text += "kill_at=" + std::to_string(m.kill_at) + "\n";
  fs::write_file_atomic(marker_path(paths, id), text, 0600);
}

std::optional<RequeueMarker> read_requeue_marker(const Paths& paths, JobId id) {
  std::string path = marker_path(paths, id);
  if (!fs::exists(path)) return std::nullopt;
  std::string text = fs::read_file(path);
  RequeueMarker m;
  m.admin_hold = text.rfind("admin-hold", 0) == 0;
  m.hold = m.admin_hold || text.rfind("hold", 0) == 0;
  m.preempted = text.find("\npreempted\n") != std::string::npos;
  m.cancel = text.find("\ncancel\n") != std::string::npos;
  if (auto at = text.find("\nkill_at="); at != std::string::npos) {
    const char* begin = text.data() + at + 9;
    std::from_chars(begin, text.data() + text.size(), m.kill_at);
  }
  m.requeue = text.rfind("end", 0) != 0;
  m.node_fail = text.find("\nnode-fail") != std::string::npos;
  m.reservation_ended = text.find("\nreservation-ended") != std::string::npos;
  m.special_exit = text.find("\nspecial-exit") != std::string::npos;
  m.user_cancel = text.find("\nuser-cancel\n") != std::string::npos;
  return m;
}

namespace {
std::string suspend_path(const Paths& paths, JobId id) { return paths.spool(id) + "/suspended"; }
}  // namespace

void write_suspend_marker(const Paths& paths, JobId id, JobId preemptor) {
  fs::make_dirs(paths.spool(id), 0700);
  fs::write_file_atomic(suspend_path(paths, id), std::to_string(preemptor) + "\n", 0600);
}

std::optional<JobId> read_suspend_marker(const Paths& paths, JobId id) {
  std::string path = suspend_path(paths, id);
  if (!fs::exists(path)) return std::nullopt;
  std::string text = fs::read_file(path);
  JobId preemptor = 0;
  std::from_chars(text.data(), text.data() + text.size(), preemptor);
  return preemptor;
}

void clear_suspend_marker(const Paths& paths, JobId id) {
  ::unlink(suspend_path(paths, id).c_str());
}

void clear_requeue_marker(const Paths& paths, JobId id) {
  ::unlink(marker_path(paths, id).c_str());
}

}  // namespace stint::daemon
