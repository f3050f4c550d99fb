// sacctmgr show|list: one table of columns (name, header, width, accessor)
// per kind of record, and the rows each entity lists, in Slurm's order.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sacctmgr.hpp"

namespace stint::cli {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ",") + x;
  return out;
}

/// One listed line: whichever records it shows.
struct Row {
  const Association* assoc = nullptr;
  const Account* account = nullptr;
  const User* user = nullptr;
  const Qos* qos = nullptr;
  std::string tres_type;  ///< show tres
  std::string tres_name;
  int tres_id = 0;
  int depth = 0;  ///< tree
};

struct Ctx {
  const Accounting& data;
  const std::string& cluster;
  bool parent_limits = true;  ///< Max* and QOS as inherited (not woplimits)
};

using Get = std::function<std::string(const Ctx&, const Row&)>;

struct Column {
  std::string_view key;      ///< lower-case name
  std::string_view aliases;  ///< more lower-case names, ',' between
  std::string_view header;
  int width;
  Get get;
};

// --- association values ------------------------------------------------------

std::vector<const Association*> chain(const Ctx& c, const Row& r) {
  if (!r.assoc) return {};
  if (!c.parent_limits) return {r.assoc};
  return sched::association_chain(c.data, *r.assoc);
}

template <typename F>
std::string inherited(const Ctx& c, const Row& r, F get) {
  for (const Association* a : chain(c, r)) {
    if (auto v = get(*a)) return sched::format_limit(*v);
  }
  return {};
}

std::string inherited_tres(const Ctx& c, const Row& r, Tres AssocLimits::*field) {
  Tres merged;
  for (const Association* a : chain(c, r)) {
    for (const auto& [k, v] : a->limits.*field) merged.emplace(k, v);
  }
  return sched::format_tres(merged);
}

// One TRES of a limit, for the columns of Slurm's older names (GrpCPUs, ...).
std::string own_tres(const Row& r, const char* name, Tres AssocLimits::*field) {
  if (!r.assoc) return {};
  const Tres& t = r.assoc->limits.*field;
  auto it = t.find(name);
  if (it == t.end()) return {};
  return std::string(name) == "mem"
             ? parse::format_memory_mb(static_cast<std::uint64_t>(it->second))
             : std::to_string(it->second);
}

std::string qos_of(const Ctx& c, const Row& r) {
  if (!r.assoc) return {};
  if (!c.parent_limits) return join(r.assoc->qos);
  return join(sched::effective_qos(c.data, *r.assoc));
}

std::string def_qos_of(const Ctx& c, const Row& r) {
  for (const Association* a : chain(c, r)) {
    if (!a->default_qos.empty()) return a->default_qos;
  }
  return {};
}

std::string account_of(const Row& r) {
  if (r.assoc) return r.assoc->account;
  if (r.account) return r.account->name;
  if (r.user) return r.user->default_account;
  return {};
}

std::string empty(const Ctx&, const Row&) { return {}; }

// A Grp* TRES limit: the association's own (Grp* limits are not inherited).
std::string own_limit(const Row& r, Tres AssocLimits::*field) {
  return r.assoc ? sched::format_tres(r.assoc->limits.*field) : "";
}

