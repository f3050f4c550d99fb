#pragma once
// The rule run::valid_project_name checks, in words, for the refusals of
// project and storage names.

#include <string_view>

namespace stint::run {

inline constexpr std::string_view k_name_rule =
    "letters, digits, '_', '-' and '.', 1 to 64 characters, not starting with '.' or '-'";

}  // namespace stint::run
