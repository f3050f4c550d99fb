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

// QOS=a,b / QOS+=a / QOS-=a on a list that starts as `base`.
std::vector<std::string> qos_list_value(const Setting& s, const Accounting& data,
                                        std::vector<std::string> base) {
  std::vector<std::string> given = name_list(s.value);
  if (s.op == "=" && (given.empty() || given == std::vector<std::string>{"-1"})) return {};
  for (const auto& q : given) {
    if (!data.find_qos(q))
      throw bad(
          fmt::format(" error: You gave a bad qos '{}'.  Use 'list qos' to get complete "
                      "list.",
                      q));
  }
  if (s.op == "=") {
    base = given;
  } else if (s.op == "+=") {
    for (const auto& q : given) {
      if (std::find(base.begin(), base.end(), q) == base.end()) base.push_back(q);
    }
  } else {
    std::erase_if(base, [&](const std::string& q) {
      return std::find(given.begin(), given.end(), q) != given.end();
    });
  }
  std::sort(base.begin(), base.end());
  return base;
}

void only_plain(const Setting& s) {
  if (s.op != "=") throw bad(fmt::format(" Unknown option: {}{}{}", s.key, s.op, s.value));
}

constexpr auto k_assoc_keys = std::to_array<std::string_view>(
    {"fairshare",   "shares",           "priority",       "grpjobs",       "grpsubmitjobs",
     "grpsubmit",   "grptres",          "grpcpus",        "grpnodes",      "grpmem",
     "grptresmins", "grpcpumins",       "grptresrunmins", "grpcpurunmins", "grpwall",
     "maxjobs",     "maxsubmitjobs",    "maxsubmit",      "maxwall",       "maxwalldurationperjob",
     "maxtres",     "maxtresperjob",    "maxtrespernode", "maxtresmins",   "maxtresminsperjob",
     "maxcpumins",  "maxcpuminsperjob", "maxcpus",        "maxnodes",      "qos",
     "qoslevel",    "defaultqos",       "defqos"});

// With Slurm's shorter spellings: qos_functions.c takes "MaxJobs" for
// MaxJobsPerUser, "MaxSubmitJobs" for MaxSubmitJobsPerUser, "MaxCPUs" and
// "MaxNodes" for MaxCPUsPerJob and MaxNodesPerJob.
constexpr auto k_qos_keys = std::to_array<std::string_view>(
    {"description",       "priority",       "usagefactor",       "preempt",
     "preemptmode",       "gracetime",      "preemptexempttime", "flags",
     "grpjobs",           "grpsubmitjobs",  "grpsubmit",         "grptres",
     "grptresmins",       "grpcpumins",     "grptresrunmins",    "grpcpurunmins",
     "grpwall",           "maxjobsperuser", "maxjobspu",         "maxsubmitjobsperuser",
     "maxsubmitjobspu",   "maxsubmitpu",    "maxwall",           "maxwalldurationperjob",
     "maxtres",           "maxtresperjob",  "maxtrespj",         "maxtrespernode",
     "maxtrespn",         "maxtresperuser", "maxtrespu",         "maxtresmins",
     "maxtresminsperjob", "maxtresminspj",  "maxcpumins",        "maxcpuminsperjob",
     "grpcpus",           "grpnodes",       "maxcpusperuser",    "maxnodesperuser",
     "maxjobs",           "maxsubmitjobs",  "maxsubmit",         "maxcpus",
     "maxcpusperjob",     "maxnodes",       "maxnodesperjob"});

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

bool is_assoc_setting(std::string_view key) {
  const std::string k = lower(key);
  return std::find(k_assoc_keys.begin(), k_assoc_keys.end(), k) != k_assoc_keys.end();
}

bool is_qos_setting(std::string_view key) {
  const std::string k = lower(key);
  return std::find(k_qos_keys.begin(), k_qos_keys.end(), k) != k_qos_keys.end();
}

