#pragma once
// CLI11 with Slurm's manners. Include only from the tools' .cpp files in cli/.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace stint::cli {

/// A CLI::App set up as the tools expect: no Windows-style options, -h/--help,
/// --usage, -V/--version.
void configure_app(CLI::App& app, std::string_view tool);

/// Parses argv into `app`. On a parse error prints Slurm's two lines
/// ("<tool>: unrecognized option '--x'" / "Try \"<tool> --help\" for more
/// information") and returns 255 (Slurm's getopt exit status); on --help
/// prints the help and returns 0; otherwise returns -1: go on.
int parse_args(CLI::App& app, std::string_view tool, int argc, char** argv);

/// parse_args, after joining the named options to their values
/// (join_dash_values), so that a value starting with '-' ("-S -p,i") is one.
int parse_args_joining(CLI::App& app, std::string_view tool, int argc, char** argv,
                       const std::vector<std::pair<std::string, std::string>>& options);

}  // namespace stint::cli
