// A run's idle nodes: each node's stepd samples its task's use and writes,
// into the job's spool, since when it has used nothing for StintIdleRunAfter
// (or that it is in use again), then asks stintd to read it (task_activity).
// stintd keeps that on the node's allocation, where run-list and run-show
// read it, and tells the owner once the whole run has become idle, through
// the path of job mail (MailProg, else their ~/.config/stint/notify).

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "daemon/mailer.hpp"
#include "daemon/spool.hpp"
#include "run/idle.hpp"
#include "stepd/launch.hpp"
#include "util/fs.hpp"

namespace stint::daemon {

void Controller::task_activity(JobId id, std::uint32_t node_index) {
  Job* job = find_live(id);
  if (!job || !job->spec.run || job->state != JobState::running ||
      node_index >= job->alloc.size() || job->alloc[node_index].task_ended)
    return;
  TaskActivity activity;
  try {
    activity =
        task_activity_from_json_text(fs::read_file(task_file(m_paths, id, node_index, "activity")));
  } catch (const Error& e) {
    log_error("run {} node {}: {}", job->spec.name, node_index, e.what());
    return;
  }
  NodeAlloc& node = job->alloc[node_index];
  if (node.idle_since == activity.idle_since && node.idle_gpus == activity.gpus) return;
  const bool was_idle = run::is_idle(*job);
  node.idle_since = activity.idle_since;
  node.idle_gpus = activity.gpus;
  // Not save(): nothing the scheduler weighs has changed.
  m_store->update_job(*job);
  if (activity.idle_since == k_no_time) {
    log_info("run {} node {} ({}): in use again", job->spec.name, node_index, node.node);
    return;
  }
  log_info("run {} node {} ({}): idle since {} ({})", job->spec.name, node_index, node.node,
           parse::format_timestamp(activity.idle_since),
           activity.gpus ? "GPUs at 0%" : "no CPU time used");
  if (!was_idle && run::is_idle(*job)) send_mail(*job, MailType::idle);
}

}  // namespace stint::daemon
