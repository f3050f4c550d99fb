#include "cli/cli11.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include <fmt/core.h>

#include <stint/tools.hpp>

#include "cli/option_table.hpp"
#include "cli/read_common.hpp"
#include "cli/slurm_help.hpp"

namespace stint::cli {
namespace {

// The app's commands, "a, b or c" ("" when it has none).
std::string command_list(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return list;
}

bool has_command(const CLI::App& app, const std::string& name) {
  const auto named = [&name](const CLI::App* sub) { return sub->check_name(name); };
  return !app.get_subcommands(named).empty();
}

// CLI11's words turned into the tool's. Its "The following arguments were not
// expected: --x" becomes Slurm's getopt "unrecognized option '--x'"; its
// other messages ("At Most 1 required but received 2", "Could not convert:
// --nodes = -1", "A subcommand is required") say what to give instead.
std::string tool_wording(const CLI::ParseError& e, const CLI::App& app, int argc, char** argv) {
  std::string what = e.what();
  // CLI11 2.1 names an ExtrasError after the app, so test the type.
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    std::string first_word;
    for (int i = 1; i < argc; ++i) {
      std::string_view a = argv[i];
      if (a.size() > 2 && a.substr(0, 2) == "--" && what.find(a) != std::string::npos)
        return fmt::format("unrecognized option '{}'", a);
      if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && what.find(a) != std::string::npos)
        return fmt::format("invalid option -- '{}'", a.substr(1, 1));
      if (first_word.empty() && !a.empty() && a[0] != '-') first_word = a;
    }
    const std::string commands = command_list(app);
    if (!commands.empty() && !first_word.empty() && !has_command(app, first_word))
      return fmt::format("unknown command '{}': the commands are {}", first_word, commands);
    // CLI11 lists them last first: in the command line's order instead.
    const std::string listed = " " + what.substr(what.find(':') + 1) + " ";
    std::string extras;
    for (int i = 1; i < argc; ++i) {
      const std::string word = argv[i];
      if (!word.empty() && listed.find(" " + word + " ") != std::string::npos)
        extras += (extras.empty() ? "" : " ") + word;
    }
    return "unexpected arguments: " + (extras.empty() ? listed.substr(1) : extras);
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr &&
      what.find("subcommand") != std::string::npos) {
    const std::string commands = command_list(app);
    if (!commands.empty()) {
      // A word where a command goes is a command this tool lacks.
      for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (!a.empty() && a[0] != '-' && !has_command(app, std::string(a)))
          return fmt::format("unknown command '{}': the commands are {}", a, commands);
      }
      return "a command is required: " + commands;
    }
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // "--nodes: At Most 1 required but received 2"
    if (const auto at_most = what.find(": At Most 1 required"); at_most != std::string::npos)
      return fmt::format("{} was given more than once: give it once", what.substr(0, at_most));
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) {
    // "Could not convert: --nodes = -1"
    constexpr std::string_view k_prefix = "Could not convert: ";
    const auto eq = what.find(" = ");
    if (what.rfind(k_prefix, 0) == 0 && eq != std::string::npos) {
      const std::string option = what.substr(k_prefix.size(), eq - k_prefix.size());
      return fmt::format("invalid value '{}' for {}: see \"--help\" for what it takes",
                         what.substr(eq + 3), option);
    }
  }
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) {
    // "--keep-alive: maybe not in {on,off}"
    const auto colon = what.find(": ");
    const auto not_in = what.find(" not in {");
    if (colon != std::string::npos && not_in != std::string::npos && not_in > colon &&
        what.back() == '}') {
      std::string allowed = what.substr(not_in + 9, what.size() - not_in - 10);
      std::string spaced;
      for (char c : allowed) spaced += c == ',' ? std::string(", ") : std::string(1, c);
      return fmt::format("invalid value '{}' for {}: one of {}",
                         what.substr(colon + 2, not_in - colon - 2), what.substr(0, colon), spaced);
    }
  }
  return what;
}

// Thrown by --usage: parse_args prints the short form of `app` (the tool, or
// the subcommand it was given to) and exits 0.
struct UsageRequested {
  const CLI::App* app = nullptr;
};

// Every subcommand answers --usage too ("stint report --usage").
void add_usage_to_subcommands(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_option_no_throw("--usage") == nullptr) {
      sub->add_flag_callback(
          "--usage", [sub]() { throw UsageRequested{sub}; }, "Print a short usage message");
    }
    add_usage_to_subcommands(*sub);
  }
}

