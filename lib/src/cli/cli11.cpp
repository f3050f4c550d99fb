#include "cli/cli11.hpp"

#include <cstdio>

#include <fmt/core.h>

#include <stint/tools.hpp>

namespace stint::cli {
namespace {

// CLI11 says "The following arguments were not expected: --x"; Slurm's getopt
// says "unrecognized option '--x'". Keep Slurm's words for the common cases.
std::string slurm_wording(const CLI::ParseError& e, int argc, char** argv) {
  std::string what = e.what();
  // CLI11 2.1 names an ExtrasError after the app, so test the type.
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    for (int i = 1; i < argc; ++i) {
      std::string_view a = argv[i];
      if (a.size() > 2 && a.substr(0, 2) == "--" && what.find(a) != std::string::npos)
        return fmt::format("unrecognized option '{}'", a);
      if (a.size() >= 2 && a[0] == '-' && a[1] != '-' && what.find(a) != std::string::npos)
        return fmt::format("invalid option -- '{}'", a.substr(1, 1));
    }
    return "unrecognized arguments: " + what.substr(what.find(':') + 1);
  }
  return what;
}

}  // namespace

void configure_app(CLI::App& app, std::string_view tool) {
  app.name(std::string(tool));
  app.allow_windows_style_options(false);
  app.set_version_flag("-V,--version", fmt::format("{} (stint) {}", tool, stint::version()));
  app.add_flag_callback(
      "--usage", [&app]() { throw CLI::CallForHelp(); }, "Print a short usage message");
}

int parse_args(CLI::App& app, std::string_view tool, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "{}: {}\nTry \"{} --help\" for more information\n", tool,
               slurm_wording(e, argc, argv), tool);
    return 255;
  }
}

}  // namespace stint::cli
