#pragma once
// `scontrol show job`'s fields for the rarer sbatch options
// (JobSpec::options()), in Slurm's words. Internal to format/.

#include <string>
#include <vector>

#include <stint/model.hpp>

namespace stint::format::detail {

/// TimeMin=: the --time-min in whole minutes, or "N/A".
std::string time_min_text(const JobOptions& o);
/// DelayBoot=: "00:00:00" unless --delay-boot was given.
std::string delay_boot_text(const JobOptions& o);
/// "CoreSpec=*", "CoreSpec=N" or "ThreadSpec=N".
std::string core_spec_text(const JobOptions& o);
/// OverSubscribe=: OK, YES, NO (--exclusive), USER or MCS.
std::string share_text(const JobOptions& o);
/// Network=: the --network value, or "(null)".
std::string network_text(const JobOptions& o);
/// Power=: "LEVEL" with --power=level, else empty.
std::string power_text(const JobOptions& o);
/// The optional "CPU_min_freq=... CPU_max_freq=... Governor=..." line; empty without --cpu-freq.
std::string cpu_freq_line(const JobOptions& o);
/// "Switches=N@HH:MM:SS", or empty.
std::string switches_line(const JobOptions& o);
/// "BurstBuffer=...", or empty.
std::string burst_buffer_line(const JobOptions& o);
/// The optional lines after Power=, in Slurm's order: flags, CpusPerTres,
/// MemPerTres, TresBind, TresFreq, TresPer{Job,Node,Socket,Task}, MailUser,
/// NtasksPerTRES, Container, SELinuxContext. `user` is the job's owner (the
/// mail recipient when none was named).
std::vector<std::string> optional_trailing_lines(const JobSpec& spec, const std::string& user);

}  // namespace stint::format::detail
