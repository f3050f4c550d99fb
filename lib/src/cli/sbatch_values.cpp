#include "cli/sbatch_values.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

namespace stint::cli::values {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

[[noreturn]] void refuse(const std::string& message) { throw Error(Errc::usage, message); }

// A list for map_gpu/mask_gpu/map_mem/mask_mem: numbers (decimal, or 0x
// masks), each maybe with "*count", separated by ','.
bool id_list(std::string_view text) {
  if (text.empty()) return false;
  for (std::string_view item : split(text, ',')) {
    const std::size_t star = item.find('*');
    std::string_view id = item.substr(0, star);
    if (star != std::string_view::npos && !all_digits(item.substr(star + 1))) return false;
    if (istarts_with(id, "0x")) id.remove_prefix(2);
    if (id.empty() || !std::all_of(id.begin(), id.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c)) != 0;
        })) {
      return false;
    }
  }
  return true;
}

// Slurm's mail type bits in its print order (print_mail_type).
struct MailBit {
  std::string_view name;
  unsigned bit;
};
constexpr std::array k_mail_bits = {
    MailBit{"ARRAY_TASKS", 1U << 0},   MailBit{"INVALID_DEPEND", 1U << 1},
    MailBit{"BEGIN", 1U << 2},         MailBit{"END", 1U << 3},
    MailBit{"FAIL", 1U << 4},          MailBit{"REQUEUE", 1U << 5},
    MailBit{"STAGE_OUT", 1U << 6},     MailBit{"TIME_LIMIT_50", 1U << 7},
    MailBit{"TIME_LIMIT_80", 1U << 8}, MailBit{"TIME_LIMIT_90", 1U << 9},
    MailBit{"TIME_LIMIT", 1U << 10},
};
constexpr unsigned k_mail_all =
    (1U << 1) | (1U << 2) | (1U << 3) | (1U << 4) | (1U << 5) | (1U << 6);

unsigned mail_bits(std::string_view types) {
  unsigned bits = 0;
  if (types.empty() || types == "NONE") return 0;
  for (std::string_view t : split(types, ',')) {
    for (const auto& b : k_mail_bits) {
      if (b.name == t) bits |= b.bit;
    }
  }
  return bits;
}

}  // namespace

std::uint32_t count(std::string_view text, std::string_view option, bool zero_ok) {
  return zero_ok ? parse::count(text, option) : parse::positive_count(text, option);
}

MailTypes mail_type(std::string_view text, std::string_view previous) {
  MailTypes out;
  unsigned bits = 0;
  bool none = false;
  bool any = false;
  for (std::string_view token : split(text, ',')) {
    if (token.empty()) continue;
    if (iequals(token, "NONE")) {
      none = true;
      bits = 0;
      break;
    }
    if (iequals(token, "ALL")) {
      bits |= k_mail_all;
      any = true;
      continue;
    }
    const auto it = std::find_if(k_mail_bits.begin(), k_mail_bits.end(),
                                 [token](const MailBit& b) { return iequals(b.name, token); });
    if (it == k_mail_bits.end()) {
      out.ignored.emplace_back(token);
      continue;
    }
    bits |= it->bit;
    any = true;
  }
  if (!none && !any) refuse("Invalid --mail-type specification");
  if (!none) bits |= mail_bits(previous);
  if (bits == 0) {
    out.types = "NONE";
    return out;
  }
  for (const auto& b : k_mail_bits) {
    if ((bits & b.bit) == 0) continue;
    if (!out.types.empty()) out.types += ',';
    out.types += b.name;
  }
  return out;
}

void hint(std::string_view text) {
  // Slurm splits at ',' not followed by a digit.
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() &&
        !(text[i] == ',' &&
          !(i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0))) {
      continue;
    }
    const std::string_view token = text.substr(start, i - start);
    start = i + 1;
    if (iequals(token, "compute_bound") || iequals(token, "memory_bound") ||
        iequals(token, "multithread") || iequals(token, "nomultithread") ||
        iequals(token, "help")) {
      continue;
    }
    refuse(fmt::format("unrecognized --hint argument \"{}\", see --hint=help", token));
  }
}

std::string_view hint_help() {
  return "Application hint options:\n"
         "    --hint=             Bind tasks according to application hints\n"
         "        compute_bound   use all cores in each socket\n"
         "        memory_bound    use only one core in each socket\n"
         "        [no]multithread [don't] use extra threads with in-core multi-threading\n"
         "        help            show this help message\n";
}

