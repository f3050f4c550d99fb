#pragma once
// Which of a job's processes a signal stintd forwards to stint-stepd reaches:
// Slurm's scancel sends a signal other than SIGKILL to the job's steps only,
// --batch to the batch shell alone, --full to everything; sbatch --signal
// likewise (B: for the shell). stintd's own suspension of a job (scontrol
// suspend, preemption) is a target of its own: it stops the time limit's
// clock, which a user's SIGSTOP does not.

namespace stint {

enum class SignalTarget : int {
  all = 0,      ///< the batch shell's process group and every step (--full, SIGKILL)
  steps = 1,    ///< each srun of the job, which passes it to its tasks (the default)
  batch = 2,    ///< the batch shell's own process, not its children (--batch, B:)
  suspend = 3,  ///< SIGSTOP or SIGCONT to everything, the clocks stopped or restarted
};

/// The sigqueue value stepd reads: the signal in the low byte, the target above.
inline int forward_value(int signal, SignalTarget target) {
  return signal | (static_cast<int>(target) << 8);
}
inline int forwarded_signal(int value) { return value & 0xff; }
inline SignalTarget forwarded_target(int value) {
  const int t = (value >> 8) & 0xff;
  return t <= static_cast<int>(SignalTarget::suspend) ? static_cast<SignalTarget>(t)
                                                      : SignalTarget::all;
}

}  // namespace stint
