#pragma once
// Job mail (sbatch --mail-type/--mail-user) as slurmctld writes it
// (agent.c mail_job_info): the subject line, the recipient and the
// environment MailProg gets. Pure: daemon/mail.cpp decides when, and
// daemon/mailer.hpp runs MailProg.

#include <cstdint>
#include <string>
#include <string_view>

#include <stint/config.hpp>
#include <stint/model.hpp>

#include "daemon/job_env.hpp"

namespace stint::daemon {

/// Slurm's mail types (slurm.h MAIL_*), as bits of a mask.
enum class MailType : std::uint16_t {
  begin = 1U << 0,
  end = 1U << 1,
  fail = 1U << 2,
  requeue = 1U << 3,
  time100 = 1U << 4,
  time90 = 1U << 5,
  time80 = 1U << 6,
  time50 = 1U << 7,
  stage_out = 1U << 8,
  array_tasks = 1U << 9,
  invalid_depend = 1U << 10,
  /// stint's own: a run whose nodes have used nothing for StintIdleRunAfter
  /// (run/idle.hpp). Always told to a run's owner, not asked with --mail-type.
  idle = 1U << 11,
};

constexpr std::uint16_t bit(MailType t) { return static_cast<std::uint16_t>(t); }
constexpr bool has(std::uint16_t mask, MailType t) { return (mask & bit(t)) != 0; }

/// The mask of a normalised --mail-type ("BEGIN,END,FAIL"; ALL and NONE as
/// Slurm's parse_mail_type reads them).
std::uint16_t mail_types(std::string_view list);
/// The mask a job asked for (0: no mail).
std::uint16_t mail_types(const Job& job);

/// slurmctld's words for a type: "Began", "Ended", "Failed", "Requeued",
/// "Reached 50% of time limit", "Invalid dependency", ... (also
/// SLURM_JOB_MAIL_TYPE).
std::string_view mail_type_text(MailType t);

/// Who is mailed: --mail-user, else the job's user, with "@MailDomain" when
/// that is set.
std::string mail_recipient(const Job& job, const Config& config);

/// How the tasks of an array ended, as Slurm keeps it on the array's meta
/// job: the lowest and highest wait status (exit code << 8 | signal).
struct ArrayOutcome {
  int min_status = 0;
  int max_status = 0;
  bool requeued = false;  ///< a task was requeued
};

/// A wait status from a job's exit code and signal.
int wait_status(const Job& job);

struct Mail {
  std::string recipient;
  std::string subject;
  Environment env;  ///< exactly what MailProg gets
  JobId job_id = 0;
  std::uint32_t uid = 0;  ///< the job's user: the hook runs as them
  std::uint32_t gid = 0;
};

/// The mail of `type` about `job` at `now`. With `array`, the "Slurm Array
/// Summary" form about the array whose meta job `job` is (an array without
/// ARRAY_TASKS); its outcome words the end of an array (END, FAIL).
Mail job_mail(const Job& job, MailType type, const Config& config, Seconds now,
              const ArrayOutcome* array = nullptr);

}  // namespace stint::daemon
