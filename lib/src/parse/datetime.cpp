// Points in time: --begin, --deadline and sacct -S/-E, and Slurm's timestamp form.

#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

constexpr Seconds k_day = Seconds{24} * 60 * 60;

[[noreturn]] void invalid_date(std::string_view text) {
  throw Error(Errc::invalid_time, fmt::format("Invalid time specification \"{}\"", text));
}

struct Keyword {
  std::string_view word;
  int hour;  ///< the time of day it names
};
// Slurm's named times of day (parse_time.c), matched case-insensitively.
constexpr std::array k_time_words = {
    Keyword{"midnight", 0}, Keyword{"noon", 12},    Keyword{"elevenses", 11},
    Keyword{"fika", 15},    Keyword{"teatime", 16},
};

struct Unit {
  std::string_view word;
  Seconds seconds;
};
// Longest first, so "minutes" is not read as "minute" followed by junk.
constexpr std::array k_units = {
    Unit{"seconds", 1},       Unit{"second", 1},       Unit{"minutes", 60}, Unit{"minute", 60},
    Unit{"hours", 3600},      Unit{"hour", 3600},      Unit{"days", k_day}, Unit{"day", k_day},
    Unit{"weeks", 7 * k_day}, Unit{"week", 7 * k_day},
};

struct Date {
  std::optional<int> year;  ///< e.g. 2026; unset: this year or the next/last
  int month = 0;            ///< 1..12
  int day = 0;              ///< 1..31
};

struct TimeOfDay {
  int hour = 0;
  int minute = 0;
  int second = 0;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The text being read, with the position moving forward as tokens are taken.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : m_text(text) {}

  bool done() const { return m_pos >= m_text.size(); }
  char peek(std::size_t ahead = 0) const {
    return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
  }
  std::string_view rest() const { return m_text.substr(m_pos); }
  void skip(std::size_t n) { m_pos += n; }
  void skip_blanks() {
    while (is_blank(peek())) ++m_pos;
  }
  bool take_word(std::string_view word) {
    if (!detail::istarts_with(rest(), word)) return false;
    m_pos += word.size();
    return true;
  }
  /// Between `min` and `max` digits as a number, or nullopt (taking nothing).
  std::optional<int> take_number(std::size_t min, std::size_t max) {
    const std::size_t n = std::min(detail::digit_run(rest()), max);
    if (n < min) return std::nullopt;
    const auto value = detail::parse_digits(m_text.substr(m_pos, n), 1'000'000);
    m_pos += n;
    return static_cast<int>(*value);
  }

 private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

// "HH:MM[:SS] [AM|PM]"; the caller has seen a ':' within the first three characters.
std::optional<TimeOfDay> take_time(Cursor& in) {
  TimeOfDay t;
  const auto hour = in.take_number(1, 2);
  if (!hour || *hour > 23 || in.peek() != ':') return std::nullopt;
  in.skip(1);
  const auto minute = in.take_number(2, 2);
  if (!minute || *minute > 59) return std::nullopt;
  t.hour = *hour;
  t.minute = *minute;
  if (in.peek() == ':') {
    in.skip(1);
    const auto second = in.take_number(2, 2);
    if (!second || *second > 59) return std::nullopt;
    t.second = *second;
  }
  Cursor after = in;
  after.skip_blanks();
  if (after.take_word("pm")) {
    if (t.hour > 12) return std::nullopt;
    if (t.hour < 12) t.hour += 12;
    in = after;
  } else if (after.take_word("am")) {
    if (t.hour > 12) return std::nullopt;
    if (t.hour == 12) t.hour = 0;
    in = after;
  }
  return t;
}

// "YYYY-MM-DD", "MM/DD[/YY]", "MM.DD[.YY]" or "MMDD[YY]".
std::optional<Date> take_date(Cursor& in) {
  Date d;
  if (detail::digit_run(in.rest()) == 4 && in.peek(4) == '-') {
    d.year = in.take_number(4, 4);
    in.skip(1);
    const auto month = in.take_number(2, 2);
    if (!month || in.peek() != '-') return std::nullopt;
    in.skip(1);
    const auto day = in.take_number(1, 2);
    if (!day) return std::nullopt;
    d.month = *month;
    d.day = *day;
  } else {
    const auto month = in.take_number(1, 2);
    if (!month) return std::nullopt;
    const char sep = in.peek();
    const bool separated = sep == '/' || sep == '.';
    if (separated) in.skip(1);
    const auto day = in.take_number(1, 2);
    if (!day) return std::nullopt;
    d.month = *month;
    d.day = *day;
    if (separated ? in.peek() == sep : detail::is_digit(in.peek())) {
      if (separated) in.skip(1);
      const auto year = in.take_number(2, 2);
      if (!year) return std::nullopt;
      d.year = 2000 + *year;
    }
  }
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > 31) return std::nullopt;
  return d;
}

// "now[{+|-}N[unit]]", blanks allowed between the parts.
std::optional<Seconds> take_now(Cursor& in, Seconds now) {
  in.skip_blanks();
  if (in.done()) return now;
  const char sign = in.peek();
  if (sign != '+' && sign != '-') return std::nullopt;
  in.skip(1);
  in.skip_blanks();
  const std::size_t digits = detail::digit_run(in.rest());
  // Bounded so that the offset, at most 10^12 weeks, stays inside 64 bits.
  const auto count = detail::parse_digits(in.rest().substr(0, digits), 1'000'000'000'000);
  if (!count) return std::nullopt;
  in.skip(digits);
  in.skip_blanks();
  Seconds unit = 1;
  for (const auto& u : k_units) {
    if (in.take_word(u.word)) {
      unit = u.seconds;
      break;
    }
  }
  in.skip_blanks();
  if (!in.done()) return std::nullopt;
  const Seconds delta = static_cast<Seconds>(*count) * unit;
  return sign == '+' ? now + delta : now - delta;
}

