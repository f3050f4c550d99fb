#pragma once
/// Errors: every failure libstint reports is a stint::Error carrying a stable code.
/// The library never prints or exits; one boundary per tool (run_tool) prints
/// `<tool>: error: <message>` and maps the code to an exit status.

#include <stdexcept>
#include <string>
#include <string_view>

#include <stint/export.hpp>

STINT_API_BEGIN
namespace stint {

/// Stable error codes. The table in error.cpp holds each code's name, Slurm's
/// message for it and the exit status a tool returns.
enum class Errc {
  ok = 0,
  usage,                    ///< bad command line (exit 255 like Slurm's getopt errors)
  invalid_argument,         ///< a value the user gave does not parse
  invalid_time,             ///< --time and friends
  invalid_partition,        ///< "Invalid partition name specified"
  partition_unavailable,    ///< "Required partition not available (inactive or drain)"
  invalid_account,          ///< "Invalid account or account/partition combination specified"
  invalid_qos,              ///< "Invalid qos specification"
  accounting_policy,        ///< "Job violates accounting/QOS policy (job submit limit, ...)"
  invalid_gres,             ///< "Invalid generic resource (gres) specification"
  invalid_node_name,        ///< "Invalid node name specified"
  invalid_mcs_label,        ///< "Invalid mcs_label specified"
  invalid_array,            ///< "Invalid job array specification"
  invalid_job_id,           ///< "Invalid job id specified"
  node_config_unavailable,  ///< "Requested node configuration is not available"
  time_limit_exceeds,       ///< "Requested time limit is invalid (missing or exceeds some limit)"
  job_state_invalid,        ///< "Job/step already completing or completed" and similar
  access_denied,            ///< "Access/permission denied"
  batch_script_invalid,     ///< not a script, empty script, unreadable script
  config_invalid,           ///< stint.yaml or the JSON cluster spec has an error
  store,                    ///< SQLite failed
  daemon_unavailable,       ///< stintd could not be reached or started
  protocol,                 ///< a malformed request or reply
  io,                       ///< a file or socket operation failed
  // Advance reservations (scontrol create|update|delete reservation, --reservation).
  reservation_invalid,   ///< "Requested reservation is invalid"
  reservation_access,    ///< "Access denied to requested reservation"
  reservation_busy,      ///< "Requested reservation is in use"
  reservation_overlap,   ///< "Requested reservation overlaps with another reservation"
  reservation_name_dup,  ///< "Duplicate reservation name"
  reservation_empty,     ///< "Reservation request lacks users, groups or accounts"
  reservation_started,   ///< "Reservation already started"
  reservation_no_skip,   ///< "Reservation given is not skipable, try deleting instead"
  nodes_busy,            ///< "Requested nodes are busy"
  invalid_user,          ///< "Invalid user id"
  invalid_time_value,    ///< "Invalid time specified"
  invalid_feature,       ///< "Invalid feature specification"
  invalid_node_count,    ///< "Node count specification invalid"
  invalid_license,       ///< "Invalid license specification"
  invalid_time_min,      ///< "Invalid time-min specification (exceeds job's time or other limits)"
  timed_out,             ///< "Socket timed out on send/recv operation" (MessageTimeout)
  try_again,             ///< "Resource temporarily unavailable": MaxJobCount reached
  internal,              ///< a bug (last: the table's fallback)
};

/// The name of a code, e.g. "invalid_partition" (used in the RPC protocol).
std::string_view errc_name(Errc code);
/// The inverse of errc_name; unknown names map to Errc::internal.
Errc errc_from_name(std::string_view name);
/// Slurm's wording for the code, e.g. "Invalid partition name specified".
std::string_view errc_slurm_message(Errc code);
/// The exit status a tool returns for the code (1 for most, 255 for usage errors).
int errc_exit_status(Errc code);

class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  Errc code() const noexcept { return m_code; }

 private:
  Errc m_code;
};

}  // namespace stint
STINT_API_END
