#pragma once
// --deadline and --time-min, as slurmctld applies them: the checks at
// submission (_part_access_check), the minimum a job without any time limit
// is given (_job_create), and at each pass, for a job that may start, whether
// it can still end by its deadline (deadline_ok) and the time limit it starts
// with (the minutes left before the deadline). Pure: no clock, no I/O.

#include <optional>

#include <stint/error.hpp>
#include <stint/model.hpp>

namespace stint::sched {

/// What slurmctld refuses a submission with: a --time-min over the time
/// limit (given or the partition's DefaultTime; `time_limit` is nullopt when
/// neither is) or past the deadline (Errc::invalid_time_min), a deadline
/// already past (Errc::time_limit_exceeds). nullopt when it is accepted.
std::optional<Error> time_min_deadline_refusal(std::optional<Seconds> time_limit,
                                               std::optional<Seconds> time_min,
                                               std::optional<Seconds> deadline, Seconds now);

/// The --time-min a job with a deadline but neither a time limit nor a
/// --time-min is given (one minute, as slurmctld does); nullopt otherwise.
std::optional<Seconds> implied_time_min(std::optional<Seconds> time_limit,
                                        std::optional<Seconds> time_min,
                                        std::optional<Seconds> deadline);

/// Whether a job the pass may start can no longer end before its deadline:
/// its --time-min (else its time limit, unless UNLIMITED) from now goes past it.
bool deadline_missed(const Job& job, Seconds now);

/// The time limit a job with a deadline starts with: the whole minutes left
/// before the deadline, or its own limit when that is shorter. A job without
/// a deadline, or with less than a minute left, keeps its own.
Seconds deadline_time_limit(const Job& job, Seconds now);

}  // namespace stint::sched
