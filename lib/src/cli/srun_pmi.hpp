#pragma once
// srun --mpi=pmi2: the PMI server a step's MPI ranks wire themselves up
// through, as Slurm's mpi/pmi2 plugin serves them from slurmstepd. Each task
// gets one end of a socket pair (PMI_FD) and speaks either PMI-1's wire
// protocol (MPICH's "simple" PMI: "cmd=put kvsname=... key=... value=...\n")
// or PMI-2's (Slurm's libpmi2, Open MPI's s2, MPICH's pmi2: a six-digit
// length then "cmd=kvs-fence;"), chosen by the version its "cmd=init" asks for.
// Every rank of every node is a process of this machine, so one server holds
// the whole key-value space, and a fence is a barrier of all the step's ranks.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stint::cli {

class PmiServer {
 public:
  /// `kvs_name` names the step's key-value space ("12.0", as Slurm's);
  /// `process_mapping` is PMI_process_mapping's text for the step
  /// (sched::process_mapping).
  PmiServer(std::uint32_t ranks, std::string kvs_name, std::string process_mapping);
  ~PmiServer();
  PmiServer(const PmiServer&) = delete;
  PmiServer& operator=(const PmiServer&) = delete;

  /// The descriptor rank `rank` inherits (close-on-exec: the task's launcher
  /// clears that flag in the task alone).
  int task_fd(std::uint32_t rank) const;
  /// PMI_FD, PMI_JOBID, PMI_RANK and PMI_SIZE for rank `rank`.
  std::vector<std::pair<std::string, std::string>> task_environment(std::uint32_t rank) const;

  /// Called from the server's thread when a rank asks to abort the job
  /// (MPI_Abort), with its exit code.
  void on_abort(std::function<void(int)> callback);

  /// Closes the tasks' ends in this process and starts serving, on a thread
  /// of its own; call once every task holds its end (after the forks).
  void start();
  /// Stops serving and joins the thread (the destructor does it too).
  void stop();

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

}  // namespace stint::cli
