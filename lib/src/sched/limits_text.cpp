// sacctmgr's words for limits: TRES lists, admin levels, and the settings of
// associations and QOS with the lines sacctmgr prints for them.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "sched/limits.hpp"
#include "util/text.hpp"

namespace stint::sched {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

using text::iequals;

Error bad(const std::string& message) { return Error(Errc::invalid_argument, message); }

// A count: a whole number >= 0, or -1 (clear). Slurm's wording for junk.
std::optional<std::int64_t> count_value(const Setting& s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.value.data(), s.value.data() + s.value.size(), v);
  if (ec != std::errc() || end != s.value.data() + s.value.size() || v < -1)
    throw bad(fmt::format(" Bad {} value: {}", s.key, s.value));
  if (v == -1) return std::nullopt;
  return v;
}

std::optional<Seconds> wall_value(const Setting& s) {
  if (s.value == "-1") return std::nullopt;
  try {
    Seconds t = parse::time_limit(s.value);
    if (t == k_infinite) return std::nullopt;
    return t;
  } catch (const Error&) {
    throw bad(fmt::format(" Bad {} time format: {}", s.key, s.value));
  }
}

// GrpTRES=cpu=4,mem=-1: sets the given TRES, -1 removes one.
void merge_tres(Tres& into, const Setting& s) {
  Tres given;
  try {
    given = parse_tres(s.value);
  } catch (const Error& e) {
    throw bad(fmt::format(" Invalid {}: {}", s.key, e.what()));
  }
  for (const auto& [name, value] : given) {
    if (value < 0) {
      into.erase(name);
    } else {
      into[name] = value;
    }
  }
}

void merge_one_tres(Tres& into, const char* name, const Setting& s) {
  auto v = count_value(s);
  if (v) {
    into[name] = *v;
  } else {
    into.erase(name);
  }
}

std::vector<std::string> name_list(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string item = lower(text.substr(start, end - start));
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    start = end + 1;
  }
  return out;
}

// A QOS list setting (an association's QOS, a QOS's Preempt) on a list that
// starts as `base`. As slurmdb_addto_qos_char_list: "QOS=a,b" replaces it,
// "QOS+=a" and "QOS-=a" add and remove, and so does a name's own leading
// '+' or '-' ("QOS=+a,-b"), which may not be mixed with plain names.
std::vector<std::string> qos_list_value(const Setting& s, const Accounting& data,
                                        std::vector<std::string> base) {
  std::vector<std::string> given = name_list(s.value);
  if (s.op == "=" && (given.empty() || given == std::vector<std::string>{"-1"})) return {};
  const char list_sign = s.op == "=" ? '\0' : s.op[0];
  std::vector<std::string> add;
  std::vector<std::string> remove;
  std::vector<std::string> replace;
  for (auto q : given) {
    char sign = list_sign;
    if (q[0] == '+' || q[0] == '-') {
      sign = q[0];
      q.erase(0, 1);
    }
    if (q.empty() || !data.find_qos(q))
      throw bad(
          fmt::format(" error: You gave a bad qos '{}'.  Use 'list qos' to get complete "
                      "list.",
                      q));
    (sign == '+' ? add : sign == '-' ? remove : replace).push_back(q);
  }
  if (!replace.empty() && (!add.empty() || !remove.empty()))
    throw bad(
        " error: You can't set qos equal to something and then add or subtract from it in the "
        "same line");
  if (!replace.empty()) base = replace;
  for (const auto& q : add) {
    if (std::find(base.begin(), base.end(), q) == base.end()) base.push_back(q);
  }
  std::erase_if(base, [&](const std::string& q) {
    return std::find(remove.begin(), remove.end(), q) != remove.end();
  });
  std::sort(base.begin(), base.end());
  return base;
}

void only_plain(const Setting& s) {
  if (s.op != "=") throw bad(fmt::format(" Unknown option: {}{}{}", s.key, s.op, s.value));
}

