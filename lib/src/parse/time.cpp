// Time limits and durations: sbatch --time's grammar and the squeue/sacct forms.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

// Slurm computes time_str2secs() in a C int, so longer durations wrap around
// there (that is how "-5" becomes 2982611 days); refuse them instead.
constexpr Seconds k_max_duration = 2147483647;
constexpr Seconds k_minute = 60;
constexpr Seconds k_hour = 60 * k_minute;
constexpr Seconds k_day = 24 * k_hour;

bool is_infinite_word(std::string_view text) {
  return text == "-1" || detail::iequals(text, "INFINITE") || detail::iequals(text, "UNLIMITED");
}

// The seconds a time specification stands for, unrounded; nullopt when it is
// not one of the documented forms. Unlike Slurm's sscanf-based parser every
// field must be present ("1-" and "5:" are refused) and nothing may be signed.
std::optional<Seconds> parse_time_fields(std::string_view text) {
  std::optional<std::uint64_t> days;
  std::string_view rest = text;
  if (const auto dash = text.find('-'); dash != std::string_view::npos) {
    days = detail::parse_digits(text.substr(0, dash), k_max_duration);
    if (!days) return std::nullopt;
    rest = text.substr(dash + 1);
  }

  std::array<std::uint64_t, 3> fields{};
  std::size_t count = 0;
  while (true) {
    const auto colon = rest.find(':');
    if (count == fields.size()) return std::nullopt;
    const auto field = detail::parse_digits(rest.substr(0, colon), k_max_duration);
    if (!field) return std::nullopt;
    fields[count++] = *field;
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }

  Seconds total = 0;
  const auto f = [&](std::size_t i) { return static_cast<Seconds>(fields[i]); };
  if (days) {
    // days-hours[:minutes[:seconds]]
    total = static_cast<Seconds>(*days) * k_day + f(0) * k_hour;
    if (count > 1) total += f(1) * k_minute;
    if (count > 2) total += f(2);
  } else if (count == 3) {
    total = f(0) * k_hour + f(1) * k_minute + f(2);  // hours:minutes:seconds
  } else {
    // A lone colon means minutes:seconds, not hours:minutes.
    total = f(0) * k_minute + (count == 2 ? f(1) : 0);
  }
  if (total > k_max_duration) return std::nullopt;
  return total;
}

}  // namespace

Seconds time_limit(std::string_view text) {
  if (is_infinite_word(text)) return k_infinite;
  const auto seconds = parse_time_fields(text);
  if (!seconds) throw Error(Errc::invalid_time, "Invalid --time specification");
  // sbatch turns a zero limit into no limit (Slurm's arg_set_time).
  if (*seconds == 0) return k_infinite;
  // Slurm keeps job limits in whole minutes and rounds up (time_str2mins).
  return (*seconds + k_minute - 1) / k_minute * k_minute;
}

Seconds duration(std::string_view text) {
  if (is_infinite_word(text)) return k_infinite;
  const auto seconds = parse_time_fields(text);
  if (!seconds) {
    throw Error(Errc::invalid_time, fmt::format("Invalid time specification \"{}\"", text));
  }
  return *seconds;
}

std::string format_duration(Seconds s) {
  if (s == k_infinite) return "UNLIMITED";
  if (s < 0) return "INVALID";
  const Seconds days = s / k_day;
  const Seconds hours = s / k_hour % 24;
  const Seconds minutes = s / k_minute % 60;
  const Seconds seconds = s % 60;
  if (days > 0) return fmt::format("{}-{:02}:{:02}:{:02}", days, hours, minutes, seconds);
  if (hours > 0) return fmt::format("{}:{:02}:{:02}", hours, minutes, seconds);
  return fmt::format("{}:{:02}", minutes, seconds);
}

std::string format_duration_fixed(Seconds s) {
  if (s == k_infinite) return "UNLIMITED";
  if (s < 0) return "INVALID";
  const Seconds days = s / k_day;
  const Seconds hours = s / k_hour % 24;
  const Seconds minutes = s / k_minute % 60;
  const Seconds seconds = s % 60;
  if (days > 0) return fmt::format("{}-{:02}:{:02}:{:02}", days, hours, minutes, seconds);
  return fmt::format("{:02}:{:02}:{:02}", hours, minutes, seconds);
}

std::string format_time_limit(Seconds s) { return format_duration(s); }

}  // namespace stint::parse
