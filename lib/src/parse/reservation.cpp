// scontrol's words for a reservation (create_res.c's _parse_res_options and
// the checks scontrol_create_res makes before it asks the controller), the
// Flags= words (proc_args.c's parse_resv_flags), and Flags= as Slurm prints it.

#include <array>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/reservation.hpp>

#include "parse/text.hpp"

namespace stint {
namespace {

using parse::detail::iequals;

/// Slurm's keyword test, xstrncasecmp(tag, keyword, MAX(taglen, min)) == 0:
/// the tag is a case-insensitive prefix of the keyword, at least `min` long.
bool abbreviates(std::string_view tag, std::string_view keyword, std::size_t min) {
  return tag.size() >= min && tag.size() <= keyword.size() &&
         iequals(tag, keyword.substr(0, tag.size()));
}

Error refused(const std::string& message) { return Error(Errc::invalid_argument, message); }

constexpr std::string_view k_supported_flags =
    "MAINT, OVERLAP, IGNORE_JOBS, FLEX, HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY, PART_NODES, "
    "PURGE_COMP[=time], NO_HOLD_JOBS_AFTER_END";

/// How a Flags= word changes a flag: set it (Flags=X, Flags+=X) or clear it
/// (Flags-=X), as parse_resv_flags' op.
enum class FlagOp : std::uint8_t { set_new, add, remove };

/// Flags= words, in parse_resv_flags' order (the first keyword a word
/// abbreviates wins). A flag stint cannot honour has no ResvFlag.
struct FlagWord {
  std::string_view keyword;
  std::size_t min;
  std::optional<ResvFlag> flag;
  bool removable;  ///< "-X" is a word for it
  bool only_new;   ///< only in a plain Flags= (TIME_FLOAT)
};

const std::array k_flag_words = {
    FlagWord{"Maintenance", 3, ResvFlag::maint, true, false},
    FlagWord{"Overlap", 1, ResvFlag::overlap, false, false},
    FlagWord{"Flex", 1, ResvFlag::flex, true, false},
    FlagWord{"Ignore_Jobs", 1, ResvFlag::ignore_jobs, true, false},
    FlagWord{"Hourly", 1, ResvFlag::hourly, true, false},
    FlagWord{"Daily", 1, ResvFlag::daily, true, false},
    FlagWord{"Weekday", 1, ResvFlag::weekday, true, false},
    FlagWord{"Weekend", 1, ResvFlag::weekend, true, false},
    FlagWord{"Weekly", 1, ResvFlag::weekly, true, false},
    FlagWord{"Any_Nodes", 1, std::nullopt, true, false},
    FlagWord{"License_Only", 1, std::nullopt, true, false},
    FlagWord{"Static_Alloc", 1, std::nullopt, true, false},
    FlagWord{"Part_Nodes", 2, ResvFlag::part_nodes, true, false},
    FlagWord{"magnetic", 3, std::nullopt, true, false},
    FlagWord{"promiscuous", 2, std::nullopt, true, false},
    FlagWord{"PURGE_COMP", 2, ResvFlag::purge_comp, true, false},
    FlagWord{"First_Cores", 1, std::nullopt, false, false},
    FlagWord{"Time_Float", 1, std::nullopt, false, true},
    FlagWord{"Replace", 1, std::nullopt, false, false},
    FlagWord{"Replace_Down", 8, std::nullopt, false, false},
    FlagWord{"NO_HOLD_JOBS_AFTER_END", 1, ResvFlag::no_hold_jobs, false, false},
};

/// Flags=: comma-separated words, each optionally led by '+' or '-' (which
/// holds for the words after it too, as in Slurm).
void parse_flags(std::string_view text, std::string_view as_given, std::string_view msg,
                 ReservationRequest& r) {
  auto bad = [&] { return refused(fmt::format("Error parsing flags {}.  {}", as_given, msg)); };
  FlagOp op = FlagOp::set_new;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == '+') {
      op = FlagOp::add;
      ++pos;
    } else if (text[pos] == '-') {
      op = FlagOp::remove;
      ++pos;
    }
    std::size_t end = pos;
    while (end < text.size() && text[end] != ',' && text[end] != '=') ++end;
    const std::string_view tag = text.substr(pos, end - pos);
    const FlagWord* word = nullptr;
    for (const FlagWord& w : k_flag_words) {
      if (!abbreviates(tag, w.keyword, w.min)) continue;
      if (op == FlagOp::remove && !w.removable) continue;
      if (w.only_new && op != FlagOp::set_new) continue;
      word = &w;
      break;
    }
    if (!word) throw bad();
    pos = end;
    if (word->flag == ResvFlag::purge_comp && pos < text.size() && text[pos] == '=') {
      std::size_t value_end = text.find(',', pos);
      if (value_end == std::string_view::npos) value_end = text.size();
      Seconds t = 0;
      try {
        t = parse::duration(text.substr(pos + 1, value_end - pos - 1));
      } catch (const Error&) {
        throw bad();
      }
      if (t == k_infinite) throw bad();
      r.purge_comp_time = t;
      pos = value_end;
    }
    if (!word->flag) {
      throw refused(fmt::format(
          "Reservation flag {} is not supported here (whole nodes, no licenses or floating "
          "times); supported flags: {}.  {}",
          tag, k_supported_flags, msg));
    }
    if (op == FlagOp::remove) {
      r.flags_clear.set(*word->flag);
      r.flags_set.clear(*word->flag);
    } else {
      r.flags_set.set(*word->flag);
      r.flags_clear.clear(*word->flag);
    }
    if (pos < text.size() && text[pos] == ',') ++pos;
  }
}

