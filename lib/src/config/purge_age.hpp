#pragma once
// slurmdbd.conf's PurgeJobAfter and PurgeStepAfter: how old a record must be
// before it is purged, "12" or "12months", "30days", "24hours" (the unit's
// leading letters are enough, as slurmdb_parse_purge reads them).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <stint/model.hpp>

namespace stint::config {

struct PurgeAge {
  enum class Unit : std::uint8_t { hours, days, months };
  std::uint32_t count = 0;
  Unit unit = Unit::months;
  bool operator==(const PurgeAge&) const = default;
};

/// Why `text` is not a purge age; empty when it is (or is empty: never).
std::string purge_age_problem(std::string_view text);
/// The age `text` says; none when it is empty or malformed.
std::optional<PurgeAge> purge_age(std::string_view text);
/// As slurmdbd prints it: "12 months", "30 days", "24 hours"; "NONE".
std::string purge_age_text(const std::optional<PurgeAge>& age);
/// The newest time a record may have and be purged at `now`, as slurmdbd's
/// archive_setup_end_time: the start of the current hour, day or month
/// (local time), `count` units back, less one second.
Seconds purge_cutoff(const PurgeAge& age, Seconds now);

}  // namespace stint::config
