// File name patterns of --output, --error and --input.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

// Slurm caps the zero padding at ten digits ("%12j" pads to 10).
constexpr std::uint64_t k_max_width = 10;

// Slurm's rule: one backslash anywhere switches every replacement off; the
// backslashes go ("\\" leaves one behind) and the rest is taken literally.
std::string unescape(std::string_view pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (i + 1 < pattern.size() && pattern[i + 1] == '\\') {
        out += '\\';
        ++i;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

}  // namespace

std::string expand_pattern(std::string_view pattern, const PatternValues& v) {
  if (pattern.find('\\') != std::string_view::npos) return unescape(pattern);

  std::string out;
  std::size_t i = 0;
  while (i < pattern.size()) {
    if (pattern[i] != '%') {
      out += pattern[i++];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    const std::size_t digits = detail::digit_run(pattern.substr(i + 1));
    const std::size_t letter_at = i + 1 + digits;
    if (letter_at >= pattern.size()) {
      // A trailing "%" or "%4" has nothing to expand.
      out += pattern.substr(i);
      break;
    }
    std::uint64_t width = 0;
    for (std::size_t d = i + 1; d < letter_at; ++d) {
      width = std::min(k_max_width, width * 10 + static_cast<std::uint64_t>(pattern[d] - '0'));
    }
    const auto number = [&](std::uint64_t value) { out += fmt::format("{:0{}}", value, width); };
    switch (pattern[letter_at]) {
      case 'j':
        number(v.job_id);
        break;
      case 'J':
        // The batch step has no number to add: its files are named by the job alone.
        number(v.job_id);
        if (v.step_id != k_batch_step) out += fmt::format(".{}", v.step_id);
        break;
      case 'A':
        number(v.array_job_id != 0 ? v.array_job_id : v.job_id);
        break;
      case 'a':
        number(v.array_task_id);
        break;
      case 's':
        if (v.step_id == k_batch_step) {
          out += "batch";
        } else {
          number(v.step_id);
        }
        break;
      case 't':
        number(v.task_id);
        break;
      case 'n':
        number(v.node_index);
        break;
      // Text values ignore the width, as in Slurm.
      case 'N':
        out += v.node;
        break;
      case 'u':
        out += v.user;
        break;
      case 'x':
        out += v.job_name;
        break;
      default:
        // Unknown letters stay as written, width and all.
        out += pattern.substr(i, letter_at + 1 - i);
        break;
    }
    i = letter_at + 1;
  }
  return out;
}

}  // namespace stint::parse