// What a setting sets. Several of Slurm's keys set one thing, or one TRES of
// a TRES list (GrpCPUs is GrpTRES's cpu).
enum class Field {
  // associations and QOS
  priority,
  grp_jobs,
  grp_submit,
  grp_tres,
  grp_cpus,
  grp_mem,
  grp_nodes,
  grp_tres_mins,
  grp_cpu_mins,
  grp_tres_run_mins,
  grp_cpu_run_mins,
  grp_wall,
  max_tres,
  max_cpus,
  max_nodes,
  max_tres_per_node,
  max_tres_mins,
  max_cpu_mins,
  max_wall,
  // associations
  default_qos,
  fairshare,
  max_jobs,
  max_submit,
  parent,
  qos,
  // QOS
  description,
  flags,
  grace_time,
  max_jobs_pu,
  max_submit_pu,
  max_tres_pu,
  max_cpus_pu,
  max_nodes_pu,
  preempt,
  preempt_mode,
  preempt_exempt_time,
  usage_factor,
  // Slurm's, kept nowhere here: refused with `why`
  unsupported,
};

// One of Slurm's keys: its name, the fewest letters that name it (sacctmgr
// compares MAX(typed length, min) letters, so a word longer than the name
// never matches), and what it sets.
struct SettingKey {
  std::string_view name;
  std::size_t min;
  Field field;
  std::string_view why = {};
};

constexpr std::string_view k_no_accrue =
    "stint has no limits on the jobs accruing age priority; GrpSubmitJobs and MaxSubmitJobs "
    "limit pending jobs";
constexpr std::string_view k_no_run_mins =
    "stint keeps running-minutes limits for a whole association or QOS only; use "
    "GrpTRESRunMins";
constexpr std::string_view k_no_prio_thresh =
    "stint's backfill plans every pending job whatever its priority; leave it out";
constexpr std::string_view k_no_per_account =
    "stint's QOS limits are per job, per user and for the whole QOS; set GrpJobs, "
    "GrpSubmitJobs or GrpTRES on the account's association instead";
constexpr std::string_view k_no_minimum = "stint's QOS set no minimum job size; leave it out";
constexpr std::string_view k_no_raw_usage =
    "stint computes usage from the jobs it ran and cannot set it; PriorityUsageResetPeriod "
    "resets it";

// sacctmgr_set_assoc_rec's keys, in its order: the first the word names wins.
// RawUsage comes first, as the user and account commands test it before them.
constexpr auto k_assoc_keys = std::to_array<SettingKey>({
    {"RawUsage", 7, Field::unsupported, k_no_raw_usage},
    {"DefaultQOS", 8, Field::default_qos},
    {"FairShare", 1, Field::fairshare},
    {"Shares", 1, Field::fairshare},
    {"GrpCPUMins", 7, Field::grp_cpu_mins},
    {"GrpCPURunMins", 7, Field::grp_cpu_run_mins},
    {"GrpCPUs", 7, Field::grp_cpus},
    {"GrpJobs", 4, Field::grp_jobs},
    {"GrpJobsAccrue", 8, Field::unsupported, k_no_accrue},
    {"GrpMemory", 4, Field::grp_mem},
    {"GrpNodes", 4, Field::grp_nodes},
    {"GrpSubmitJobs", 4, Field::grp_submit},
    {"GrpTRES", 7, Field::grp_tres},
    {"GrpTRESMins", 8, Field::grp_tres_mins},
    {"GrpTRESRunMins", 8, Field::grp_tres_run_mins},
    {"GrpWall", 4, Field::grp_wall},
    {"MaxCPUMinsPerJob", 7, Field::max_cpu_mins},
    {"MaxCPURunMins", 7, Field::unsupported, k_no_run_mins},
    {"MaxCPUsPerJob", 7, Field::max_cpus},
    {"MaxJobs", 4, Field::max_jobs},
    {"MaxJobsAccrue", 8, Field::unsupported, k_no_accrue},
    {"MaxNodesPerJob", 4, Field::max_nodes},
    {"MinPrioThresh", 4, Field::unsupported, k_no_prio_thresh},
    {"MaxSubmitJobs", 4, Field::max_submit},
    {"MaxTRESPerJob", 7, Field::max_tres},
    {"MaxTRESPerNode", 11, Field::max_tres_per_node},
    {"MaxTRESMinsPerJob", 8, Field::max_tres_mins},
    {"MaxTRESRunMins", 8, Field::unsupported, k_no_run_mins},
    {"MaxWallDurationPerJob", 4, Field::max_wall},
    {"Parent", 2, Field::parent},
    {"Priority", 2, Field::priority},
    {"QOSLevel", 1, Field::qos},
});

