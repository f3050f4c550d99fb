#pragma once
// Starting the task (internal to the stepd module): stepd opens the output
// files as the job's user, then starts a child that shares its memory until
// it execs (as posix_spawn does); the child makes its own process group,
// joins the task's cgroup (when there is one), restores default signal
// handling, switches user, changes directory, binds CPUs, closes every other
// descriptor and execs. A child that cannot exec says why through a
// close-on-exec pipe, so the parent tells "exec failed" from "the task ran and
// exited".

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

#include "stepd/launch.hpp"
#include "stepd/rlimits.hpp"

namespace stint::stepd::detail {

/// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& other) noexcept : m_fd(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return m_fd; }
  explicit operator bool() const { return m_fd >= 0; }
  int release() {
    int fd = m_fd;
    m_fd = -1;
    return fd;
  }
  void reset(int fd = -1);

 private:
  int m_fd = -1;
};

/// The job's stdout and stderr. stepd opens them itself (rather than the child)
/// so that its own lines (cancel, time limit, exec failure) share the task's
/// file offset and land in order with the task's output, as Slurm's do.
struct OutputFiles {
  Fd out;
  Fd err;  ///< not open when stderr goes to the stdout file
  Fd in;   ///< sbatch -i's file; not open for /dev/null
  int err_fd() const { return err ? err.get() : out.get(); }
};

/// Opens stdout/stderr as the job's user (create, mode 0644, truncate or
/// append), and the input file (sbatch -i) for reading. An empty path is
/// /dev/null; a relative one is taken from work_dir. Throws Errc::io "Could
/// not open stdout file <path>: <reason>" (stdin, stderr likewise).
OutputFiles open_output_files(const TaskLaunch& launch);

/// The started task.
struct Spawned {
  pid_t pid = -1;  ///< also its process group id
  Fd report;       ///< read end of the launch report pipe: end of file once exec succeeded
};

/// Starts the task. With `cgroup_procs_fd` (a cgroup.procs open for writing),
/// the child moves itself into that cgroup first, so that nothing it runs is
/// ever outside it. The child sets `limits` last, just before it execs.
/// Throws Errc::io when the pipe or the child's start fails.
Spawned spawn_task(const TaskLaunch& launch, const OutputFiles& files, int cgroup_procs_fd = -1,
                   const RlimitPlan& limits = {});

/// The step at which a child gave up before exec.
enum class LaunchStage : std::int32_t { stdio = 1, credentials, chdir, exec, cgroup };

/// What the child writes into the report pipe when it cannot exec.
struct LaunchFailure {
  LaunchStage stage;
  std::int32_t err;  ///< errno
};

/// The line for the result and the job's output, e.g.
/// "execve(): /spool/12/script: Permission denied".
std::string describe(const TaskLaunch& launch, const LaunchFailure& failure);

/// The real CPUs that virtual `cpu_ids` fold onto: CPU id % n of the n CPUs
/// this process may run on (in order), sorted, without duplicates.
std::vector<int> fold_cpus(const std::vector<std::uint32_t>& cpu_ids);

}  // namespace stint::stepd::detail
