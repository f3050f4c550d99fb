#pragma once
// The resource limits Slurm propagates from the submitting shell to the job
// (sbatch --propagate, slurm.conf PropagateResourceLimits), in Slurm's order:
// bit i of a limit mask is k_rlimit_names[i]. sbatch records each as
// SLURM_RLIMIT_<NAME> in the job's environment; stepd applies them.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace stint {

inline constexpr std::array<std::string_view, 10> k_rlimit_names = {
    "CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE", "MEMLOCK", "AS"};

inline constexpr std::uint32_t k_all_rlimits = (1U << k_rlimit_names.size()) - 1;

/// The mask of a list as slurm.conf and --propagate write it: "ALL", "NONE",
/// or names ("CORE" or "RLIMIT_CORE") separated by commas, spaces or tabs.
/// nullopt for a name that is not a limit (Slurm: "Bad rlimit name").
inline std::optional<std::uint32_t> rlimit_mask(std::string_view list) {
  if (list == "ALL") return k_all_rlimits;
  if (list == "NONE") return 0U;
  std::uint32_t mask = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < list.size()) {
    const std::size_t end = list.find_first_of(", \t\n", i);
    std::string_view word = list.substr(i, end == std::string_view::npos ? end : end - i);
    i = end == std::string_view::npos ? list.size() : end + 1;
    if (word.empty()) continue;
    if (word.substr(0, 7) == "RLIMIT_") word.remove_prefix(7);
    std::size_t bit = 0;
    while (bit < k_rlimit_names.size() && k_rlimit_names[bit] != word) ++bit;
    if (bit == k_rlimit_names.size()) return std::nullopt;
    mask |= 1U << bit;
    any = true;
  }
  if (!any) return std::nullopt;
  return mask;
}

}  // namespace stint