// qos_functions.c's _set_rec keys (but Name), in its order.
constexpr auto k_qos_keys = std::to_array<SettingKey>({
    {"Description", 1, Field::description},
    {"Flags", 2, Field::flags},
    {"GraceTime", 3, Field::grace_time},
    {"GrpCPUMins", 7, Field::grp_cpu_mins},
    {"GrpCPURunMins", 7, Field::grp_cpu_run_mins},
    {"GrpCPUs", 7, Field::grp_cpus},
    {"GrpJobs", 4, Field::grp_jobs},
    {"GrpJobsAccrue", 8, Field::unsupported, k_no_accrue},
    {"GrpMemory", 4, Field::grp_mem},
    {"GrpNodes", 4, Field::grp_nodes},
    {"GrpSubmitJobs", 4, Field::grp_submit},
    {"GrpTRES", 7, Field::grp_tres},
    {"GrpTRESMins", 8, Field::grp_tres_mins},
    {"GrpTRESRunMins", 8, Field::grp_tres_run_mins},
    {"GrpWall", 4, Field::grp_wall},
    {"LimitFactor", 6, Field::unsupported,
     "stint applies a QOS's Grp limits as they are set; set them to the values wanted"},
    {"MaxCPUMinsPerJob", 7, Field::max_cpu_mins},
    {"MaxCPUsPerJob", 7, Field::max_cpus},
    {"MaxCPUsPerUser", 11, Field::max_cpus_pu},
    {"MaxCPUsPU", 9, Field::max_cpus_pu},
    {"MaxJobsAccruePerAccount", 17, Field::unsupported, k_no_accrue},
    {"MaxJobsAccruePA", 15, Field::unsupported, k_no_accrue},
    {"MaxJobsAccruePerUser", 17, Field::unsupported, k_no_accrue},
    {"MaxJobsAccruePU", 15, Field::unsupported, k_no_accrue},
    {"MaxJobsPerAccount", 11, Field::unsupported, k_no_per_account},
    {"MaxJobsPA", 9, Field::unsupported, k_no_per_account},
    {"MaxJobsPerUser", 4, Field::max_jobs_pu},
    {"MaxJobsPU", 4, Field::max_jobs_pu},
    {"MaxNodesPerJob", 4, Field::max_nodes},
    {"MaxNodesPerUser", 8, Field::max_nodes_pu},
    {"MaxNodesPU", 8, Field::max_nodes_pu},
    {"MaxSubmitJobsPerAccount", 17, Field::unsupported, k_no_per_account},
    {"MaxSubmitJobsPA", 15, Field::unsupported, k_no_per_account},
    {"MaxSubmitJobsPerUser", 4, Field::max_submit_pu},
    {"MaxSubmitJobsPU", 4, Field::max_submit_pu},
    {"MaxTRESPerAccount", 11, Field::unsupported, k_no_per_account},
    {"MaxTRESPA", 9, Field::unsupported, k_no_per_account},
    {"MaxTRESPerJob", 7, Field::max_tres},
    {"MaxTRESPerNode", 11, Field::max_tres_per_node},
    {"MaxTRESPerUser", 11, Field::max_tres_pu},
    {"MaxTRESPU", 9, Field::max_tres_pu},
    {"MaxTRESMinsPerJob", 8, Field::max_tres_mins},
    {"MaxTRESRunMinsPA", 16, Field::unsupported, k_no_run_mins},
    {"MaxTRESRunMinsPU", 8, Field::unsupported, k_no_run_mins},
    {"MaxWallDurationPerJob", 4, Field::max_wall},
    {"MinCPUsPerJob", 7, Field::unsupported, k_no_minimum},
    {"MinPrioThresh", 4, Field::unsupported, k_no_prio_thresh},
    {"MinTRESPerJob", 7, Field::unsupported, k_no_minimum},
    {"PreemptMode", 8, Field::preempt_mode},
    {"Preempt", 7, Field::preempt},
    {"PreemptExemptTime", 8, Field::preempt_exempt_time},
    {"Priority", 3, Field::priority},
    {"RawUsage", 7, Field::unsupported, k_no_raw_usage},
    {"UsageFactor", 6, Field::usage_factor},
    {"UsageThreshold", 6, Field::unsupported,
     "stint's fair share has no usage threshold; PriorityWeightFairshare weighs usage"},
});

