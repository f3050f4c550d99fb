#include "stepd/activity.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>

#include <stint/error.hpp>

#include "process/run.hpp"
#include "util/path_search.hpp"
#include "util/text.hpp"

namespace stint::stepd::detail {
namespace {

template <typename T>
bool parse_number(std::string_view text, T& out) {
  text = text::trim(text);
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

Seconds activity_interval(Seconds idle_after) { return std::clamp<Seconds>(idle_after / 4, 1, 60); }

std::optional<bool> gpus_busy(std::string_view csv, const std::vector<std::uint32_t>& gpu_ids) {
  std::vector<bool> seen(gpu_ids.size(), false);
  bool busy = false;
  while (!csv.empty()) {
    const std::size_t nl = csv.find('\n');
    const std::string_view line = text::trim(csv.substr(0, nl));
    csv = nl == std::string_view::npos ? std::string_view() : csv.substr(nl + 1);
    if (line.empty()) continue;
    const std::size_t comma = line.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    std::uint32_t index = 0;
    if (!parse_number(line.substr(0, comma), index)) return std::nullopt;
    const auto it = std::find(gpu_ids.begin(), gpu_ids.end(), index);
    if (it == gpu_ids.end()) continue;  // another node's, or not allocated
    std::uint32_t percent = 0;
    if (!parse_number(line.substr(comma + 1), percent)) return std::nullopt;
    seen[static_cast<std::size_t>(it - gpu_ids.begin())] = true;
    busy = busy || percent > 0;
  }
  if (gpu_ids.empty() || !std::all_of(seen.begin(), seen.end(), [](bool s) { return s; }))
    return std::nullopt;
  return busy;
}

std::optional<bool> sample_gpus(const std::vector<std::uint32_t>& gpu_ids) {
  const std::string exe = proc::find_on_path("nvidia-smi");
  if (exe.empty() || gpu_ids.empty()) return std::nullopt;
  process::Spec spec;
  spec.argv = {exe, "--query-gpu=index,utilization.gpu", "--format=csv,noheader,nounits"};
  spec.stderr_to = process::Output::discarded;
  // A wedged driver can make nvidia-smi hang; the sample is then the CPU's.
  spec.timeout = std::chrono::seconds(10);
  try {
    const process::Result r = process::run(spec);
    if (r.timed_out || r.exit_code != 0) return std::nullopt;
    return gpus_busy(r.out, gpu_ids);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::optional<ActivityChange> IdleWatch::sample(Seconds at, bool in_use, bool gpus) {
  if (in_use) {
    m_last_use = at;
    if (!m_told_idle) return std::nullopt;
    m_told_idle = false;
    return ActivityChange{k_no_time, gpus};
  }
  if (m_told_idle || at - m_last_use < m_idle_after) return std::nullopt;
  m_told_idle = true;
  return ActivityChange{m_last_use, gpus};
}

}  // namespace stint::stepd::detail
