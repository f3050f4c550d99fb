#pragma once
// When a run is IDLE: each node's stepd says when its task stopped using its
// GPUs (or CPUs) for StintIdleRunAfter (NodeAlloc::idle_since); the run is
// idle once every node whose command still runs says so. stintd mails its
// owner at that moment, run-list and run-show show it. Pure.

#include <stint/model.hpp>

namespace stint::run {

/// A running run (not being stopped) with a command still running on some
/// node, and every such node idle.
bool is_idle(const Job& job);

/// Since when the whole run has been idle (the latest of its running nodes'
/// idle_since); k_no_time when it is not idle.
Seconds idle_since(const Job& job);

/// Whether an idle run's nodes were measured on their GPUs (all of them),
/// not on CPU time.
bool idle_on_gpus(const Job& job);

}  // namespace stint::run