bool apply_assoc_setting(Association& a, const Setting& s, const Accounting& data,
                         const std::vector<std::string>& inherited_qos) {
  const std::string k = lower(s.key);
  if (!is_assoc_setting(k)) return false;
  AssocLimits& l = a.limits;
  if (k == "qos" || k == "qoslevel") {
    a.qos = qos_list_value(s, data, a.qos.empty() ? inherited_qos : a.qos);
    return true;
  }
  only_plain(s);
  if (k == "fairshare" || k == "shares") {
    if (iequals(s.value, "parent")) {
      a.shares = k_shares_parent;
    } else {
      auto v = count_value(s);
      a.shares =
          v ? static_cast<std::uint32_t>(std::min<std::int64_t>(*v, k_shares_parent - 1)) : 1;
    }
  } else if (k == "priority") {
    auto v = count_value(s);
    a.priority = v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
  } else if (k == "grpjobs") {
    l.grp_jobs = count_value(s);
  } else if (k == "grpsubmitjobs" || k == "grpsubmit") {
    l.grp_submit_jobs = count_value(s);
  } else if (k == "grptres") {
    merge_tres(l.grp_tres, s);
  } else if (k == "grpcpus") {
    merge_one_tres(l.grp_tres, "cpu", s);
  } else if (k == "grpnodes") {
    merge_one_tres(l.grp_tres, "node", s);
  } else if (k == "grpmem") {
    Setting t = s;
    t.value = "mem=" + s.value;
    merge_tres(l.grp_tres, t);
  } else if (k == "maxjobs") {
    l.max_jobs = count_value(s);
  } else if (k == "maxsubmitjobs" || k == "maxsubmit") {
    l.max_submit_jobs = count_value(s);
  } else if (k == "maxwall" || k == "maxwalldurationperjob") {
    l.max_wall = wall_value(s);
  } else if (k == "maxtres" || k == "maxtresperjob") {
    merge_tres(l.max_tres_per_job, s);
  } else if (k == "maxtrespernode") {
    merge_tres(l.max_tres_per_node, s);
  } else if (k == "grptresmins") {
    merge_tres(l.grp_tres_mins, s);
  } else if (k == "grpcpumins") {
    merge_one_tres(l.grp_tres_mins, "cpu", s);
  } else if (k == "grptresrunmins") {
    merge_tres(l.grp_tres_run_mins, s);
  } else if (k == "grpcpurunmins") {
    merge_one_tres(l.grp_tres_run_mins, "cpu", s);
  } else if (k == "grpwall") {
    l.grp_wall = wall_value(s);
  } else if (k == "maxtresmins" || k == "maxtresminsperjob") {
    merge_tres(l.max_tres_mins_per_job, s);
  } else if (k == "maxcpumins" || k == "maxcpuminsperjob") {
    merge_one_tres(l.max_tres_mins_per_job, "cpu", s);
  } else if (k == "maxcpus") {
    merge_one_tres(l.max_tres_per_job, "cpu", s);
  } else if (k == "maxnodes") {
    merge_one_tres(l.max_tres_per_job, "node", s);
  } else if (k == "defaultqos" || k == "defqos") {
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
  }
  return true;
}

