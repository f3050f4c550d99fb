#include <stint/model.hpp>

#include <array>

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
};

}  // namespace

std::string_view reason_name(Reason r) { return k_reasons[static_cast<std::size_t>(r)].name; }

std::optional<Reason> reason_from_name(std::string_view name) {
  for (const auto& row : k_reasons) {
    if (row.name == name) return row.reason;
  }
  return std::nullopt;
}

}  // namespace stint
