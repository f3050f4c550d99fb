// Hostlist expressions, as slurm.conf, -w/--nodelist and NODELIST use them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

// Bounds that keep a typo such as "n[0-99999999]" from eating all memory.
constexpr std::size_t k_max_hosts = 65536;
// Numbers up to 18 digits fit an uint64 without care.
constexpr std::size_t k_max_digits = 18;
constexpr std::uint64_t k_max_number = 999'999'999'999'999'999ULL;

[[noreturn]] void bad_hostlist(std::string_view text, std::string_view why) {
  throw Error(Errc::invalid_argument, fmt::format("Invalid hostlist \"{}\": {}", text, why));
}

struct Number {
  std::uint64_t value = 0;
  std::size_t width = 0;  ///< digits as written; leading zeros make it zero-padded
};

std::string pad(std::uint64_t value, std::size_t width) {
  return fmt::format("{:0{}}", value, width);
}

// "1-3,5,07" -> its numbers in order.
std::vector<Number> expand_brackets(std::string_view text, std::string_view inner) {
  std::vector<Number> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = inner.find(',', start);
    const std::string_view elem = inner.substr(start, comma - start);
    const auto dash = elem.find('-');
    const std::string_view lo_text = elem.substr(0, dash);
    if (lo_text.size() > k_max_digits) bad_hostlist(text, "number too long");
    const auto lo = detail::parse_digits(lo_text, k_max_number);
    if (!lo) bad_hostlist(text, fmt::format("\"{}\" is not a number or range", elem));
    std::uint64_t hi = *lo;
    if (dash != std::string_view::npos) {
      const std::string_view hi_text = elem.substr(dash + 1);
      const auto parsed = detail::parse_digits(hi_text, k_max_number);
      if (!parsed || hi_text.size() > k_max_digits) {
        bad_hostlist(text, fmt::format("\"{}\" is not a number or range", elem));
      }
      hi = *parsed;
      if (hi < *lo) bad_hostlist(text, fmt::format("range \"{}\" runs backwards", elem));
    }
    if (hi - *lo >= k_max_hosts) bad_hostlist(text, "too many hosts");
    // The width comes from the low end as written: [01-10] pads, [1-10] does not.
    for (std::uint64_t v = *lo; v <= hi; ++v) out.push_back(Number{v, lo_text.size()});
    if (out.size() > k_max_hosts) bad_hostlist(text, "too many hosts");
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// One comma-free item such as "rack[0-1]_blade[01-02]": each bracket group
// multiplies the names. The order is hostlist.c's: the last group varies
// fastest, then the first, the second, ... ("row[0,1]_rack[2-3]_blade[4,5]"
// gives row0_rack2_blade4, row0_rack2_blade5, row1_rack2_blade4, ...).
void expand_item(std::string_view text, std::string_view item, std::vector<std::string>& out) {
  std::vector<std::string_view> literals;  // one more than the groups
  std::vector<std::vector<Number>> groups;
  std::size_t total = 1;
  std::size_t pos = 0;
  for (;;) {
    const auto open = item.find('[', pos);
    literals.push_back(item.substr(pos, open - pos));
    if (open == std::string_view::npos) break;
    const auto close = item.find(']', open);
    if (close == std::string_view::npos) bad_hostlist(text, "'[' without ']'");
    groups.push_back(expand_brackets(text, item.substr(open + 1, close - open - 1)));
    if (total * groups.back().size() > k_max_hosts) bad_hostlist(text, "too many hosts");
    total *= groups.back().size();
    pos = close + 1;
  }
  if (out.size() + total > k_max_hosts) bad_hostlist(text, "too many hosts");
  // The groups from the fastest to the slowest.
  std::vector<std::size_t> speed;
  if (!groups.empty()) speed.push_back(groups.size() - 1);
  for (std::size_t g = 0; g + 1 < groups.size(); ++g) speed.push_back(g);
  std::vector<std::size_t> at(groups.size(), 0);
  for (std::size_t made = 0; made < total; ++made) {
    std::string name(literals[0]);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const Number& num = groups[g][at[g]];
      name += pad(num.value, num.width);
      name += literals[g + 1];
    }
    out.push_back(std::move(name));
    for (std::size_t g : speed) {
      if (++at[g] < groups[g].size()) break;
      at[g] = 0;
    }
  }
}