const std::vector<Column>& assoc_columns() {
  static const std::vector<Column> k = {
      {"cluster", "clusters", "Cluster", 10, [](const Ctx& c, const Row&) { return c.cluster; }},
      {"account", "accounts,acct", "Account", 10,
       [](const Ctx&, const Row& r) { return account_of(r); }},
      {"user", "users", "User", 10,
       [](const Ctx&, const Row& r) {
         return r.assoc ? r.assoc->user : r.user ? r.user->name : "";
       }},
      {"partition", "partitions", "Partition", 10,
       [](const Ctx&, const Row& r) { return r.assoc ? r.assoc->partition : ""; }},
      {"share", "shares,fairshare", "Share", 9,
       [](const Ctx&, const Row& r) -> std::string {
         if (!r.assoc) return {};
         return r.assoc->shares == k_shares_parent ? "parent" : std::to_string(r.assoc->shares);
       }},
      {"priority", "", "Priority", 10,
       [](const Ctx&, const Row& r) {
         return r.assoc && r.assoc->priority ? std::to_string(*r.assoc->priority) : "";
       }},
      {"grpjobs", "", "GrpJobs", 7,
       [](const Ctx&, const Row& r) {
         return r.assoc ? sched::format_limit(r.assoc->limits.grp_jobs) : "";
       }},
      {"grptres", "", "GrpTRES", 13,
       [](const Ctx&, const Row& r) {
         return r.assoc ? sched::format_tres(r.assoc->limits.grp_tres) : "";
       }},
      {"grpsubmit", "grpsubmitjobs", "GrpSubmit", 9,
       [](const Ctx&, const Row& r) {
         return r.assoc ? sched::format_limit(r.assoc->limits.grp_submit_jobs) : "";
       }},
      {"grpwall", "", "GrpWall", 11,
       [](const Ctx&, const Row& r) {
         return r.assoc ? sched::format_wall(r.assoc->limits.grp_wall) : "";
       }},
      {"grptresmins", "", "GrpTRESMins", 13,
       [](const Ctx&, const Row& r) { return own_limit(r, &AssocLimits::grp_tres_mins); }},
      {"maxjobs", "", "MaxJobs", 7,
       [](const Ctx& c, const Row& r) {
         return inherited(c, r, [](const Association& a) { return a.limits.max_jobs; });
       }},
      {"maxtres", "maxtresperjob", "MaxTRES", 13,
       [](const Ctx& c, const Row& r) {
         return inherited_tres(c, r, &AssocLimits::max_tres_per_job);
       }},
      {"maxtrespernode", "", "MaxTRESPerNode", 14,
       [](const Ctx& c, const Row& r) {
         return inherited_tres(c, r, &AssocLimits::max_tres_per_node);
       }},
      {"maxsubmit", "maxsubmitjobs", "MaxSubmit", 9,
       [](const Ctx& c, const Row& r) {
         return inherited(c, r, [](const Association& a) { return a.limits.max_submit_jobs; });
       }},
      {"maxwall", "maxwalldurationperjob", "MaxWall", 11,
       [](const Ctx& c, const Row& r) -> std::string {
         for (const Association* a : chain(c, r)) {
           if (a->limits.max_wall) return sched::format_wall(a->limits.max_wall);
         }
         return {};
       }},
      {"maxtresmins", "maxtresminsperjob", "MaxTRESMins", 13,
       [](const Ctx& c, const Row& r) {
         return inherited_tres(c, r, &AssocLimits::max_tres_mins_per_job);
       }},
      {"qos", "qoslevel", "QOS", 20, qos_of},
      {"defaultqos", "defqos", "Def QOS", 9, def_qos_of},
      {"grptresrunmins", "grptresrunmin", "GrpTRESRunMin", 13,
       [](const Ctx&, const Row& r) { return own_limit(r, &AssocLimits::grp_tres_run_mins); }},
      {"parentname", "parent", "Par Name", 10,
       [](const Ctx& c, const Row& r) -> std::string {
         if (!r.assoc || r.assoc->is_user()) return {};
         const Association* p = sched::parent_association(c.data, *r.assoc);
         return p ? p->account : "";
       }},
      {"id", "associd", "ID", 6,
       [](const Ctx&, const Row& r) { return r.assoc ? std::to_string(r.assoc->id) : ""; }},
      {"maxnodes", "", "MaxNodes", 8,
       [](const Ctx&, const Row& r) {
         return own_tres(r, "node", &AssocLimits::max_tres_per_job);
       }},
      {"maxcpus", "", "MaxCPUs", 8,
       [](const Ctx&, const Row& r) { return own_tres(r, "cpu", &AssocLimits::max_tres_per_job); }},
      {"maxcpumins", "", "MaxCPUMins", 11,
       [](const Ctx&, const Row& r) {
         return own_tres(r, "cpu", &AssocLimits::max_tres_mins_per_job);
       }},
      {"grpnodes", "", "GrpNodes", 8,
       [](const Ctx&, const Row& r) { return own_tres(r, "node", &AssocLimits::grp_tres); }},
      {"grpcpus", "", "GrpCPUs", 8,
       [](const Ctx&, const Row& r) { return own_tres(r, "cpu", &AssocLimits::grp_tres); }},
      {"grpmem", "", "GrpMem", 7,
       [](const Ctx&, const Row& r) { return own_tres(r, "mem", &AssocLimits::grp_tres); }},
      {"grpcpumins", "", "GrpCPUMins", 11,
       [](const Ctx&, const Row& r) { return own_tres(r, "cpu", &AssocLimits::grp_tres_mins); }},
  };
  return k;
}

