#include <array>

#include <stint/error.hpp>

namespace stint {
namespace {

struct ErrcRow {
  Errc code;
  std::string_view name;
  std::string_view slurm_message;
  int exit_status;
};

// One table for every code: its wire name, Slurm's wording, and the exit status.
constexpr std::array k_errc_table = {
    ErrcRow{Errc::ok, "ok", "Success", 0},
    ErrcRow{Errc::usage, "usage", "Invalid command line", 255},
    ErrcRow{Errc::invalid_argument, "invalid_argument", "Invalid argument", 1},
    ErrcRow{Errc::invalid_time, "invalid_time", "Invalid --time specification", 255},
    ErrcRow{Errc::invalid_partition, "invalid_partition", "Invalid partition name specified", 1},
    ErrcRow{Errc::partition_unavailable, "partition_unavailable",
            "Required partition not available (inactive or drain)", 1},
    ErrcRow{Errc::invalid_account, "invalid_account",
            "Invalid account or account/partition combination specified", 1},
    ErrcRow{Errc::invalid_qos, "invalid_qos", "Invalid qos specification", 1},
    ErrcRow{Errc::accounting_policy, "accounting_policy",
            "Job violates accounting/QOS policy (job submit limit, user's size and/or time "
            "limits)",
            1},
    ErrcRow{Errc::invalid_gres, "invalid_gres", "Invalid generic resource (gres) specification", 1},
    ErrcRow{Errc::invalid_node_name, "invalid_node_name", "Invalid node name specified", 1},
    ErrcRow{Errc::invalid_mcs_label, "invalid_mcs_label", "Invalid mcs_label specified", 1},
    ErrcRow{Errc::invalid_array, "invalid_array", "Invalid job array specification", 1},
    ErrcRow{Errc::invalid_job_id, "invalid_job_id", "Invalid job id specified", 1},
    ErrcRow{Errc::node_config_unavailable, "node_config_unavailable",
            "Requested node configuration is not available", 1},
    ErrcRow{Errc::time_limit_exceeds, "time_limit_exceeds",
            "Requested time limit is invalid (missing or exceeds some limit)", 1},
    ErrcRow{Errc::job_state_invalid, "job_state_invalid",
            "Job/step already completing or completed", 1},
    ErrcRow{Errc::access_denied, "access_denied", "Access/permission denied", 1},
    ErrcRow{Errc::batch_script_invalid, "batch_script_invalid", "Invalid batch script", 1},
    ErrcRow{Errc::config_invalid, "config_invalid", "Invalid configuration", 1},
    ErrcRow{Errc::store, "store", "State database error", 1},
    ErrcRow{Errc::daemon_unavailable, "daemon_unavailable",
            "Unable to contact slurm controller (connect failure)", 1},
    ErrcRow{Errc::protocol, "protocol", "Protocol error", 1},
    ErrcRow{Errc::io, "io", "I/O error", 1},
    ErrcRow{Errc::reservation_invalid, "reservation_invalid", "Requested reservation is invalid",
            1},
    ErrcRow{Errc::reservation_access, "reservation_access",
            "Access denied to requested reservation", 1},
    ErrcRow{Errc::reservation_busy, "reservation_busy", "Requested reservation is in use", 1},
    ErrcRow{Errc::reservation_overlap, "reservation_overlap",
            "Requested reservation overlaps with another reservation", 1},
    ErrcRow{Errc::reservation_name_dup, "reservation_name_dup", "Duplicate reservation name", 1},
    ErrcRow{Errc::reservation_empty, "reservation_empty",
            "Reservation request lacks users, groups or accounts", 1},
    ErrcRow{Errc::reservation_started, "reservation_started", "Reservation already started", 1},
    ErrcRow{Errc::reservation_no_skip, "reservation_no_skip",
            "Reservation given is not skipable, try deleting instead", 1},
    ErrcRow{Errc::nodes_busy, "nodes_busy", "Requested nodes are busy", 1},
    ErrcRow{Errc::invalid_user, "invalid_user", "Invalid user id", 1},
    ErrcRow{Errc::invalid_time_value, "invalid_time_value", "Invalid time specified", 1},
    ErrcRow{Errc::invalid_feature, "invalid_feature", "Invalid feature specification", 1},
    ErrcRow{Errc::invalid_node_count, "invalid_node_count", "Node count specification invalid", 1},
    ErrcRow{Errc::invalid_license, "invalid_license", "Invalid license specification", 1},
    ErrcRow{Errc::invalid_time_min, "invalid_time_min",
            "Invalid time-min specification (exceeds job's time or other limits)", 1},
    ErrcRow{Errc::timed_out, "timed_out", "Socket timed out on send/recv operation", 1},
    ErrcRow{Errc::try_again, "try_again", "Resource temporarily unavailable", 1},
    ErrcRow{Errc::internal, "internal", "Unexpected error", 1},
};

const ErrcRow& row(Errc code) {
  for (const auto& r : k_errc_table) {
    if (r.code == code) return r;
  }
  return k_errc_table.back();
}

}  // namespace

std::string_view errc_name(Errc code) { return row(code).name; }
std::string_view errc_slurm_message(Errc code) { return row(code).slurm_message; }
int errc_exit_status(Errc code) { return row(code).exit_status; }

Errc errc_from_name(std::string_view name) {
  for (const auto& r : k_errc_table) {
    if (r.name == name) return r.code;
  }
  return Errc::internal;
}

}  // namespace stint
