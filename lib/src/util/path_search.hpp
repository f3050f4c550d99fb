#pragma once
// Finding a program as execvp would, for the places that need its path
// before running it (GPU detection, srun --bcast, process::run).

#include <string>
#include <string_view>

namespace stint::proc {

/// The first executable `name` in the folders of `path` (a PATH value:
/// folders separated by ':', empty ones skipped); empty when there is none.
std::string find_in_path(std::string_view name, std::string_view path);

/// The first executable `name` in $PATH (/usr/local/bin:/usr/bin:/bin when
/// unset); empty when there is none.
std::string find_on_path(std::string_view name);

}  // namespace stint::proc
