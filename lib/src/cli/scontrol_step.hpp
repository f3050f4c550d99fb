#pragma once
// scontrol's views of what runs (cli/scontrol_step.cpp): show step (the
// running jobs' steps, each job's batch step first, in Slurm's record
// format), pidinfo and completing.

#include <optional>
#include <string>
#include <vector>

#include <stint/model.hpp>

namespace stint::tools::scontrol_step {

/// "12", "12.3", "12.batch": a job and, when given, one of its steps.
struct StepRef {
  JobId job = 0;
  std::optional<std::string> step;  ///< "3" or "batch"
};
/// nullopt when the job id is not a number.
std::optional<StepRef> parse_ref(const std::string& text);

/// `scontrol show step[s] [JOB[.STEP] ...]`; returns scontrol's exit status.
int show(const std::vector<std::string>& ids, bool one_liner);

/// `scontrol pidinfo PID` (`words` is the whole command): the running job the
/// process belongs to (a job's stepd among its ancestors, else SLURM_JOB_ID
/// in its environment), when it ends and how long it has left.
int pidinfo(const std::vector<std::string>& words, bool quiet);

/// `scontrol listpids [JOB[.STEP]|*] [NODE]`: the processes of the running
/// jobs' steps (on NODE, a virtual node's name, when given), Slurm's columns
/// and messages.
int listpids(const std::vector<std::string>& words);

/// `scontrol completing`: the jobs still completing, one line each, as Slurm
/// prints them; nothing when none is.
int completing();

}  // namespace stint::tools::scontrol_step
