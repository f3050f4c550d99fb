#include "config/conf_keys.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/exit_codes.hpp"
#include "config/purge_age.hpp"
#include "config/raw.hpp"
#include "util/rlimits.hpp"

namespace stint::config_detail {
namespace {

using K = ConfKind;
constexpr std::int64_t k_u32_max = std::numeric_limits<std::uint32_t>::max();
constexpr std::int64_t k_i32_max = std::numeric_limits<std::int32_t>::max();

// Slurm's defaults (slurm.conf(5)), except where stint's own behaviour differs:
// PriorityType is priority/multifactor, which is also current Slurm's default
// (since 23.02.5; 22.05 said priority/basic). StintIdleExit is stint's own.
// Keys that mean nothing on one machine (ports, hosts, plugins stint does not
// have) are left out, so a slurm.conf naming them is told so.
// Sorted case-insensitively by name: find_conf_key and show config rely on it.
constexpr std::array k_keys = {
    ConfKey{"AccountingStorageEnforce", "none", K::words, 0, 0,
            "associations|limits|qos|safe|wckeys|nojobs|nosteps|all|none"},
    ConfKey{"BatchStartTimeout", "10", K::seconds, 0, 65533, ""},
    ConfKey{"ClusterName", "stint", K::text, 0, 0, ""},
    ConfKey{"CompleteWait", "0", K::seconds, 0, 65533, ""},
    ConfKey{"DefMemPerCPU", "0", K::memory, 0, 0, ""},
    ConfKey{"DefMemPerNode", "0", K::memory, 0, 0, ""},
    ConfKey{"DisableRootJobs", "NO", K::word, 0, 0, "YES|NO"},
    ConfKey{"EnforcePartLimits", "NO", K::word, 0, 0, "NO|YES|ALL|ANY"},
    ConfKey{"Epilog", "", K::text, 0, 0, ""},
    ConfKey{"FairShareDampeningFactor", "1", K::integer, 1, 9999, ""},
    ConfKey{"FirstJobId", "1", K::integer, 1, 2147418112, ""},
    ConfKey{"GresTypes", "", K::text, 0, 0, ""},
    ConfKey{"InactiveLimit", "0", K::seconds, 0, 65533, ""},
    // The salloc/srun side: what salloc runs without a command.
    ConfKey{"InteractiveStepOptions", "--interactive --preserve-env --pty $SHELL", K::text, 0, 0,
            ""},
    ConfKey{"JobAcctGatherFrequency", "30", K::text, 0, 0, ""},
    ConfKey{"JobFileAppend", "0", K::integer, 0, 1, ""},
    ConfKey{"JobRequeue", "1", K::integer, 0, 1, ""},
    ConfKey{"KillOnBadExit", "0", K::integer, 0, 1, ""},
    ConfKey{"KillWait", "30", K::seconds, 0, 65533, ""},
    // Cluster-wide licenses, "name[:count],...": -L/--licenses counts them
    // (sched/placement.hpp).
    ConfKey{"LaunchParameters", "", K::words, 0, 0, "use_interactive_step"},
    ConfKey{"Licenses", "", K::text, 0, 0, ""},
    // MailDomain qualifies a job's user when --mail-user is not given.
    ConfKey{"MailDomain", "", K::text, 0, 0, ""},
    // Run by stintd for --mail-type, as slurmctld runs it (daemon/mail.hpp).
    ConfKey{"MailProg", "/bin/mail", K::text, 0, 0, ""},
    ConfKey{"MaxArraySize", "1001", K::integer, 0, 4000001, ""},
    ConfKey{"MaxJobCount", "10000", K::integer, 1, k_u32_max, ""},
    ConfKey{"MaxJobId", "67043328", K::integer, 1, 2147418112, ""},
    ConfKey{"MaxMemPerCPU", "0", K::memory, 0, 0, ""},
    ConfKey{"MaxMemPerNode", "0", K::memory, 0, 0, ""},
    ConfKey{"MaxTasksPerNode", "512", K::integer, 1, 65533, ""},
    ConfKey{"MessageTimeout", "10", K::seconds, 1, 65533, ""},
    ConfKey{"MinJobAge", "300", K::seconds, 0, k_i32_max, ""},
    ConfKey{"MpiDefault", "none", K::word, 0, 0, "none|pmi2"},
    ConfKey{"OverTimeLimit", "0", K::minutes, 0, 65533, ""},
    ConfKey{"PreemptExemptTime", "00:00:00", K::time, 0, 0, ""},
    ConfKey{"PreemptMode", "OFF", K::words, 0, 0,
            "OFF|CANCEL|REQUEUE|SUSPEND|GANG|PRIORITY|WITHIN"},
    ConfKey{"PreemptType", "preempt/none", K::word, 0, 0,
            "preempt/none|preempt/partition_prio|preempt/qos"},
    ConfKey{"PriorityCalcPeriod", "5", K::time, 0, 0, ""},
    ConfKey{"PriorityDecayHalfLife", "7-0", K::time, 0, 0, ""},
    ConfKey{"PriorityFavorSmall", "NO", K::word, 0, 0, "YES|NO"},
    ConfKey{"PriorityFlags", "", K::words, 0, 0,
            "ACCRUE_ALWAYS|CALCULATE_RUNNING|DEPTH_OBLIVIOUS|NO_FAIR_TREE|INCR_ONLY|MAX_TRES|"
            "NO_NORMAL_ALL|NO_NORMAL_ASSOC|NO_NORMAL_PART|NO_NORMAL_QOS|NO_NORMAL_TRES|"
            "SMALL_RELATIVE_TO_TIME"},
    ConfKey{"PriorityMaxAge", "7-0", K::time, 0, 0, ""},
    ConfKey{"PriorityType", "priority/multifactor", K::word, 0, 0,
            "priority/multifactor|priority/basic"},
    ConfKey{"PriorityUsageResetPeriod", "NONE", K::word, 0, 0,
            "NONE|NOW|DAILY|WEEKLY|MONTHLY|QUARTERLY|YEARLY"},
    ConfKey{"PriorityWeightAge", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightAssoc", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightFairshare", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightJobSize", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightPartition", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightQOS", "0", K::integer, 0, k_u32_max, ""},
    ConfKey{"PriorityWeightTRES", "", K::text, 0, 0, ""},
    ConfKey{"Prolog", "", K::text, 0, 0, ""},
    ConfKey{"PrologEpilogTimeout", "65534", K::integer, 0, 65535, ""},
    // Which SLURM_RLIMIT_* stepd applies (stepd/rlimits.hpp); only one of
    // the two may be set.
    ConfKey{"PropagateResourceLimits", "ALL", K::rlimits, 0, 0, ""},
    ConfKey{"PropagateResourceLimitsExcept", "", K::rlimits, 0, 0, ""},
    // slurmdbd.conf's: stintd purges its own records (stint.db stands in
    // for slurmdbd's database).
    ConfKey{"PurgeJobAfter", "", K::purge, 0, 0, ""},
    ConfKey{"PurgeStepAfter", "", K::purge, 0, 0, ""},
    ConfKey{"ReconfigFlags", "", K::words, 0, 0, "KeepPartInfo|KeepPartState"},
    ConfKey{"RequeueExit", "", K::exit_codes, 0, 0, ""},
    ConfKey{"RequeueExitHold", "", K::exit_codes, 0, 0, ""},
    ConfKey{"SallocDefaultCommand", "", K::text, 0, 0, ""},
    ConfKey{"SchedulerParameters", "", K::text, 0, 0, ""},
    ConfKey{"SchedulerType", "sched/backfill", K::word, 0, 0, "sched/backfill|sched/builtin"},
    // stint allocates as select/cons_tres does and nothing else; the key is
    // known so that a slurm.conf saying so loads.
    ConfKey{"SelectType", "select/cons_tres", K::word, 0, 0, "select/cons_tres"},
    // What a submission naming a partition, QOS, account, reservation or GPU
    // type this machine lacks gets, when stint.yaml's aliases do not map it:
    // Slurm's refusal, or the default with a warning (a cluster's scripts
    // rehearsed here unchanged).
    // The files run-show --files lists as a run's checkpoints: patterns of
    // file names, comma separated.
    ConfKey{"StintCheckpointGlob", "*.pt,*.ckpt,*.safetensors", K::text, 0, 0, ""},
    ConfKey{"StintForeignNames", "refuse", K::word, 0, 0, "refuse|map"},
    ConfKey{"StintIdleExit", "300", K::seconds, 0, k_i32_max, ""},
    // How long a run's nodes may leave their GPUs at 0 % (their CPUs unused,
    // without GPUs) before the run is shown IDLE and its owner told.
    // UNLIMITED: never watched.
    ConfKey{"StintIdleRunAfter", "1:00:00", K::time, 0, 0, ""},
    // How long a kept-alive run's nodes stay its own with nobody using them
    // (no run-exec, no SSH session) after its command ended: a forgotten
    // notebook gives its GPUs back. UNLIMITED: until run-stop.
    ConfKey{"StintKeepAliveMax", "1-00:00:00", K::time, 0, 0, ""},
    // The size (MiB) past which stintd's log becomes stintd.log.1 and a new
    // one starts; 0: never rotated (logrotate and SIGUSR2 instead).
    ConfKey{"StintLogMaxSize", "64", K::memory, 0, 0, ""},
    // How long a requeued job waits (reason BeginTime) before it may run again;
    // Slurm holds it back about two minutes and has no key for it.
    ConfKey{"StintRequeueDelay", "120", K::seconds, 0, k_i32_max, ""},
    ConfKey{"StintRunPorts", "20000-29999", K::text, 0, 0, ""},
    // Each node of a run gets an sshd for its owner (daemon/node_ssh.hpp).
    ConfKey{"StintRunSsh", "NO", K::word, 0, 0, "YES|NO"},
    ConfKey{"StintRunSshd", "/usr/sbin/sshd", K::text, 0, 0, ""},
    // sbatch --wckey is recorded either way; this says whether scontrol show
    // job prints it (sacct's WCKey always does).
    ConfKey{"TrackWCKey", "NO", K::word, 0, 0, "YES|NO"},
    // Slurm sets TRESBillingWeights per partition; here it applies to every
    // partition ("CPU=1.0,Mem=0.25G,GRES/gpu=2.0"). Unset: billing is CPUs.
    ConfKey{"TRESBillingWeights", "", K::text, 0, 0, ""},
    ConfKey{"UnkillableStepTimeout", "60", K::seconds, 0, 65533, ""},
    ConfKey{"WaitTime", "0", K::seconds, 0, 65533, ""},
};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string_view::npos ? s.npos : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The table's spelling of `word`, or "" when it is not a choice.
std::string_view canonical_word(const ConfKey& key, std::string_view word) {
  for (std::string_view choice : split(key.words, '|')) {
    if (iequals(choice, trim(word))) return choice;
  }
  return {};
}

std::string choices(const ConfKey& key) {
  return fmt::format("{}", fmt::join(split(key.words, '|'), ", "));
}

bool parse_int(std::string_view text, std::int64_t& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::span<const ConfKey> conf_keys() { return k_keys; }

const ConfKey* find_conf_key(std::string_view name) {
  for (const ConfKey& key : k_keys) {
    if (iequals(key.name, name)) return &key;
  }
  return nullptr;
}

std::string conf_value_problem(const ConfKey& key, std::string_view value) {
  switch (key.kind) {
    case K::integer:
    case K::seconds:
    case K::minutes: {
      std::int64_t n = 0;
      if (!parse_int(value, n)) return fmt::format("\"{}\" is not a whole number", value);
      if (n < key.min || n > key.max)
        return fmt::format("{} is out of range ({} to {})", value, key.min, key.max);
      return {};
    }
    case K::memory:
      try {
        parse::memory_mb(value);
      } catch (const Error&) {
        return fmt::format("\"{}\" is not a memory size (MiB, or a number with K, M, G or T)",
                           value);
      }
      return {};
    case K::time:
      try {
        parse::duration(value);
      } catch (const Error&) {
        return fmt::format("\"{}\" is not a time (e.g. 30, 1:00:00, 7-0, UNLIMITED)", value);
      }
      return {};
    case K::word:
      if (canonical_word(key, value).empty())
        return fmt::format("\"{}\" is not one of {}", value, choices(key));
      return {};
    case K::words:
      if (trim(value).empty()) return {};
      for (std::string_view word : split(value, ',')) {
        if (canonical_word(key, word).empty())
          return fmt::format("\"{}\" is not one of {}", trim(word), choices(key));
      }
      return {};
    case K::text:
      return {};
    case K::exit_codes:
      return config::exit_codes_problem(value);
    case K::purge:
      return config::purge_age_problem(value);
    case K::rlimits:
      if (value.empty() || rlimit_mask(value)) return {};
      return fmt::format(
          "\"{}\" is not ALL, NONE or a list of AS, CORE, CPU, DATA, FSIZE, MEMLOCK, NOFILE, "
          "NPROC, RSS, STACK",
          value);
  }
  return {};
}

std::string conf_display_value(const ConfKey& key, std::string_view value) {
  if (!conf_value_problem(key, value).empty()) return std::string(value);
  switch (key.kind) {
    case K::integer:
      return std::string(value);
    case K::seconds:
      return fmt::format("{} sec", value);
    case K::minutes:
      return fmt::format("{} min", value);
    case K::memory: {
      std::uint64_t mb = parse::memory_mb(value);
      return mb == 0 ? std::string("UNLIMITED") : std::to_string(mb);
    }
    case K::time: {
      Seconds s = conf_time_value(key, value);
      return s == k_infinite ? std::string("UNLIMITED") : parse::format_duration_fixed(s);
    }
    case K::word:
      return std::string(canonical_word(key, value));
    case K::words: {
      std::vector<std::string_view> out;
      if (!trim(value).empty()) {
        for (std::string_view word : split(value, ',')) out.push_back(canonical_word(key, word));
      }
      return fmt::format("{}", fmt::join(out, ","));
    }
    case K::text:
    case K::rlimits:
    case K::exit_codes:
      return value.empty() ? std::string("(null)") : std::string(value);
    case K::purge:
      return config::purge_age_text(config::purge_age(value));
  }
  return std::string(value);
}

Seconds conf_time_value(const ConfKey& key, std::string_view value) {
  try {
    return parse::duration(value);
  } catch (const Error&) {
    throw Error(Errc::config_invalid, fmt::format("{}: \"{}\" is not a time", key.name, value));
  }
}

std::int64_t conf_value_int(const ConfKey& key, std::string_view value) {
  std::string problem = conf_value_problem(key, value);
  if (!problem.empty()) throw Error(Errc::config_invalid, fmt::format("{}: {}", key.name, problem));
  switch (key.kind) {
    case K::integer:
    case K::seconds:
    case K::minutes: {
      std::int64_t n = 0;
      parse_int(value, n);
      return n;
    }
    case K::memory:
      return static_cast<std::int64_t>(parse::memory_mb(value));
    default:
      throw Error(Errc::config_invalid, fmt::format("{} is not a numeric key", key.name));
  }
}

}  // namespace stint::config_detail
