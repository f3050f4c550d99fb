#pragma once
// srun --multi-prog: a file that gives each task of a step its own program,
// in Slurm's format. Each line is "<task ids> <program> [<args>...]": the ids
// a list of numbers and ranges ("0-3,5") or "*" for every task not named
// before; in the program and its arguments "%t" is the task id and "%o" the
// task's offset within its line's ids. A line starting with '#' is a
// comment; "\" at the end of a line continues it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stint::cli {

/// Every task's program and arguments for a step of `tasks` tasks (`path`
/// names the file in messages). Throws Errc::invalid_argument with Slurm's
/// wording for a bad line, a task given twice, or a task given none.
std::vector<std::vector<std::string>> multi_prog_commands(std::string_view text,
                                                          const std::string& path,
                                                          std::uint32_t tasks);

/// The task count the file's explicit ids need (the highest plus one): the
/// step's -n when srun was given none, as Slurm's srun sizes it.
std::uint32_t multi_prog_task_count(std::string_view text);

}  // namespace stint::cli
