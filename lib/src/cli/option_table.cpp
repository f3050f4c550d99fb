#include "cli/option_table.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

namespace stint::cli {
namespace {

// glibc's process_long_option: an exact name wins; otherwise every entry the
// text is a prefix of is a candidate, and the abbreviation is ambiguous when
// a candidate is another option than the first (aliases of one option are
// one). The message lists the first candidate and those that differ from it,
// in the table's (Slurm's) order, and quotes the argument as written, with
// its "=value".
const OptionSpec& find_long(std::span<const OptionSpec> table, const std::string& arg,
                            std::string_view name, std::size_t index) {
  for (const auto& d : table) {
    if (d.long_name == name) return d;
  }
  std::vector<const OptionSpec*> matches;
  for (const auto& d : table) {
    if (!name.empty() && d.long_name.substr(0, name.size()) == name) matches.push_back(&d);
  }
  if (matches.empty()) {
    throw UsageError(fmt::format("unrecognized option '{}'", arg), closest_option(table, name),
                     index);
  }
  std::stable_sort(matches.begin(), matches.end(), [](const OptionSpec* a, const OptionSpec* b) {
    return a->slurm_rank < b->slurm_rank;
  });
  const OptionSpec* first = matches.front();
  const bool ambiguous = std::any_of(matches.begin(), matches.end(), [first](const OptionSpec* m) {
    return m->id != first->id || m->arg != first->arg;
  });
  if (!ambiguous) return *first;
  std::string which;
  for (const auto* m : matches) {
    if (m == first || m->id != first->id || m->arg != first->arg) {
      which += fmt::format(" '--{}'", m->long_name);
    }
  }
  throw UsageError(fmt::format("option '{}' is ambiguous; possibilities:{}", arg, which), {},
                   index);
}

// Optimal string alignment distance: a transposed pair counts as one edit,
// the commonest typo in option names ("--mial-type").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string escape_scdoc(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '*' || c == '_') out += '\\';
    out += c;
  }
  return out;
}

// An option's --help lines split into its names ("-a", "--array=indexes")
// and its description. The names are the first line's words that start with
// '-' (Slurm's layout puts the description at column 30 but not always:
// "-d, --dependency=type:jobid[:time] defer job ..."); a bracket keeps a
// value with a space in it together ("--wrap[=command string]").
std::pair<std::vector<std::string>, std::string> split_help(std::string_view help) {
  std::vector<std::string> names;
  std::string description;
  bool first = true;
  std::size_t start = 0;
  while (start < help.size()) {
    std::size_t end = help.find('\n', start);
    if (end == std::string_view::npos) end = help.size();
    const std::string_view line = help.substr(start, end - start);
    start = end + 1;
    std::vector<std::string> words;
    std::string word;
    int depth = 0;
    for (char c : line) {
      if (c == '[') ++depth;
      if (c == ']') --depth;
      if (std::isspace(static_cast<unsigned char>(c)) && depth <= 0) {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
        continue;
      }
      word += c;
    }
    if (!word.empty()) words.push_back(std::move(word));
    std::size_t w = 0;
    if (first && !words.empty()) {
      first = false;
      for (; w < words.size() && words[w].front() == '-'; ++w) {
        std::string name = words[w];
        if (!name.empty() && name.back() == ',') name.pop_back();
        names.push_back(std::move(name));
      }
    }
    for (; w < words.size(); ++w) {
      if (!description.empty()) description += ' ';
      description += words[w];
    }
  }
  return {names, description};
}

// "-a" / "--array=indexes" / "--nice[=value]" to scdoc: names bold, the
// value underlined.
std::string names_scdoc(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ", ";
    const std::size_t at = name.find_first_of("=[");
    out += "*" + escape_scdoc(name.substr(0, at)) + "*";
    if (at == std::string::npos) continue;
    const bool optional = name[at] == '[';
    std::string arg = name.substr(at + (optional ? 2 : 1));
    if (optional && !arg.empty() && arg.back() == ']') arg.pop_back();
    if (arg.empty()) arg = "value";
    out += optional ? "[=_" + escape_scdoc(arg) + "_]" : "=_" + escape_scdoc(arg) + "_";
  }
  return out;
}

// A line of text for scdoc: some starts of a line mean a list, a table or a
// heading to it, or a roff request; an empty bold span ahead keeps them text.
std::string text_line(const std::string& escaped) {
  if (escaped.empty()) return escaped;
  const char c = escaped.front();
  if (c == '-' || c == '.' || c == '\'' || c == '#' || c == ':' || c == '|' || c == '[' ||
      c == ']' || c == '+') {
    return "**" + escaped;
  }
  return escaped;
}

}  // namespace

