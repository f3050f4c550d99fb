#include "daemon/spool.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include "util/fs.hpp"

namespace stint::daemon {

std::string task_file(const Paths& paths, JobId id, std::uint32_t node_index,
                      std::string_view kind) {
  return fmt::format("{}/task-{}.{}.json", paths.spool(id), node_index, kind);
}

std::uint32_t task_count(const Job& job) { return job.alloc.empty() ? 0 : 1; }

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

void write_requeue_marker(const Paths& paths, JobId id, const RequeueMarker& m) {
  fs::make_dirs(paths.spool(id), 0700);
  std::string text = !m.requeue     ? "end\n"
                     : m.admin_hold ? "admin-hold\n"
                     : m.hold       ? "hold\n"
                                    : "requeue\n";
  if (m.node_fail) text += "node-fail\n";
  fs::write_file_atomic(marker_path(paths, id), text, 0600);
}

std::optional<RequeueMarker> read_requeue_marker(const Paths& paths, JobId id) {
  std::string path = marker_path(paths, id);
  if (!fs::exists(path)) return std::nullopt;
  std::string text = fs::read_file(path);
  RequeueMarker m;
  m.admin_hold = text.rfind("admin-hold", 0) == 0;
  m.hold = m.admin_hold || text.rfind("hold", 0) == 0;
  m.requeue = text.rfind("end", 0) != 0;
  m.node_fail = text.find("\nnode-fail") != std::string::npos;
  return m;
}

void clear_requeue_marker(const Paths& paths, JobId id) {
  ::unlink(marker_path(paths, id).c_str());
}

}  // namespace stint::daemon