const std::vector<Column>& user_columns() {
  static const std::vector<Column> k = {
      {"user", "users,name", "User", 10,
       [](const Ctx&, const Row& r) { return r.user ? r.user->name : ""; }},
      {"defaultaccount", "defacct", "Def Acct", 10,
       [](const Ctx&, const Row& r) { return r.user ? r.user->default_account : ""; }},
      {"adminlevel", "admin", "Admin", 9,
       [](const Ctx&, const Row& r) {
         return r.user ? std::string(sched::admin_level_name(r.user->admin_level)) : "";
       }},
  };
  return k;
}

const std::vector<Column>& account_columns() {
  static const std::vector<Column> k = {
      {"account", "accounts,acct,name", "Account", 10,
       [](const Ctx&, const Row& r) { return r.account ? r.account->name : ""; }},
      {"description", "descr", "Descr", 20,
       [](const Ctx&, const Row& r) { return r.account ? r.account->description : ""; }},
      {"organization", "org", "Org", 20,
       [](const Ctx&, const Row& r) { return r.account ? r.account->organization : ""; }},
  };
  return k;
}

std::string tres_limit(const Row& r, Tres QosLimits::*field) {
  return r.qos ? sched::format_tres(r.qos->limits.*field) : "";
}

const std::vector<Column>& qos_columns() {
  static const std::vector<Column> k = {
      {"name", "qos", "Name", 10, [](const Ctx&, const Row& r) { return r.qos->name; }},
      {"description", "descr", "Descr", 20,
       [](const Ctx&, const Row& r) { return r.qos->description; }},
      {"id", "", "ID", 6, [](const Ctx&, const Row& r) { return std::to_string(r.qos->id); }},
      {"priority", "", "Priority", 10,
       [](const Ctx&, const Row& r) { return std::to_string(r.qos->priority); }},
      {"gracetime", "", "GraceTime", 10,
       [](const Ctx&, const Row& r) { return parse::format_duration_fixed(r.qos->grace_time); }},
      {"preempt", "", "Preempt", 10, [](const Ctx&, const Row& r) { return join(r.qos->preempt); }},
      {"preemptexempttime", "", "PreemptExemptTime", 19,
       [](const Ctx&, const Row& r) {
         return r.qos->preempt_exempt_time
                    ? parse::format_duration_fixed(*r.qos->preempt_exempt_time)
                    : "";
       }},
      {"preemptmode", "", "PreemptMode", 11,
       [](const Ctx&, const Row& r) { return r.qos->preempt_mode; }},
      {"flags", "", "Flags", 40, [](const Ctx&, const Row& r) { return join(r.qos->flags); }},
      {"usagethreshold", "usagethres", "UsageThres", 10, empty},
      {"usagefactor", "", "UsageFactor", 11,
       [](const Ctx&, const Row& r) { return fmt::format("{:.6f}", r.qos->usage_factor); }},
      {"grptres", "", "GrpTRES", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::grp_tres); }},
      {"grptresmins", "", "GrpTRESMins", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::grp_tres_mins); }},
      {"grptresrunmins", "grptresrunmin", "GrpTRESRunMin", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::grp_tres_run_mins); }},
      {"grpjobs", "", "GrpJobs", 7,
       [](const Ctx&, const Row& r) { return sched::format_limit(r.qos->limits.grp_jobs); }},
      {"grpsubmit", "grpsubmitjobs", "GrpSubmit", 9,
       [](const Ctx&, const Row& r) { return sched::format_limit(r.qos->limits.grp_submit_jobs); }},
      {"grpwall", "", "GrpWall", 11,
       [](const Ctx&, const Row& r) { return sched::format_wall(r.qos->limits.grp_wall); }},
      {"maxtres", "maxtresperjob,maxtrespj", "MaxTRES", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::max_tres_per_job); }},
      {"maxtrespernode", "maxtrespn", "MaxTRESPerNode", 14,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::max_tres_per_node); }},
      {"maxtresmins", "maxtresminsperjob,maxtresminspj", "MaxTRESMins", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::max_tres_mins_per_job); }},
      {"maxwall", "maxwalldurationperjob", "MaxWall", 11,
       [](const Ctx&, const Row& r) { return sched::format_wall(r.qos->limits.max_wall); }},
      {"maxtrespu", "maxtresperuser", "MaxTRESPU", 13,
       [](const Ctx&, const Row& r) { return tres_limit(r, &QosLimits::max_tres_per_user); }},
      {"maxjobspu", "maxjobsperuser", "MaxJobsPU", 9,
       [](const Ctx&, const Row& r) {
         return sched::format_limit(r.qos->limits.max_jobs_per_user);
       }},
      {"maxsubmitpu", "maxsubmitjobsperuser,maxsubmitjobspu", "MaxSubmitPU", 11,
       [](const Ctx&, const Row& r) {
         return sched::format_limit(r.qos->limits.max_submit_jobs_per_user);
       }},
      {"maxtrespa", "maxtresperaccount", "MaxTRESPA", 13, empty},
      {"maxjobspa", "maxjobsperaccount", "MaxJobsPA", 9, empty},
      {"maxsubmitpa", "maxsubmitjobsperaccount", "MaxSubmitPA", 11, empty},
      {"mintres", "mintresperjob", "MinTRES", 13, empty},
  };
  return k;
}

