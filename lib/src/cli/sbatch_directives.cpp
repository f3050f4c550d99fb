#include "cli/sbatch_directives.hpp"

#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint::cli {
namespace {

constexpr std::string_view k_magic = "#SBATCH";

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// One word starting at `pos` (whitespace before it skipped); nullopt when the
// line has no more words. Follows Slurm's get_argument character for
// character, quirks included, so a script means the same thing to both.
std::optional<std::string> next_word(std::string_view text, std::size_t& pos, std::string_view file,
                                     int line_no, std::string_view line) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  if (pos >= text.size()) return std::nullopt;

  std::string word;
  bool have_word = false;
  bool escaped = false;
  bool quoted = false;
  char quote = '\0';
  while (pos < text.size() && (quoted || !is_space(text[pos])) && text[pos] != '\n') {
    const char c = text[pos];
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
      ++pos;
      continue;
    } else if (quoted) {
      if (c == quote) {
        quoted = false;
        ++pos;
        continue;
      }
    } else if (c == '"' || c == '\'') {
      quoted = true;
      quote = c;
      ++pos;
      continue;
    } else if (c == '#') {
      break;  // an unquoted, unescaped '#': the rest of the line is a comment
    }
    word += c;
    have_word = true;
    ++pos;
  }
  if (quoted) {
    throw Error(Errc::batch_script_invalid,
                fmt::format("{}: line {}: Unmatched `{}` in [{}]", file, line_no, quote, line));
  }
  // Slurm returns "no argument" for a word that produced no characters (a
  // lone "#", or ""), which ends the line's words.
  if (!have_word) return std::nullopt;
  return word;
}

bool contains_no_case(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < needle.size() && match; ++j) {
      match = std::tolower(static_cast<unsigned char>(haystack[i + j])) ==
              std::tolower(static_cast<unsigned char>(needle[j]));
    }
    if (match) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> split_directive_words(std::string_view text, std::string_view file,
                                               int line_no, std::string_view line) {
  std::vector<std::string> words;
  std::size_t pos = 0;
  while (auto word = next_word(text, pos, file, line_no, line)) words.push_back(std::move(*word));
  return words;
}

std::vector<std::string> extract_directives(std::string_view script, std::string_view file) {
  std::vector<std::string> args;
  int line_no = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    const std::string_view line = script.substr(start, end - start);
    start = end + 1;
    ++line_no;

    if (line.substr(0, k_magic.size()) != k_magic) {
      // Not a directive: a blank or comment line is skipped, anything else is
      // the first command and ends the directives.
      std::size_t i = 0;
      while (i < line.size() && is_space(line[i])) ++i;
      if (i < line.size() && line[i] != '#') break;
      continue;
    }
    // A "hetjob" directive starts the next component of a heterogeneous job;
    // like Slurm for the first component, stop there (stint runs only that one).
    if (contains_no_case(line, "hetjob") || contains_no_case(line, "packjob")) break;
    for (auto& word : split_directive_words(line.substr(k_magic.size()), file, line_no, line)) {
      args.push_back(std::move(word));
    }
  }
  return args;
}

}  // namespace stint::cli
