// Counts given on the command line: -N, -n, -c, --ntasks-per-node and friends.

#include <cstdint>
#include <limits>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {

std::uint32_t count(std::string_view text, std::string_view what) {
  const std::size_t digits = detail::digit_run(text);
  if (digits == 0 || digits != text.size()) {
    // Slurm's wording (get_resource_arg_range).
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid numeric value \"{}\" for {}.", text, what));
  }
  const auto value = detail::parse_digits(text, std::numeric_limits<std::uint32_t>::max());
  if (!value) {
    throw Error(Errc::invalid_argument,
                fmt::format("Numeric argument ({}) too big for {}.", text, what));
  }
  return static_cast<std::uint32_t>(*value);
}

std::uint32_t positive_count(std::string_view text, std::string_view what) {
  const std::uint32_t value = count(text, what);
  if (value == 0) {
    throw Error(Errc::invalid_argument,
                fmt::format("Invalid numeric value \"{}\" for {}.", text, what));
  }
  return value;
}

}  // namespace stint::parse
