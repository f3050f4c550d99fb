#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include <stint/task_set.hpp>

namespace stint {
namespace {

std::uint64_t run_size(const TaskSet::Run& r) { return std::uint64_t{r.last} - r.first + 1; }

void append_run(std::string& out, const TaskSet::Run& r) {
  if (!out.empty()) out += ',';
  if (r.first == r.last)
    out += fmt::format("{}", r.first);
  else
    out += fmt::format("{}-{}", r.first, r.last);
}

}  // namespace

TaskSet TaskSet::of(std::vector<std::uint32_t> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  TaskSet set;
  for (std::uint32_t id : ids) {
    if (!set.m_runs.empty() && set.m_runs.back().last + std::uint64_t{1} == id)
      set.m_runs.back().last = id;
    else
      set.m_runs.push_back({id, id});
  }
  set.m_size = ids.size();
  return set;
}

// Reads "N", "N-M" or "N-M:S" (S > 1: N, N+S, ... up to M).
std::optional<TaskSet> TaskSet::parse(std::string_view text) {
  TaskSet set;
  if (text.empty()) return set;
  const auto number = [](std::string_view s, std::uint32_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = text.substr(start, comma - start);
    const std::size_t dash = item.find('-');
    const std::size_t colon = item.find(':');
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    std::uint32_t step = 1;
    if (dash == std::string_view::npos) {
      if (colon != std::string_view::npos || !number(item, first)) return std::nullopt;
      last = first;
    } else if (!number(item.substr(0, dash), first) ||
               !number(
                   item.substr(dash + 1, colon == std::string_view::npos ? std::string_view::npos
                                                                         : colon - dash - 1),
                   last) ||
               last < first) {
      return std::nullopt;
    }
    if (colon != std::string_view::npos &&
        (colon < dash || !number(item.substr(colon + 1), step) || step < 2))
      return std::nullopt;
    if (step == 1) {
      set.insert(first, last);
    } else {
      for (std::uint64_t id = first; id <= last; id += step)
        set.insert(static_cast<std::uint32_t>(id));
    }
    start = comma + 1;
  }
  return set;
}

bool TaskSet::contains(std::uint32_t id) const {
  // The first run that starts after `id`; the one before it may hold `id`.
  auto after = std::upper_bound(m_runs.begin(), m_runs.end(), id,
                                [](std::uint32_t v, const Run& r) { return v < r.first; });
  return after != m_runs.begin() && std::prev(after)->last >= id;
}

std::uint64_t TaskSet::insert(std::uint32_t first, std::uint32_t last) {
  if (last < first) return 0;
  // The runs that overlap or touch first..last merge with it into one.
  auto begin = std::lower_bound(m_runs.begin(), m_runs.end(), first,
                                [](const Run& r, auto v) { return std::uint64_t{r.last} + 1 < v; });
  auto end = begin;
  Run merged{first, last};
  std::uint64_t had = 0;
  while (end != m_runs.end() && std::uint64_t{end->first} <= std::uint64_t{last} + 1) {
    merged.first = std::min(merged.first, end->first);
    merged.last = std::max(merged.last, end->last);
    had += run_size(*end);
    ++end;
  }
  const std::uint64_t added = run_size(merged) - had;
  const auto at = m_runs.erase(begin, end);
  m_runs.insert(at, merged);
  m_size += added;
  return added;
}

bool TaskSet::erase(std::uint32_t id) {
  auto after = std::upper_bound(m_runs.begin(), m_runs.end(), id,
                                [](std::uint32_t v, const Run& r) { return v < r.first; });
  if (after == m_runs.begin()) return false;
  const auto run = std::prev(after);
  if (run->last < id) return false;
  --m_size;
  if (run->first == run->last) {
    m_runs.erase(run);
  } else if (id == run->first) {
    ++run->first;
  } else if (id == run->last) {
    --run->last;
  } else {
    const Run upper{id + 1, run->last};
    run->last = id - 1;
    m_runs.insert(after, upper);
  }
  return true;
}

std::vector<std::uint32_t> TaskSet::first_ids(std::size_t count) const {
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, m_size)));
  for (const Run& r : m_runs) {
    for (std::uint64_t id = r.first; id <= r.last; ++id) {
      if (out.size() == count) return out;
      out.push_back(static_cast<std::uint32_t>(id));
    }
  }
  return out;
}

std::vector<std::uint32_t> TaskSet::ids() const {
  return first_ids(static_cast<std::size_t>(m_size));
}

std::string TaskSet::store_text() const {
  // Evenly spaced single ids, three or more, as "N-M:S": a record of
  // --array=0-99999:2 is rewritten at each task that leaves it, and its
  // text stays a few bytes, not 50,000 numbers.
  std::string out;
  for (std::size_t i = 0; i < m_runs.size();) {
    const Run& r = m_runs[i];
    std::size_t j = i;
    if (r.first == r.last && i + 2 < m_runs.size() && m_runs[i + 1].first == m_runs[i + 1].last) {
      const std::uint32_t step = m_runs[i + 1].first - r.first;
      while (j + 1 < m_runs.size() && m_runs[j + 1].first == m_runs[j + 1].last &&
             m_runs[j + 1].first - m_runs[j].first == step)
        ++j;
    }
    if (j - i >= 2) {
      if (!out.empty()) out += ',';
      out += fmt::format("{}-{}:{}", r.first, m_runs[j].first, m_runs[i + 1].first - r.first);
      i = j + 1;
    } else {
      append_run(out, r);
      ++i;
    }
  }
  return out;
}

std::string TaskSet::slurm_text(int bitstr_len) const {
  if (m_runs.empty()) return {};
  // slurmctld's step test (xlate_array_task_str): evenly spaced single ids.
  if (last() - first() > 10 && m_size > 5 && !contains(first() + 1)) {
    const std::uint32_t step = m_runs.size() > 1 ? m_runs[1].first - m_runs[0].first : 0;
    bool regular = step > 1;
    for (std::size_t i = 0; regular && i < m_runs.size(); ++i) {
      regular = m_runs[i].first == m_runs[i].last &&
                (i == 0 || m_runs[i].first - m_runs[i - 1].first == step);
    }
    if (regular) return fmt::format("{}-{}:{}", first(), last(), step);
  }
  // bit_fmt into a buffer of bitstr_len bytes: what does not fit is cut and
  // its last three characters become "...".
  const std::size_t room = bitstr_len > 0 ? static_cast<std::size_t>(bitstr_len) : 0;
  std::string out;
  for (const Run& r : m_runs) {
    append_run(out, r);
    if (room > 0 && out.size() >= room) break;
  }
  if (room >= 4 && out.size() >= room - 2) out = out.substr(0, room - 4) + "...";
  return out;
}

}  // namespace stint
