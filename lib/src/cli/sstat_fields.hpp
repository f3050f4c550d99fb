#pragma once
// sstat's columns: Slurm 22.05's field table (names, widths, kinds), the
// --format list as sstat reads it, and the lines as its print_fields prints
// them. Pure.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <stint/format.hpp>

#include "cli/sstat_usage.hpp"

namespace stint::cli::sstat {

/// A column chosen by --format: a row of the table and its width (negative:
/// left-aligned).
struct Field {
  std::size_t column = 0;
  int width = 0;
};

/// The columns sstat prints without --format, and with -i (--pidformat).
std::string_view default_fields();
std::string_view pid_fields();

/// Reads the comma-separated fields as sstat does: a name or the start of
/// one, any case, the first of the table it begins; "%N" after it sets the
/// width. An empty item ends the list, as in Slurm. Throws
/// Errc::invalid_argument `Invalid field requested: "X"`.
std::vector<Field> parse_fields(std::string_view list);

/// `sstat --helpformat`: the field names, four to a line.
std::string helpformat();

struct Output {
  std::vector<Field> fields;
  format::Parsable parsable = format::Parsable::no;
  bool no_header = false;
  bool convert = true;  ///< false with --noconvert
};

/// One line to print: a step, or with -i one node of it.
struct StepLine {
  std::string id;                    ///< "12.0", "12.batch"
  bool batch = false;                ///< the batch step (its requested CPU frequency is 0)
  std::string nodes;                 ///< Nodelist
  std::string pids;                  ///< Pids, comma-separated
  const StepUsage* usage = nullptr;  ///< nullptr with -i: no figures
};

/// The header and its dashes (or the parsable header line); empty with no_header.
std::string render_header(const Output& output);
/// One line of figures.
std::string render_line(const Output& output, const StepLine& line);

/// Slurm's convert_num_unit2 from no unit, by 1024 or 1000: "1652K",
/// "1.50G"; while exact unless `aggressive`; unconverted when !convert.
std::string convert_units(double value, int divisor, bool aggressive, bool convert,
                          int start_unit = 0);

}  // namespace stint::cli::sstat