// "stint report": the subcommand's path from the tool.
std::string full_name(const CLI::App& app) {
  std::string name = app.get_name();
  for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent())
    name = p->get_name() + " " + name;
  return name;
}

// Slurm's --usage: one line of the options in brackets, wrapped under the
// tool's name ("Usage: squeue [-A account] [--job jobid] ... [-ahjlrsv]"),
// written from the app's own options so that it never goes stale.
std::string short_usage(const CLI::App& app) {
  std::vector<std::string> items;
  std::string short_flags;
  for (const CLI::Option* o : app.get_options()) {
    // Kept out of --help (Slurm's old spellings): out of the synopsis too.
    if (o->get_group().empty()) continue;
    const auto& shorts = o->get_snames();
    const auto& longs = o->get_lnames();
    if (!o->nonpositional()) {
      items.push_back(
          fmt::format("[{}{}]", o->get_name(true), o->get_items_expected_max() > 1 ? "..." : ""));
      continue;
    }
    const bool takes_value = o->get_items_expected_max() > 0;
    if (!takes_value && !shorts.empty()) {
      short_flags += shorts.front();
      continue;
    }
    const std::string name = shorts.empty() ? "--" + longs.front() : "-" + shorts.front();
    if (!takes_value) {
      items.push_back(fmt::format("[{}]", name));
      continue;
    }
    // The value named after the option's long name, as Slurm's text does.
    std::string value = longs.empty() ? "value" : longs.front();
    items.push_back(fmt::format("[{} {}]", name, value));
  }
  if (!short_flags.empty()) items.push_back(fmt::format("[-{}]", short_flags));
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    commands.push_back(sub->get_name());
  if (!commands.empty()) {
    std::string list;
    for (const std::string& c : commands) list += (list.empty() ? "" : "|") + c;
    items.push_back("{" + list + "} ...");
  }
  const std::string head = fmt::format("Usage: {}", full_name(app));
  const std::string indent(head.size(), ' ');
  std::string out = head;
  std::size_t col = out.size();
  for (const std::string& item : items) {
    if (col + 1 + item.size() > 79 && col > head.size()) {
      out += "\n" + indent;
      col = indent.size();
    }
    out += " " + item;
    col += 1 + item.size();
  }
  return out + "\n";
}

}  // namespace

void configure_app(CLI::App& app, std::string_view tool) {
  app.name(std::string(tool));
  app.allow_windows_style_options(false);
  // "slurm 22.05.8 (stint 0.1.0)": Slurm's release first, as scripts read it.
  app.set_version_flag("-V,--version", stint::version_line());
  app.add_flag_callback(
      "--usage", [&app]() { throw UsageRequested{&app}; }, "Print a short usage message");
}

int parse_args(CLI::App& app, std::string_view tool, int argc, char** argv) {
  try {
    add_usage_to_subcommands(app);
    app.parse(argc, argv);
    return -1;
  } catch (const UsageRequested& u) {
    const auto slurm_usage = slurm_usage_text(tool);
    if (slurm_usage && (u.app == nullptr || u.app == &app)) {
      fmt::print("{}", *slurm_usage);
    } else {
      fmt::print("{}", short_usage(u.app ? *u.app : app));
    }
    return 0;
  } catch (const CLI::CallForHelp& e) {
    // Slurm's own words where the tool is one of Slurm's; stint's list of
    // what each option does here for the man page (scripts/gen-man).
    const char* format = std::getenv("STINT_HELP_FORMAT");
    const bool stint_format = format != nullptr && std::string_view(format) == "stint";
    if (const auto slurm_help = slurm_help_text(tool); slurm_help && !stint_format) {
      fmt::print("{}", *slurm_help);
      return 0;
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "{}: {}\nTry \"{} --help\" for more information\n", tool,
               tool_wording(e, app, argc, argv), tool);
    return 255;
  }
}

int parse_args_joining(CLI::App& app, std::string_view tool, int argc, char** argv,
                       const std::vector<std::pair<std::string, std::string>>& options) {
  std::vector<std::string> args = join_dash_values(argc, argv, options);
  std::vector<char*> joined;
  for (auto& s : args) joined.push_back(s.data());
  return parse_args(app, tool, static_cast<int>(joined.size()), joined.data());
}

