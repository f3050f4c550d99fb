#include <ctime>
#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::k_infinite;
using stint::k_no_time;
using stint::Seconds;
using stint::parse::date_time;
using stint::parse::format_timestamp;
using stint::parse::Resolve;
using stint::test::error_of;

namespace {

// A local wall-clock time as seconds since the epoch, in whatever zone the test
// runs in, so the expectations hold everywhere.
Seconds local(int year, int month, int day, int hour = 0, int minute = 0, int second = 0) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  tm.tm_isdst = -1;
  return static_cast<Seconds>(std::mktime(&tm));
}

// When the transcripts were captured.
const Seconds k_now = local(2026, 11, 29, 18, 15, 44);

}  // namespace

TEST_CASE("date_time reads now with an offset", "[parse]") {
  CHECK(date_time("now", k_now) == k_now);
  CHECK(date_time("now+30", k_now) == k_now + 30);
  CHECK(date_time("now+3seconds", k_now) == k_now + 3);
  CHECK(date_time("now+1second", k_now) == k_now + 1);
  CHECK(date_time("now+1minute", k_now) == k_now + 60);
  CHECK(date_time("now+5minutes", k_now) == k_now + 300);
  CHECK(date_time("now+1hour", k_now) == k_now + 3600);
  CHECK(date_time("now+2hours", k_now) == k_now + 7200);
  CHECK(date_time("now+2days", k_now) == k_now + 2 * 86400);
  CHECK(date_time("now+1week", k_now) == k_now + 7 * 86400);
  CHECK(date_time("now+2weeks", k_now) == k_now + 14 * 86400);
  CHECK(date_time("now-1hour", k_now) == k_now - 3600);
  CHECK(date_time("NOW+1HOUR", k_now) == k_now + 3600);
  CHECK(date_time("now + 5 minutes", k_now) == k_now + 300);
}

TEST_CASE("date_time puts a time of day on the next day it comes", "[parse]") {
  CHECK(date_time("19:00", k_now) == local(2026, 11, 29, 19, 0));
  CHECK(date_time("19:00:30", k_now) == local(2026, 11, 29, 19, 0, 30));
  CHECK(date_time("18:16", k_now) == local(2026, 11, 29, 18, 16));
  // Slurm compares hours and minutes only: the current minute is already past.
  CHECK(date_time("18:15", k_now) == local(2026, 11, 30, 18, 15));
  CHECK(date_time("18:15:59", k_now) == local(2026, 11, 30, 18, 15, 59));
  CHECK(date_time("10:00", k_now) == local(2026, 11, 30, 10, 0));
  CHECK(date_time("9:05", k_now) == local(2026, 11, 30, 9, 5));
  CHECK(date_time("0:00", k_now) == local(2026, 11, 30, 0, 0));
}

TEST_CASE("date_time reads AM and PM", "[parse]") {
  CHECK(date_time("7:30pm", k_now) == local(2026, 11, 29, 19, 30));
  CHECK(date_time("7:30 PM", k_now) == local(2026, 11, 29, 19, 30));
  CHECK(date_time("11:59:59pm", k_now) == local(2026, 11, 29, 23, 59, 59));
  CHECK(date_time("12:00am", k_now) == local(2026, 11, 30, 0, 0));
  CHECK(date_time("12:30pm", k_now) == local(2026, 11, 30, 12, 30));
  CHECK(date_time("9:00am", k_now) == local(2026, 11, 30, 9, 0));
}

TEST_CASE("date_time reads Slurm's named times of day", "[parse]") {
  CHECK(date_time("midnight", k_now) == local(2026, 11, 30, 0, 0));
  CHECK(date_time("noon", k_now) == local(2026, 11, 30, 12, 0));
  CHECK(date_time("elevenses", k_now) == local(2026, 11, 30, 11, 0));
  CHECK(date_time("fika", k_now) == local(2026, 11, 30, 15, 0));
  CHECK(date_time("teatime", k_now) == local(2026, 11, 30, 16, 0));
  CHECK(date_time("TeaTime", k_now) == local(2026, 11, 30, 16, 0));
  const Seconds morning = local(2026, 11, 29, 10, 0);
  CHECK(date_time("noon", morning) == local(2026, 11, 29, 12, 0));
  CHECK(date_time("teatime", morning) == local(2026, 11, 29, 16, 0));
}

TEST_CASE("date_time reads today and tomorrow, alone or with a time", "[parse]") {
  CHECK(date_time("today", k_now) == local(2026, 11, 29));
  CHECK(date_time("Today", k_now) == local(2026, 11, 29));
  CHECK(date_time("tomorrow", k_now) == local(2026, 11, 30));
  CHECK(date_time("tomorrow noon", k_now) == local(2026, 11, 30, 12, 0));
  CHECK(date_time("teatime tomorrow", k_now) == local(2026, 11, 30, 16, 0));
  CHECK(date_time("today 20:00", k_now) == local(2026, 11, 29, 20, 0));
  // An explicit date keeps a time that has passed on that date.
  CHECK(date_time("today 10:00", k_now) == local(2026, 11, 29, 10, 0));
  CHECK(date_time("tomorrowT10:00", k_now) == local(2026, 11, 30, 10, 0));
}