/// "Users+=a,b" as Slurm sends it: "+a,+b".
std::string with_sign(char sign, std::string_view value) {
  std::string out(1, sign);
  for (char c : value) {
    out += c;
    if (c == ',') out += sign;
  }
  return out;
}

/// NodeCnt=: a count, or a comma-separated list of counts (summed), each
/// with an optional k or m multiplier.
std::uint32_t parse_node_count(std::string_view value) {
  auto bad = [&] { return refused(fmt::format("Invalid node count {}", value)); };
  std::uint64_t total = 0;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(',', start);
    if (end == std::string_view::npos) end = value.size();
    std::string_view tok = value.substr(start, end - start);
    start = end + 1;
    if (tok.empty()) {
      if (end == value.size()) break;
      continue;
    }
    std::uint64_t mult = 1;
    if (tok.back() == 'k' || tok.back() == 'K') mult = 1024;
    if (tok.back() == 'm' || tok.back() == 'M') mult = std::uint64_t{1024} * 1024;
    if (mult != 1) tok.remove_suffix(1);
    const auto n = parse::detail::parse_digits(tok, 0xffffffffULL);
    if (!n) throw bad();
    total += *n * mult;
    if (total > 0xffffffffULL) throw bad();
  }
  return static_cast<std::uint32_t>(total);
}

std::string unsupported(std::string_view key, std::string_view why, std::string_view msg) {
  return fmt::format("{}= is not supported here: {}.  {}", key, why, msg);
}

}  // namespace

