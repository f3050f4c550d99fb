// srun outside an allocation: it submits a job whose script runs this same
// srun inside it (so the step is laid out, run and recorded as in any
// allocation), with the job's output going into two FIFOs this srun reads
// and copies to its own stdout and stderr. It waits for the job's end and
// exits with its status; SIGINT or SIGTERM cancels the job, as Slurm's srun
// gives up its allocation.

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/store.hpp>

#include "cli/refusal.hpp"
#include "cli/sbatch_options.hpp"
#include "cli/srun.hpp"
#include "model/json.hpp"
#include "rpc/client.hpp"

namespace stint::cli {
namespace {

volatile sig_atomic_t g_interrupted = 0;

void on_interrupt(int) { g_interrupted = 1; }

std::string self_exe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw Error(Errc::io, "cannot find srun's own path");
  return std::string(buf, static_cast<std::size_t>(n));
}

/// A private folder with the two FIFOs; removed with this object.
class OutputPipes {
 public:
  OutputPipes() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/srun.XXXXXX", tmp != nullptr && *tmp ? tmp : "/tmp");
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error(Errc::io, fmt::format("mkdtemp: {}", std::strerror(errno)));
    m_dir = pattern;
    for (int i = 0; i < 2; ++i) {
      const std::string path = m_dir + (i == 0 ? "/stdout" : "/stderr");
      if (::mkfifo(path.c_str(), 0600) != 0)
        throw Error(Errc::io, fmt::format("mkfifo {}: {}", path, std::strerror(errno)));
      m_read[i] = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      // Our own writer keeps the FIFO from reading as ended before stepd has
      // opened it; it is closed once the job has ended.
      m_write[i] = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (m_read[i] < 0 || m_write[i] < 0)
        throw Error(Errc::io, fmt::format("open {}: {}", path, std::strerror(errno)));
    }
  }
  ~OutputPipes() {
    for (int i = 0; i < 2; ++i) {
      if (m_read[i] >= 0) ::close(m_read[i]);
      close_writer(i);
    }
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  OutputPipes(const OutputPipes&) = delete;
  OutputPipes& operator=(const OutputPipes&) = delete;

  std::string path(int i) const { return m_dir + (i == 0 ? "/stdout" : "/stderr"); }
  void close_writer(int i) {
    if (m_write[i] >= 0) ::close(m_write[i]);
    m_write[i] = -1;
  }
  /// Copies what has come in to stdout/stderr, waiting up to `ms`. False once
  /// both have ended (every writer closed).
  bool copy(int ms) {
    pollfd fds[2];
    int n = 0;
    for (int i = 0; i < 2; ++i) {
      if (m_read[i] >= 0) fds[n++] = {m_read[i], POLLIN, 0};
    }
    if (n == 0) return false;
    ::poll(fds, static_cast<nfds_t>(n), ms);
    for (int i = 0; i < 2; ++i) {
      if (m_read[i] < 0) continue;
      char buf[65536];
      for (;;) {
        const ssize_t got = ::read(m_read[i], buf, sizeof buf);
        if (got > 0) {
          (void)!::write(i == 0 ? 1 : 2, buf, static_cast<std::size_t>(got));
          continue;
        }
        if (got == 0 && m_write[i] < 0) {
          ::close(m_read[i]);
          m_read[i] = -1;
        }
        break;
      }
    }
    return m_read[0] >= 0 || m_read[1] >= 0;
  }

 private:
  std::string m_dir;
  int m_read[2] = {-1, -1};
  int m_write[2] = {-1, -1};
};

// An allocation option as sbatch reads it: "--flag=value", or the flag alone
// for one that takes no value (--hold, --contiguous).
std::string allocation_word(const std::string& flag, const std::string& value) {
  for (const OptionSpec& spec : sbatch_option_table()) {
    if (flag.size() > 2 && spec.long_name == std::string_view(flag).substr(2) &&
        spec.arg == ArgKind::none)
      return flag;
  }
  return flag + "=" + value;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int run_with_allocation(const SrunOptions& o, const std::vector<std::string>& args) {
  std::vector<std::string> options;
  for (const auto& [flag, value] : o.allocation) options.push_back(allocation_word(flag, value));
  if (!o.job_name) options.push_back("--job-name=" + base_name(o.command.front()));
  if (o.quiet) options.push_back("--quiet");
  const SbatchCommandLine cl = parse_sbatch_command_line(options);
  BatchScript script;
  script.source = ScriptSource::wrap;
  script.text = fmt::format("#!/bin/sh\nexec '{}' \"$@\"\n", self_exe());
  const SubmitContext context = current_submit_context();
  SbatchRequest request = build_sbatch_request(cl, script, context);

  OutputPipes pipes;
  JobSpec& spec = request.spec;
  spec.script_args = args;
  spec.stdout_pattern = pipes.path(0);
  spec.stderr_pattern = pipes.path(1);
  spec.requeue = false;  // its output has nowhere to go once this srun is gone

  const Paths paths = default_paths();
  JobId id = 0;
  nlohmann::json reply;
  try {
    reply = rpc::call(paths, {{"op", "submit"}, {"spec", to_json(spec)}});
  } catch (const Error& e) {
    // slurmctld's message, where it sends one, comes first on its own line
    // (the client library logs it), as sbatch's does.
    const std::string_view reason = errc_slurm_message(e.code());
    const std::string detail = e.what();
    cli::throw_with_hints(
        Error(e.code(), detail.empty() || detail == reason
                            ? fmt::format("Unable to allocate resources: {}", reason)
                            : fmt::format("{}\nsrun: error: Unable to allocate resources: {}",
                                          detail, reason)),
        spec.partition.value_or(""), spec.array_spec);
  }
  id = reply.value("job_id", JobId{0});
  // A cluster's names mapped to this machine's (stint.yaml's aliases).
  if (const auto it = reply.find("warnings"); it != reply.end() && it->is_array()) {
    for (const auto& w : *it) {
      if (w.is_string()) fmt::print(stderr, "srun: warning: {}\n", w.get<std::string>());
    }
  }

  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);

  auto store = Store::reader(paths.db());
  bool said_waiting = false, started = false, cancel_sent = false;
  const auto since = std::chrono::steady_clock::now();
  std::optional<Job> job;
  for (;;) {
    pipes.copy(started ? 50 : said_waiting ? 100 : 5);
    job = store->job(id);
    if (!job) throw Error(Errc::invalid_job_id, fmt::format("Job {} vanished", id));
    if (g_interrupted && !cancel_sent) {
      cancel_sent = true;
      if (!o.quiet) fmt::print(stderr, "srun: Job step aborted\n");
      try {
        rpc::call(paths,
                  {{"op", "cancel"}, {"job_ids", {id}}, {"signal", 0}, {"batch_only", false}});
      } catch (const Error&) {
        // It ended meanwhile.
      }
    }
    if (job->state == JobState::pending) {
      const auto waited = std::chrono::steady_clock::now() - since;
      // -I, as salloc's: stintd schedules right after its reply, so a job
      // that can start at once has started within its first pass.
      if (o.immediate && !cancel_sent &&
          waited >= (*o.immediate == 0 ? std::chrono::milliseconds(300)
                                       : std::chrono::seconds(*o.immediate))) {
        try {
          rpc::call(paths,
                    {{"op", "cancel"}, {"job_ids", {id}}, {"signal", 0}, {"batch_only", false}});
        } catch (const Error&) {
          continue;  // it started meanwhile
        }
        fmt::print(stderr, "srun: error: Unable to allocate resources: {}\n",
                   *o.immediate == 0 ? "Requested nodes are busy" : "Connection timed out");
        return 1;
      }
      if (!said_waiting && !o.quiet && o.immediate != 0U &&
          waited > std::chrono::milliseconds(200)) {
        fmt::print(stderr, "srun: job {} queued and waiting for resources\n", id);
        said_waiting = true;
      }
      continue;
    }
    if (!started) {
      started = true;
      if (said_waiting && !o.quiet)
        fmt::print(stderr, "srun: job {} has been allocated resources\n", id);
    }
    if (is_terminal(job->state)) break;
  }
  // The job has ended: what its tasks wrote is in the FIFOs; read it to the end.
  pipes.close_writer(0);
  pipes.close_writer(1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (pipes.copy(20) && std::chrono::steady_clock::now() < deadline) {
  }
  if (job->state == JobState::completed) return 0;
  if (job->exit_signal != 0) return 128 + job->exit_signal;
  return job->exit_status != 0 ? job->exit_status : 1;
}

[[noreturn]] void run_with_held_allocation(const SrunOptions& o,
                                           const std::vector<std::string>& args) {
  const std::string self = self_exe();
  const std::string dir = self.substr(0, self.rfind('/') + 1);
  std::vector<std::string> words = {dir + "salloc", "-Q"};
  for (const auto& [flag, value] : o.allocation) {
    // salloc has no --propagate: its command runs under salloc's own limits.
    if (flag != "--propagate") words.push_back(allocation_word(flag, value));
  }
  if (!o.job_name) words.push_back("--job-name=" + base_name(o.command.front()));
  words.push_back(self);
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // salloc takes this process's place: there is nothing to wait for.
  ::execv(argv[0], argv.data());
  throw Error(Errc::io, fmt::format("cannot run {}: {}", words.front(), std::strerror(errno)));
}

}  // namespace stint::cli