template <std::size_t N>
const SettingKey* find_key(const std::array<SettingKey, N>& table, std::string_view word) {
  for (const SettingKey& k : table) {
    if (word.size() >= k.min && word.size() <= k.name.size() &&
        iequals(word, k.name.substr(0, word.size())))
      return &k;
  }
  return nullptr;
}

Error unsupported(const SettingKey& k) {
  return bad(fmt::format(" {} is not supported here: {}", k.name, k.why));
}

}  // namespace

std::string_view admin_level_name(AdminLevel level) {
  switch (level) {
    case AdminLevel::none:
      return "None";
    case AdminLevel::operator_level:
      return "Operator";
    case AdminLevel::admin:
      return "Administrator";
  }
  return "None";
}

std::optional<AdminLevel> admin_level_from_name(std::string_view text) {
  const std::string t = lower(text);
  if (t == "none") return AdminLevel::none;
  if (t == "operator") return AdminLevel::operator_level;
  if (t == "admin" || t == "administrator") return AdminLevel::admin;
  return std::nullopt;
}

std::string format_tres(const Tres& tres) {
  static constexpr std::array<std::string_view, 5> k_order = {"cpu", "mem", "energy", "node",
                                                              "billing"};
  std::vector<std::pair<std::string, std::int64_t>> items(tres.begin(), tres.end());
  auto rank = [](const std::string& name) {
    auto it = std::find(k_order.begin(), k_order.end(), name);
    return static_cast<std::size_t>(it - k_order.begin());
  };
  std::stable_sort(items.begin(), items.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  std::string out;
  for (const auto& [name, value] : items) {
    if (!out.empty()) out += ',';
    out += name + '=';
    out += name == "mem" && value >= 0 ? parse::format_memory_mb(static_cast<std::uint64_t>(value))
                                       : std::to_string(value);
  }
  return out;
}

Tres parse_tres(std::string_view text) {
  Tres out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw Error(Errc::invalid_argument, fmt::format("bad TRES '{}'", item));
    std::string name = lower(item.substr(0, eq));
    const std::string_view value = item.substr(eq + 1);
    if (name == "gpu") name = "gres/gpu";
    static constexpr std::array<std::string_view, 6> k_known = {"cpu",     "mem",    "node",
                                                                "billing", "energy", "gres/gpu"};
    if (std::find(k_known.begin(), k_known.end(), name) == k_known.end())
      throw Error(Errc::invalid_argument, fmt::format("unknown TRES '{}'", name));
    if (value == "-1") {
      out[name] = -1;
    } else if (name == "mem") {
      out[name] = static_cast<std::int64_t>(parse::memory_mb(value));
    } else {
      std::int64_t v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v < 0)
        throw Error(Errc::invalid_argument, fmt::format("bad TRES count '{}'", item));
      out[name] = v;
    }
    start = end + 1;
  }
  if (out.empty()) throw Error(Errc::invalid_argument, "empty TRES list");
  return out;
}

