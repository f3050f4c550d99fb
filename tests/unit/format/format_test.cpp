#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/format.hpp>

#include "fixtures.hpp"

using stint::format::Align;

TEST_CASE("pad aligns and cuts as Slurm's printf does") {
  using stint::format::pad;
  CHECK(pad("abc", 0, Align::right) == "abc");
  CHECK(pad("abc", 5, Align::right) == "  abc");
  CHECK(pad("abc", 5, Align::left) == "abc  ");
  // Right-aligned values are cut to the width unless the column keeps them
  // (node lists); left-aligned ones are always cut ("%.Ns").
  CHECK(pad("BeginTime", 8, Align::right) == "BeginTim");
  CHECK(pad("n[1-100]", 4, Align::right, false) == "n[1-100]");
  CHECK(pad("n[1-100]", 4, Align::left, false) == "n[1-");
}

TEST_CASE("id_ranges folds consecutive ids") {
  using stint::format::id_ranges;
  CHECK(id_ranges({}) == "");
  CHECK(id_ranges({0}) == "0");
  CHECK(id_ranges({0, 1, 2, 5}) == "0-2,5");
  CHECK(id_ranges({7, 3, 4, 4}) == "3-4,7");
}

TEST_CASE("date_line is ctime's layout") {
  fixtures::use_utc();
  CHECK(stint::format::date_line(fixtures::queue_now()) == "Sun Nov 29 18:00:41 2026");
  CHECK(stint::format::date_line(fixtures::at(0, 0, 0) - 24 * 86400) == "Thu Nov  5 00:00:00 2026");
}

TEST_CASE("squeue format strings: prefix, suffix, literal percent") {
  auto l = stint::format::parse_squeue_format("id=%.5i%%|%j end");
  CHECK(l.prefix == "id=");
  REQUIRE(l.fields.size() == 2);
  CHECK(l.fields[0].width == 5);
  CHECK(l.fields[0].align == Align::right);
  CHECK(l.fields[0].suffix == "%|");
  CHECK(l.fields[1].width == 0);
  CHECK(l.fields[1].suffix == " end");

  auto left = stint::format::parse_squeue_format("%-10j");
  REQUIRE(left.fields.size() == 1);
  CHECK(left.fields[0].width == 10);
  CHECK(left.fields[0].align == Align::left);

  auto o = stint::format::parse_squeue_long_format("name:.12 |,state");
  REQUIRE(o.fields.size() == 2);
  CHECK(o.fields[0].width == 12);
  CHECK(o.fields[0].suffix == " |");
  CHECK(o.fields[1].width == 20);
  CHECK(o.fields[1].align == Align::left);
}

TEST_CASE("malformed format strings are errors with Slurm's wording") {
  using stint::Error;
  CHECK_THROWS_AS(stint::format::parse_squeue_format("%.18"), Error);
  CHECK_THROWS_WITH(stint::format::parse_squeue_format("%i %?"),
                    "Invalid job format specification: ?");
  CHECK_THROWS_WITH(stint::format::parse_squeue_long_format(""),
                    "Invalid job format specification: (empty)");
  CHECK_THROWS_WITH(stint::format::parse_sinfo_format("%P %Q"),
                    "Invalid node format specification: Q");
  CHECK_THROWS_WITH(stint::format::parse_sacct_format("JobID,Foo"),
                    "Invalid field requested: \"Foo\"");
  CHECK_THROWS_WITH(stint::format::parse_sacct_format(""), "Invalid field requested: \"\"");
}

TEST_CASE("sacct field names: any case, a leading part, a width") {
  auto f = stint::format::parse_sacct_format("jobid,JOBNAME%30,stat,Elapsed%3");
  REQUIRE(f.size() == 4);
  CHECK(f[0].align == Align::left);
  CHECK(f[0].width == 12);
  CHECK(f[1].width == 30);
  CHECK(f[3].width == 3);
}

TEST_CASE("squeue's default order: partition, state, priority, then newest") {
  fixtures::use_utc();
  auto jobs = fixtures::queue_jobs();
  stint::format::sort_squeue(jobs, "", fixtures::context(fixtures::queue_now()));
  std::vector<stint::JobId> ids;
  for (const auto& j : jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<stint::JobId>{23, 25, 24, 22, 29, 27, 26, 21});

  // A higher partition tier sorts first among pending jobs with -p.
  auto high = fixtures::queue_jobs();
  high[1].partition = "high";  // 22
  stint::format::sort_squeue(high, "-p", fixtures::context(fixtures::queue_now()));
  CHECK(high.front().id == 22);
}

TEST_CASE("effective reason and time used") {
  auto jobs = fixtures::queue_jobs();
  CHECK(stint::format::effective_reason(jobs[5]) == stint::Reason::job_held_user);
  CHECK(stint::format::time_used(jobs[0], fixtures::queue_now()) == 4);
  CHECK(stint::format::time_used(jobs[1], fixtures::queue_now()) == 0);
  CHECK(stint::format::job_tres(jobs[0]) == "cpu=2,mem=512M,node=1,billing=2");
  CHECK(stint::format::job_tres(jobs[2]) == "cpu=2,mem=1G,node=1,billing=2");
}