std::string distribution(std::string_view text) {
  std::string_view rest = text;
  const std::size_t comma = rest.find(',');
  if (comma != std::string_view::npos) {
    const std::string_view pack = rest.substr(comma + 1);
    if (!iequals(pack, "Pack") && !iequals(pack, "NoPack")) {
      refuse("Invalid --distribution specification");
    }
    rest = rest.substr(0, comma);
  }
  if (istarts_with(rest, "plane")) {
    // plane=N (a positive plane size), alone.
    const std::string_view size = rest.size() > 6 && rest[5] == '=' ? rest.substr(6) : "";
    if (!all_digits(size) || size.find_first_not_of('0') == std::string_view::npos) {
      refuse("Invalid --distribution specification");
    }
    return std::string(text);
  }
  const auto levels = split(rest, ':');
  if (levels.size() > 3) refuse("Invalid --distribution specification");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string_view level = levels[i];
    const bool ok = iequals(level, "block") || iequals(level, "cyclic") || level == "*" ||
                    (i == 0 && iequals(level, "arbitrary")) || (i > 0 && iequals(level, "fcyclic"));
    if (!ok) refuse("Invalid --distribution specification");
  }
  return std::string(text);
}

void acctg_freq(std::string_view text) {
  for (std::string_view token : split(text, ',')) {
    bool valid = all_digits(token);
    const std::size_t eq = token.find('=');
    if (!valid && eq != std::string_view::npos) {
      const std::string_view type = token.substr(0, eq);
      valid = (iequals(type, "task") || iequals(type, "energy") || iequals(type, "network") ||
               iequals(type, "filesystem")) &&
              all_digits(token.substr(eq + 1));
    }
    if (!valid) refuse(fmt::format("Invalid --acctg-freq specification: {}", token));
  }
}

void cpu_freq(std::string_view text) {
  auto frequency = [](std::string_view f) {
    return all_digits(f) || iequals(f, "low") || iequals(f, "medium") || iequals(f, "high") ||
           iequals(f, "highm1");
  };
  auto governor = [](std::string_view g) {
    return iequals(g, "Conservative") || iequals(g, "OnDemand") || iequals(g, "Performance") ||
           iequals(g, "PowerSave") || iequals(g, "UserSpace") || iequals(g, "SchedUtil");
  };
  const std::size_t colon = text.find(':');
  const std::string_view range = text.substr(0, colon);
  if (colon != std::string_view::npos && !governor(text.substr(colon + 1))) {
    refuse("Invalid --cpu-freq argument");
  }
  if (colon == std::string_view::npos && governor(range)) return;  // a governor alone
  const std::size_t dash = range.find('-');
  const bool ok = dash == std::string_view::npos
                      ? frequency(range)
                      : frequency(range.substr(0, dash)) && frequency(range.substr(dash + 1));
  if (!ok) refuse("Invalid --cpu-freq argument");
}

void gpu_freq(std::string_view text) {
  for (std::string_view token : split(text, ',')) {
    const std::size_t eq = token.find('=');
    const std::string_view key = token.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? key : token.substr(eq + 1);
    const bool level = all_digits(value) || iequals(value, "low") || iequals(value, "medium") ||
                       iequals(value, "high") || iequals(value, "highm1");
    const bool ok = iequals(token, "verbose") || (eq == std::string_view::npos && level) ||
                    (eq != std::string_view::npos && iequals(key, "memory") && level);
    if (!ok) refuse(fmt::format("Invalid --gpu-freq argument: gpu:{}", text));
  }
}

void gpu_bind(std::string_view text) {
  std::string_view rest = text;
  if (istarts_with(rest, "verbose,")) rest.remove_prefix(8);
  bool ok = iequals(rest, "closest") || iequals(rest, "none");
  for (std::string_view prefix : {"map_gpu:", "mask_gpu:"}) {
    if (istarts_with(rest, prefix)) ok = id_list(rest.substr(prefix.size()));
  }
  for (std::string_view prefix : {"per_task:", "single:"}) {
    if (istarts_with(rest, prefix)) ok = all_digits(rest.substr(prefix.size()));
  }
  if (!ok) refuse(fmt::format("Invalid --gpu-bind argument: gpu:{}", text));
}

void mem_bind(std::string_view text) {
  // Slurm's slurm_verify_mem_bind splits at ';' after turning ',' not
  // followed by a digit into ';'.
  std::vector<std::string> tokens;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';' || (c == ',' && !(i + 1 < text.size() &&
                                   std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                                   current.find(':') != std::string::npos))) {
      tokens.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  tokens.push_back(current);
  for (const std::string& token : tokens) {
    const std::string_view t = token;
    if (iequals(t, "help") || iequals(t, "none") || iequals(t, "no") || iequals(t, "local") ||
        iequals(t, "rank") || iequals(t, "prefer") || iequals(t, "p") || iequals(t, "sort") ||
        iequals(t, "quiet") || iequals(t, "q") || iequals(t, "verbose") || iequals(t, "v")) {
      continue;
    }
    bool ok = false;
    for (std::string_view prefix : {"map_mem:", "map_ldom:", "mask_mem:", "mask_ldom:"}) {
      if (istarts_with(t, prefix)) ok = id_list(t.substr(prefix.size()));
    }
    if (!ok) refuse(fmt::format("unrecognized --mem-bind argument \"{}\"", t));
  }
}

