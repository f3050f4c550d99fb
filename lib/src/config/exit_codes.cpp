#include "config/exit_codes.hpp"

#include <charconv>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/core.h>

namespace stint::config {
namespace {

constexpr int k_max_exit_code = 255;  // Slurm's MAX_EXIT_VAL

std::optional<int> code_of(std::string_view text) {
  int v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0 || v > k_max_exit_code)
    return std::nullopt;
  return v;
}

// The ranges of `list`, or the item that is not one.
std::vector<std::pair<int, int>> ranges_of(std::string_view list, std::string* bad_item) {
  std::vector<std::pair<int, int>> out;
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view item = list.substr(start, end - start);
    const std::size_t dash = item.find('-');
    const auto low = code_of(item.substr(0, dash));
    const auto high = dash == std::string_view::npos ? low : code_of(item.substr(dash + 1));
    if (!low || !high || *high < *low) {
      if (bad_item) *bad_item = std::string(item);
      return {};
    }
    out.emplace_back(*low, *high);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string exit_codes_problem(std::string_view list) {
  if (list.empty()) return {};
  std::string bad;
  if (!ranges_of(list, &bad).empty() && bad.empty() && list.back() != ',') return {};
  if (bad.empty()) bad = std::string(list);
  return fmt::format("\"{}\" is not an exit code or a range of them (0 to {}, e.g. 1-9,18)", bad,
                     k_max_exit_code);
}

bool exit_code_listed(std::string_view list, int code) {
  std::string bad;
  for (const auto& [low, high] : ranges_of(list, &bad)) {
    if (code >= low && code <= high) return true;
  }
  return false;
}

}  // namespace stint::config
