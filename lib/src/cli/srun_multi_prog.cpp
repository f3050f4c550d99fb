#include "cli/srun_multi_prog.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "cli/words.hpp"

namespace stint::cli {
namespace {

// A line's complaint, then Slurm's line about the line.
[[noreturn]] void invalid_line(const std::string& why, std::size_t line_no,
                               const std::string& path) {
  throw Error(Errc::invalid_argument,
              fmt::format("{}{}Line {} of configuration file {} invalid", why,
                          why.empty() ? "" : "\nsrun: error: ", line_no, path));
}

std::uint32_t number(std::string_view text, std::size_t line_no, const std::string& path) {
  std::uint32_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size())
    invalid_line(fmt::format("Invalid task range specification ({})", text), line_no, path);
  return n;
}

// The ids of a line's first word, in order; empty for "*".
std::vector<std::uint32_t> ids_of(std::string_view spec, std::size_t line_no,
                                  const std::string& path) {
  std::vector<std::uint32_t> ids;
  if (spec == "*") return ids;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = spec.find(',', start);
    const std::string_view part = spec.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::size_t dash = part.find('-');
    const std::uint32_t low = number(part.substr(0, dash), line_no, path);
    const std::uint32_t high =
        dash == std::string_view::npos ? low : number(part.substr(dash + 1), line_no, path);
    if (high < low)
      invalid_line(fmt::format("Invalid task range, {}-{}", low, high), line_no, path);
    for (std::uint32_t i = low; i <= high; ++i) ids.push_back(i);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return ids;
}

std::string substitute(const std::string& word, std::uint32_t task, std::uint32_t offset) {
  std::string out;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (word[i] == '%' && i + 1 < word.size() && (word[i + 1] == 't' || word[i + 1] == 'o')) {
      out += std::to_string(word[i + 1] == 't' ? task : offset);
      ++i;
    } else {
      out += word[i];
    }
  }
  return out;
}

}  // namespace

std::vector<std::vector<std::string>> multi_prog_commands(std::string_view text,
                                                          const std::string& path,
                                                          std::uint32_t tasks) {
  std::vector<std::vector<std::string>> commands(tasks);
  std::string pending;
  std::size_t line_no = 0;
  std::size_t start = 0;
  bool had_asterisk = false;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line(text.substr(start, nl - start));
    start = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.back() == '\\') {
      line.pop_back();
      pending += line + " ";
      continue;
    }
    line = pending + line;
    pending.clear();
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    std::vector<std::string> words = quoted_words(line);
    if (words.size() < 2) invalid_line("", line_no, path);
    if (had_asterisk)
      invalid_line("Task range specification with asterisk must be last", line_no, path);
    std::vector<std::uint32_t> ids;
    if (words.front() == "*") {
      had_asterisk = true;
      for (std::uint32_t t = 0; t < tasks; ++t) {
        if (commands[t].empty()) ids.push_back(t);
      }
    } else {
      ids = ids_of(words.front(), line_no, path);
    }
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::uint32_t task = ids[k];
      if (task >= tasks)
        invalid_line(fmt::format("Invalid task id, {} >= ntasks", task), line_no, path);
      if (!commands[task].empty())
        invalid_line(fmt::format("Duplicate record for task {}", task), line_no, path);
      for (std::size_t w = 1; w < words.size(); ++w)
        commands[task].push_back(substitute(words[w], task, static_cast<std::uint32_t>(k)));
    }
  }
  for (std::uint32_t t = 0; t < tasks; ++t) {
    if (commands[t].empty())
      throw Error(Errc::invalid_argument,
                  fmt::format("Configuration file {} invalid, no record for task id {}", path, t));
  }
  return commands;
}

std::uint32_t multi_prog_task_count(std::string_view text) {
  std::uint32_t count = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    const std::vector<std::string> words = quoted_words(text.substr(start, nl - start));
    start = nl + 1;
    if (words.empty() || words.front().front() == '#' || words.front() == "*") continue;
    try {
      for (std::uint32_t id : ids_of(words.front(), 0, {})) count = std::max(count, id + 1);
    } catch (const Error&) {
      // multi_prog_commands reports it with its line.
    }
  }
  return count;
}

}  // namespace stint::cli