std::optional<Setting> split_setting(std::string_view word) {
  const std::size_t eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  Setting s;
  s.value = std::string(word.substr(eq + 1));
  std::string_view key = word.substr(0, eq);
  if (key.back() == '+' || key.back() == '-') {
    s.op = std::string(1, key.back()) + "=";
    key.remove_suffix(1);
  }
  s.key = std::string(key);
  if (s.key.empty()) return std::nullopt;
  return s;
}

std::optional<std::string_view> assoc_setting_name(std::string_view key) {
  const SettingKey* k = find_key(k_assoc_keys, key);
  return k ? std::optional(k->name) : std::nullopt;
}

std::optional<std::string_view> qos_setting_name(std::string_view key) {
  const SettingKey* k = find_key(k_qos_keys, key);
  return k ? std::optional(k->name) : std::nullopt;
}

bool is_assoc_setting(std::string_view key) { return find_key(k_assoc_keys, key) != nullptr; }

bool is_qos_setting(std::string_view key) { return find_key(k_qos_keys, key) != nullptr; }

namespace {

// The settings both kinds of record take, on their limits.
template <typename Limits>
void apply_common(Limits& l, Field field, const Setting& s) {
  switch (field) {
    case Field::grp_jobs:
      l.grp_jobs = count_value(s);
      break;
    case Field::grp_submit:
      l.grp_submit_jobs = count_value(s);
      break;
    case Field::grp_tres:
      merge_tres(l.grp_tres, s);
      break;
    case Field::grp_cpus:
      merge_one_tres(l.grp_tres, "cpu", s);
      break;
    case Field::grp_nodes:
      merge_one_tres(l.grp_tres, "node", s);
      break;
    case Field::grp_mem: {
      Setting t = s;
      t.value = "mem=" + s.value;
      merge_tres(l.grp_tres, t);
      break;
    }
    case Field::grp_tres_mins:
      merge_tres(l.grp_tres_mins, s);
      break;
    case Field::grp_cpu_mins:
      merge_one_tres(l.grp_tres_mins, "cpu", s);
      break;
    case Field::grp_tres_run_mins:
      merge_tres(l.grp_tres_run_mins, s);
      break;
    case Field::grp_cpu_run_mins:
      merge_one_tres(l.grp_tres_run_mins, "cpu", s);
      break;
    case Field::grp_wall:
      l.grp_wall = wall_value(s);
      break;
    case Field::max_tres:
      merge_tres(l.max_tres_per_job, s);
      break;
    case Field::max_cpus:
      merge_one_tres(l.max_tres_per_job, "cpu", s);
      break;
    case Field::max_nodes:
      merge_one_tres(l.max_tres_per_job, "node", s);
      break;
    case Field::max_tres_per_node:
      merge_tres(l.max_tres_per_node, s);
      break;
    case Field::max_tres_mins:
      merge_tres(l.max_tres_mins_per_job, s);
      break;
    case Field::max_cpu_mins:
      merge_one_tres(l.max_tres_mins_per_job, "cpu", s);
      break;
    case Field::max_wall:
      l.max_wall = wall_value(s);
      break;
    default:
      break;
  }
}

}  // namespace

