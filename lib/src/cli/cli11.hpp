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

/// A long name in a Slurm tool's getopt table and the option of the app it
/// names ("accounts" for squeue's "--account"): Slurm's tables spell some
/// options otherwise than their --help does, and take both through prefixes.
struct LongName {
  std::string_view name;
  std::string_view option;  ///< the app's option, as get_option takes it
};

/// How a Slurm tool's getopt_long reads its command line.
struct GetoptRules {
  /// Slurm's long names in Slurm's table order, which decides how an
  /// ambiguous abbreviation lists its candidates; the app's own long names
  /// not listed here are read too.
  std::vector<LongName> long_names;
  /// Options whose value is optional, so only attached ("-j12",
  /// "--jobs=12"); given bare, the app sees the option with an empty value.
  std::vector<std::string_view> optional_values;
  /// The exit status of a getopt error (squeue and sinfo exit 1).
  int usage_status = 1;
};

/// parse_args, reading argv as Slurm's getopt_long does before the app sees
/// it: bundles, a value in the next argument whatever it starts with ("-S
/// -p,i"), long options abbreviated to a unique prefix, getopt's messages for
/// unknown and ambiguous ones. Operands are moved behind the options as GNU
/// getopt does and returned in `operands`, in order.
int parse_args_getopt(CLI::App& app, std::string_view tool, int argc, char** argv,
                      const GetoptRules& rules, std::vector<std::string>& operands);

}  // namespace stint::cli
