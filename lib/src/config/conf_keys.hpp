#pragma once
// The slurm.conf keys stint knows, with Slurm's defaults: one table that
// validation, the typed accessors and `stint config show` all read
// (`scontrol show config` reads the values through Config).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <stint/model.hpp>

namespace stint::config_detail {

enum class ConfKind : std::uint8_t {
  integer,     ///< a whole number in [min, max]
  seconds,     ///< a whole number of seconds, shown "30 sec"
  minutes,     ///< a whole number of minutes, shown "0 min"
  memory,      ///< MiB with an optional K/M/G/T suffix; 0 is UNLIMITED
  time,        ///< a Slurm time string ("5", "7-0", "00:10:00", "UNLIMITED", "-1")
  word,        ///< one of `words` (case-insensitive)
  words,       ///< a comma-separated list of `words` (case-insensitive)
  text,        ///< anything
  rlimits,     ///< resource limit names (Slurm's list: ALL, NONE, CORE,NOFILE...); "" unset
  exit_codes,  ///< exit codes and ranges of them ("1-9,18"); "" none
  purge,       ///< slurmdbd's age of records to purge ("12months", "30days", "24hours"); "" never
};

struct ConfKey {
  std::string_view name;           ///< Slurm's spelling
  std::string_view default_value;  ///< as slurm.conf would say it; "" is (null)
  ConfKind kind = ConfKind::text;
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::string_view words;  ///< '|'-separated choices for word and words
};

/// Every known key, sorted case-insensitively by name.
std::span<const ConfKey> conf_keys();
/// The key named `name` (case-insensitive); nullptr when unknown.
const ConfKey* find_conf_key(std::string_view name);
/// What is wrong with `value` for `key`; "" when it is valid.
std::string conf_value_problem(const ConfKey& key, std::string_view value);
/// The value as `stint config show` prints it: "30 sec", "7-00:00:00",
/// "(null)" for empty text.
std::string conf_display_value(const ConfKey& key, std::string_view value);
/// A time key's value in seconds (parse::duration: exact, "0" is 0, the
/// infinite words k_infinite). Throws Errc::config_invalid.
Seconds conf_time_value(const ConfKey& key, std::string_view value);
/// The value of an integer, seconds, minutes or memory key as a number (MiB for
/// memory); throws Errc::config_invalid.
std::int64_t conf_value_int(const ConfKey& key, std::string_view value);

}  // namespace stint::config_detail