// A host name split at its trailing digits: "node07" -> ("node", 7, width 2).
struct SplitName {
  std::string_view prefix;
  std::string_view digits;  ///< empty: no number to fold
  std::uint64_t value = 0;
};

SplitName split_name(std::string_view host) {
  std::size_t n = 0;
  while (n < host.size() && detail::is_digit(host[host.size() - 1 - n])) ++n;
  if (n == 0 || n > k_max_digits) return SplitName{host, {}, 0};
  const std::string_view digits = host.substr(host.size() - n);
  return SplitName{host.substr(0, host.size() - n), digits,
                   *detail::parse_digits(digits, k_max_number)};
}

struct Range {
  std::string_view prefix;
  bool numbered = false;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  std::size_t width = 0;
};

std::string format_range(const Range& r) {
  if (r.lo == r.hi) return pad(r.lo, r.width);
  return fmt::format("{}-{}", pad(r.lo, r.width), pad(r.hi, r.width));
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[') {
      if (depth++ > 0) bad_hostlist(text, "nested '['");
    } else if (c == ']') {
      if (--depth < 0) bad_hostlist(text, "']' without '['");
    } else if (c == ' ' || c == '\t' || c == '\n') {
      bad_hostlist(text, "blank in host name");
    } else if (c == ',' && depth == 0) {
      // Empty items ("a,,b", a trailing comma) are skipped, as Slurm does.
      if (i > start) expand_item(text, text.substr(start, i - start), out);
      start = i + 1;
    }
  }
  if (depth != 0) bad_hostlist(text, "'[' without ']'");
  return out;
}

std::string compress_hostlist(const std::vector<std::string>& hosts) {
  // Consecutive numbers fold into one range when they share a prefix and the
  // range's zero padding reproduces each name exactly ("n9,n10" -> n[9-10],
  // but "n1,n02" stays two ranges).
  std::vector<Range> ranges;
  for (const auto& host : hosts) {
    const SplitName name = split_name(host);
    const bool numbered = !name.digits.empty();
    if (numbered && !ranges.empty()) {
      Range& last = ranges.back();
      if (last.numbered && last.prefix == name.prefix && name.value == last.hi + 1 &&
          pad(name.value, last.width) == name.digits) {
        last.hi = name.value;
        continue;
      }
    }
    ranges.push_back(Range{name.prefix, numbered, name.value, name.value, name.digits.size()});
  }

  // Neighbouring ranges with one prefix share a bracket, as Slurm prints them.
  std::string out;
  for (std::size_t i = 0; i < ranges.size();) {
    if (!out.empty()) out += ',';
    const Range& first = ranges[i];
    out += first.prefix;
    if (!first.numbered) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < ranges.size() && ranges[j].numbered && ranges[j].prefix == first.prefix) ++j;
    if (j == i + 1 && first.lo == first.hi) {
      out += pad(first.lo, first.width);
    } else {
      out += '[';
      for (std::size_t k = i; k < j; ++k) {
        if (k > i) out += ',';
        out += format_range(ranges[k]);
      }
      out += ']';
    }
    i = j;
  }
  return out;
}

std::string compress_counts(const std::vector<std::uint32_t>& counts) {
  std::string out;
  for (std::size_t i = 0; i < counts.size();) {
    std::size_t j = i;
    while (j < counts.size() && counts[j] == counts[i]) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(counts[i]);
    if (j - i > 1) out += fmt::format("(x{})", j - i);
    i = j;
  }
  return out;
}

}  // namespace stint::parse
