#include "sched/deadline.hpp"

#include <algorithm>
#include <string>

namespace stint::sched {

std::optional<Error> time_min_deadline_refusal(std::optional<Seconds> time_limit,
                                               std::optional<Seconds> time_min,
                                               std::optional<Seconds> deadline, Seconds now) {
  const auto refused = [](Errc code) { return Error(code, std::string()); };
  const bool least = time_min && *time_min > 0;
  if (least && time_limit && *time_limit != k_infinite && *time_min > *time_limit)
    return refused(Errc::invalid_time_min);
  if (!deadline) return std::nullopt;
  if (*deadline < now) return refused(Errc::time_limit_exceeds);
  if (least && *deadline < now + *time_min) return refused(Errc::invalid_time_min);
  return std::nullopt;
}

std::optional<Seconds> implied_time_min(std::optional<Seconds> time_limit,
                                        std::optional<Seconds> time_min,
                                        std::optional<Seconds> deadline) {
  if (deadline && !time_limit && !time_min) return Seconds{60};
  return std::nullopt;
}

bool deadline_missed(const Job& job, Seconds now) {
  if (!job.spec.deadline) return false;
  const std::optional<Seconds>& least = job.spec.options().time_min;
  if (least && *least > 0) return *job.spec.deadline < now + *least;
  if (job.time_limit != k_infinite) return *job.spec.deadline < now + job.time_limit;
  return false;
}

Seconds deadline_time_limit(const Job& job, Seconds now) {
  if (!job.spec.deadline) return job.time_limit;
  // Slurm counts the time left in whole minutes, and cuts nothing with none.
  const Seconds left = (*job.spec.deadline - now) / 60 * 60;
  if (left <= 0) return job.time_limit;
  return job.time_limit == k_infinite ? left : std::min(job.time_limit, left);
}

}  // namespace stint::sched