bool apply_assoc_setting(Association& a, const Setting& s, const Accounting& data,
                         const std::vector<std::string>& inherited_qos) {
  const SettingKey* key = find_key(k_assoc_keys, s.key);
  if (!key) return false;
  AssocLimits& l = a.limits;
  switch (key->field) {
    case Field::qos:
      a.qos = qos_list_value(s, data, a.qos.empty() ? inherited_qos : a.qos);
      return true;
    case Field::unsupported:
      throw unsupported(*key);
    case Field::parent:
      throw bad(
          " Parent is an account's: give the user an association under that account "
          "(Account=) or set it with 'modify account NAME set Parent=...'");
    default:
      break;
  }
  only_plain(s);
  // Values are reported under Slurm's name for the key, as sacctmgr does.
  Setting named = s;
  named.key = std::string(key->name);
  switch (key->field) {
    case Field::fairshare:
      if (iequals(s.value, "parent")) {
        a.shares = k_shares_parent;
      } else {
        auto v = count_value(named);
        a.shares =
            v ? static_cast<std::uint32_t>(std::min<std::int64_t>(*v, k_shares_parent - 1)) : 1;
      }
      break;
    case Field::priority: {
      auto v = count_value(named);
      a.priority = v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
      break;
    }
    case Field::max_jobs:
      l.max_jobs = count_value(named);
      break;
    case Field::max_submit:
      l.max_submit_jobs = count_value(named);
      break;
    case Field::default_qos: {
      const std::string q = lower(s.value);
      if (q == "-1" || q.empty()) {
        a.default_qos.clear();
      } else if (!data.find_qos(q)) {
        throw bad(
            fmt::format(" error: You gave a bad qos '{}'.  Use 'list qos' to get complete "
                        "list.",
                        q));
      } else {
        a.default_qos = q;
      }
      break;
    }
    default:
      apply_common(l, key->field, named);
      break;
  }
  return true;
}

bool apply_qos_setting(Qos& q, const Setting& s, const Accounting& data) {
  const SettingKey* key = find_key(k_qos_keys, s.key);
  if (!key) return false;
  QosLimits& l = q.limits;
  switch (key->field) {
    case Field::unsupported:
      throw unsupported(*key);
    case Field::preempt: {
      std::vector<std::string> list = qos_list_value(s, data, q.preempt);
      if (std::find(list.begin(), list.end(), q.name) != list.end())
        throw bad(" QOS can't preempt itself");
      q.preempt = list;
      return true;
    }
    case Field::flags: {
      std::vector<std::string> given;
      for (const auto& f : name_list(s.value)) {
        if (f != "-1" && f != "none") given.push_back(f);
      }
      if (s.op == "=") {
        q.flags = given;
      } else if (s.op == "+=") {
        for (const auto& f : given)
          if (std::find(q.flags.begin(), q.flags.end(), f) == q.flags.end()) q.flags.push_back(f);
      } else {
        std::erase_if(q.flags, [&](const std::string& f) {
          return std::find(given.begin(), given.end(), f) != given.end();
        });
      }
      return true;
    }
    default:
      break;
  }
  only_plain(s);
  // Values are reported under Slurm's name for the key, as sacctmgr does.
  Setting named = s;
  named.key = std::string(key->name);
  switch (key->field) {
    case Field::description:
      q.description = s.value;
      break;
    case Field::priority: {
      auto v = count_value(named);
      q.priority = v ? static_cast<std::uint32_t>(*v) : 0;
      break;
    }
    case Field::usage_factor: {
      char* end = nullptr;
      const double v = std::strtod(s.value.c_str(), &end);
      if (s.value.empty() || *end != '\0' || !std::isfinite(v) || (v < 0 && v != -1))
        throw bad(fmt::format(" Bad UsageFactor value: {}", s.value));
      q.usage_factor = v < 0 ? 1.0 : v;
      break;
    }
    case Field::preempt_mode: {
      const std::string m = lower(s.value);
      if (m != "cluster" && m != "cancel" && m != "requeue" && m != "suspend" && m != "off")
        throw bad(fmt::format(" Unknown preempt mode given '{}'", s.value));
      q.preempt_mode = m;
      break;
    }
    case Field::grace_time: {
      auto v = count_value(named);
      q.grace_time = v ? *v : 0;
      break;
    }
    case Field::preempt_exempt_time:
      if (s.value == "-1") {
        q.preempt_exempt_time.reset();
      } else {
        try {
          q.preempt_exempt_time = parse::duration(s.value);
        } catch (const Error&) {
          throw bad(fmt::format(" Bad PreemptExemptTime time format: {}", s.value));
        }
      }
      break;
    case Field::max_jobs_pu:
      l.max_jobs_per_user = count_value(named);
      break;
    case Field::max_submit_pu:
      l.max_submit_jobs_per_user = count_value(named);
      break;
    case Field::max_tres_pu:
      merge_tres(l.max_tres_per_user, named);
      break;
    case Field::max_cpus_pu:
      merge_one_tres(l.max_tres_per_user, "cpu", named);
      break;
    case Field::max_nodes_pu:
      merge_one_tres(l.max_tres_per_user, "node", named);
      break;
    default:
      apply_common(l, key->field, named);
      break;
  }
  return true;
}

