// scontrol show assoc_mgr: Slurm's info_assoc_mgr.c layout over stint's
// accounting records. What slurmctld counts as it goes (jobs, TRES in use,
// TRES-minutes left to run) is counted here from the live jobs; usage and
// shares come from the same fair share snapshot sshare shows.

#include "cli/scontrol_assoc_mgr.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include <fmt/core.h>
#include <pwd.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>

#include "cli/priority_read.hpp"
#include "sched/limits.hpp"
#include "util/clock.hpp"

namespace stint::tools::scontrol_assoc_mgr {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// xstrncasecmp(tag, name, MAX(len, min)): a word of at least `min` letters
// that starts `name`.
bool names(std::string_view tag, std::string_view name, std::size_t min) {
  return tag.size() >= min && tag.size() <= name.size() && lower(tag) == name.substr(0, tag.size());
}

std::vector<std::string> split(std::string_view text, bool keep_case) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) {
      const std::string item(text.substr(start, end - start));
      out.push_back(keep_case ? item : lower(item));
    }
    start = end + 1;
  }
  return out;
}

bool listed(const std::vector<std::string>& filter, const std::string& name) {
  return filter.empty() || std::any_of(filter.begin(), filter.end(), [&](const std::string& f) {
           return lower(f) == lower(name);
         });
}

// What the live jobs use of one record's limits.
struct Used {
  std::int64_t running = 0;
  std::int64_t submitted = 0;  ///< pending and running
  Tres tres;                   ///< of the running jobs
  Tres run_secs;               ///< TRES-seconds the running jobs have left, times UsageFactor
};

void count(Used& u, const Job& job, const Tres& tres, double left_secs, double factor) {
  ++u.submitted;
  if (!is_active(job.state)) return;
  ++u.running;
  for (const auto& [name, value] : tres) {
    u.tres[name] += value;
    u.run_secs[name] += static_cast<std::int64_t>(static_cast<double>(value) * left_secs * factor);
  }
}

// _print_tres_line: with `used`, every TRES as limit(used) ("N" for no
// limit); without, only the TRES that have a limit.
std::string tres_line(std::string_view name, const State& s, const Tres& limits, const Tres* used,
                      std::int64_t divider = 0) {
  std::string out = fmt::format("{}=", name);
  bool comma = false;
  for (const std::string& t : s.tres_names) {
    auto lim = limits.find(t);
    if (!used && lim == limits.end()) continue;
    out += fmt::format("{}{}=", comma ? "," : "", t);
    out += lim == limits.end() ? std::string("N") : std::to_string(lim->second);
    if (used) {
      auto u = used->find(t);
      std::int64_t total = u == used->end() ? 0 : u->second;
      if (divider) total /= divider;
      out += fmt::format("({})", total);
    }
    comma = true;
  }
  return out;
}

std::string count_limit(const std::optional<std::int64_t>& limit, std::int64_t used) {
  return fmt::format("{}({})", limit ? std::to_string(*limit) : std::string("N"), used);
}

