// sacctmgr show|list: the column tables, one per kind of record, with the
// values each column shows (Max* limits and QOS as inherited unless
// WOPLimits, Grp* limits as set).

#include "cli/sacctmgr_columns.hpp"

#include <cctype>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "sched/limits.hpp"

namespace stint::cli {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ",") + x;
  return out;
}

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

std::string tres_limit(const Row& r, Tres QosLimits::*field) {
  return r.qos ? sched::format_tres(r.qos->limits.*field) : "";
}

// One TRES of a QOS limit, for the columns of Slurm's older names (GrpCPUs,
// MaxNodes, ...): slurmdb_find_tres_count_in_string's count, empty if unset.
std::string qos_tres(const Row& r, const char* name, Tres QosLimits::*field) {
  if (!r.qos) return {};
  const Tres& t = r.qos->limits.*field;
  auto it = t.find(name);
  return it == t.end() ? std::string() : std::to_string(it->second);
}

}  // namespace

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
      // Slurm's older names, one TRES of a limit each (common.c's
      // _get_print_field: MaxJobs and MaxSubmitJobs show the per-user ones).
      {"maxjobs", "", "MaxJobs", 7,
       [](const Ctx&, const Row& r) {
         return sched::format_limit(r.qos->limits.max_jobs_per_user);
       }},
      {"maxsubmit", "maxsubmitjobs", "MaxSubmit", 9,
       [](const Ctx&, const Row& r) {
         return sched::format_limit(r.qos->limits.max_submit_jobs_per_user);
       }},
      {"maxcpus", "maxcpusperjob", "MaxCPUs", 8,
       [](const Ctx&, const Row& r) { return qos_tres(r, "cpu", &QosLimits::max_tres_per_job); }},
      {"maxnodes", "maxnodesperjob", "MaxNodes", 8,
       [](const Ctx&, const Row& r) { return qos_tres(r, "node", &QosLimits::max_tres_per_job); }},
      {"maxcpumins", "maxcpuminsperjob", "MaxCPUMins", 11,
       [](const Ctx&, const Row& r) {
         return qos_tres(r, "cpu", &QosLimits::max_tres_mins_per_job);
       }},
      {"maxcpuspu", "maxcpusperuser", "MaxCPUsPU", 9,
       [](const Ctx&, const Row& r) { return qos_tres(r, "cpu", &QosLimits::max_tres_per_user); }},
      {"maxnodespu", "maxnodesperuser", "MaxNodesPU", 10,
       [](const Ctx&, const Row& r) { return qos_tres(r, "node", &QosLimits::max_tres_per_user); }},
      {"grpcpus", "", "GrpCPUs", 8,
       [](const Ctx&, const Row& r) { return qos_tres(r, "cpu", &QosLimits::grp_tres); }},
      {"grpnodes", "", "GrpNodes", 8,
       [](const Ctx&, const Row& r) { return qos_tres(r, "node", &QosLimits::grp_tres); }},
      {"grpmem", "grpmemory", "GrpMem", 7,
       [](const Ctx&, const Row& r) { return qos_tres(r, "mem", &QosLimits::grp_tres); }},
      {"grpcpumins", "", "GrpCPUMins", 11,
       [](const Ctx&, const Row& r) { return qos_tres(r, "cpu", &QosLimits::grp_tres_mins); }},
      {"grpcpurunmins", "", "GrpCPURunMins", 13,
       [](const Ctx&, const Row& r) { return qos_tres(r, "cpu", &QosLimits::grp_tres_run_mins); }},
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

}  // namespace stint::cli