bool apply_qos_setting(Qos& q, const Setting& s, const Accounting& data) {
  const std::string k = lower(s.key);
  if (!is_qos_setting(k)) return false;
  QosLimits& l = q.limits;
  if (k == "preempt") {
    std::vector<std::string> list = qos_list_value(s, data, q.preempt);
    if (std::find(list.begin(), list.end(), q.name) != list.end())
      throw bad(" QOS can't preempt itself");
    q.preempt = list;
    return true;
  }
  if (k == "flags") {
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
  only_plain(s);
  if (k == "description") {
    q.description = s.value;
  } else if (k == "priority") {
    auto v = count_value(s);
    q.priority = v ? static_cast<std::uint32_t>(*v) : 0;
  } else if (k == "usagefactor") {
    char* end = nullptr;
    const double v = std::strtod(s.value.c_str(), &end);
    if (s.value.empty() || *end != '\0' || !std::isfinite(v) || (v < 0 && v != -1))
      throw bad(fmt::format(" Bad UsageFactor value: {}", s.value));
    q.usage_factor = v < 0 ? 1.0 : v;
  } else if (k == "preemptmode") {
    const std::string m = lower(s.value);
    if (m != "cluster" && m != "cancel" && m != "requeue" && m != "suspend" && m != "off")
      throw bad(fmt::format(" Unknown preempt mode given '{}'", s.value));
    q.preempt_mode = m;
  } else if (k == "gracetime") {
    auto v = count_value(s);
    q.grace_time = v ? *v : 0;
  } else if (k == "preemptexempttime") {
    if (s.value == "-1") {
      q.preempt_exempt_time.reset();
    } else {
      try {
        q.preempt_exempt_time = parse::duration(s.value);
      } catch (const Error&) {
        throw bad(fmt::format(" Bad PreemptExemptTime time format: {}", s.value));
      }
    }
  } else if (k == "grpjobs") {
    l.grp_jobs = count_value(s);
  } else if (k == "grpsubmitjobs" || k == "grpsubmit") {
    l.grp_submit_jobs = count_value(s);
  } else if (k == "grptres") {
    merge_tres(l.grp_tres, s);
  } else if (k == "grpcpus") {
    merge_one_tres(l.grp_tres, "cpu", s);
  } else if (k == "grpnodes") {
    merge_one_tres(l.grp_tres, "node", s);
  } else if (k == "maxjobsperuser" || k == "maxjobspu" || k == "maxjobs") {
    l.max_jobs_per_user = count_value(s);
  } else if (k == "maxsubmitjobsperuser" || k == "maxsubmitjobspu" || k == "maxsubmitpu" ||
             k == "maxsubmitjobs" || k == "maxsubmit") {
    l.max_submit_jobs_per_user = count_value(s);
  } else if (k == "maxcpus" || k == "maxcpusperjob") {
    merge_one_tres(l.max_tres_per_job, "cpu", s);
  } else if (k == "maxnodes" || k == "maxnodesperjob") {
    merge_one_tres(l.max_tres_per_job, "node", s);
  } else if (k == "maxwall" || k == "maxwalldurationperjob") {
    l.max_wall = wall_value(s);
  } else if (k == "maxtres" || k == "maxtresperjob" || k == "maxtrespj") {
    merge_tres(l.max_tres_per_job, s);
  } else if (k == "maxtrespernode" || k == "maxtrespn") {
    merge_tres(l.max_tres_per_node, s);
  } else if (k == "maxtresperuser" || k == "maxtrespu") {
    merge_tres(l.max_tres_per_user, s);
  } else if (k == "grptresmins") {
    merge_tres(l.grp_tres_mins, s);
  } else if (k == "grpcpumins") {
    merge_one_tres(l.grp_tres_mins, "cpu", s);
  } else if (k == "grptresrunmins") {
    merge_tres(l.grp_tres_run_mins, s);
  } else if (k == "grpcpurunmins") {
    merge_one_tres(l.grp_tres_run_mins, "cpu", s);
  } else if (k == "grpwall") {
    l.grp_wall = wall_value(s);
  } else if (k == "maxtresmins" || k == "maxtresminsperjob" || k == "maxtresminspj") {
    merge_tres(l.max_tres_mins_per_job, s);
  } else if (k == "maxcpumins" || k == "maxcpuminsperjob") {
    merge_one_tres(l.max_tres_mins_per_job, "cpu", s);
  } else if (k == "maxcpusperuser") {
    merge_one_tres(l.max_tres_per_user, "cpu", s);
  } else if (k == "maxnodesperuser") {
    merge_one_tres(l.max_tres_per_user, "node", s);
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
bool given_any(const std::vector<Setting>& given, std::initializer_list<std::string_view> keys) {
  return std::any_of(given.begin(), given.end(), [&](const Setting& s) {
    const std::string k = lower(s.key);
    return std::find(keys.begin(), keys.end(), k) != keys.end();
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
  if (given_any(given, {"fairshare", "shares"}))
    line("Fairshare", a.shares == k_shares_parent ? "parent" : std::to_string(a.shares));
  if (given_any(given, {"grpjobs"})) line("GrpJobs", or_none(format_limit(l.grp_jobs)));
  if (given_any(given, {"grpsubmitjobs", "grpsubmit"}))
    line("GrpSubmitJobs", or_none(format_limit(l.grp_submit_jobs)));
  if (given_any(given, {"grptres", "grpcpus", "grpnodes", "grpmem"}))
    line("GrpTRES", or_none(format_tres(l.grp_tres)));
  if (given_any(given, {"grptresmins", "grpcpumins"}))
    line("GrpTRESMins", or_none(format_tres(l.grp_tres_mins)));
  if (given_any(given, {"grptresrunmins", "grpcpurunmins"}))
    line("GrpTRESRunMins", or_none(format_tres(l.grp_tres_run_mins)));
  if (given_any(given, {"grpwall"})) line("GrpWall", or_none(format_wall(l.grp_wall)));
  if (given_any(given, {"maxjobs"})) line("MaxJobs", or_none(format_limit(l.max_jobs)));
  if (given_any(given, {"maxsubmitjobs", "maxsubmit"}))
    line("MaxSubmitJobs", or_none(format_limit(l.max_submit_jobs)));
  if (given_any(given, {"maxtres", "maxtresperjob", "maxcpus", "maxnodes"}))
    line("MaxTRES", or_none(format_tres(l.max_tres_per_job)));
  if (given_any(given, {"maxtrespernode"}))
    line("MaxTRESPerNode", or_none(format_tres(l.max_tres_per_node)));
  if (given_any(given, {"maxtresmins", "maxtresminsperjob", "maxcpumins", "maxcpuminsperjob"}))
    line("MaxTRESMins", or_none(format_tres(l.max_tres_mins_per_job)));
  if (given_any(given, {"maxwall", "maxwalldurationperjob"}))
    line("MaxWall", or_none(format_wall(l.max_wall)));
  if (!parent.empty()) line("Parent", std::string(parent));
  if (given_any(given, {"priority"}))
    line("Priority", a.priority ? std::to_string(*a.priority) : "NONE");
  if (given_any(given, {"qos", "qoslevel"})) {
    std::string list;
    for (const auto& q : a.qos) list += (list.empty() ? "" : ",") + q;
    line("QOS", list);
  }
  if (given_any(given, {"defaultqos", "defqos"})) line("DefQOS", or_none(a.default_qos));
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
  if (given_any(given, {"flags"})) line("Flags", join(q.flags));
  if (given_any(given, {"gracetime"})) line("GraceTime", std::to_string(q.grace_time));
  if (given_any(given, {"grpjobs"})) line("GrpJobs", or_none(format_limit(l.grp_jobs)));
  if (given_any(given, {"grpsubmitjobs", "grpsubmit"}))
    line("GrpSubmitJobs", or_none(format_limit(l.grp_submit_jobs)));
  if (given_any(given, {"grptres", "grpcpus", "grpnodes"}))
    line("GrpTRES", or_none(format_tres(l.grp_tres)));
  if (given_any(given, {"grptresmins", "grpcpumins"}))
    line("GrpTRESMins", or_none(format_tres(l.grp_tres_mins)));
  if (given_any(given, {"grptresrunmins", "grpcpurunmins"}))
    line("GrpTRESRunMins", or_none(format_tres(l.grp_tres_run_mins)));
  if (given_any(given, {"grpwall"})) line("GrpWall", or_none(format_wall(l.grp_wall)));
  if (given_any(given, {"maxjobsperuser", "maxjobspu", "maxjobs"}))
    out.push_back(fmt::format("  MaxJobsPerUser = {}", or_none(format_limit(l.max_jobs_per_user))));
  if (given_any(given, {"maxsubmitjobsperuser", "maxsubmitjobspu", "maxsubmitpu", "maxsubmitjobs",
                        "maxsubmit"}))
    line("MaxSubmitJobsPerUser", or_none(format_limit(l.max_submit_jobs_per_user)));
  if (given_any(given, {"maxtres", "maxtresperjob", "maxtrespj", "maxcpus", "maxcpusperjob",
                        "maxnodes", "maxnodesperjob"}))
    line("MaxTRESPerJob", format_tres(l.max_tres_per_job));
  if (given_any(given, {"maxtrespernode", "maxtrespn"}))
    line("MaxTRESPerNode", format_tres(l.max_tres_per_node));
  if (given_any(given, {"maxtresperuser", "maxtrespu", "maxcpusperuser", "maxnodesperuser"}))
    line("MaxTRESPerUser", format_tres(l.max_tres_per_user));
  if (given_any(given, {"maxtresmins", "maxtresminsperjob", "maxtresminspj", "maxcpumins",
                        "maxcpuminsperjob"}))
    line("MaxTRESMins", format_tres(l.max_tres_mins_per_job));
  if (given_any(given, {"maxwall", "maxwalldurationperjob"}))
    line("MaxWall", or_none(format_wall(l.max_wall)));
  if (given_any(given, {"preempt"}))
    out.push_back(fmt::format("  Preempt          = {}", join(q.preempt)));
  if (given_any(given, {"preemptmode"})) line("PreemptMode", q.preempt_mode);
  if (given_any(given, {"priority"})) line("Priority", std::to_string(q.priority));
  if (given_any(given, {"usagefactor"})) line("UsageFactor", fmt::format("{:.6f}", q.usage_factor));
  return out;
}

}  // namespace stint::sched
