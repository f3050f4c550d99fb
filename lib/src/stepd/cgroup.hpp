#pragma once
// A memory limit through cgroup v2 (internal to the stepd module).
//
// stepd puts the task into a cgroup of its own, <parent>/stint_job_<id>_<node>,
// with memory.max set to the limit and memory.swap.max to 0; the kernel then
// ends whatever goes over it (the out-of-memory killer, as under Slurm's
// task/cgroup), and memory.events counts the kills. The parent is, first one
// that works:
//   1. $STINT_CGROUP, a cgroup path (relative to the cgroup2 mount) that an
//      administrator delegated to stint;
//   2. the cgroup stepd runs in (from /proc/self/cgroup). cgroup v2 lets a
//      cgroup hand the memory controller to its children only while it holds
//      no processes itself, so when enabling it fails with EBUSY stepd moves
//      itself into a leaf <own>/stint_stepd_<pid> and tries again (that only
//      succeeds when stepd was alone there). Such leaves stay behind, empty,
//      when stepd exits; the next stepd there removes those of dead pids;
//   3. the parent of that cgroup (a delegated subtree whose root stintd does
//      not occupy).
// A parent qualifies only when all of it works at run time: memory in
// cgroup.controllers and cgroup.subtree_control, the child created, memory.max
// written and read back the same, and a probe process moved into it. Anything
// less is a reason, and stepd samples RSS instead (supervise.cpp).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "stepd/spawn.hpp"

namespace stint::stepd::detail {

/// Where to look; tests point these elsewhere.
struct CgroupSetup {
  std::string mount = "/sys/fs/cgroup";
  std::string self_cgroup_file = "/proc/self/cgroup";
  std::string configured;  ///< a parent to try first ("" none); stepd passes $STINT_CGROUP
};

class Cgroup {
 public:
  /// Creates the cgroup `name` with a memory limit of `limit_bytes`. Returns
  /// null, with the reasons in `why`, when cgroup v2 cannot do it here.
  static std::unique_ptr<Cgroup> create(const std::string& name, std::uint64_t limit_bytes,
                                        std::string& why, const CgroupSetup& setup = {});
  ~Cgroup();  ///< remove(), best effort
  Cgroup(const Cgroup&) = delete;
  Cgroup& operator=(const Cgroup&) = delete;

  const std::string& path() const { return m_path; }
  /// Its cgroup.procs, open for writing (close-on-exec): the task's child
  /// writes its pid there before exec.
  int procs_fd() const { return m_procs.get(); }
  /// The processes in it now.
  std::vector<pid_t> pids() const;
  /// memory.events' oom_kill: processes the kernel killed for the limit.
  std::uint64_t oom_kills() const;
  /// Kills what is still in it and removes it. Returns whether it is gone
  /// (a process stuck in uninterruptible sleep keeps it).
  bool remove();

 private:
  Cgroup() = default;
  std::string m_path;
  Fd m_procs;
};

/// The cgroup v2 path in the text of /proc/<pid>/cgroup (the "0::" line), e.g.
/// "/user.slice/session-3.scope"; nothing when there is none.
std::optional<std::string> own_cgroup_path(const std::string& proc_cgroup_text);

/// A counter from the text of memory.events ("low 0\nhigh 0\n...\noom_kill 2\n").
std::uint64_t memory_event(const std::string& events_text, const std::string& key);

}  // namespace stint::stepd::detail
