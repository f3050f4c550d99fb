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
