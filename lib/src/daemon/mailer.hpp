#pragma once
// Runs MailProg for job mail off stintd's request path, as slurmctld's agent
// does: `MailProg -s "<subject>" <recipient>`, stdin empty, the mail's
// environment, at most a few at a time (the rest wait in order), reaped from
// stintd's SIGCHLD, killed with their process group after two minutes
// (slurmctld's MAIL_PROG_TIMEOUT). Where MailProg does not exist (a
// workstation without a mailer) the job user's ~/.config/stint/notify runs
// instead, as that user, with the same arguments and environment plus
// STINT_SUBJECT; with neither, stintd says once in its log that mail cannot
// be sent.

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <stint/config.hpp>

#include "daemon/mail.hpp"

namespace stint::daemon {

class Mailer {
 public:
  /// How long a mailer may run before it is killed.
  static constexpr std::chrono::seconds k_timeout{120};
  /// How many run at once.
  static constexpr std::size_t k_parallel = 4;

  Mailer() = default;
  ~Mailer();
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  /// Sends `mail` with `config`'s MailProg: started now, or when an earlier
  /// one has ended. Never waits for it.
  void send(Mail mail, const Config& config);
  /// A child of stintd ended; true when it was a mailer (it is then done).
  bool reaped(std::int64_t pid, int status);
  /// Kills the mailers past their time (they are reaped as any other).
  void expire();
  /// Mailers running or waiting: stintd stays up for them.
  bool busy() const { return !m_running.empty() || !m_waiting.empty(); }

 private:
  struct Waiting {
    Mail mail;
    std::string program;  ///< MailProg, or the user's hook
    bool hook = false;
  };
  struct Running {
    std::int64_t pid = 0;
    std::chrono::steady_clock::time_point deadline;
    int output_fd = -1;  ///< what it printed (a memfd), read when it ends
    std::string program;
    JobId job_id = 0;
    bool killed = false;
  };
  void start_waiting();
  void start(Waiting w);

  std::deque<Waiting> m_waiting;
  std::vector<Running> m_running;
  bool m_said_no_mailer = false;
};

/// MailProg as configured; the default /bin/mail is /usr/bin/mail where only
/// that exists (slurm.conf(5)).
std::string mail_program(const Config& config);

/// The job user's own notifier, `<home>/.config/stint/notify`, when it is an
/// executable file; "" when not.
std::string user_mail_hook(std::uint32_t uid);

}  // namespace stint::daemon
