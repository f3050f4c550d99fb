#include "config/purge_age.hpp"

#include <ctime>

#include <fmt/format.h>

namespace stint::config {
namespace {

// A case-insensitive prefix of `word`, at least one letter long.
bool abbreviates(std::string_view text, std::string_view word) {
  if (text.empty() || text.size() > word.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c =
        text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
    if (c != word[i]) return false;
  }
  return true;
}

struct Parsed {
  std::optional<PurgeAge> age;
  std::string problem;
};

Parsed parse(std::string_view text) {
  if (text.empty()) return {};
  std::size_t digits = 0;
  std::uint64_t count = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    count = count * 10 + static_cast<std::uint64_t>(text[digits] - '0');
    if (count > 0xfffffff) return {std::nullopt, fmt::format("\"{}\" is too long an age", text)};
    ++digits;
  }
  if (digits == 0)
    return {std::nullopt,
            fmt::format("\"{}\" is not an age (a number of months, or of days or hours: "
                        "12months, 30days, 24hours)",
                        text)};
  const std::string_view unit = text.substr(digits);
  PurgeAge age;
  age.count = static_cast<std::uint32_t>(count);
  if (unit.empty() || abbreviates(unit, "months")) {
    age.unit = PurgeAge::Unit::months;
  } else if (abbreviates(unit, "hours")) {
    age.unit = PurgeAge::Unit::hours;
  } else if (abbreviates(unit, "days")) {
    age.unit = PurgeAge::Unit::days;
  } else {
    return {std::nullopt,
            fmt::format("\"{}\": invalid purge unit '{}', valid options are hours, days, or months",
                        text, unit)};
  }
  return {age, {}};
}

}  // namespace

std::string purge_age_problem(std::string_view text) { return parse(text).problem; }

std::optional<PurgeAge> purge_age(std::string_view text) { return parse(text).age; }

std::string purge_age_text(const std::optional<PurgeAge>& age) {
  if (!age) return "NONE";
  switch (age->unit) {
    case PurgeAge::Unit::hours:
      return fmt::format("{} hours", age->count);
    case PurgeAge::Unit::days:
      return fmt::format("{} days", age->count);
    case PurgeAge::Unit::months:
      break;
  }
  return fmt::format("{} months", age->count);
}

Seconds purge_cutoff(const PurgeAge& age, Seconds now) {
  const auto t = static_cast<std::time_t>(now);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  tm.tm_sec = 0;
  tm.tm_min = 0;
  const int count = static_cast<int>(age.count);
  switch (age.unit) {
    case PurgeAge::Unit::hours:
      tm.tm_hour -= count;
      break;
    case PurgeAge::Unit::days:
      tm.tm_hour = 0;
      tm.tm_mday -= count;
      break;
    case PurgeAge::Unit::months:
      tm.tm_hour = 0;
      tm.tm_mday = 1;
      tm.tm_mon -= count;
      break;
  }
  // Whether daylight saving time is in effect is mktime's to decide.
  tm.tm_isdst = -1;
  return static_cast<Seconds>(std::mktime(&tm)) - 1;
}

}  // namespace stint::config
