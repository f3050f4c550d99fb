#pragma once
// Splitting a line into words as a shell would without its expansions:
// shared by srun's --multi-prog file and scontrol's interactive prompt.

#include <string>
#include <string_view>
#include <vector>

namespace stint::cli {

/// A line's words: blanks separate them; '...' or "..." keep blanks inside
/// one (the quotes themselves are dropped).
std::vector<std::string> quoted_words(std::string_view line);

}  // namespace stint::cli
