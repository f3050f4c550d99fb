// GPU requests: --gres=gpu[:type][:count] and -G/--gpus=[type:]count.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

[[noreturn]] void invalid_gres() {
  // Slurm's exact words; the tool prints them after "sbatch: error: ".
  throw Error(Errc::invalid_gres, "Invalid generic resource (gres) specification");
}

constexpr std::uint64_t k_max_count = std::numeric_limits<std::uint32_t>::max();

bool is_type_char(char c) {
  return detail::is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '-' || c == '.';
}

// A GPU model name as gres.conf Type= gives it ("a100", "tesla_v100"). It starts
// with a letter, so "gpu:2x" and "gpu:-1" are bad counts rather than types.
bool is_type(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return false;
  for (char c : s) {
    if (!is_type_char(c)) return false;
  }
  return true;
}

std::uint32_t parse_count(std::string_view s) {
  const auto n = detail::parse_digits(s, k_max_count);
  if (!n) invalid_gres();
  return static_cast<std::uint32_t>(*n);
}

// One "gpu[:type][:count]" entry.
GpuRequest parse_gres_entry(std::string_view entry) {
  const auto colon = entry.find(':');
  if (entry.substr(0, colon) != "gpu") invalid_gres();
  GpuRequest req{"", 1};
  if (colon == std::string_view::npos) return req;

  const std::string_view rest = entry.substr(colon + 1);
  const auto colon2 = rest.find(':');
  if (colon2 == std::string_view::npos) {
    // "gpu:2" is a count, "gpu:a100" a type with the default count of one.
    if (is_type(rest)) {
      req.type = std::string(rest);
    } else {
      req.count = parse_count(rest);
    }
    return req;
  }
  const std::string_view type = rest.substr(0, colon2);
  if (!is_type(type)) invalid_gres();
  req.type = std::string(type);
  req.count = parse_count(rest.substr(colon2 + 1));
  return req;
}

}  // namespace

GpuRequest gres(std::string_view text) {
  // --gres=none takes back a GRES request made earlier (e.g. in #SBATCH).
  if (text == "none") return GpuRequest{"", 0};
  // Slurm takes a comma-separated list, but stint knows one GRES: any second
  // entry is either unknown or a gpu entry contradicting the first.
  if (text.find(',') != std::string_view::npos) invalid_gres();
  return parse_gres_entry(text);
}

GpuRequest gpus(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return GpuRequest{"", parse_count(text)};
  const std::string_view type = text.substr(0, colon);
  if (!is_type(type)) invalid_gres();
  return GpuRequest{std::string(type), parse_count(text.substr(colon + 1))};
}

}  // namespace stint::parse