std::string format_limit(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : std::string();
}

std::string format_wall(const std::optional<Seconds>& v) {
  return v ? parse::format_duration_fixed(*v) : std::string();
}

namespace {

// Which of sacctmgr's limit lines a set of settings touched.
template <std::size_t N>
bool given_any(const std::array<SettingKey, N>& table, const std::vector<Setting>& given,
               std::initializer_list<Field> fields) {
  return std::any_of(given.begin(), given.end(), [&](const Setting& s) {
    const SettingKey* k = find_key(table, s.key);
    return k && std::find(fields.begin(), fields.end(), k->field) != fields.end();
  });
}

std::string or_none(const std::string& v) { return v.empty() ? "NONE" : v; }

}  // namespace

std::vector<std::string> assoc_limit_lines(const Association& a, const std::vector<Setting>& given,
                                           std::string_view parent) {
  // sacctmgr_print_assoc_limits: labels padded to 14, in this order.
  std::vector<std::string> out;
  auto line = [&](std::string_view label, const std::string& value) {
    out.push_back(fmt::format("  {:<14}= {}", label, value));
  };
  const AssocLimits& l = a.limits;
  if (given_any(k_assoc_keys, given, {Field::fairshare}))
    line("Fairshare", a.shares == k_shares_parent ? "parent" : std::to_string(a.shares));
  if (given_any(k_assoc_keys, given, {Field::grp_jobs}))
    line("GrpJobs", or_none(format_limit(l.grp_jobs)));
  if (given_any(k_assoc_keys, given, {Field::grp_submit}))
    line("GrpSubmitJobs", or_none(format_limit(l.grp_submit_jobs)));
  if (given_any(k_assoc_keys, given,
                {Field::grp_tres, Field::grp_cpus, Field::grp_nodes, Field::grp_mem}))
    line("GrpTRES", or_none(format_tres(l.grp_tres)));
  if (given_any(k_assoc_keys, given, {Field::grp_tres_mins, Field::grp_cpu_mins}))
    line("GrpTRESMins", or_none(format_tres(l.grp_tres_mins)));
  if (given_any(k_assoc_keys, given, {Field::grp_tres_run_mins, Field::grp_cpu_run_mins}))
    line("GrpTRESRunMins", or_none(format_tres(l.grp_tres_run_mins)));
  if (given_any(k_assoc_keys, given, {Field::grp_wall}))
    line("GrpWall", or_none(format_wall(l.grp_wall)));
  if (given_any(k_assoc_keys, given, {Field::max_jobs}))
    line("MaxJobs", or_none(format_limit(l.max_jobs)));
  if (given_any(k_assoc_keys, given, {Field::max_submit}))
    line("MaxSubmitJobs", or_none(format_limit(l.max_submit_jobs)));
  if (given_any(k_assoc_keys, given, {Field::max_tres, Field::max_cpus, Field::max_nodes}))
    line("MaxTRES", or_none(format_tres(l.max_tres_per_job)));
  if (given_any(k_assoc_keys, given, {Field::max_tres_per_node}))
    line("MaxTRESPerNode", or_none(format_tres(l.max_tres_per_node)));
  if (given_any(k_assoc_keys, given, {Field::max_tres_mins, Field::max_cpu_mins}))
    line("MaxTRESMins", or_none(format_tres(l.max_tres_mins_per_job)));
  if (given_any(k_assoc_keys, given, {Field::max_wall}))
    line("MaxWall", or_none(format_wall(l.max_wall)));
  if (!parent.empty()) line("Parent", std::string(parent));
  if (given_any(k_assoc_keys, given, {Field::priority}))
    line("Priority", a.priority ? std::to_string(*a.priority) : "NONE");
  if (given_any(k_assoc_keys, given, {Field::qos})) {
    std::string list;
    for (const auto& q : a.qos) list += (list.empty() ? "" : ",") + q;
    line("QOS", list);
  }
  if (given_any(k_assoc_keys, given, {Field::default_qos})) line("DefQOS", or_none(a.default_qos));
  return out;
}