namespace {

// The app's options as an option table for scan_options: one id per option,
// Slurm's long names first in Slurm's order, then the app's own names.
struct GetoptTable {
  std::deque<std::string> names;  // the views in `specs` point here
  std::vector<OptionSpec> specs;
  std::vector<const CLI::Option*> options;  // by id
};

GetoptTable getopt_table(const CLI::App& app, const GetoptRules& rules) {
  GetoptTable t;
  auto id_of = [&t](const CLI::Option* o) {
    const auto it = std::find(t.options.begin(), t.options.end(), o);
    if (it != t.options.end()) return static_cast<int>(it - t.options.begin());
    t.options.push_back(o);
    return static_cast<int>(t.options.size() - 1);
  };
  auto arg_of = [&rules](const CLI::Option* o) {
    for (std::string_view name : rules.optional_values)
      if (o->check_name(std::string(name))) return ArgKind::optional;
    return o->get_items_expected_max() > 0 ? ArgKind::required : ArgKind::none;
  };
  auto has_long = [&t](std::string_view name) {
    return std::any_of(t.specs.begin(), t.specs.end(),
                       [name](const OptionSpec& s) { return s.long_name == name; });
  };
  std::uint16_t rank = 0;
  auto add = [&](const CLI::Option* o, char short_name, std::string_view long_name) {
    OptionSpec spec;
    spec.id = id_of(o);
    spec.short_name = short_name;
    spec.long_name = t.names.emplace_back(long_name);
    spec.arg = arg_of(o);
    spec.slurm_rank = rank++;
    t.specs.push_back(spec);
  };
  for (const LongName& l : rules.long_names) {
    const CLI::Option* o = app.get_option_no_throw(std::string(l.option));
    if (o == nullptr) throw std::logic_error("no option " + std::string(l.option));
    add(o, '\0', l.name);
  }
  for (const CLI::Option* o : app.get_options()) {
    if (!o->nonpositional()) continue;
    for (const std::string& l : o->get_lnames())
      if (!has_long(l)) add(o, '\0', l);
    for (const std::string& s : o->get_snames()) add(o, s.front(), "");
  }
  return t;
}

// How the app is given an option found: its first long name, else its short.
std::string canonical(const CLI::Option& o, const std::optional<std::string>& value) {
  if (!o.get_lnames().empty()) {
    const std::string name = "--" + o.get_lnames().front();
    return value ? name + "=" + *value : name;
  }
  return "-" + o.get_snames().front() + value.value_or("");
}

}  // namespace

int parse_args_getopt(CLI::App& app, std::string_view tool, int argc, char** argv,
                      const GetoptRules& rules, std::vector<std::string>& operands) {
  // Given bare, an option with an optional value reaches the app without one.
  for (std::string_view name : rules.optional_values) {
    if (CLI::Option* o = app.get_option_no_throw(std::string(name))) o->expected(0, 1);
  }
  const GetoptTable table = getopt_table(app, rules);
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> canon{argc > 0 ? argv[0] : std::string(tool)};
  try {
    std::size_t start = 0;
    while (start < args.size()) {
      const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(start),
                                          args.end());
      const OptionScan scan = scan_options(table.specs, rest);
      for (const FoundOption& f : scan.options)
        canon.push_back(canonical(*table.options[static_cast<std::size_t>(f.id)], f.value));
      std::size_t next = scan.first_operand;
      if (next >= rest.size()) break;
      // After "--" every argument is an operand.
      const bool ended = next > 0 && rest[next - 1] == "--" &&
                         (scan.options.empty() || scan.options.back().arg_index != next - 1);
      if (ended) {
        operands.insert(operands.end(), rest.begin() + static_cast<std::ptrdiff_t>(next),
                        rest.end());
        break;
      }
      operands.push_back(rest[next]);
      start += next + 1;
    }
  } catch (const UsageError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: {}\n", tool, e.what());
    if (!e.suggestion().empty())
      fmt::print(stderr, "{}: error: did you mean '{}'?\n", tool, e.suggestion());
    fmt::print(stderr, "Try \"{} --help\" for more information\n", tool);
    return rules.usage_status;
  }
  std::vector<char*> joined;
  for (auto& s : canon) joined.push_back(s.data());
  return parse_args(app, tool, static_cast<int>(joined.size()), joined.data());
}

}  // namespace stint::cli
