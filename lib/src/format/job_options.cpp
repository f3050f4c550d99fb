// The lines and fields `scontrol show job` prints for the rarer sbatch
// options (JobSpec::options()), as Slurm's slurm_sprint_job_info prints
// them: most only when the option was given.

#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "format/job_options.hpp"

namespace stint::format::detail {
namespace {

std::string recorded(const JobOptions& o, std::string_view name) {
  const auto it = o.recorded.find(std::string(name));
  return it == o.recorded.end() ? std::string() : it->second;
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// A frequency as cpu_freq_to_string names it: Low, Medium, High, Highm1, or kHz.
std::string frequency_name(std::string_view f) {
  for (std::string_view name : {"Low", "Medium", "High", "Highm1"}) {
    if (iequal(f, name)) return std::string(name);
  }
  return std::string(f);
}

std::string governor_name(std::string_view g) {
  for (std::string_view name :
       {"Conservative", "OnDemand", "Performance", "PowerSave", "UserSpace", "SchedUtil"}) {
    if (iequal(g, name)) return std::string(name);
  }
  return std::string(g);
}

// Slurm's secs2time_str: "HH:MM:SS", or "D-HH:MM:SS".
std::string seconds_text(Seconds s) { return parse::format_duration_fixed(s); }

// "gres:gpu:N" or "gres:gpu:type:N", as Slurm's xfmt_tres writes tres_per_*.
std::string gres_tres(std::uint32_t count, const std::string& type) {
  return type.empty() ? fmt::format("gres:gpu:{}", count)
                      : fmt::format("gres:gpu:{}:{}", type, count);
}

}  // namespace

std::string time_min_text(const JobOptions& o) {
  if (!o.time_min || *o.time_min == 0) return "N/A";
  // mins2time_str: whole minutes.
  return parse::format_duration_fixed((*o.time_min + 59) / 60 * 60);
}

std::string delay_boot_text(const JobOptions& o) {
  const std::string v = recorded(o, "delay-boot");
  return seconds_text(v.empty() ? 0 : std::stoll(v));
}

std::string core_spec_text(const JobOptions& o) {
  if (const std::string t = recorded(o, "thread-spec"); !t.empty()) return "ThreadSpec=" + t;
  if (const std::string c = recorded(o, "core-spec"); !c.empty()) return "CoreSpec=" + c;
  return "CoreSpec=*";
}

std::string share_text(const JobOptions& o) {
  // job_share_string: what the job asked for; OK when it said nothing.
  switch (o.exclusive) {
    case Exclusive::node:
      return "NO";
    case Exclusive::user:
      return "USER";
    case Exclusive::mcs:
      return "MCS";
    case Exclusive::unset:
      break;
  }
  return o.oversubscribe ? "YES" : "OK";
}

std::string network_text(const JobOptions& o) {
  const std::string v = recorded(o, "network");
  return v.empty() ? "(null)" : v;
}

std::string cpu_freq_line(const JobOptions& o) {
  const std::string v = recorded(o, "cpu-freq");
  if (v.empty()) return {};
  const std::size_t colon = v.find(':');
  const std::string range = v.substr(0, colon);
  const std::string governor = colon == std::string::npos ? std::string() : v.substr(colon + 1);
  std::string min;
  std::string max;
  std::string gov = governor.empty() ? std::string() : governor_name(governor);
  const std::size_t dash = range.find('-');
  if (dash != std::string::npos) {
    min = frequency_name(range.substr(0, dash));
    max = frequency_name(range.substr(dash + 1));
  } else if (governor_name(range) != range || iequal(range, "ondemand") ||
             iequal(range, "performance") || iequal(range, "powersave") ||
             iequal(range, "userspace") || iequal(range, "conservative") ||
             iequal(range, "schedutil")) {
    gov = governor_name(range);
  } else {
    max = frequency_name(range);
  }
  std::string out;
  if (!min.empty()) out += "CPU_min_freq=" + min + " ";
  if (!max.empty()) out += "CPU_max_freq=" + max + " ";
  if (!gov.empty()) out += "Governor=" + gov;
  return out;
}

std::vector<std::string> optional_trailing_lines(const JobSpec& spec, const std::string& user) {
  const JobOptions& o = spec.options();
  std::vector<std::string> out;
  // Slurm's order (slurm_sprint_job_info), from the line after Power=.
  std::string flags;
  if (o.gres_flags == "disable-binding") flags += "GresEnforceBind=No";
  if (o.gres_flags == "enforce-binding") flags += "GresEnforceBind=Yes";
  if (spec.kill_on_invalid_dep) {
    flags += *spec.kill_on_invalid_dep ? "KillOInInvalidDependent=Yes" : "KillOInInvalidDependent=No";
  }
  if (o.spread_job) flags += "SpreadJob=Yes";
  if (!flags.empty()) out.push_back(flags);
  if (o.cpus_per_gpu) out.push_back(fmt::format("CpusPerTres=gres:gpu:{}", *o.cpus_per_gpu));
  if (o.mem_per_gpu_mb) out.push_back(fmt::format("MemPerTres=gres:gpu:{}", *o.mem_per_gpu_mb));
  if (!o.gpu_bind.empty()) out.push_back("TresBind=gpu:" + o.gpu_bind);
  if (const std::string f = recorded(o, "gpu-freq"); !f.empty()) out.push_back("TresFreq=gpu:" + f);
  if (spec.gpus) out.push_back("TresPerJob=" + gres_tres(*spec.gpus, spec.gpu_type));
  if (spec.gpus_per_node) out.push_back("TresPerNode=" + gres_tres(*spec.gpus_per_node, spec.gpu_type));
  if (o.gpus_per_socket) {
    out.push_back("TresPerSocket=" + gres_tres(*o.gpus_per_socket, spec.gpu_type));
  }
  if (o.gpus_per_task) out.push_back("TresPerTask=" + gres_tres(*o.gpus_per_task, spec.gpu_type));
  if (!o.mail_type.empty()) {
    // slurmctld makes the submitting user the recipient when none is named.
    out.push_back(fmt::format("MailUser={} MailType={}", o.mail_user.empty() ? user : o.mail_user,
                              o.mail_type));
  }
  if (o.ntasks_per_gpu) out.push_back(fmt::format("NtasksPerTRES={}", *o.ntasks_per_gpu));
  if (const std::string c = recorded(o, "container"); !c.empty()) out.push_back("Container=" + c);
  if (const std::string c = recorded(o, "context"); !c.empty()) out.push_back("SELinuxContext=" + c);
  return out;
}

std::string switches_line(const JobOptions& o) {
  const std::string v = recorded(o, "switches");
  if (v.empty()) return {};
  const std::size_t at = v.find('@');
  const std::string count = v.substr(0, at);
  Seconds wait = 0;
  if (at != std::string::npos) {
    try {
      wait = parse::time_limit(v.substr(at + 1));
    } catch (const Error&) {
    }
  }
  return fmt::format("Switches={}@{}", count, seconds_text(wait));
}

std::string burst_buffer_line(const JobOptions& o) {
  const std::string v = recorded(o, "bb");
  return v.empty() ? std::string() : "BurstBuffer=" + v;
}

std::string power_text(const JobOptions& o) {
  return recorded(o, "power").find("level") != std::string::npos ? "LEVEL" : "";
}

}  // namespace stint::format::detail
