#include "cli/sstat_usage.hpp"

#include <algorithm>
#include <charconv>

namespace stint::cli::sstat {
namespace {

// Slurm keeps CPU time in milliseconds (CPU_TIME_ADJ) so that its integer
// TRES counts do not lose the fractions of a second.
constexpr std::uint64_t k_cpu_time_adj = 1000;

std::uint64_t to_u64(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  std::uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// The value of "Name:   123 kB" lines (status) and "name: 123" lines (io).
void each_line(std::string_view text, auto&& visit) {
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    if (const std::size_t colon = line.find(':'); colon != std::string_view::npos)
      visit(line.substr(0, colon), line.substr(colon + 1));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

std::size_t index(Tres t) { return static_cast<std::size_t>(t); }

}  // namespace

std::string_view tres_name(Tres t) {
  switch (t) {
    case Tres::cpu:
      return "cpu";
    case Tres::energy:
      return "energy";
    case Tres::fs_disk:
      return "fs/disk";
    case Tres::mem:
      return "mem";
    case Tres::pages:
      return "pages";
    case Tres::vmem:
      return "vmem";
  }
  return "";
}

std::optional<ProcessEnv> parse_environ(std::string_view environ) {
  ProcessEnv env;
  bool has_job = false;
  while (!environ.empty()) {
    const std::size_t end = environ.find('\0');
    const std::string_view entry = environ.substr(0, end);
    auto value_of = [&entry](std::string_view name) -> std::optional<std::string_view> {
      if (entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=')
        return entry.substr(name.size() + 1);
      return std::nullopt;
    };
    if (auto v = value_of("SLURM_JOB_ID")) {
      env.job_id = *v;
      has_job = true;
    } else if (auto s = value_of("SLURM_STEP_ID")) {
      env.step_id = *s;
    } else if (auto p = value_of("SLURM_PROCID")) {
      env.task = static_cast<std::uint32_t>(to_u64(*p));
    } else if (auto n = value_of("SLURMD_NODENAME")) {
      env.node = *n;
    } else if (auto c = value_of("SLURM_CONF")) {
      env.conf = *c;
    }
    if (end == std::string_view::npos) break;
    environ.remove_prefix(end + 1);
  }
  if (!has_job) return std::nullopt;
  return env;
}

bool parse_proc_stat(std::string_view text, ProcessFigures& out) {
  // The command name (field 2) may hold spaces and parentheses: the fields
  // start after its last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return false;
  text.remove_prefix(close + 1);
  // Fields from 3 (state) on; we need 12 majflt, 13 cmajflt, 14-17 the times.
  std::array<std::uint64_t, 18> field{};
  std::size_t number = 3;
  while (!text.empty() && number < field.size()) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    if (number != 3) field[number] = to_u64(word);
    ++number;
    if (space == std::string_view::npos) break;
    text.remove_prefix(space);
  }
  if (number < field.size()) return false;
  // jobacct_gather/linux counts majflt and utime + stime of the live
  // processes; the children a process already waited for (cutime, cstime,
  // cmajflt) were of the task too, and without its 30-second polls they
  // would be lost here, so they count.
  out.major_faults = field[12] + field[13];
  out.cpu_ticks = field[14] + field[15] + field[16] + field[17];
  return true;
}

void parse_proc_status(std::string_view text, ProcessFigures& out) {
  each_line(text, [&out](std::string_view name, std::string_view value) {
    if (name == "VmRSS")
      out.rss_kb = to_u64(value);
    else if (name == "VmHWM")
      out.rss_peak_kb = to_u64(value);
    else if (name == "VmSize")
      out.vsize_kb = to_u64(value);
    else if (name == "VmPeak")
      out.vsize_peak_kb = to_u64(value);
  });
}

void parse_proc_io(std::string_view text, ProcessFigures& out) {
  // Slurm's gatherer reads rchar and wchar (all reads and writes, page cache
  // included), not read_bytes/write_bytes (what reached the disk).
  each_line(text, [&out](std::string_view name, std::string_view value) {
    if (name == "rchar")
      out.read_bytes = to_u64(value);
    else if (name == "wchar")
      out.write_bytes = to_u64(value);
  });
}

std::uint32_t parse_cpuinfo_mhz(std::string_view text) {
  std::uint32_t mhz = 0;
  bool found = false;
  each_line(text, [&](std::string_view name, std::string_view value) {
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    if (!found && name == "cpu MHz") {
      mhz = static_cast<std::uint32_t>(to_u64(value));
      found = true;
    }
  });
  return mhz;
}

void add_process(TaskUsage& task, int pid, const ProcessFigures& f) {
  task.pids.insert(std::upper_bound(task.pids.begin(), task.pids.end(), pid), pid);
  ProcessFigures& s = task.sum;
  s.cpu_ticks += f.cpu_ticks;
  s.major_faults += f.major_faults;
  s.rss_kb += f.rss_kb;
  s.rss_peak_kb += std::max(f.rss_peak_kb, f.rss_kb);
  s.vsize_kb += f.vsize_kb;
  s.vsize_peak_kb += std::max(f.vsize_peak_kb, f.vsize_kb);
  s.read_bytes += f.read_bytes;
  s.write_bytes += f.write_bytes;
}

StepUsage aggregate(const std::vector<TaskUsage>& tasks, long clock_ticks_per_second) {
  StepUsage step;
  const auto ticks = static_cast<std::uint64_t>(std::max(clock_ticks_per_second, 1L));
  for (const TaskUsage& t : tasks) {
    ++step.tasks;
    if (std::find(step.nodes.begin(), step.nodes.end(), t.node) == step.nodes.end())
      step.nodes.push_back(t.node);
    step.pids.insert(step.pids.end(), t.pids.begin(), t.pids.end());
    step.cpu_mhz += t.cpu_mhz;

    // The task's figures as its gatherer keeps them: now (tot) and its
    // highest (max, which is also the task's min: Slurm compares tasks by
    // their peaks). One look at /proc has no earlier polls, so the peaks of
    // memory are the kernel's high-water marks (VmHWM, VmPeak).
    TresValues now, peak, out_now;
    now[index(Tres::cpu)] = t.sum.cpu_ticks * k_cpu_time_adj / ticks;
    now[index(Tres::energy)] = 0;
    now[index(Tres::fs_disk)] = t.sum.read_bytes;
    now[index(Tres::mem)] = t.sum.rss_kb * 1024;
    now[index(Tres::pages)] = t.sum.major_faults;
    now[index(Tres::vmem)] = t.sum.vsize_kb * 1024;
    peak = now;
    peak[index(Tres::mem)] = t.sum.rss_peak_kb * 1024;
    peak[index(Tres::vmem)] = t.sum.vsize_peak_kb * 1024;
    out_now[index(Tres::energy)] = 0;
    out_now[index(Tres::fs_disk)] = t.sum.write_bytes;

    auto fold = [&t](const TresValues& task_max, const TresValues& task_now, TresValues& max,
                     TresValues& max_task, TresNodes& max_node, TresValues& min,
                     TresValues& min_task, TresNodes& min_node, TresValues& tot) {
      for (std::size_t i = 0; i < k_tres_count; ++i) {
        if (!task_max[i]) continue;
        // Energy is a node's, not a task's: Slurm names no task for it.
        const bool per_task = i != index(Tres::energy);
        if (!max[i] || *max[i] < *task_max[i]) {
          max[i] = task_max[i];
          if (per_task) max_task[i] = t.task;
          max_node[i] = t.node;
        }
        if (!min[i] || *min[i] > *task_max[i]) {
          min[i] = task_max[i];
          if (per_task) min_task[i] = t.task;
          min_node[i] = t.node;
        }
        tot[i] = tot[i].value_or(0) + *task_now[i];
      }
    };
    fold(peak, now, step.in_max, step.in_max_task, step.in_max_node, step.in_min, step.in_min_task,
         step.in_min_node, step.in_tot);
    fold(out_now, out_now, step.out_max, step.out_max_task, step.out_max_node, step.out_min,
         step.out_min_task, step.out_min_node, step.out_tot);
  }
  if (step.tasks > 0) {
    step.cpu_mhz /= step.tasks;
    for (std::size_t i = 0; i < k_tres_count; ++i) {
      if (step.in_tot[i]) step.in_ave[i] = *step.in_tot[i] / step.tasks;
      if (step.out_tot[i]) step.out_ave[i] = *step.out_tot[i] / step.tasks;
    }
  }
  return step;
}

}  // namespace stint::cli::sstat
