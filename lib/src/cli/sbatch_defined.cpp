// sbatch -v's list of the options set (Slurm's slurm_print_set_options):
// each option given on the command line, in an SBATCH_* variable or in a
// directive, in Slurm's table order, with its value as Slurm's get function
// writes it back: times as [D-]HH:MM:SS, sizes in Slurm's units, flags as
// "set", -v and -Q as counts, the others as given.

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "cli/sbatch_builder.hpp"

namespace stint::cli {
namespace {

// Slurm's mins2time_str.
std::string minutes_text(Seconds seconds) {
  if (seconds == k_infinite) return "UNLIMITED";
  const Seconds minutes = (seconds + 59) / 60;
  const Seconds days = minutes / 1440;
  const Seconds hours = minutes / 60 % 24;
  if (days) return fmt::format("{}-{:02}:{:02}:00", days, hours, minutes % 60);
  return fmt::format("{:02}:{:02}:00", hours, minutes % 60);
}

// Slurm's mbytes_to_str: no unit for megabytes.
std::string megabytes_text(std::uint64_t mb) {
  constexpr std::string_view k_units = "MGTP";
  std::size_t unit = 0;
  while (unit + 1 < k_units.size() && !(mb && mb % 1024)) {
    mb /= 1024;
    ++unit;
  }
  if (unit == 0) return std::to_string(mb);
  return fmt::format("{}{}", mb, k_units[unit]);
}

// -N min[-max]: one count where both are the same.
std::string nodes_text(const std::string& v) {
  const std::size_t dash = v.find('-');
  if (dash != std::string::npos && v.substr(0, dash) == v.substr(dash + 1))
    return v.substr(0, dash);
  return v;
}

std::string value_text(const OptionSpec& spec, const std::string& given, int verbose) {
  const auto id = static_cast<SbatchOpt>(spec.id);
  try {
    switch (id) {
      case SbatchOpt::verbose:
        return std::to_string(verbose);
      case SbatchOpt::time:
      case SbatchOpt::time_min:
        return minutes_text(parse::time_limit(given));
      case SbatchOpt::mem:
      case SbatchOpt::mem_per_cpu:
      case SbatchOpt::mem_per_gpu:
      case SbatchOpt::tmp:
        return megabytes_text(parse::memory_mb(given));
      case SbatchOpt::nodes:
        return nodes_text(given);
      case SbatchOpt::requeue:
        return "requeue";
      case SbatchOpt::no_requeue:
        return "no-requeue";
      case SbatchOpt::exclusive:
        return given.empty() ? "exclusive" : given;
      default:
        break;
    }
  } catch (const Error&) {
    // Checked when it was applied; as given otherwise.
  }
  if (spec.arg == ArgKind::none) return "set";
  return given;
}

}  // namespace

std::vector<std::string> defined_options(const SbatchBuilder& b) {
  std::vector<const OptionSpec*> set;
  for (const auto& [id, value] : b.given) {
    if (const OptionSpec* spec = find_option(sbatch_option_table(), static_cast<int>(id)))
      set.push_back(spec);
  }
  std::stable_sort(set.begin(), set.end(), [](const OptionSpec* x, const OptionSpec* y) {
    return x->slurm_rank < y->slurm_rank;
  });
  std::vector<std::string> lines{"defined options", "-------------------- --------------------"};
  for (const OptionSpec* spec : set) {
    const std::string& given = b.given.at(static_cast<SbatchOpt>(spec->id)).first;
    lines.push_back(
        fmt::format("{:<20}: {}", spec->long_name, value_text(*spec, given, b.request.verbose)));
  }
  lines.emplace_back("-------------------- --------------------");
  lines.emplace_back("end of defined options");
  return lines;
}

}  // namespace stint::cli