std::string_view mem_bind_help() {
  return "Memory bind options:\n"
         "    --mem-bind=         Bind memory to locality domains (ldom)\n"
         "        nosort          avoid sorting pages at startup\n"
         "        sort            sort pages at startup\n"
         "        q[uiet]         quietly bind before task runs (default)\n"
         "        v[erbose]       verbosely report binding before task runs\n"
         "        no[ne]          don't bind tasks to memory (default)\n"
         "        rank            bind by task rank\n"
         "        local           bind to memory local to processor\n"
         "        map_mem:<list>  specify a memory binding for each task\n"
         "                        where <list> is <numa_id1>,<numa_id2>,...<numa_idN>\n"
         "        mask_mem:<list> specify a memory binding mask for each tasks\n"
         "                        where <list> is <mask1>,<mask2>,...<maskN>\n"
         "        help            show this help message\n";
}

NodeShape extra_node_info(std::string_view text) {
  const auto parts = split(text, ':');
  if (parts.size() > 3) refuse("Invalid --extra-node-info specification");
  static constexpr std::array<std::string_view, 3> k_what = {"first arg of -B", "second arg of -B",
                                                             "third arg of -B"};
  std::array<std::optional<std::uint32_t>, 3> mins;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view p = parts[i];
    if (p.empty() || p == "*") continue;  // any
    const std::size_t dash = p.find('-');
    const std::string_view min = p.substr(0, dash);
    auto number = [&](std::string_view n) {
      std::uint64_t v = 0;
      std::uint64_t scale = 1;
      std::string_view digits = n;
      if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) {
        scale = 1024;
        digits.remove_suffix(1);
      } else if (!digits.empty() && (digits.back() == 'm' || digits.back() == 'M')) {
        scale = 1048576;
        digits.remove_suffix(1);
      }
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid numeric value \"{}\" for {}.", p, k_what[i]));
      }
      v *= scale;
      if (v > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
        throw Error(Errc::invalid_argument,
                    fmt::format("Numeric argument ({}) to big for {}.", v, k_what[i]));
      }
      return static_cast<std::uint32_t>(v);
    };
    const std::uint32_t lo = number(min);
    if (dash != std::string_view::npos && number(p.substr(dash + 1)) == 0) {
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid numeric value \"{}\" for {}.", p, k_what[i]));
    }
    mins[i] = lo;
  }
  return NodeShape{mins[0], mins[1], mins[2]};
}

std::string get_user_env(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) ++i;
  const std::string_view mode = text.substr(i);
  if (!mode.empty() && !iequals(mode.substr(0, 1), "s") && !iequals(mode.substr(0, 1), "l")) {
    refuse("Invalid --get-user-env specification");
  }
  return std::string(text);
}

bool no_kill(const std::optional<std::string>& text) {
  if (!text || iequals(*text, "set")) return true;
  if (iequals(*text, "off") || iequals(*text, "no")) return false;
  refuse("Invalid --no-kill specification");
}

std::string gres_flags(std::string_view text) {
  if (iequals(text, "disable-binding")) return "disable-binding";
  if (iequals(text, "enforce-binding")) return "enforce-binding";
  refuse("Invalid --gres-flags specification");
}

std::string profile(std::string_view text) {
  for (std::string_view token : split(text, ',')) {
    if (iequals(token, "all") || iequals(token, "none") || iequals(token, "energy") ||
        iequals(token, "lustre") || iequals(token, "network") || iequals(token, "task")) {
      continue;
    }
    refuse(fmt::format("invalid --profile={} option", text));
  }
  return std::string(text);
}

std::string switches(std::string_view text) {
  const std::size_t at = text.find('@');
  (void)parse::positive_count(text.substr(0, at), "--switches");
  if (at != std::string_view::npos) {
    try {
      (void)parse::time_limit(text.substr(at + 1));
    } catch (const Error&) {
      refuse("Invalid --switches specification");
    }
  }
  return std::string(text);
}

std::string propagate(const std::optional<std::string>& text) {
  if (!text) return "ALL";
  static constexpr std::array<std::string_view, 10> k_limits = {
      "AS", "CORE", "CPU", "DATA", "FSIZE", "MEMLOCK", "NOFILE", "NPROC", "RSS", "STACK"};
  if (iequals(*text, "ALL") || iequals(*text, "NONE")) {
    std::string upper = *text;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper;
  }
  std::string out;
  for (std::string_view token : split(*text, ',')) {
    std::string_view name = token;
    if (istarts_with(name, "RLIMIT_")) name.remove_prefix(7);
    const auto it = std::find_if(k_limits.begin(), k_limits.end(),
                                 [name](std::string_view l) { return iequals(l, name); });
    if (it == k_limits.end()) refuse(fmt::format("--propagate={} is not valid.", *text));
    if (!out.empty()) out += ',';
    out += *it;
  }
  return out;
}

bool wait_all_nodes(std::string_view text) {
  const std::uint32_t v = parse::count(text, "--wait-all-nodes");
  if (v > 1) refuse("Invalid --wait-all-nodes specification");
  return v == 1;
}

std::vector<std::pair<std::string, std::string>> export_file(std::string_view text) {
  const char sep = text.find('\0') != std::string_view::npos ? '\0' : '\n';
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view entry : split(text, sep)) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    out.emplace_back(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return out;
}

}  // namespace stint::cli::values