std::string preempt_mode(const std::string& mode) {
  // A QOS without a mode of its own is PREEMPT_MODE_OFF in its record.
  if (mode == "cluster" || mode.empty()) return "OFF";
  std::string out = mode;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Request parse_request(const std::vector<std::string>& words) {
  Request r;
  bool flags_given = false;
  for (const std::string& word : words) {
    const std::size_t eq = word.find('=');
    const std::string tag = word.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : word.substr(eq + 1);
    if (value.empty()) throw Error(Errc::usage, fmt::format("No value given for option {}", word));
    if (names(tag, "accounts", 1)) {
      const auto more = split(value, false);
      r.accounts.insert(r.accounts.end(), more.begin(), more.end());
    } else if (names(tag, "flags", 1)) {
      const std::string v = lower(value);
      const bool users = v.find("users") != std::string::npos;
      const bool assoc = v.find("assoc") != std::string::npos;
      const bool qos = v.find("qos") != std::string::npos;
      if (!users && !assoc && !qos)
        throw Error(
            Errc::usage,
            fmt::format("invalid flag '{}', valid options are 'Assoc, QOS, and/or Users'", value));
      if (!flags_given) r.show_users = r.show_assocs = r.show_qos = false;
      flags_given = true;
      r.show_users = r.show_users || users;
      r.show_assocs = r.show_assocs || assoc;
      r.show_qos = r.show_qos || qos;
    } else if (names(tag, "qos", 1)) {
      const auto more = split(value, false);
      r.qos.insert(r.qos.end(), more.begin(), more.end());
    } else if (names(tag, "users", 1)) {
      const auto more = split(value, true);
      r.users.insert(r.users.end(), more.begin(), more.end());
    } else {
      throw Error(Errc::usage, fmt::format("invalid entity: {} for keyword:show assoc_mgr", tag));
    }
  }
  return r;
}

std::string format(const State& s, const Request& r, bool one_liner) {
  const std::string nl = one_liner ? " " : "\n    ";
  const std::string head_nl = one_liner ? "" : "\n";
  std::string out = "Current Association Manager state\n";

  // What each association (with those above it) and each QOS is using.
  std::map<std::int64_t, Used> assoc_used;
  std::map<std::string, Used> qos_used;
  std::map<std::pair<std::string, std::string>, Used> qos_user_used;
  std::map<std::pair<std::string, std::string>, Used> qos_acct_used;
  for (const Job& job : s.live_jobs) {
    if (is_terminal(job.state)) continue;
    const Tres tres = sched::job_tres(job, s.node_mem_mb);
    const double left =
        job.start_time == k_no_time || job.time_limit == k_infinite
            ? 0.0
            : static_cast<double>(std::max<Seconds>(0, job.start_time + job.time_limit - s.now));
    const Qos* q = s.data.find_qos(job.qos);
    const double factor = q ? q->usage_factor : 1.0;
    if (const Association* a =
            sched::job_association(s.data, job.account, job.user_name, job.partition)) {
      for (const Association* up : sched::association_chain(s.data, *a))
        count(assoc_used[up->id], job, tres, left, factor);
    }
    count(qos_used[job.qos], job, tres, left, factor);
    count(qos_user_used[{job.qos, job.user_name}], job, tres, left, factor);
    count(qos_acct_used[{job.qos, job.account}], job, tres, left, factor);
  }

  if (r.show_users) {
    std::string lines;
    for (const User& u : s.data.users) {
      if (!listed(r.users, u.name)) continue;
      lines +=
          fmt::format("UserName={}({}) DefAccount={} DefWckey=(null) AdminLevel={}\n", u.name,
                      s.uid_of(u.name), u.default_account, sched::admin_level_name(u.admin_level));
    }
    if (lines.empty())
      out += fmt::format("{}No users currently cached in Slurm.{}\n", head_nl, head_nl);
    else
      out += fmt::format("{}User Records{}\n", head_nl, head_nl) + lines;
  }

  if (r.show_assocs) {
    std::string lines;
    std::uint32_t lft = 0;
    for (const auto& [a, depth] : sched::association_tree(s.data)) {
      ++lft;
      if (a->is_user() && !listed(r.users, a->user)) continue;
      if (!listed(r.accounts, a->account)) continue;
      const Used& u = assoc_used[a->id];
      const sched::ShareRow* row = nullptr;
      for (const auto& candidate : s.fair_share.rows) {
        if (candidate.assoc.key.account == a->account && candidate.assoc.key.user == a->user)
          row = &candidate;
      }
      const AssocLimits& l = a->limits;
      lines += fmt::format("ClusterName={} Account={} ", s.cluster, a->account);
      lines += a->is_user() ? fmt::format("UserName={}({}) ", a->user, s.uid_of(a->user))
                            : std::string("UserName= ");
      lines += fmt::format("Partition={} Priority={} ID={}{}", a->partition,
                           a->priority.value_or(0), a->id, nl);
      lines +=
          fmt::format("SharesRaw/Norm/Level/Factor={}/{:.2f}/{}/{:.2f}{}",
                      a->shares == k_shares_parent ? 0x7fffffffU : a->shares,
                      row ? row->norm_shares : 0.0, a->shares == k_shares_parent ? 1 : a->shares,
                      row ? row->fairshare.value_or(0.0) : 0.0, nl);
      lines += fmt::format("UsageRaw/Norm/Efctv={:.2f}/{:.2f}/{:.2f}{}", row ? row->raw_usage : 0.0,
                           row ? row->norm_usage : 0.0, row ? row->effective_usage : 0.0, nl);
      const Association* parent = a->is_user() ? nullptr : sched::parent_association(s.data, *a);
      lines += parent ? fmt::format("ParentAccount={}({}) ", parent->account, parent->id)
                      : std::string("ParentAccount= ");
      const User* owner = a->is_user() ? s.data.find_user(a->user) : nullptr;
      const bool is_def = owner && owner->default_account == a->account && a->partition.empty();
      lines += fmt::format("Lft={} DefAssoc={}{}", lft, is_def ? "Yes" : "No", nl);
      lines +=
          fmt::format("GrpJobs={} GrpJobsAccrue=N(0){}", count_limit(l.grp_jobs, u.running), nl);
      lines += fmt::format(
          "GrpSubmitJobs={} GrpWall={}({:.2f}){}", count_limit(l.grp_submit_jobs, u.submitted),
          l.grp_wall ? std::to_string(*l.grp_wall / 60) : std::string("N"), 0.0, nl);
      lines += tres_line("GrpTRES", s, l.grp_tres, &u.tres) + nl;
      const Tres none;
      lines += tres_line("GrpTRESMins", s, l.grp_tres_mins, &none, 60) + nl;
      lines += tres_line("GrpTRESRunMins", s, l.grp_tres_run_mins, &u.run_secs, 60) + nl;
      lines += l.max_jobs ? fmt::format("MaxJobs={}({}) ", *l.max_jobs, u.running)
                          : std::string("MaxJobs= ");
      lines += "MaxJobsAccrue= ";
      lines += l.max_submit_jobs
                   ? fmt::format("MaxSubmitJobs={}({}) ", *l.max_submit_jobs, u.submitted)
                   : std::string("MaxSubmitJobs= ");
      lines += l.max_wall ? fmt::format("MaxWallPJ={}", *l.max_wall / 60) : "MaxWallPJ=";
      lines += nl;
      lines += tres_line("MaxTRESPJ", s, l.max_tres_per_job, nullptr) + nl;
      lines += tres_line("MaxTRESPN", s, l.max_tres_per_node, nullptr) + nl;
      lines += tres_line("MaxTRESMinsPJ", s, l.max_tres_mins_per_job, nullptr) + nl;
      lines += "MinPrioThresh=\n";
    }
    if (lines.empty())
      out += fmt::format("{}No associations currently cached in Slurm.{}\n", head_nl, head_nl);
    else
      out += fmt::format("{}Association Records{}\n", head_nl, head_nl) + lines;
  }

  if (r.show_qos) {
    std::string lines;
    const std::string sub_nl = one_liner ? " " : "\n        ";
    for (const Qos& q : s.data.qos) {
      if (!listed(r.qos, q.name)) continue;
      const Used& u = qos_used[q.name];
      const QosLimits& l = q.limits;
      lines += fmt::format("QOS={}({}){}", q.name, q.id, nl);
      lines += fmt::format("UsageRaw={:.6f}{}", 0.0, nl);
      lines += fmt::format(
          "GrpJobs={} GrpJobsAccrue=N(0) GrpSubmitJobs={} GrpWall={}({:.2f}){}",
          count_limit(l.grp_jobs, u.running), count_limit(l.grp_submit_jobs, u.submitted),
          l.grp_wall ? std::to_string(*l.grp_wall / 60) : std::string("N"), 0.0, nl);
      lines += tres_line("GrpTRES", s, l.grp_tres, &u.tres) + nl;
      const Tres none;
      lines += tres_line("GrpTRESMins", s, l.grp_tres_mins, &none, 60) + nl;
      lines += tres_line("GrpTRESRunMins", s, l.grp_tres_run_mins, &u.run_secs, 60) + nl;
      lines += (l.max_wall ? fmt::format("MaxWallPJ={}", *l.max_wall / 60) : "MaxWallPJ=") + nl;
      lines += tres_line("MaxTRESPJ", s, l.max_tres_per_job, nullptr) + nl;
      lines += tres_line("MaxTRESPN", s, l.max_tres_per_node, nullptr) + nl;
      lines += tres_line("MaxTRESMinsPJ", s, l.max_tres_mins_per_job, nullptr) + nl;
      lines += "MinPrioThresh= " + nl;
      lines += tres_line("MinTRESPJ", s, {}, nullptr) + nl;
      lines +=
          fmt::format("PreemptMode={}{}", preempt_mode(q.preempt_mode), one_liner ? " " : "\n    ");
      lines += fmt::format("Priority={}{}", q.priority, nl);
      // Per account and per user: the accounts and users with live jobs in
      // this QOS, as slurmctld keeps a record for each.
      lines += one_liner ? "Account Limits=" : "Account Limits";
      std::string accounts;
      for (const auto& [key, used] : qos_acct_used) {
        if (key.first != q.name) continue;
        accounts += fmt::format("{}{}{}", one_liner ? " " : "\n      ", key.second,
                                one_liner ? "={" : sub_nl);
        accounts += fmt::format("MaxJobsPA=N({}) MaxJobsAccruePA=N(0) MaxSubmitJobsPA=N({}){}",
                                used.running, used.submitted, sub_nl);
        accounts += tres_line("MaxTRESPA", s, {}, &used.tres);
        if (one_liner) accounts += "}";
      }
      lines += accounts.empty() ? (one_liner ? "No Accounts" : "\n        No Accounts") : accounts;
      lines += nl;
      lines += one_liner ? "User Limits=" : "User Limits";
      std::string users;
      for (const auto& [key, used] : qos_user_used) {
        if (key.first != q.name) continue;
        users += fmt::format("{}{}{}", one_liner ? " " : "\n      ", s.uid_of(key.second),
                             one_liner ? "={" : sub_nl);
        users += fmt::format("MaxJobsPU={} MaxJobsAccruePU=N(0) MaxSubmitJobsPU={}{}",
                             count_limit(l.max_jobs_per_user, used.running),
                             count_limit(l.max_submit_jobs_per_user, used.submitted), sub_nl);
        users += tres_line("MaxTRESPU", s, l.max_tres_per_user, &used.tres);
        if (one_liner) users += "}";
      }
      lines += users.empty() ? (one_liner ? "No Users" : "\n        No Users") : users;
      lines += "\n";
    }
    if (lines.empty())
      out += fmt::format("{}No QOS currently cached in Slurm.{}\n", head_nl, head_nl);
    else
      out += fmt::format("{}QOS Records{}\n", head_nl, head_nl) + lines;
  }
  return out;
}

int show(const std::vector<std::string>& words, bool one_liner) {
  Request r;
  try {
    r = parse_request(words);
  } catch (const Error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", e.what());
    return 1;
  }
  const Paths paths = default_paths();
  State s;
  s.now = wall_now();
  cli::PriorityView view = cli::read_priority_view(paths, s.now);
  s.cluster = view.config.cluster_name;
  s.data = Store::exists(paths.db()) ? Store::reader(paths.db())->accounting() : Accounting{};
  JobFilter live;
  live.active_only = true;
  if (Store::exists(paths.db())) s.live_jobs = query::read_jobs(paths, live);
  s.fair_share = view.ctx.fair_share;
  s.tres_names = {"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"};
  bool gpus = false;
  for (const NodeDef& n : view.config.nodes()) {
    s.node_mem_mb = std::max(s.node_mem_mb, n.memory_mb);
    gpus = gpus || n.gpus > 0;
  }
  if (gpus) s.tres_names.emplace_back("gres/gpu");
  s.uid_of = [](const std::string& name) -> std::uint32_t {
    const passwd* pw = ::getpwnam(name.c_str());
    // slurmctld's uid for a user it cannot resolve: NO_VAL.
    return pw ? pw->pw_uid : 4294967294U;
  };
  fmt::print("{}", format(s, r, one_liner));
  return 0;
}

}  // namespace stint::tools::scontrol_assoc_mgr
