#pragma once
// Helpers shared by the formatters. Internal to format/.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include <stint/format.hpp>

#include "model/order.hpp"

namespace stint::format::detail {

// Sorting by index: identity_order, by_job, apply_order (model/order.hpp).
using stint::apply_order;
using stint::by_job;
using stint::identity_order;

/// Calls `each` with every pending task of an array's record, in order, as
/// array_task_of makes it: one copy of the record (without its set) whose
/// task id changes, so a record of a million tasks costs one copy, not a
/// million. `each` copies what it keeps.
void for_each_record_task(const Job& record, const std::function<void(const Job&)>& each);

/// Parses a "%[.][#][width]letter[suffix]" format (squeue -o, sinfo -o).
/// `lookup` maps a letter to a column index; `what` names the format in the
/// error ("job" -> "Invalid job format specification: X").
Layout parse_percent(std::string_view format,
                     const std::function<std::optional<std::size_t>(char)>& lookup,
                     std::string_view what, bool allow_widest);

/// A job's state as squeue (%t, %T) and scontrol (JobState=) print it: a
/// pending job held because its reservation went shows Slurm's flag for it
/// (RD, RESV_DEL_HOLD).
std::string_view shown_state_code(const Job& job);
/// A pending job held in SPECIAL_EXIT (SE).
bool special_exit(const Job& job);
std::string_view shown_state_name(const Job& job);

/// pad(), appended to `out`.
void append_padded(std::string& out, std::string_view value, int width, Align align, bool cut);

/// A line of a Layout: prefix, then each field's cell and suffix, then '\n'.
/// `cell` returns the text of a field and whether it may be cut.
std::string render_layout(const Layout& layout,
                          const std::function<std::pair<std::string, bool>(const Field&)>& cell);

/// A timestamp in Slurm's ISO form, or `none` for k_no_time.
std::string timestamp_or(Seconds t, std::string_view none);
/// squeue's elapsed form ("M:SS", "H:MM:SS", "D-HH:MM:SS"); "INVALID" when
/// negative or over a year, as Slurm prints it.
std::string squeue_secs(Seconds s);
/// Every virtual node's CPULoad as scontrol and sinfo print it ("0.67"),
/// else "N/A".
std::string cpu_load_text(const Context& ctx);
/// The job's partition as Slurm shows it: a pending job submitted to
/// several, all of them ("debug,gpu").
std::string job_partition(const Job& job);
/// The job's node list folded ("n[1-3]"); empty before it has nodes.
std::string job_nodelist(const Job& job);
/// Nodes the job has (allocated) or asks for (pending).
std::uint32_t job_node_count(const Job& job);
/// CPUs the job has (allocated) or asks for (pending).
std::uint32_t job_cpu_count(const Job& job);
/// Memory the job has (allocated) or asks for (pending), in MiB; 0 if unknown.
std::uint64_t job_memory_mb(const Job& job);
/// GPUs the job has (allocated) or asks for (pending).
std::uint32_t job_gpu_count(const Job& job);
/// A node's cores per socket: its CPUs are sockets x cores x threads.
inline std::uint32_t cores_per_socket(const query::NodeInfo& n) {
  const std::uint32_t per_core = n.sockets * n.threads_per_core;
  return per_core == 0 ? n.cpus : n.cpus / per_core;
}

/// The array job id of an array task, else the job id: where Slurm lists
/// a job and the tasks of its array.
inline JobId array_key(const Job& job) { return job.is_array_task() ? job.array_job_id : job.id; }
/// The group name of a gid through ctx.group_name, else the number.
std::string group_name(const Context& ctx, std::uint32_t gid);
/// "(null)" for an empty string, else the string.
std::string or_null(std::string_view s);
/// ASCII case-insensitive equality.
bool iequals(std::string_view a, std::string_view b);
/// ASCII lower case.
std::string lower(std::string_view s);

}  // namespace stint::format::detail
