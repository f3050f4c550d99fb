#pragma once
// The job's spool folder: what stintd and stepd leave there, and how a job's
// ending is read back from it.

#include <optional>
#include <string>
#include <string_view>

#include <stint/model.hpp>
#include <stint/paths.hpp>

#include "stepd/launch.hpp"

namespace stint {
class ScriptStore;
struct SubmittedScript;
}  // namespace stint

namespace stint::daemon {

/// What job `script_id` was submitted with: from scripts.db, else (a job
/// submitted before scripts.db) from the `script` and `environment.json` of
/// its spool folder; nothing when neither has it.
std::optional<SubmittedScript> submitted_script(ScriptStore& scripts, const Paths& paths,
                                                JobId script_id);

/// spool/<script_id>/script, the file a job's task runs: written from
/// `script` unless it holds that already. Not synced: it is checked before
/// every launch, so one cut short or lost by a power cut is written again.
/// In system mode it is `owner`'s (0700) in a folder that stays root's and
/// searchable (0711): the launch and result files beside it are what stepd
/// trusts. Returns its path.
std::string place_script(const Paths& paths, JobId script_id, const std::string& script,
                         const Job& owner);

/// spool/<id>/task-<n>.<kind>.json (kind: "launch" or "result").
std::string task_file(const Paths& paths, JobId id, std::uint32_t node_index,
                      std::string_view kind);

/// How many tasks a job runs: a batch job runs its script on the first node of
/// its allocation only, as in Slurm; the other nodes are its to use with srun.
/// A run starts its command on every node.
std::uint32_t task_count(const Job& job);

/// How a batch job ended, from its (first) task's result.
JobState state_from_result(const TaskResult& r);

/// A requeue asked for while the job ran, kept on disk so that a restart of
/// stintd in between does not turn it into a plain cancel.
/// A preemption is one too: the attempt ends PREEMPTED, and the job is
/// requeued or, with `cancel`, ends.
struct RequeueMarker {
  bool hold = false;
  bool admin_hold = false;
  bool preempted = false;
  bool cancel = false;     ///< PreemptMode=CANCEL: the job ends PREEMPTED
  Seconds kill_at = 0;     ///< the end of GraceTime, when the job is killed
  bool node_fail = false;  ///< its node went DOWN: the attempt ends NODE_FAIL
  bool requeue = true;     ///< with node_fail: false ends the job instead
  /// Its reservation ended under it: the job ends TIMEOUT (with requeue false).
  bool reservation_ended = false;
  /// requeuehold State=SpecialExit: held in SPECIAL_EXIT.
  bool special_exit = false;
  /// scancel or run-stop (with requeue false): the job ends CANCELLED however
  /// its stepd ends, even killed before it could say so.
  bool user_cancel = false;
};
void write_requeue_marker(const Paths& paths, JobId id, const RequeueMarker& m);
std::optional<RequeueMarker> read_requeue_marker(const Paths& paths, JobId id);
void clear_requeue_marker(const Paths& paths, JobId id);

/// Empties an ended job's spool folder: the script and environment stay in
/// scripts.db, the result in stint.db. The folder of an array's first task
/// keeps the script its other tasks run (it goes when the array is purged).
void remove_job_spool(const Paths& paths, const Job& job);

/// A job suspended by preemption, until the job that preempted it ends.
void write_suspend_marker(const Paths& paths, JobId id, JobId preemptor);
std::optional<JobId> read_suspend_marker(const Paths& paths, JobId id);
void clear_suspend_marker(const Paths& paths, JobId id);

}  // namespace stint::daemon
