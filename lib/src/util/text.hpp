#pragma once
// Letter-case-blind comparisons of ASCII words (Slurm's option values,
// slurm.conf keys), which Slurm reads without regard to case.

#include <algorithm>
#include <cctype>
#include <string_view>

namespace stint::text {

inline bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

inline bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

}  // namespace stint::text
