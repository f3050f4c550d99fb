// --deadline and --time-min as slurmctld applies them: refused at submission
// (_part_access_check), a minute's --time-min when no limit is given
// (_job_create), ended when it can no longer end in time (deadline_ok), and
// the time limit a job starts with (the whole minutes left).

#include "sched/deadline.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

constexpr Seconds k_now = 1'000'000;

Job job_with(std::optional<Seconds> deadline, Seconds time_limit,
             std::optional<Seconds> time_min = std::nullopt) {
  Job j;
  j.spec.deadline = deadline;
  j.time_limit = time_limit;
  if (time_min) j.spec.options_to_set().time_min = time_min;
  return j;
}

std::optional<Errc> refusal(std::optional<Seconds> time_limit, std::optional<Seconds> time_min,
                            std::optional<Seconds> deadline) {
  auto e = sched::time_min_deadline_refusal(time_limit, time_min, deadline, k_now);
  if (!e) return std::nullopt;
  return e->code();
}

}  // namespace

TEST_CASE("a deadline already past is an invalid time limit") {
  CHECK(refusal(60, std::nullopt, k_now - 1) == Errc::time_limit_exceeds);
  CHECK(refusal(std::nullopt, std::nullopt, k_now - 3600) == Errc::time_limit_exceeds);
  CHECK_FALSE(refusal(60, std::nullopt, k_now));
}

TEST_CASE("a --time-min past the deadline or the time limit is an invalid time-min") {
  // test17.57: --deadline now+1hour --time-min 120.
  CHECK(refusal(std::nullopt, 120 * 60, k_now + 3600) == Errc::invalid_time_min);
  // test17.58: --time-min 20 -t 120 before a deadline an hour away is taken.
  CHECK_FALSE(refusal(120 * 60, 20 * 60, k_now + 3600));
  // --time-min over -t, with or without a deadline.
  CHECK(refusal(10 * 60, 20 * 60, std::nullopt) == Errc::invalid_time_min);
  CHECK_FALSE(refusal(k_infinite, 20 * 60, std::nullopt));
  // A time limit past the deadline alone is taken: the pass ends the job.
  CHECK_FALSE(refusal(120 * 60, std::nullopt, k_now + 3600));
}

TEST_CASE("a deadline without any time limit implies a minute's --time-min") {
  CHECK(sched::implied_time_min(std::nullopt, std::nullopt, k_now + 600) == 60);
  CHECK_FALSE(sched::implied_time_min(5 * 60, std::nullopt, k_now + 600));
  CHECK_FALSE(sched::implied_time_min(std::nullopt, 120, k_now + 600));
  CHECK_FALSE(sched::implied_time_min(std::nullopt, std::nullopt, std::nullopt));
}

TEST_CASE("a job is past its deadline when its --time-min, else its limit, no longer fits") {
  CHECK_FALSE(sched::deadline_missed(job_with(std::nullopt, 60), k_now));
  // --time-min decides where there is one (test17.60: a minute).
  CHECK_FALSE(sched::deadline_missed(job_with(k_now + 60, k_infinite, 60), k_now));
  CHECK(sched::deadline_missed(job_with(k_now + 59, k_infinite, 60), k_now));
  CHECK_FALSE(sched::deadline_missed(job_with(k_now + 90, 7200, 60), k_now));
  // Else the time limit; an UNLIMITED one never misses.
  CHECK(sched::deadline_missed(job_with(k_now + 90, 120), k_now));
  CHECK_FALSE(sched::deadline_missed(job_with(k_now + 120, 120), k_now));
  CHECK_FALSE(sched::deadline_missed(job_with(k_now + 1, k_infinite), k_now));
}

TEST_CASE("a job starts with no more than the whole minutes left before its deadline") {
  // test17.56: no limit, a deadline ten minutes away less a moment: 9 minutes.
  CHECK(sched::deadline_time_limit(job_with(k_now + 599, k_infinite), k_now) == 9 * 60);
  CHECK(sched::deadline_time_limit(job_with(k_now + 600, k_infinite), k_now) == 10 * 60);
  // test17.58: -t 120 and an hour left: an hour.
  CHECK(sched::deadline_time_limit(job_with(k_now + 3600, 7200, 1200), k_now) == 3600);
  // A shorter limit of its own stays.
  CHECK(sched::deadline_time_limit(job_with(k_now + 3600, 300), k_now) == 300);
  // Less than a minute left cuts nothing (Slurm's zero minutes), nor does no deadline.
  CHECK(sched::deadline_time_limit(job_with(k_now + 59, 300), k_now) == 300);
  CHECK(sched::deadline_time_limit(job_with(std::nullopt, k_infinite), k_now) == k_infinite);
}