int days_in_month(int year, int month) {
  constexpr std::array k_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : k_days[static_cast<std::size_t>(month - 1)];
}

std::tm local_tm(Seconds t) {
  const auto tt = static_cast<std::time_t>(t);
  std::tm tm{};
  localtime_r(&tt, &tm);
  return tm;
}

// Whether (month, day, hour, minute) comes after now's, Slurm's test for
// "this year" (seconds do not take part, as in parse_time).
bool later_this_year(const std::tm& now, int month, int day, int hour, int minute) {
  const int m = month - 1;
  if (m != now.tm_mon) return m > now.tm_mon;
  if (day != now.tm_mday) return day > now.tm_mday;
  if (hour != now.tm_hour) return hour > now.tm_hour;
  return minute > now.tm_min;
}

}  // namespace

Seconds date_time(std::string_view text, Seconds now) {
  return date_time(text, now, Resolve::future);
}

Seconds date_time(std::string_view text, Seconds now, Resolve resolve) {
  Cursor in(text);
  in.skip_blanks();
  if (in.take_word("now")) {
    if (const auto t = take_now(in, now)) return *t;
    invalid_date(text);
  }

  const std::tm now_tm = local_tm(now);
  std::optional<Date> date;
  std::optional<TimeOfDay> time;
  const auto set_date = [&](const Date& d) {
    if (date) invalid_date(text);
    date = d;
  };
  const auto set_time = [&](const TimeOfDay& t) {
    if (time) invalid_date(text);
    time = t;
  };
  const auto date_of = [](const std::tm& tm) {
    return Date{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
  };

  bool first = true;
  while (true) {
    in.skip_blanks();
    if (in.done()) break;
    // A date and a time may be joined by blanks, '-' or 'T' ("2026-12-01T10:00",
    // "12/01-10:00", "tomorrow noon"); "today", "tomorrow" and "teatime" bring
    // their own T.
    const bool t_word = detail::istarts_with(in.rest(), "today") ||
                        detail::istarts_with(in.rest(), "tomorrow") ||
                        detail::istarts_with(in.rest(), "teatime");
    if (in.peek() == '-' || (in.peek() == 'T' && !t_word)) {
      if (first) invalid_date(text);
      in.skip(1);
      in.skip_blanks();
      if (in.done()) invalid_date(text);
    }
    first = false;

    if (in.take_word("today")) {
      set_date(date_of(now_tm));
      continue;
    }
    if (in.take_word("tomorrow")) {
      set_date(date_of(local_tm(now + k_day)));
      continue;
    }
    bool named = false;
    for (const auto& k : k_time_words) {
      if (in.take_word(k.word)) {
        set_time(TimeOfDay{k.hour, 0, 0});
        named = true;
        break;
      }
    }
    if (named) continue;

    if (!detail::is_digit(in.peek())) invalid_date(text);
    if (in.peek(1) == ':' || in.peek(2) == ':') {
      const auto t = take_time(in);
      if (!t) invalid_date(text);
      set_time(*t);
    } else {
      const auto d = take_date(in);
      if (!d) invalid_date(text);
      set_date(*d);
    }
  }
  if (!date && !time) invalid_date(text);

  // A time without a date is the next one to come (or, looking back, today's).
  if (!date) {
    const bool today = resolve == Resolve::past || time->hour > now_tm.tm_hour ||
                       (time->hour == now_tm.tm_hour && time->minute > now_tm.tm_min);
    date = date_of(today ? now_tm : local_tm(now + k_day));
  }
  // A date without a time means its midnight.
  if (!time) time = TimeOfDay{};
  // A date without a year is this year's unless that has passed (or, looking
  // back, unless it is still to come).
  if (!date->year) {
    const int this_year = now_tm.tm_year + 1900;
    if (resolve == Resolve::past) {
      date->year = date->month - 1 > now_tm.tm_mon ? this_year - 1 : this_year;
    } else {
      date->year = later_this_year(now_tm, date->month, date->day, time->hour, time->minute)
                       ? this_year
                       : this_year + 1;
    }
  }
  if (date->day > days_in_month(*date->year, date->month)) invalid_date(text);

  std::tm tm{};
  tm.tm_year = *date->year - 1900;
  tm.tm_mon = date->month - 1;
  tm.tm_mday = date->day;
  tm.tm_hour = time->hour;
  tm.tm_min = time->minute;
  tm.tm_sec = time->second;
  tm.tm_isdst = -1;  // let the zone's rules say whether summer time applies
  const std::time_t result = std::mktime(&tm);
  if (result == static_cast<std::time_t>(-1)) invalid_date(text);
  return static_cast<Seconds>(result);
}

std::string format_timestamp(Seconds t) {
  // Slurm shows both "never set" and INFINITE as Unknown.
  if (t == k_no_time || t == k_infinite) return "Unknown";
  const std::tm tm = local_tm(t);
  std::array<char, 64> buf{};
  const std::size_t n = std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%S", &tm);
  return std::string(buf.data(), n);
}

}  // namespace stint::parse