OptionScan scan_options(std::span<const OptionSpec> table, const std::vector<std::string>& args) {
  OptionScan scan;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') break;  // the first operand ends the options

    if (arg[1] == '-') {
      const std::string_view body = std::string_view(arg).substr(2);
      const std::size_t eq = body.find('=');
      const OptionSpec& def = find_long(table, arg, body.substr(0, eq), i);
      FoundOption found{def.id, fmt::format("--{}", def.long_name), std::nullopt, i};
      if (eq != std::string_view::npos) {
        if (def.arg == ArgKind::none) {
          throw UsageError(fmt::format("option '--{}' doesn't allow an argument", def.long_name),
                           {}, i);
        }
        found.value = std::string(body.substr(eq + 1));
      } else if (def.arg == ArgKind::required) {
        if (i + 1 >= args.size()) {
          throw UsageError(fmt::format("option '--{}' requires an argument", def.long_name), {}, i);
        }
        found.value = args[++i];
      }
      scan.options.push_back(std::move(found));
      continue;
    }

    // A bundle of short options: -HQ, -c4, -c 4; an optional value only attached (-k).
    for (std::size_t j = 1; j < arg.size(); ++j) {
      const char c = arg[j];
      const auto it = std::find_if(table.begin(), table.end(),
                                   [c](const OptionSpec& d) { return d.short_name == c; });
      if (it == table.end()) throw UsageError(fmt::format("invalid option -- '{}'", c), {}, i);
      FoundOption found{it->id, fmt::format("-{}", c), std::nullopt, i};
      if (it->arg != ArgKind::none) {
        if (j + 1 < arg.size()) {
          found.value = arg.substr(j + 1);
        } else if (it->arg == ArgKind::required) {
          if (i + 1 >= args.size()) {
            throw UsageError(fmt::format("option requires an argument -- '{}'", c), {}, i);
          }
          found.value = args[++i];
        }
        scan.options.push_back(std::move(found));
        break;
      }
      scan.options.push_back(std::move(found));
    }
  }
  scan.first_operand = i;
  return scan;
}

const OptionSpec* find_option(std::span<const OptionSpec> table, int id) {
  const auto it =
      std::find_if(table.begin(), table.end(), [id](const OptionSpec& d) { return d.id == id; });
  return it == table.end() ? nullptr : &*it;
}

std::string closest_option(std::span<const OptionSpec> table, std::string_view unknown) {
  if (unknown.size() < 3) return {};
  // Up to a third of the name may differ, at most 3 edits: "--mial-type",
  // "--mem_per_cpu" and "--ntask" find theirs, "--foo" finds nothing.
  const std::size_t limit = std::min<std::size_t>(3, std::max<std::size_t>(1, unknown.size() / 3));
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& d : table) {
    std::string name(d.long_name);
    std::string typed(unknown);
    // '_' for '-' is a typo too, and a cheap one.
    std::replace(typed.begin(), typed.end(), '_', '-');
    const std::size_t distance = edit_distance(typed, name);
    if (distance < best_distance) {
      best_distance = distance;
      best = "--" + name;
    }
  }
  return best;
}

std::string help_text(std::span<const OptionSpec> table, std::string_view usage_line) {
  std::string out(usage_line);
  out += "\n";
  std::string_view section;
  for (const auto& d : table) {
    if (d.section != section) {
      section = d.section;
      out += fmt::format("\n{}\n", section);
    }
    out += d.help;
  }
  out += "\n";
  return out;
}

std::string options_scdoc(std::span<const OptionSpec> table) {
  std::string out;
  std::string_view section;
  for (const auto& d : table) {
    if (d.section != section) {
      section = d.section;
      const std::string_view title = section.substr(0, section.find('\n'));
      out += fmt::format("## {}\n\n", escape_scdoc(title.substr(0, title.find(':'))));
    }
    const auto [names, description] = split_help(d.help);
    out += names_scdoc(names) + "\n";
    if (!description.empty()) out += "\t" + text_line(escape_scdoc(description)) + "\n";
    if (!d.here.empty()) {
      out += fmt::format("\t{}{}\n", d.effect == Effect::recorded ? "Recorded only. " : "",
                         escape_scdoc(d.here));
    }
    if (!d.env.empty()) {
      std::string vars;
      std::size_t start = 0;
      while (start < d.env.size()) {
        std::size_t end = d.env.find(' ', start);
        if (end == std::string_view::npos) end = d.env.size();
        if (!vars.empty()) vars += ", ";
        vars += "*" + escape_scdoc(d.env.substr(start, end - start)) + "*";
        start = end + 1;
      }
      out += fmt::format("\tInput environment variable: {}.\n", vars);
    }
    out += "\n";
  }
  return out;
}

}  // namespace stint::cli