std::vector<std::string> qos_limit_lines(const Qos& q, const std::vector<Setting>& given) {
  // sacctmgr_print_qos_limits: labels padded to 25, with Slurm's odd ones.
  std::vector<std::string> out;
  auto line = [&](std::string_view label, const std::string& value) {
    out.push_back(fmt::format("  {:<25}= {}", label, value));
  };
  const QosLimits& l = q.limits;
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
  };
  if (given_any(k_qos_keys, given, {Field::flags})) line("Flags", join(q.flags));
  if (given_any(k_qos_keys, given, {Field::grace_time}))
    line("GraceTime", std::to_string(q.grace_time));
  if (given_any(k_qos_keys, given, {Field::grp_jobs}))
    line("GrpJobs", or_none(format_limit(l.grp_jobs)));
  if (given_any(k_qos_keys, given, {Field::grp_submit}))
    line("GrpSubmitJobs", or_none(format_limit(l.grp_submit_jobs)));
  if (given_any(k_qos_keys, given,
                {Field::grp_tres, Field::grp_cpus, Field::grp_nodes, Field::grp_mem}))
    line("GrpTRES", or_none(format_tres(l.grp_tres)));
  if (given_any(k_qos_keys, given, {Field::grp_tres_mins, Field::grp_cpu_mins}))
    line("GrpTRESMins", or_none(format_tres(l.grp_tres_mins)));
  if (given_any(k_qos_keys, given, {Field::grp_tres_run_mins, Field::grp_cpu_run_mins}))
    line("GrpTRESRunMins", or_none(format_tres(l.grp_tres_run_mins)));
  if (given_any(k_qos_keys, given, {Field::grp_wall}))
    line("GrpWall", or_none(format_wall(l.grp_wall)));
  if (given_any(k_qos_keys, given, {Field::max_jobs_pu}))
    out.push_back(fmt::format("  MaxJobsPerUser = {}", or_none(format_limit(l.max_jobs_per_user))));
  if (given_any(k_qos_keys, given, {Field::max_submit_pu}))
    line("MaxSubmitJobsPerUser", or_none(format_limit(l.max_submit_jobs_per_user)));
  if (given_any(k_qos_keys, given, {Field::max_tres, Field::max_cpus, Field::max_nodes}))
    line("MaxTRESPerJob", format_tres(l.max_tres_per_job));
  if (given_any(k_qos_keys, given, {Field::max_tres_per_node}))
    line("MaxTRESPerNode", format_tres(l.max_tres_per_node));
  if (given_any(k_qos_keys, given, {Field::max_tres_pu, Field::max_cpus_pu, Field::max_nodes_pu}))
    line("MaxTRESPerUser", format_tres(l.max_tres_per_user));
  if (given_any(k_qos_keys, given, {Field::max_tres_mins, Field::max_cpu_mins}))
    line("MaxTRESMins", format_tres(l.max_tres_mins_per_job));
  if (given_any(k_qos_keys, given, {Field::max_wall}))
    line("MaxWall", or_none(format_wall(l.max_wall)));
  if (given_any(k_qos_keys, given, {Field::preempt}))
    out.push_back(fmt::format("  Preempt          = {}", join(q.preempt)));
  if (given_any(k_qos_keys, given, {Field::preempt_mode})) line("PreemptMode", q.preempt_mode);
  if (given_any(k_qos_keys, given, {Field::priority})) line("Priority", std::to_string(q.priority));
  if (given_any(k_qos_keys, given, {Field::usage_factor}))
    line("UsageFactor", fmt::format("{:.6f}", q.usage_factor));
  return out;
}

}  // namespace stint::sched
