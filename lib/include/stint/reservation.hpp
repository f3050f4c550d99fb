#pragma once
/// Advance reservations (`scontrol create reservation`): whole nodes set aside
/// for a time window, for some users or accounts. The record stintd keeps,
/// what scontrol asks to create or change one, and scontrol's words for them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

/// Slurm's reservation flags (RESERVE_FLAG_*) that stint honours, plus the
/// ones it records about a reservation's nodes (SPEC_NODES, ALL_NODES,
/// PART_NODES), in the order Slurm prints them.
enum class ResvFlag : std::uint8_t {
  maint,         ///< MAINT: maintenance; its nodes show MAINT
  flex,          ///< FLEX: its jobs may start before it, run past it, use other nodes
  overlap,       ///< OVERLAP: may share nodes with other reservations
  ignore_jobs,   ///< IGNORE_JOBS: made even where running jobs would still run
  hourly,        ///< HOURLY: repeats every hour
  daily,         ///< DAILY: repeats every day
  weekday,       ///< WEEKDAY: repeats Monday to Friday
  weekend,       ///< WEEKEND: repeats Saturday and Sunday
  weekly,        ///< WEEKLY: repeats every week
  spec_nodes,    ///< SPEC_NODES: its nodes were named (Nodes=)
  all_nodes,     ///< ALL_NODES: Nodes=ALL
  part_nodes,    ///< PART_NODES: every node of its partition
  purge_comp,    ///< PURGE_COMP[=time]: ends once idle that long
  no_hold_jobs,  ///< NO_HOLD_JOBS_AFTER_END: its pending jobs are not held at its end
};

/// A set of ResvFlag.
class ResvFlags {
 public:
  bool has(ResvFlag f) const { return (m_bits & bit(f)) != 0; }
  void set(ResvFlag f) { m_bits |= bit(f); }
  void clear(ResvFlag f) { m_bits &= ~bit(f); }
  bool empty() const { return m_bits == 0; }
  std::uint32_t bits() const { return m_bits; }
  static ResvFlags from_bits(std::uint32_t bits) {
    ResvFlags f;
    f.m_bits = bits;
    return f;
  }
  /// Repeats (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY).
  bool repeats() const;
  bool operator==(const ResvFlags&) const = default;

 private:
  static std::uint32_t bit(ResvFlag f) { return std::uint32_t{1} << static_cast<unsigned>(f); }
  std::uint32_t m_bits = 0;
};

/// An advance reservation as stintd keeps it (the `reservations` table).
struct Reservation {
  std::string name;
  /// ReservationId: a new one each time a repeating reservation moves on.
  std::uint32_t id = 0;
  Seconds start_time = k_no_time;
  Seconds end_time = k_no_time;
  /// Duration= as given (seconds), which a later StartTime= keeps; unset when
  /// the end was given instead.
  std::optional<Seconds> duration;
  std::vector<std::string> nodes;  ///< in config order
  /// Users= and Accounts= as Slurm keeps and shows them: "alice,bob", or
  /// "-carol" for everyone but carol; empty: not given.
  std::string users;
  std::string accounts;
  std::string partition;  ///< PartitionName=; "" none
  std::string features;   ///< Features=, as given
  ResvFlags flags;
  Seconds purge_comp_time = 300;  ///< PURGE_COMP=<time>, 5 minutes by default
  /// PURGE_COMP: since when it has had no job (k_no_time: in use, or not started).
  Seconds idle_since = k_no_time;
  bool operator==(const Reservation&) const = default;
};

/// Active as Slurm shows it (State=ACTIVE): start <= now <= end.
bool reservation_active(const Reservation& r, Seconds now);
/// Whether it holds its nodes at `now` (start <= now < end), as the nodes'
/// RESERVED and MAINT states say.
bool reservation_holds_nodes(const Reservation& r, Seconds now);
/// Flags= as Slurm prints them ("MAINT,SPEC_NODES", "PURGE_COMP=00:05:00"),
/// "" when none.
std::string reservation_flags_text(const Reservation& r);

/// A Users= or Accounts= list: the names, and whether it names the ones
/// denied ("-a,-b") rather than those allowed.
struct NameList {
  std::vector<std::string> names;
  bool denied = false;
};
/// Splits "a,b" or "-a,-b"; throws Errc::invalid_argument for a mixed list
/// ("a,-b") or an empty name.
NameList name_list(std::string_view text);
/// Applies an update ("+a,+b", "-a", or a plain list, which replaces) to a
/// list as Slurm does: a plain list replaces it; "+x" adds and "-x" removes
/// (in a list of denied names, the other way round); removing the last name
/// or a name that is not there is refused (Errc::invalid_argument).
std::string update_name_list(std::string_view current, std::string_view change,
                             bool missing_removal_ok);

/// What `scontrol create|update reservation` asks for: each field as given
/// (times resolved when typed, as scontrol does), unset when not given.
struct ReservationRequest {
  std::optional<std::string> name;
  std::optional<Seconds> start_time;
  std::optional<Seconds> end_time;
  /// Duration= in seconds (whole minutes); k_infinite for UNLIMITED.
  std::optional<Seconds> duration;
  char duration_sign = 0;  ///< Duration+= / Duration-= ('+', '-'): an update adds or takes away
  std::optional<std::string> users;     ///< Users+=a becomes "+a"
  std::optional<std::string> accounts;  ///< likewise
  std::optional<std::string> nodes;     ///< a hostlist, or "ALL"
  std::optional<std::uint32_t> node_count;
  std::optional<std::string> partition;
  std::optional<std::string> features;
  ResvFlags flags_set;    ///< Flags=X or Flags+=X
  ResvFlags flags_clear;  ///< Flags-=X
  std::optional<Seconds> purge_comp_time;
  bool skip = false;  ///< Skip: a repeating reservation moves on to its next time
  bool operator==(const ReservationRequest&) const = default;
};

/// Which scontrol command the words are for: each has its own trailing
/// sentence in Slurm's messages ("No reservation created.").
enum class ResvCommand : std::uint8_t { create, update };

/// Parses the words of `scontrol create reservation ...` or `scontrol update
/// ReservationName=... ...` as Slurm's scontrol does (keys abbreviated and
/// case-insensitive, "res"/"reservation" words skipped, Key+=/Key-= forms,
/// times resolved against `now`), then the checks scontrol makes before it
/// asks the controller. Throws Errc::invalid_argument with Slurm's message
/// (the text after "scontrol: error: "), or with stint's for what stint does
/// not support (Groups, CoreCnt, TRES, Licenses, BurstBuffer, Watts,
/// MaxStartDelay, and the flags it cannot honour), saying what exists.
ReservationRequest parse_reservation_words(const std::vector<std::string>& words,
                                           ResvCommand command, Seconds now);

}  // namespace stint
STINT_API_END