const std::vector<Column>& cluster_columns() {
  static const std::vector<Column> k = {
      {"controlhost", "", "ControlHost", 15,
       [](const Ctx&, const Row&) { return std::string("127.0.0.1"); }},
      {"controlport", "", "ControlPort", 12,
       [](const Ctx&, const Row&) { return std::string("0"); }},
      {"rpc", "", "RPC", 5, [](const Ctx&, const Row&) { return std::string("0"); }},
  };
  return k;
}

const std::vector<Column>& tres_columns() {
  static const std::vector<Column> k = {
      {"type", "", "Type", 8, [](const Ctx&, const Row& r) { return r.tres_type; }},
      {"name", "", "Name", 15, [](const Ctx&, const Row& r) { return r.tres_name; }},
      {"id", "", "ID", 6, [](const Ctx&, const Row& r) { return std::to_string(r.tres_id); }},
  };
  return k;
}

/// A column as format= names it, with an optional "%width" (negative: left).
struct Chosen {
  const Column* column;
  int width;  ///< > 0 right-aligned, < 0 left-aligned
};

std::vector<Chosen> choose(const std::vector<std::string>& fields,
                           const std::vector<const std::vector<Column>*>& tables) {
  std::vector<Chosen> out;
  for (const auto& field : fields) {
    std::string name = field;
    std::optional<int> width;
    if (auto pct = name.find('%'); pct != std::string::npos) {
      int w = 0;
      const std::string digits = name.substr(pct + 1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), w);
      if (ec != std::errc() || end != digits.data() + digits.size() || w == 0)
        throw SacctmgrError(fmt::format("Unknown field '{}'", field));
      width = w;
      name = name.substr(0, pct);
    }
    const std::string key = lower(name);
    const Column* found = nullptr;
    for (const auto* table : tables) {
      for (const auto& col : *table) {
        if (col.key == key) found = &col;
        if (!found) {
          std::string_view rest = col.aliases;
          while (!rest.empty() && !found) {
            const std::size_t comma = rest.find(',');
            if (rest.substr(0, comma) == key) found = &col;
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
          }
        }
        if (found) break;
      }
      if (found) break;
    }
    if (!found) throw SacctmgrError(fmt::format("Unknown field '{}'", field));
    out.push_back({found, width.value_or(found->width)});
  }
  return out;
}

std::string render(const std::vector<Chosen>& cols, const std::vector<Row>& rows, const Ctx& ctx,
                   const SacctmgrTable& t, bool tree) {
  std::string out;
  const bool parsable = t.parsable || t.parsable2;
  auto cell = [&](std::string value, const Chosen& c, bool last) {
    if (parsable) {
      out += value;
      if (!(t.parsable2 && last)) out += '|';
      return;
    }
    const int w = std::abs(c.width);
    if (static_cast<int>(value.size()) > w) {
      value.resize(static_cast<std::size_t>(w));
      value.back() = '+';
    }
    out += c.width < 0 ? fmt::format("{:<{}} ", value, w) : fmt::format("{:>{}} ", value, w);
  };
  if (!t.no_header) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      cell(std::string(cols[i].column->header), cols[i], i + 1 == cols.size());
    out += '\n';
    if (!parsable) {
      for (const auto& c : cols)
        out += std::string(static_cast<std::size_t>(std::abs(c.width)), '-') + ' ';
      out += '\n';
    }
  }
  for (const Row& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      std::string v = cols[i].column->get(ctx, r);
      if (tree && cols[i].column->key == "account" && !parsable)
        v = std::string(static_cast<std::size_t>(r.depth), ' ') + v;
      cell(std::move(v), cols[i], i + 1 == cols.size());
    }
    out += '\n';
  }
  return out;
}

