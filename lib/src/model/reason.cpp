#include <array>

#include <stint/model.hpp>

#include "model/reason_table.hpp"

namespace stint {
namespace {

struct ReasonRow {
  Reason reason;
  std::string_view name;
};

constexpr std::array k_reasons = {
    ReasonRow{Reason::none, "None"},
    ReasonRow{Reason::priority, "Priority"},
    ReasonRow{Reason::resources, "Resources"},
    ReasonRow{Reason::partition_time_limit, "PartitionTimeLimit"},
    ReasonRow{Reason::partition_down, "PartitionDown"},
    ReasonRow{Reason::partition_inactive, "PartitionInactive"},
    ReasonRow{Reason::req_node_not_avail, "ReqNodeNotAvail"},
    ReasonRow{Reason::job_held_user, "JobHeldUser"},
    ReasonRow{Reason::job_held_admin, "JobHeldAdmin"},
    ReasonRow{Reason::dependency, "Dependency"},
    ReasonRow{Reason::dependency_never_satisfied, "DependencyNeverSatisfied"},
    ReasonRow{Reason::begin_time, "BeginTime"},
    ReasonRow{Reason::non_zero_exit_code, "NonZeroExitCode"},
    ReasonRow{Reason::time_limit, "TimeLimit"},
    ReasonRow{Reason::node_fail, "NodeFail"},
    ReasonRow{Reason::launch_failed, "JobLaunchFailure"},
    ReasonRow{Reason::job_array_task_limit, "JobArrayTaskLimit"},
    ReasonRow{Reason::assoc_grp_cpu_limit, "AssocGrpCpuLimit"},
    ReasonRow{Reason::assoc_grp_mem_limit, "AssocGrpMemLimit"},
    ReasonRow{Reason::assoc_grp_node_limit, "AssocGrpNodeLimit"},
    ReasonRow{Reason::assoc_grp_gres, "AssocGrpGRES"},
    ReasonRow{Reason::assoc_grp_billing, "AssocGrpBilling"},
    ReasonRow{Reason::assoc_grp_jobs_limit, "AssocGrpJobsLimit"},
    ReasonRow{Reason::assoc_grp_submit_jobs_limit, "AssocGrpSubmitJobsLimit"},
    ReasonRow{Reason::assoc_max_jobs_limit, "AssocMaxJobsLimit"},
    ReasonRow{Reason::assoc_max_submit_job_limit, "AssocMaxSubmitJobLimit"},
    ReasonRow{Reason::assoc_max_wall_duration_per_job_limit, "AssocMaxWallDurationPerJobLimit"},
    ReasonRow{Reason::assoc_max_cpu_per_job_limit, "AssocMaxCpuPerJobLimit"},
    ReasonRow{Reason::assoc_max_mem_per_job, "AssocMaxMemPerJob"},
    ReasonRow{Reason::assoc_max_node_per_job_limit, "AssocMaxNodePerJobLimit"},
    ReasonRow{Reason::assoc_max_gres_per_job, "AssocMaxGRESPerJob"},
    ReasonRow{Reason::assoc_max_billing_per_job, "AssocMaxBillingPerJob"},
    ReasonRow{Reason::assoc_max_cpu_per_node, "AssocMaxCpuPerNode"},
    ReasonRow{Reason::assoc_max_mem_per_node, "AssocMaxMemPerNode"},
    ReasonRow{Reason::assoc_max_gres_per_node, "AssocMaxGRESPerNode"},
    ReasonRow{Reason::assoc_max_billing_per_node, "AssocMaxBillingPerNode"},
    ReasonRow{Reason::qos_grp_cpu_limit, "QOSGrpCpuLimit"},
    ReasonRow{Reason::qos_grp_mem_limit, "QOSGrpMemLimit"},
    ReasonRow{Reason::qos_grp_node_limit, "QOSGrpNodeLimit"},
    ReasonRow{Reason::qos_grp_gres, "QOSGrpGRES"},
    ReasonRow{Reason::qos_grp_billing, "QOSGrpBilling"},
    ReasonRow{Reason::qos_grp_jobs_limit, "QOSGrpJobsLimit"},
    ReasonRow{Reason::qos_grp_submit_jobs_limit, "QOSGrpSubmitJobsLimit"},
    ReasonRow{Reason::qos_max_jobs_per_user_limit, "QOSMaxJobsPerUserLimit"},
    ReasonRow{Reason::qos_max_submit_job_per_user_limit, "QOSMaxSubmitJobPerUserLimit"},
    ReasonRow{Reason::qos_max_wall_duration_per_job_limit, "QOSMaxWallDurationPerJobLimit"},
    ReasonRow{Reason::qos_max_cpu_per_job_limit, "QOSMaxCpuPerJobLimit"},
    ReasonRow{Reason::qos_max_memory_per_job, "QOSMaxMemoryPerJob"},
    ReasonRow{Reason::qos_max_node_per_job_limit, "QOSMaxNodePerJobLimit"},
    ReasonRow{Reason::qos_max_gres_per_job, "QOSMaxGRESPerJob"},
    ReasonRow{Reason::qos_max_billing_per_job, "QOSMaxBillingPerJob"},
    ReasonRow{Reason::qos_max_cpu_per_node, "QOSMaxCpuPerNode"},
    ReasonRow{Reason::qos_max_memory_per_node, "QOSMaxMemoryPerNode"},
    ReasonRow{Reason::qos_max_gres_per_node, "QOSMaxGRESPerNode"},
    ReasonRow{Reason::qos_max_billing_per_node, "QOSMaxBillingPerNode"},
    ReasonRow{Reason::qos_max_cpu_per_user_limit, "QOSMaxCpuPerUserLimit"},
    ReasonRow{Reason::qos_max_memory_per_user, "QOSMaxMemoryPerUser"},
    ReasonRow{Reason::qos_max_node_per_user_limit, "QOSMaxNodePerUserLimit"},
    ReasonRow{Reason::qos_max_gres_per_user, "QOSMaxGRESPerUser"},
    ReasonRow{Reason::qos_max_billing_per_user, "QOSMaxBillingPerUser"},
    ReasonRow{Reason::invalid_account, "InvalidAccount"},
    ReasonRow{Reason::invalid_qos, "InvalidQOS"},
    ReasonRow{Reason::assoc_grp_cpu_minutes_limit, "AssocGrpCPUMinutesLimit"},
    ReasonRow{Reason::assoc_grp_mem_minutes, "AssocGrpMemMinutes"},
    ReasonRow{Reason::assoc_grp_node_minutes, "AssocGrpNodeMinutes"},
    ReasonRow{Reason::assoc_grp_gres_minutes, "AssocGrpGRESMinutes"},
    ReasonRow{Reason::assoc_grp_billing_minutes, "AssocGrpBillingMinutes"},
    ReasonRow{Reason::assoc_grp_cpu_run_minutes_limit, "AssocGrpCPURunMinutesLimit"},
    ReasonRow{Reason::assoc_grp_mem_run_minutes, "AssocGrpMemRunMinutes"},
    ReasonRow{Reason::assoc_grp_node_run_minutes, "AssocGrpNodeRunMinutes"},
    ReasonRow{Reason::assoc_grp_gres_run_minutes, "AssocGrpGRESRunMinutes"},
    ReasonRow{Reason::assoc_grp_billing_run_minutes, "AssocGrpBillingRunMinutes"},
    ReasonRow{Reason::assoc_max_cpu_minutes_per_job_limit, "AssocMaxCpuMinutesPerJobLimit"},
    ReasonRow{Reason::assoc_max_mem_minutes_per_job, "AssocMaxMemMinutesPerJob"},
    ReasonRow{Reason::assoc_max_node_minutes_per_job, "AssocMaxNodeMinutesPerJob"},
    ReasonRow{Reason::assoc_max_gres_minutes_per_job, "AssocMaxGRESMinutesPerJob"},
    ReasonRow{Reason::assoc_max_billing_minutes_per_job, "AssocMaxBillingMinutesPerJob"},
    ReasonRow{Reason::assoc_grp_wall_limit, "AssocGrpWallLimit"},
    ReasonRow{Reason::qos_grp_cpu_minutes_limit, "QOSGrpCPUMinutesLimit"},
    ReasonRow{Reason::qos_grp_memory_minutes, "QOSGrpMemoryMinutes"},
    ReasonRow{Reason::qos_grp_node_minutes, "QOSGrpNodeMinutes"},
    ReasonRow{Reason::qos_grp_gres_minutes, "QOSGrpGRESMinutes"},
    ReasonRow{Reason::qos_grp_billing_minutes, "QOSGrpBillingMinutes"},
    ReasonRow{Reason::qos_grp_cpu_run_minutes_limit, "QOSGrpCPURunMinutesLimit"},
    ReasonRow{Reason::qos_grp_memory_run_minutes, "QOSGrpMemoryRunMinutes"},
    ReasonRow{Reason::qos_grp_node_run_minutes, "QOSGrpNodeRunMinutes"},
    ReasonRow{Reason::qos_grp_gres_run_minutes, "QOSGrpGRESRunMinutes"},
    ReasonRow{Reason::qos_grp_billing_run_minutes, "QOSGrpBillingRunMinutes"},
    ReasonRow{Reason::qos_max_cpu_minutes_per_job_limit, "QOSMaxCpuMinutesPerJobLimit"},
    ReasonRow{Reason::qos_max_memory_minutes_per_job, "QOSMaxMemoryMinutesPerJob"},
    ReasonRow{Reason::qos_max_node_minutes_per_job, "QOSMaxNodeMinutesPerJob"},
    ReasonRow{Reason::qos_max_gres_minutes_per_job, "QOSMaxGRESMinutesPerJob"},
    ReasonRow{Reason::qos_max_billing_minutes_per_job, "QOSMaxBillingMinutesPerJob"},
    ReasonRow{Reason::qos_grp_wall_limit, "QOSGrpWallLimit"},
    ReasonRow{Reason::reservation, "Reservation"},
    ReasonRow{Reason::reservation_deleted, "ReservationDeleted"},
    // Slurm keeps WAIT_NODE_NOT_AVAIL with a description for this one: its
    // name is ReqNodeNotAvail (sacct, --json), its text the description.
    ReasonRow{Reason::reserved_for_maintenance, "ReqNodeNotAvail"},
    ReasonRow{Reason::licenses, "Licenses"},
    ReasonRow{Reason::bad_constraints, "BadConstraints"},
    ReasonRow{Reason::special_exit, "JobHeldUser"},
};

// Reasons are stored by number and looked up here by number: row i is reason i.
constexpr bool rows_in_order() {
  for (std::size_t i = 0; i < k_reasons.size(); ++i) {
    if (static_cast<std::size_t>(k_reasons[i].reason) != i) return false;
  }
  return true;
}
static_assert(rows_in_order(), "k_reasons must list every Reason in enum order");

}  // namespace

std::int64_t model_detail::last_reason_value() {
  return static_cast<std::int64_t>(std::size(k_reasons)) - 1;
}

std::string_view reason_name(Reason r) { return k_reasons[static_cast<std::size_t>(r)].name; }

std::optional<Reason> reason_from_name(std::string_view name) {
  for (const auto& row : k_reasons) {
    if (row.name == name) return row.reason;
  }
  return std::nullopt;
}

}  // namespace stint
