#pragma once
// The task ids an array's record still holds: sorted, disjoint runs of
// consecutive ids, so that a pending array of a million tasks is one run.
// slurmctld keeps the same set as a bitmap (array_recs->task_id_bitmap).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/export.hpp>

STINT_API_BEGIN
namespace stint {

class TaskSet {
 public:
  /// first..last, every id between them included.
  struct Run {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    bool operator==(const Run&) const = default;
  };

  TaskSet() = default;
  /// The set of `ids`, given in any order, repeats allowed.
  static TaskSet of(std::vector<std::uint32_t> ids);
  /// Reads what store_text() writes ("0-9,12,20-30:5"); items may come in any
  /// order and overlap. nullopt on anything else.
  static std::optional<TaskSet> parse(std::string_view text);

  bool empty() const { return m_runs.empty(); }
  std::uint64_t size() const { return m_size; }
  bool contains(std::uint32_t id) const;
  /// The lowest and highest ids; the set must not be empty.
  std::uint32_t first() const { return m_runs.front().first; }
  std::uint32_t last() const { return m_runs.back().last; }
  /// Adds first..last; returns how many ids were not there before.
  std::uint64_t insert(std::uint32_t first, std::uint32_t last);
  bool insert(std::uint32_t id) { return insert(id, id) != 0; }
  /// Removes `id`; false when it was not there.
  bool erase(std::uint32_t id);
  /// The lowest `count` ids (all of them when the set is smaller).
  std::vector<std::uint32_t> first_ids(std::size_t count) const;
  /// Every id in order: as many as size() says.
  std::vector<std::uint32_t> ids() const;
  const std::vector<Run>& runs() const { return m_runs; }

  /// The runs as "0-9,12", three or more evenly spaced single ids as
  /// "20-30:5" (what stint.db keeps); "" when empty.
  std::string store_text() const;
  /// As slurmctld's clients print a record's task ids (ArrayTaskId=,
  /// squeue's "12_[...]"): "first-last:step" when the ids are evenly spaced
  /// by more than one, more than five of them over a span of more than ten;
  /// else the runs, cut to `bitstr_len` - 4 characters and "..." when they
  /// do not fit in `bitstr_len` - 2 (SLURM_BITSTR_LEN, 64 by default; 0:
  /// never cut).
  std::string slurm_text(int bitstr_len = 64) const;

  bool operator==(const TaskSet&) const = default;

 private:
  std::vector<Run> m_runs;
  std::uint64_t m_size = 0;
};

}  // namespace stint
STINT_API_END
