#include "cli/sbatch_directives.hpp"

#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint::cli {
namespace {

constexpr std::string_view k_magic = "#SBATCH";
constexpr std::string_view k_old_magic = "#SLURM";

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

bool starts_with_no_case(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t j = 0; j < prefix.size(); ++j) {
    if (std::tolower(static_cast<unsigned char>(text[j])) !=
        std::tolower(static_cast<unsigned char>(prefix[j]))) {
      return false;
    }
  }
  return true;
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
  return read_directives(script, file, 0).words;
}

Directives read_directives(std::string_view script, std::string_view file, int component) {
  Directives out;
  int line_no = 0;
  int current = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    const std::string_view line = script.substr(start, end - start);
    start = end + 1;
    ++line_no;

    std::string_view rest;
    if (line.substr(0, k_magic.size()) == k_magic) {
      rest = line.substr(k_magic.size());
    } else if (line.substr(0, k_old_magic.size()) == k_old_magic) {
      rest = line.substr(k_old_magic.size());
      out.old_magic = true;
    } else {
      // Not a directive: a blank or comment line is skipped, anything else is
      // the first command and ends the directives.
      std::size_t i = 0;
      while (i < line.size() && is_space(line[i])) ++i;
      if (i < line.size() && line[i] != '#') break;
      continue;
    }
    // "hetjob" (or the older "packjob") as the line's first word starts the
    // next component; its words are read with that component.
    std::size_t i = 0;
    while (i < rest.size() && is_space(rest[i])) ++i;
    const std::string_view first = rest.substr(i);
    for (std::string_view separator : {std::string_view("hetjob"), std::string_view("packjob")}) {
      if (starts_with_no_case(first, separator) &&
          (first.size() == separator.size() || is_space(first[separator.size()]))) {
        ++current;
        rest = first.substr(separator.size());
        break;
      }
    }
    if (current < component) continue;
    if (current > component) {
      out.more_components = true;
      break;
    }
    if (!rest.empty() && rest.find_first_not_of(" \t") != std::string_view::npos &&
        rest[rest.find_first_not_of(" \t")] == ':') {
      throw Error(Errc::batch_script_invalid,
                  fmt::format("{}: line {}: Unexpected `:` in [{}]", file, line_no, line));
    }
    for (auto& word : split_directive_words(rest, file, line_no, line)) {
      out.words.push_back(std::move(word));
      out.lines.push_back(line_no);
    }
  }
  return out;
}

}  // namespace stint::cli