bool wanted(const std::vector<std::string>& filter, const std::string& value,
            bool keep_case = false) {
  if (filter.empty()) return true;
  const std::string v = keep_case ? value : lower(value);
  return std::find(filter.begin(), filter.end(), v) != filter.end();
}

std::vector<std::string> values(const SacctmgrCommand& cmd,
                                std::initializer_list<std::string_view> keys,
                                bool keep_case = false) {
  std::vector<std::string> out;
  for (const auto& s : cmd.where) {
    const std::string k = lower(s.key);
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) continue;
    std::size_t start = 0;
    while (start <= s.value.size()) {
      std::size_t end = s.value.find(',', start);
      if (end == std::string::npos) end = s.value.size();
      std::string v = s.value.substr(start, end - start);
      if (!v.empty()) out.push_back(keep_case ? v : lower(v));
      start = end + 1;
    }
  }
  return out;
}

std::vector<std::string> names_lower(const SacctmgrCommand& cmd) {
  std::vector<std::string> out;
  for (const auto& n : cmd.names) out.push_back(lower(n));
  return out;
}

// The associations a listing shows, in tree order, filtered by where.
std::vector<Row> assoc_rows(const SacctmgrCommand& cmd, const Accounting& data,
                            const std::vector<std::string>& users,
                            const std::vector<std::string>& accounts) {
  const auto partitions = values(cmd, {"partition", "partitions"}, true);
  const auto ids = values(cmd, {"id", "ids", "associd"});
  std::vector<Row> rows;
  for (const auto& [a, depth] : sched::association_tree(data)) {
    if (!users.empty() && !wanted(users, a->user, true)) continue;
    if (!wanted(accounts, a->account)) continue;
    if (!wanted(partitions, a->partition, true)) continue;
    if (!wanted(ids, std::to_string(a->id))) continue;
    Row r;
    r.assoc = a;
    r.depth = depth;
    r.user = data.find_user(a->user);
    r.account = data.find_account(a->account);
    rows.push_back(r);
  }
  return rows;
}

const std::vector<std::string> k_assoc_format = {
    "cluster",     "account",     "user",    "partition",      "share",
    "priority",    "grpjobs",     "grptres", "grpsubmit",      "grpwall",
    "grptresmins", "maxjobs",     "maxtres", "maxtrespernode", "maxsubmit",
    "maxwall",     "maxtresmins", "qos",     "defaultqos",     "grptresrunmins"};

}  // namespace

