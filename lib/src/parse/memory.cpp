// Memory sizes: --mem, --mem-per-cpu, node RealMemory, and Slurm's "256M"/"2G" output.

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

// Slurm's str_to_mbytes() works in a signed long long; stay inside it.
constexpr std::uint64_t k_max_value = std::numeric_limits<std::int64_t>::max();

std::optional<std::uint64_t> parse_memory(std::string_view text) {
  const std::size_t digits = detail::digit_run(text);
  const auto number = detail::parse_digits(text.substr(0, digits), k_max_value);
  if (!number) return std::nullopt;
  std::string_view suffix = text.substr(digits);
  // "4G" and "4GB" are the same (Slurm's _end_on_byte); a bare "B" is not a unit.
  if (suffix.size() == 2 && detail::to_lower(suffix[1]) == 'b') suffix.remove_suffix(1);
  if (suffix.size() > 1) return std::nullopt;

  std::uint64_t shift = 0;  // powers of 1024 above MiB
  switch (suffix.empty() ? 'm' : detail::to_lower(suffix[0])) {
    case 'k':
      // KiB round up to whole MiB, as Slurm does.
      return *number / 1024 + (*number % 1024 != 0 ? 1 : 0);
    case 'm':
      return *number;
    case 'g':
      shift = 1;
      break;
    case 't':
      shift = 2;
      break;
    default:
      return std::nullopt;
  }
  std::uint64_t mb = *number;
  for (std::uint64_t i = 0; i < shift; ++i) {
    if (mb > k_max_value / 1024) return std::nullopt;
    mb *= 1024;
  }
  return mb;
}

}  // namespace

std::uint64_t memory_mb(std::string_view text) {
  if (const auto mb = parse_memory(text)) return *mb;
  throw Error(Errc::invalid_argument,
              fmt::format("Invalid memory size \"{}\": expected a non-negative integer with an "
                          "optional K, M, G or T suffix",
                          text));
}

std::uint64_t memory_mb(std::string_view text, std::string_view option) {
  if (const auto mb = parse_memory(text)) return *mb;
  throw Error(Errc::invalid_argument, fmt::format("Invalid {} specification", option));
}

std::string format_memory_mb(std::uint64_t mb) {
  // Slurm prints a bare 0 (TRES "mem=0"), and otherwise the largest unit that
  // divides exactly (convert_num_unit with CONVERT_NUM_UNIT_EXACT).
  if (mb == 0) return "0";
  constexpr std::array k_units = {'M', 'G', 'T', 'P'};
  std::size_t unit = 0;
  while (unit + 1 < k_units.size() && mb % 1024 == 0) {
    mb /= 1024;
    ++unit;
  }
  return fmt::format("{}{}", mb, k_units[unit]);
}

}  // namespace stint::parse
