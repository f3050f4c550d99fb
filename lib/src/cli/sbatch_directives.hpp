#pragma once
// #SBATCH directives: the option words sbatch reads from the top of a batch
// script, split the way Slurm's sbatch splits them (src/sbatch/opt.c,
// get_argument and _opt_batch_script).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stint::cli {

/// The words of every #SBATCH line of `script`, in order, as one argument list.
///
/// - A directive is a line that begins with "#SBATCH" in its first column
///   (case-sensitive); the words after the magic word are its arguments.
/// - Blank lines and comment lines (first non-blank character '#', including
///   "#!" and an indented "  #SBATCH") are skipped.
/// - Reading stops at the first other line: a directive after the first
///   command is ignored.
/// - A directive line whose first word is "hetjob" (or the older "packjob")
///   starts the next component of a heterogeneous job; this returns the
///   first component's (read_directives reads the others).
///
/// `file` names the script in errors ("stdin" when read from standard input).
/// Throws Errc::batch_script_invalid for an unmatched quote.
std::vector<std::string> extract_directives(std::string_view script, std::string_view file);

/// The directives of one component of a heterogeneous job, with where each
/// word came from.
struct Directives {
  std::vector<std::string> words;
  std::vector<int> lines;  ///< the script line of each word (from 1)
  /// The script used Slurm's old magic word "#SLURM" (Slurm reads it, and
  /// says to change it).
  bool old_magic = false;
  /// Components after this one ("#SBATCH hetjob" lines follow).
  bool more_components = false;
};

/// extract_directives with line numbers, for component `component` (0: the
/// directives before the first "hetjob" line; N: those after the N-th).
/// Lines starting "#SLURM" are directives too, as in Slurm.
Directives read_directives(std::string_view script, std::string_view file, int component = 0);

/// Splits the text after "#SBATCH" into words: whitespace separates words;
/// single or double quotes group characters (whitespace and '#' included) and
/// are removed; a backslash makes the next character literal; an unquoted '#'
/// starts a comment that ends the line. Like Slurm, an empty quoted word ("")
/// ends the line's words. `file`, `line_no` and `line` are for the error on an
/// unmatched quote: "<file>: line <n>: Unmatched `<q>` in [<line>]".
std::vector<std::string> split_directive_words(std::string_view text, std::string_view file,
                                               int line_no, std::string_view line);

}  // namespace stint::cli
