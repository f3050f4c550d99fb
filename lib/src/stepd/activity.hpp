#pragma once
// Whether a run's node is in use (internal to the stepd module): NSML flagged
// a session whose GPUs sat at 0 % for an hour. stepd samples its task's GPUs
// with nvidia-smi where the node has GPUs and nvidia-smi runs, and the CPU
// time of the task's processes otherwise; IdleWatch turns the samples into
// the moments to tell stintd (idle since T; in use again).
//
// Choices, written down:
// - A node is in use when any of its GPUs shows utilisation above 0 % at a
//   sample; without GPUs, when its processes used at least 1 % of one CPU
//   since the last sample (nvidia-smi's 0 % is below 1 % too). One busy
//   sample ends an idle stretch: idle means every sample of the stretch.
// - The stretch starts at the task's start or its last busy sample, so a
//   task idle from the start is idle since it started.
// - A sample nvidia-smi cannot give (it failed, timed out, or left out a GPU
//   of the node) is taken on the CPU instead, so that a broken driver does
//   not hide an idle run.
// - nvidia-smi runs inside stepd's loop, not beside it: it answers in tens of
//   milliseconds; a wedged driver holds a cancel back at most its 10 s
//   timeout, once a sample, and a second process to reap and account for
//   would cost more than it saves.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <stint/model.hpp>

namespace stint::stepd::detail {

/// How often a task watched for `idle_after` is sampled: a quarter of it,
/// between 1 s and a minute (one nvidia-smi a minute costs nothing).
Seconds activity_interval(Seconds idle_after);

/// From `nvidia-smi --query-gpu=index,utilization.gpu
/// --format=csv,noheader,nounits` output: whether any GPU of `gpu_ids` is
/// above 0 %; nullopt when one of them is missing or a line does not parse
/// ("[N/A]" for a GPU that does not report it).
std::optional<bool> gpus_busy(std::string_view csv, const std::vector<std::uint32_t>& gpu_ids);

/// Runs nvidia-smi (found on PATH) for the utilisation of `gpu_ids`, within
/// 10 s; nullopt when there is no nvidia-smi or it gave no answer.
std::optional<bool> sample_gpus(const std::vector<std::uint32_t>& gpu_ids);

/// What IdleWatch says to tell stintd.
struct ActivityChange {
  Seconds idle_since = k_no_time;  ///< k_no_time: in use again
  bool gpus = false;
};

/// The idle stretch of one task, from its samples (pure: times are given).
class IdleWatch {
 public:
  IdleWatch(Seconds idle_after, Seconds started) : m_idle_after(idle_after), m_last_use(started) {}

  /// One sample at `at`: whether the node was in use, and whether that was
  /// measured on its GPUs. Returns a change to tell: the stretch has reached
  /// idle_after (once per stretch), or use after a stretch told.
  std::optional<ActivityChange> sample(Seconds at, bool in_use, bool gpus);

  bool idle() const { return m_told_idle; }

 private:
  Seconds m_idle_after;
  Seconds m_last_use;
  bool m_told_idle = false;
};

}  // namespace stint::stepd::detail
