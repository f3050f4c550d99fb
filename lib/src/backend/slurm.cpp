// The cluster's commands: sbatch, scancel, sacct and scontrol, with clear
// errors for a refusal (Slurm's own message), an unreachable cluster and a
// job that vanished from it.

#include "backend/slurm.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/error.hpp>

namespace stint::backend {
namespace {

// Slurm's lines, one message: "sbatch: error: ...; sbatch: error: ...".
std::string message_of(const CommandResult& r) {
  std::string out;
  std::size_t start = 0;
  const std::string& text = r.err.empty() ? r.out : r.err;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) out += (out.empty() ? "" : "; ") + line;
    start = end + 1;
  }
  return out.empty() ? fmt::format("exit status {}", r.exit_code) : out;
}

std::string where(const CommandTarget& t) { return t.login.empty() ? "this machine" : t.login; }

// Runs a cluster command; a command that could not run or did not answer is
// Errc::daemon_unavailable: the cluster is unreachable.
CommandResult cluster_command(const CommandTarget& target, const std::vector<std::string>& argv,
                              const std::string& input = {}) {
  CommandResult r;
  try {
    r = run_command(target, argv, input);
  } catch (const Error& e) {
    throw Error(Errc::daemon_unavailable, fmt::format("slurm: cannot run {} on {}: {}",
                                                      argv.front(), where(target), e.what()));
  }
  if (r.timed_out)
    throw Error(Errc::daemon_unavailable,
                fmt::format("slurm: {} on {} did not answer within {} s", argv.front(),
                            where(target), target.timeout_s));
  // ssh's own failure (host down, no key) is 255; the remote command's is its own.
  if (!target.login.empty() && r.exit_code == 255)
    throw Error(Errc::daemon_unavailable,
                fmt::format("slurm: cannot reach {}: {}", target.login, message_of(r)));
  if (r.exit_code == 127 && r.out.empty())
    throw Error(Errc::daemon_unavailable, fmt::format("slurm: cannot run {} on {}: {}",
                                                      argv.front(), where(target), message_of(r)));
  return r;
}

bool controller_down(const std::string& message) {
  return message.find("Unable to contact slurm controller") != std::string::npos ||
         message.find("Socket timed out") != std::string::npos;
}

}  // namespace

CommandTarget target_of(const ClusterRun& run, const SlurmBackendConfig& config) {
  CommandTarget t;
  t.bin_dir = config.bin_dir;
  if (t.bin_dir.empty() && run.login.empty()) {
    const char* path = std::getenv("PATH");
    t.bin_dir = find_bin_dir("sbatch", path ? path : "");
  }
  t.login = run.login;
  t.conf = run.conf;
  t.uid = run.user_id;
  t.gid = run.group_id;
  t.timeout_s = static_cast<int>(config.command_timeout);
  return t;
}

std::uint64_t submit(const CommandTarget& target, const SlurmSubmission& submission) {
  std::vector<std::string> argv{program(target, "sbatch")};
  argv.insert(argv.end(), submission.options.begin(), submission.options.end());
  const CommandResult r = cluster_command(target, argv, submission.script);
  if (r.exit_code != 0) {
    const std::string message = message_of(r);
    throw Error(controller_down(message) ? Errc::daemon_unavailable : Errc::invalid_argument,
                "slurm: " + message);
  }
  // --parsable: "<id>" or "<id>;<cluster>".
  std::uint64_t id = 0;
  const std::string& out = r.out;
  auto [end, ec] = std::from_chars(out.data(), out.data() + out.size(), id);
  if (ec != std::errc() || id == 0)
    throw Error(Errc::protocol, fmt::format("slurm: sbatch answered \"{}\", not a job id", out));
  return id;
}

void cancel(const CommandTarget& target, std::uint64_t job_id) {
  const CommandResult r =
      cluster_command(target, {program(target, "scancel"), std::to_string(job_id)});
  if (r.exit_code != 0) {
    const std::string message = message_of(r);
    throw Error(controller_down(message) ? Errc::daemon_unavailable : Errc::invalid_argument,
                "slurm: " + message);
  }
}

void refresh(const CommandTarget& target, const std::vector<ClusterRun*>& runs, Seconds now) {
  if (runs.empty()) return;
  std::vector<std::string> ids;
  for (const ClusterRun* r : runs) ids.push_back(std::to_string(r->cluster_job_id));
  // Times as epoch seconds: SLURM_TIME_FORMAT is read by sacct and scontrol.
  const CommandResult acct = cluster_command(
      target, {"env", "SLURM_TIME_FORMAT=%s", program(target, "sacct"), "--parsable2", "--noheader",
               "--format=" + std::string(k_sacct_format),
               "--jobs=" + fmt::format("{}", fmt::join(ids, ","))});
  std::vector<SacctRecord> records;
  if (acct.exit_code == 0) {
    records = parse_sacct(acct.out);
  } else if (controller_down(message_of(acct))) {
    throw Error(Errc::daemon_unavailable, "slurm: " + message_of(acct));
  }
  // Without accounting (or before slurmdbd has the job), slurmctld knows it.
  for (ClusterRun* run : runs) {
    run->polled = now;
    const bool ended_before = is_terminal(run->state);
    if (apply_sacct(*run, records)) {
      // slurmdbd may record the job's end before its ranks' steps: until
      // every rank's step is there (or a grace period has passed, for steps
      // that never started) the ranks' outcomes are the job's, a guess.
      if (is_terminal(run->state))
        run->settled = ranks_recorded(*run, records) ||
                       (run->end_time != k_no_time ? now - run->end_time >= k_step_record_grace
                                                   : ended_before);
      continue;
    }
    if (ended_before) run->settled = true;  // this is the answer after the end
    const CommandResult job =
        cluster_command(target, {"env", "SLURM_TIME_FORMAT=%s", program(target, "scontrol"), "show",
                                 "job", "-o", std::to_string(run->cluster_job_id)});
    if (job.exit_code == 0 && apply_scontrol(*run, parse_scontrol_jobs(job.out))) continue;
    const std::string message = message_of(job);
    if (controller_down(message)) throw Error(Errc::daemon_unavailable, "slurm: " + message);
    if (message.find("Invalid job id") == std::string::npos) continue;  // ask again later
    run->spec.run->lost =
        fmt::format("job {} vanished from the cluster (neither sacct nor scontrol knows it)",
                    run->cluster_job_id);
    run->cluster_state = "VANISHED";
    run->state = JobState::failed;
    run->settled = true;
    if (run->end_time == k_no_time) run->end_time = now;
  }
}

}  // namespace stint::backend
