#pragma once
// `stint report`: reads the jobs and writes the schedule picture.

#include <string>

#include <stint/paths.hpp>

namespace stint::cli {

struct ReportArgs {
  std::string start;                        ///< --start, Slurm's time forms; empty: the jobs' span
  std::string end;                          ///< --end
  std::string output = "stint-report.svg";  ///< -o; "-": the SVG on stdout
  std::string title;
};

/// Writes the SVG to args.output and the HTML page beside it (.html for .svg);
/// prints what it wrote. Returns the exit status.
int stint_report(const Paths& paths, const ReportArgs& args);

}  // namespace stint::cli
