#pragma once
// Fixture records for the golden cases: the jobs, nodes and partitions of the
// real Slurm transcripts in shared/slurm-reference (03 squeue, 04 sinfo,
// 05 scontrol, 08 sacct), with a fixed "now" and UTC.

#include <string>
#include <vector>

#include <stint/format.hpp>
#include <stint/model.hpp>
#include <stint/query.hpp>

namespace fixtures {

/// 2026-11-29 h:m:s UTC, the day the transcripts were captured.
stint::Seconds at(int h, int m, int s);
/// 2026-11-29T18:00:41Z, the "now" of transcripts 03-05.
stint::Seconds queue_now();

/// Sets TZ=UTC so timestamps print as in the transcripts.
void use_utc();

/// 03-squeue.txt: 21 runs, 22-27 and 29 pend (28, an array, is left out).
std::vector<stint::Job> queue_jobs();
/// queue_jobs with the array 28 (tasks 1-10 %2, pending on Priority): task 1
/// is job 28, tasks 2-10 are jobs 30-38 (29 is "niced").
std::vector<stint::Job> queue_array_jobs();
/// 12-arrays-deps.txt: array 77 (tasks 1-10 %2, jobs 77-86: 1-4 completed,
/// 5-10 pending on JobArrayTaskLimit); array 87 (tasks 0-3, jobs 87 and
/// 90-92, pending) with 88 (afterok on the array) and 89 (afterany on it);
/// 93 running and 95-102 waiting on it (every kind of dependency).
std::vector<stint::Job> array_jobs();
/// array_jobs() as an older stint kept them: every task a row of its own.
std::vector<stint::Job> array_task_rows();
/// The same moment after 93 failed and 87's tasks ended (1 and 3 failed):
/// 88, 95 and 98 can never run; the others ran.
std::vector<stint::Job> array_jobs_later();
stint::Seconds arrays_now();
/// 13-preempt.txt: 108 (preempted, requeued, then completed), 109
/// (preempted, not requeued), 110 (the job that preempted them); 108's first
/// attempt comes first.
std::vector<stint::Job> requeue_jobs();
stint::Seconds requeue_now();
/// 08-sacct.txt: 22 (cancelled pending), 23 (completed), 32-36, 38.
std::vector<stint::Job> accounting_jobs();
stint::Seconds accounting_now();

/// 04-sinfo.txt: node vm (2 CPUs, 23849 MiB) in partitions cpu* and high,
/// with job 21's 2 CPUs and 512 MiB on it.
std::vector<stint::query::NodeInfo> cluster_nodes();
std::vector<stint::query::PartitionInfo> cluster_partitions();
/// 15-multinode.txt: n1..n4, idle, in cpu* and high; n2 and n3 carry GPUs
/// in use for the GRES columns.
std::vector<stint::query::NodeInfo> four_nodes();
std::vector<stint::query::PartitionInfo> four_partitions();

/// A context at `now` with the partition tiers of the transcripts.
stint::format::Context context(stint::Seconds now);

}  // namespace fixtures