std::string sacctmgr_show(const SacctmgrCommand& cmd, const Accounting& data,
                          const std::string& cluster, const SacctmgrTable& table) {
  Ctx ctx{data, cluster, !cmd.without_parent_limits};
  std::vector<Row> rows;
  std::vector<std::string> format = cmd.format;
  std::vector<const std::vector<Column>*> tables;
  bool tree = false;

  switch (cmd.entity) {
    case SacctmgrEntity::association: {
      auto users = values(cmd, {"user", "users"}, true);
      for (const auto& n : cmd.names) users.push_back(n);
      rows = assoc_rows(cmd, data, users, values(cmd, {"account", "accounts", "acct"}));
      if (format.empty()) format = k_assoc_format;
      tables = {&assoc_columns()};
      tree = cmd.tree;
      break;
    }
    case SacctmgrEntity::user: {
      std::vector<std::string> names = cmd.names;
      for (const auto& n : values(cmd, {"user", "users"}, true)) names.push_back(n);
      const auto def = values(cmd, {"defaultaccount", "defacct"});
      const auto level = values(cmd, {"adminlevel", "admin"});
      if (cmd.with_assoc) {
        for (const auto& u : data.users) {
          if (!wanted(names, u.name, true) || !wanted(def, u.default_account)) continue;
          if (!level.empty() && !wanted(level, lower(sched::admin_level_name(u.admin_level))))
            continue;
          for (Row r : assoc_rows(cmd, data, {u.name}, values(cmd, {"account", "accounts"}))) {
            r.user = &u;
            rows.push_back(r);
          }
        }
        if (format.empty())
          format = {"user",    "defaultaccount", "adminlevel", "cluster",   "account", "partition",
                    "share",   "priority",       "maxjobs",    "maxnodes",  "maxcpus", "maxsubmit",
                    "maxwall", "maxcpumins",     "qos",        "defaultqos"};
      } else {
        for (const auto& u : data.users) {
          if (!wanted(names, u.name, true) || !wanted(def, u.default_account)) continue;
          if (!level.empty() && !wanted(level, lower(sched::admin_level_name(u.admin_level))))
            continue;
          Row r;
          r.user = &u;
          rows.push_back(r);
        }
        if (format.empty()) format = {"user", "defaultaccount", "adminlevel"};
      }
      tables = {&user_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::account: {
      std::vector<std::string> names = names_lower(cmd);
      for (const auto& n : values(cmd, {"account", "accounts"})) names.push_back(n);
      const auto parents = values(cmd, {"parent", "parentname"});
      const auto descr = values(cmd, {"description", "descr"});
      const auto org = values(cmd, {"organization", "org"});
      for (const auto& a : data.accounts) {
        if (!wanted(names, a.name) || !wanted(parents, a.parent) || !wanted(descr, a.description) ||
            !wanted(org, a.organization))
          continue;
        if (cmd.with_assoc) {
          const auto users = values(cmd, {"user", "users"}, true);
          for (Row r : assoc_rows(cmd, data, users, {a.name})) {
            r.account = &a;
            rows.push_back(r);
          }
        } else {
          Row r;
          r.account = &a;
          rows.push_back(r);
        }
      }
      if (format.empty()) {
        format = {"account", "description", "organization"};
        if (cmd.with_assoc)
          format.insert(format.end(),
                        {"cluster",   "parentname", "user",       "share",    "priority",
                         "grpjobs",   "grpnodes",   "grpcpus",    "grpmem",   "grpsubmit",
                         "grpwall",   "grpcpumins", "maxjobs",    "maxnodes", "maxcpus",
                         "maxsubmit", "maxwall",    "maxcpumins", "qos",      "defaultqos"});
      }
      tables = {&account_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::qos: {
      std::vector<std::string> names = names_lower(cmd);
      for (const auto& n : values(cmd, {"name", "names", "qos"})) names.push_back(n);
      const auto ids = values(cmd, {"id", "ids"});
      for (const auto& q : data.qos) {
        if (wanted(names, q.name) && wanted(ids, std::to_string(q.id))) {
          Row r;
          r.qos = &q;
          rows.push_back(r);
        }
      }
      if (format.empty())
        format = {
            "name",        "priority",       "gracetime",      "preempt",     "preemptexempttime",
            "preemptmode", "flags",          "usagethreshold", "usagefactor", "grptres",
            "grptresmins", "grptresrunmins", "grpjobs",        "grpsubmit",   "grpwall",
            "maxtres",     "maxtrespernode", "maxtresmins",    "maxwall",     "maxtrespu",
            "maxjobspu",   "maxsubmitpu",    "maxtrespa",      "maxjobspa",   "maxsubmitpa",
            "mintres"};
      tables = {&qos_columns()};
      break;
    }
    case SacctmgrEntity::cluster: {
      std::vector<std::string> names = names_lower(cmd);
      if (wanted(names, lower(cluster))) {
        Row r;
        r.assoc = data.find_association("root", "", "");
        rows.push_back(r);
      }
      if (format.empty())
        format = {"cluster",   "controlhost", "controlport", "rpc",       "share",
                  "grpjobs",   "grptres",     "grpsubmit",   "maxjobs",   "maxtres",
                  "maxsubmit", "maxwall",     "qos",         "defaultqos"};
      tables = {&cluster_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::tres: {
      const std::pair<const char*, const char*> k_tres[] = {
          {"cpu", ""},    {"mem", ""},  {"energy", ""}, {"node", ""},   {"billing", ""},
          {"fs", "disk"}, {"vmem", ""}, {"pages", ""},  {"gres", "gpu"}};
      int id = 1;
      for (const auto& [type, name] : k_tres) {
        if (std::string_view(type) == "gres" && !table.gres_gpu) continue;
        Row r;
        r.tres_type = type;
        r.tres_name = name;
        r.tres_id = std::string_view(type) == "gres" ? 1001 : id++;
        rows.push_back(r);
      }
      if (format.empty()) format = {"type", "name", "id"};
      tables = {&tres_columns()};
      break;
    }
  }
  std::vector<Chosen> cols = choose(format, tables);
  if (tree) {
    // Slurm's tree listing: the account column left-aligned, 20 wide, indented.
    for (auto& c : cols) {
      if (c.column->key == "account" && c.width == c.column->width) c.width = -20;
    }
  }
  return render(cols, rows, ctx, table, tree);
}

}  // namespace stint::cli