TEST_CASE("date_time reads ISO dates with an optional time", "[parse]") {
  CHECK(date_time("2026-12-01", k_now) == local(2026, 12, 1));
  CHECK(date_time("2026-12-1", k_now) == local(2026, 12, 1));
  CHECK(date_time("2026-12-01T10:00", k_now) == local(2026, 12, 1, 10, 0));
  CHECK(date_time("2026-12-01T10:00:30", k_now) == local(2026, 12, 1, 10, 0, 30));
  CHECK(date_time("2026-12-01 10:00", k_now) == local(2026, 12, 1, 10, 0));
  CHECK(date_time("2026-11-29T18:15:44", k_now) == k_now);
  CHECK(date_time("2025-01-01", k_now) == local(2025, 1, 1));
  CHECK(date_time("2028-02-29", k_now) == local(2028, 2, 29));
}

TEST_CASE("date_time reads US dates, choosing the year that comes next", "[parse]") {
  CHECK(date_time("12/01", k_now) == local(2026, 12, 1));
  CHECK(date_time("1/5", k_now) == local(2027, 1, 5));
  CHECK(date_time("11/28", k_now) == local(2027, 11, 28));
  // Today's midnight has passed, so Slurm takes next year's.
  CHECK(date_time("11/29", k_now) == local(2027, 11, 29));
  CHECK(date_time("11/29-20:00", k_now) == local(2026, 11, 29, 20, 0));
  CHECK(date_time("12/01/27", k_now) == local(2027, 12, 1));
  CHECK(date_time("12.01.27", k_now) == local(2027, 12, 1));
  CHECK(date_time("12.01", k_now) == local(2026, 12, 1));
  CHECK(date_time("120127", k_now) == local(2027, 12, 1));
  CHECK(date_time("1201", k_now) == local(2026, 12, 1));
  CHECK(date_time("12/01-10:00", k_now) == local(2026, 12, 1, 10, 0));
  CHECK(date_time("12/01/27T10:00", k_now) == local(2027, 12, 1, 10, 0));
}

TEST_CASE("date_time looking back resolves toward the past, as sacct does", "[parse]") {
  CHECK(date_time("10:00", k_now, Resolve::past) == local(2026, 11, 29, 10, 0));
  CHECK(date_time("20:00", k_now, Resolve::past) == local(2026, 11, 29, 20, 0));
  CHECK(date_time("12/01", k_now, Resolve::past) == local(2025, 12, 1));
  CHECK(date_time("11/01", k_now, Resolve::past) == local(2026, 11, 1));
  CHECK(date_time("now-1hour", k_now, Resolve::past) == k_now - 3600);
  CHECK(date_time("2026-12-01", k_now, Resolve::past) == local(2026, 12, 1));
  CHECK(date_time("10:00", k_now, Resolve::future) == local(2026, 11, 30, 10, 0));
}

TEST_CASE("date_time crosses the end of the year", "[parse]") {
  const Seconds new_years_eve = local(2026, 12, 31, 23, 30);
  CHECK(date_time("00:10", new_years_eve) == local(2027, 1, 1, 0, 10));
  CHECK(date_time("tomorrow", new_years_eve) == local(2027, 1, 1));
  CHECK(date_time("1/1", new_years_eve) == local(2027, 1, 1));
}

TEST_CASE("date_time refuses anything else, naming the text", "[parse]") {
  const std::string text = GENERATE(
      as<std::string>{}, "", " ", "notatime", "now+", "now+1x", "now+1hourx", "nowhere", "now+1h",
      "now*2", "now+-1", "25:00", "24:00", "12:60", "12:5", "12:00:60", "12:00:5", "13:00pm",
      "13:00am", "123:00", ":30", "2026-13-01", "2026-00-01", "2026-02-30", "2027-02-29",
      "2026-12-32", "02/30/27", "0/5", "13/01", "12/00", "12/32", "12", "12/", "12/01/",
      "12/01/2026", "today today", "today tomorrow", "noon 10:00", "noon midnight", "-12:00",
      "T12:00", "12:00-", "2026-12-01T", "12:00 xyz", "tea", "12:00:00:00", "12/01.27", "+1hour");
  CAPTURE(text);
  const auto e = error_of([&] { (void)date_time(text, k_now); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_time);
  CHECK(std::string(e->what()) == "Invalid time specification \"" + text + "\"");
}

TEST_CASE("format_timestamp prints Slurm's local timestamp", "[parse]") {
  CHECK(format_timestamp(k_now) == "2026-11-29T18:15:44");
  CHECK(format_timestamp(local(2027, 1, 2, 3, 4, 5)) == "2027-01-02T03:04:05");
  CHECK(format_timestamp(k_no_time) == "Unknown");
  CHECK(format_timestamp(k_infinite) == "Unknown");
}

TEST_CASE("date_time reads back what format_timestamp prints", "[parse]") {
  for (Seconds t : {k_now, local(2027, 1, 2, 3, 4, 5), local(2026, 6, 30, 23, 59, 59)}) {
    CAPTURE(t);
    CHECK(date_time(format_timestamp(t), k_now) == t);
  }
}
