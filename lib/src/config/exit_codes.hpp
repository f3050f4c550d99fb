#pragma once
// RequeueExit and RequeueExitHold: lists of exit codes in slurm.conf's form,
// numbers and ranges separated by commas ("1-9,18"), each 0 to 255.

#include <string>
#include <string_view>

namespace stint::config {

/// Why `list` is not a list of exit codes; empty when it is (or is empty).
std::string exit_codes_problem(std::string_view list);

/// Whether `code` is in `list`; false for an empty or malformed list.
bool exit_code_listed(std::string_view list, int code);

}  // namespace stint::config