ReservationRequest parse_reservation_words(const std::vector<std::string>& words,
                                           ResvCommand command, Seconds now) {
  const std::string_view msg =
      command == ResvCommand::create ? "No reservation created." : "No reservation update.";
  ReservationRequest r;
  bool have_users = false;
  bool have_accounts = false;
  for (const std::string& word : words) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) {
      if (word.size() >= 3 && iequals(std::string_view(word).substr(0, 3), "res")) continue;
      if (abbreviates(word, "Skip", 2)) {
        r.skip = true;
        continue;
      }
      throw refused(fmt::format(
          "Misformatted parameter '{}', most options have a parameter after '='.  {}", word, msg));
    }
    std::string_view tag = std::string_view(word).substr(0, eq);
    const std::string value = word.substr(eq + 1);
    char sign = 0;
    if (!tag.empty() && (tag.back() == '+' || tag.back() == '-')) {
      sign = tag.back();
      tag.remove_suffix(1);
    }
    bool sign_used = false;
    auto once = [&](bool& seen) {
      if (seen) throw refused(fmt::format("Parameter {} specified more than once", word));
      seen = true;
    };

    if (abbreviates(tag, "Accounts", 1)) {
      once(have_accounts);
      r.accounts = sign ? with_sign(sign, value) : value;
      sign_used = true;
    } else if (abbreviates(tag, "Flags", 2)) {
      parse_flags(sign ? with_sign(sign, value) : value, sign ? with_sign(sign, value) : value, msg,
                  r);
      sign_used = true;
    } else if (abbreviates(tag, "Groups", 1)) {
      throw refused(unsupported(
          "Groups", "reservations name their users (Users=) or accounts (Accounts=)", msg));
    } else if (abbreviates(tag, "Users", 1)) {
      once(have_users);
      r.users = sign ? with_sign(sign, value) : value;
      sign_used = true;
    } else if (abbreviates(tag, "ReservationName", 1)) {
      r.name = value;
    } else if (abbreviates(tag, "BurstBuffer", 2)) {
      throw refused(unsupported("BurstBuffer", "this machine has no burst buffers", msg));
    } else if (abbreviates(tag, "StartTime", 2)) {
      try {
        r.start_time = parse::date_time(value, now, parse::Resolve::future);
      } catch (const Error&) {
        throw refused(fmt::format("Invalid start time {}.  {}", word, msg));
      }
    } else if (abbreviates(tag, "EndTime", 1)) {
      try {
        r.end_time = parse::date_time(value, now, parse::Resolve::future);
      } catch (const Error&) {
        throw refused(fmt::format("Invalid end time {}.  {}", word, msg));
      }
    } else if (abbreviates(tag, "Duration", 1)) {
      Seconds d = 0;
      try {
        d = parse::duration(value);
      } catch (const Error&) {
        throw refused(fmt::format("Invalid duration {}.  {}", word, msg));
      }
      // Slurm keeps whole minutes (time_str2mins rounds up).
      if (d != k_infinite) d = (d + 59) / 60 * 60;
      r.duration = d;
      r.duration_sign = sign;
      sign_used = true;
    } else if (abbreviates(tag, "MaxStartDelay", 2)) {
      throw refused(unsupported("MaxStartDelay",
                                "jobs outside a reservation never borrow its nodes here", msg));
    } else if (abbreviates(tag, "NodeCnt", 5) || abbreviates(tag, "NodeCount", 5)) {
      r.node_count = parse_node_count(value);
    } else if (abbreviates(tag, "CoreCnt", 5) || abbreviates(tag, "CoreCount", 5) ||
               abbreviates(tag, "CPUCnt", 5) || abbreviates(tag, "CPUCount", 5)) {
      throw refused(unsupported(tag, "reservations hold whole nodes; use Nodes= or NodeCnt=", msg));
    } else if (abbreviates(tag, "Nodes", 5)) {
      r.nodes = value;
    } else if (abbreviates(tag, "Features", 2)) {
      r.features = value;
    } else if (abbreviates(tag, "Licenses", 2)) {
      throw refused(unsupported("Licenses", "stint.yaml declares no licenses to reserve", msg));
    } else if (abbreviates(tag, "PartitionName", 1)) {
      r.partition = value;
    } else if (abbreviates(tag, "TRES", 1)) {
      throw refused(
          unsupported("TRES", "reservations hold whole nodes; use Nodes= or NodeCnt=", msg));
    } else if (abbreviates(tag, "Watts", 1)) {
      throw refused(unsupported("Watts", "this machine has no power management", msg));
    } else if (tag.size() >= 3 && iequals(tag.substr(0, 3), "res")) {
      continue;
    } else {
      throw refused(fmt::format("Unknown parameter {}.  {}", word, msg));
    }
    if (sign && !sign_used) {
      throw refused(
          fmt::format("The +=/-= notation is not supported when updating {}.  {}", tag, msg));
    }
  }

  if (command == ResvCommand::update) {
    if (!r.name) throw refused("Reservation must be given.  No reservation update.");
    return r;
  }
  // scontrol_create_res's checks, in its order.
  if (!r.start_time) throw refused("A start time must be given.  No reservation created.");
  if (!r.end_time && !r.duration)
    throw refused("An end time or duration must be given.  No reservation created.");
  if (r.end_time && r.duration && *r.duration != k_infinite &&
      *r.start_time + *r.duration != *r.end_time)
    throw refused("StartTime + Duration does not equal EndTime.  No reservation created.");
  if (r.end_time && *r.start_time > *r.end_time)
    throw refused("Start time cannot be after end time.  No reservation created.");
  const bool all_nodes = r.nodes && iequals(*r.nodes, "ALL");
  if (r.partition && all_nodes) r.flags_set.set(ResvFlag::part_nodes);
  if (r.flags_set.has(ResvFlag::part_nodes) && (!r.partition || !all_nodes))
    throw refused(
        "PART_NODES flag requires specifying a Partition and ALL nodes.  No reservation "
        "created.");
  if ((!r.node_count || *r.node_count == 0) && (!r.nodes || r.nodes->empty())) {
    if (!r.partition)
      throw refused(
          "CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.  No "
          "reservation created.");
    r.flags_set.set(ResvFlag::part_nodes);
    r.nodes = "ALL";
  }
  if ((!r.users || r.users->empty()) && (!r.accounts || r.accounts->empty()))
    throw refused(
        "Either Users/Groups and/or Accounts must be specified.  No reservation created.");
  return r;
}

std::string reservation_flags_text(const Reservation& r) {
  struct Name {
    ResvFlag flag;
    std::string_view text;
  };
  // reservation_flags_string's order.
  constexpr std::array k_names = {
      Name{ResvFlag::maint, "MAINT"},
      Name{ResvFlag::flex, "FLEX"},
      Name{ResvFlag::overlap, "OVERLAP"},
      Name{ResvFlag::ignore_jobs, "IGNORE_JOBS"},
      Name{ResvFlag::hourly, "HOURLY"},
      Name{ResvFlag::daily, "DAILY"},
      Name{ResvFlag::weekday, "WEEKDAY"},
      Name{ResvFlag::weekend, "WEEKEND"},
      Name{ResvFlag::weekly, "WEEKLY"},
      Name{ResvFlag::spec_nodes, "SPEC_NODES"},
      Name{ResvFlag::all_nodes, "ALL_NODES"},
      Name{ResvFlag::part_nodes, "PART_NODES"},
      Name{ResvFlag::purge_comp, "PURGE_COMP"},
      Name{ResvFlag::no_hold_jobs, "NO_HOLD_JOBS_AFTER_END"},
  };
  std::string out;
  for (const Name& n : k_names) {
    if (!r.flags.has(n.flag)) continue;
    if (!out.empty()) out += ',';
    out += n.text;
    if (n.flag == ResvFlag::purge_comp && r.purge_comp_time > 0)
      out += "=" + parse::format_duration_fixed(r.purge_comp_time);
  }
  return out;
}

}  // namespace stint
