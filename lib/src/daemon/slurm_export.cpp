#include "daemon/slurm_export.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "daemon/slurm_conf_file.hpp"
#include "sched/limits.hpp"
#include "util/fs.hpp"

namespace stint::daemon {
namespace {

// The plugins that make a Slurm cluster enforce what stint enforces: cores
// and memory per job (cgroups), GPUs bound per job, accounting in slurmdbd.
// A key the file sets itself keeps the file's value.
constexpr std::pair<std::string_view, std::string_view> k_cluster_keys[] = {
    {"SlurmUser", "slurm"},
    {"AuthType", "auth/munge"},
    {"StateSaveLocation", "/var/spool/slurmctld"},
    {"SlurmdSpoolDir", "/var/spool/slurmd"},
    {"SelectType", "select/cons_tres"},
    {"SelectTypeParameters", "CR_Core_Memory"},
    {"ProctrackType", "proctrack/cgroup"},
    {"TaskPlugin", "task/cgroup,task/affinity"},
    {"JobAcctGatherType", "jobacct_gather/cgroup"},
    {"AccountingStorageType", "accounting_storage/slurmdbd"},
};

// What to do about each of stint's own keys on a cluster.
constexpr std::pair<std::string_view, std::string_view> k_stint_keys[] = {
    {"StintCheckpointGlob", "which files run-show --files lists; not needed on a cluster"},
    {"StintForeignNames",
     "stint's handling of names this machine lacks; a cluster has its own names: nothing to do"},
    {"StintIdleExit", "how long a personal stintd waits idle; slurmctld runs as a service"},
    {"StintIdleRunAfter",
     "stint's flag on runs whose GPUs sit at 0 %; on a cluster, sacct's TRESUsage or the "
     "site's monitoring"},
    {"StintKeepAliveMax",
     "kept-alive runs' idle limit; on a cluster a run is a job: give it --time instead"},
    {"StintLogMaxSize", "stintd's log rotation; set SlurmctldLogFile and rotate it with logrotate"},
    {"StintRequeueDelay",
     "the wait of a requeued job; slurmctld holds one back about two minutes on its own"},
    {"StintRunPorts",
     "the run tools' port range; on a cluster pick MASTER_PORT in the job (e.g. from "
     "SLURM_JOB_ID)"},
    {"StintRunSsh", "the run tools' per-node sshd; a cluster's nodes have their own sshd"},
    {"StintRunSshd", "the sshd the run tools start; not needed on a cluster"},
};

std::string quoted_shell(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string minutes(Seconds s) { return std::to_string((s + 59) / 60); }

// --- accounts.cfg ------------------------------------------------------------

// print_file_add_limits_to_line's fields, in its order.
std::string assoc_fields(const Association& a) {
  std::string out;
  const AssocLimits& l = a.limits;
  if (!a.default_qos.empty()) out += fmt::format(":DefaultQOS='{}'", a.default_qos);
  out += a.shares == k_shares_parent ? std::string(":Fairshare=parent")
                                     : fmt::format(":Fairshare={}", a.shares);
  const auto tres = [&](std::string_view key, const Tres& t) {
    if (!t.empty()) out += fmt::format(":{}={}", key, sched::format_tres(t));
  };
  const auto count = [&](std::string_view key, const std::optional<std::int64_t>& v) {
    if (v) out += fmt::format(":{}={}", key, *v);
  };
  tres("GrpTRESMins", l.grp_tres_mins);
  tres("GrpTRESRunMins", l.grp_tres_run_mins);
  tres("GrpTRES", l.grp_tres);
  count("GrpJobs", l.grp_jobs);
  count("GrpSubmitJobs", l.grp_submit_jobs);
  if (l.grp_wall) out += fmt::format(":GrpWall={}", minutes(*l.grp_wall));
  tres("MaxTRESMinsPerJob", l.max_tres_mins_per_job);
  tres("MaxTRESPerJob", l.max_tres_per_job);
  tres("MaxTRESPerNode", l.max_tres_per_node);
  count("MaxJobs", l.max_jobs);
  count("MaxSubmitJobs", l.max_submit_jobs);
  if (l.max_wall) out += fmt::format(":MaxWallDurationPerJob={}", minutes(*l.max_wall));
  if (a.priority) out += fmt::format(":Priority={}", *a.priority);
  if (!a.qos.empty()) out += fmt::format(":QOS='{}'", fmt::join(a.qos, ","));
  return out;
}

struct DumpTree {
  const Accounting& data;
  std::string out;

  // Users first, then sub-accounts, each by name, as sacctmgr's hierarchy.
  void children(const std::string& account) {
    std::vector<const Association*> users;
    for (const Association& a : data.associations) {
      if (a.is_user() && a.account == account) users.push_back(&a);
    }
    std::stable_sort(users.begin(), users.end(), [](const auto* x, const auto* y) {
      return std::tie(x->user, x->partition) < std::tie(y->user, y->partition);
    });
    std::vector<const Account*> accounts;
    for (const Account& a : data.accounts) {
      if (a.parent == account && a.name != account) accounts.push_back(&a);
    }
    std::stable_sort(accounts.begin(), accounts.end(),
                     [](const auto* x, const auto* y) { return x->name < y->name; });
    if (users.empty() && accounts.empty()) return;
    out += fmt::format("Parent - '{}'\n", account);
    for (const Association* a : users) {
      std::string line = fmt::format("User - '{}'", a->user);
      if (!a->partition.empty()) line += fmt::format(":Partition='{}'", a->partition);
      if (const User* u = data.find_user(a->user)) {
        line += fmt::format(":DefaultAccount='{}'", u->default_account);
        if (u->admin_level != AdminLevel::none)
          line += fmt::format(":AdminLevel='{}'", sched::admin_level_name(u->admin_level));
      }
      out += line + assoc_fields(*a) + "\n";
    }
    for (const Account* acct : accounts) {
      std::string line = fmt::format("Account - '{}':Description='{}':Organization='{}'",
                                     acct->name, acct->description, acct->organization);
      if (const Association* own = data.find_association(acct->name, "", ""))
        line += assoc_fields(*own);
      out += line + "\n";
    }
    for (const Account* acct : accounts) children(acct->name);
  }
};

std::string qos_fields(const Qos& q) {
  std::vector<std::string> set;
  const QosLimits& l = q.limits;
  // Slurm's own normal QOS is made with that description already.
  const bool default_description =
      q.description.empty() || (q.name == "normal" && q.description == "Normal QOS default");
  if (!default_description) set.push_back("Description=" + quoted_shell(q.description));
  if (q.priority != 0) set.push_back(fmt::format("Priority={}", q.priority));
  if (q.usage_factor != 1.0) set.push_back(fmt::format("UsageFactor={}", q.usage_factor));
  if (!q.preempt.empty()) set.push_back(fmt::format("Preempt={}", fmt::join(q.preempt, ",")));
  if (q.preempt_mode != "cluster") set.push_back("PreemptMode=" + q.preempt_mode);
  if (q.grace_time != 0) set.push_back(fmt::format("GraceTime={}", q.grace_time));
  if (q.preempt_exempt_time)
    set.push_back("PreemptExemptTime=" + parse::format_duration_fixed(*q.preempt_exempt_time));
  if (!q.flags.empty()) set.push_back(fmt::format("Flags={}", fmt::join(q.flags, ",")));
  const auto tres = [&](std::string_view key, const Tres& t) {
    if (!t.empty()) set.push_back(fmt::format("{}={}", key, sched::format_tres(t)));
  };
  const auto count = [&](std::string_view key, const std::optional<std::int64_t>& v) {
    if (v) set.push_back(fmt::format("{}={}", key, *v));
  };
  count("GrpJobs", l.grp_jobs);
  count("GrpSubmitJobs", l.grp_submit_jobs);
  tres("GrpTRES", l.grp_tres);
  tres("GrpTRESMins", l.grp_tres_mins);
  tres("GrpTRESRunMins", l.grp_tres_run_mins);
  if (l.grp_wall) set.push_back("GrpWall=" + minutes(*l.grp_wall));
  count("MaxJobsPerUser", l.max_jobs_per_user);
  count("MaxSubmitJobsPerUser", l.max_submit_jobs_per_user);
  if (l.max_wall) set.push_back("MaxWall=" + minutes(*l.max_wall));
  tres("MaxTRES", l.max_tres_per_job);
  tres("MaxTRESPerNode", l.max_tres_per_node);
  tres("MaxTRESPerUser", l.max_tres_per_user);
  tres("MaxTRESMins", l.max_tres_mins_per_job);
  return fmt::format("{}", fmt::join(set, " "));
}

std::string accounts_script(const Accounting& data, const std::string& cluster) {
  std::string out = fmt::format(
      "#!/bin/sh\n"
      "# The accounts of the stint cluster {0} for its Slurm (slurmdbd running, this machine's\n"
      "# sacctmgr pointed at it): the QOS first, which `sacctmgr load` does not make, then\n"
      "# the association tree of accounts.cfg.\n"
      "set -e\n"
      "cd \"$(dirname \"$0\")\"\n",
      cluster);
  // Every QOS exists before any names another as one it preempts.
  for (const Qos& q : data.qos) {
    if (q.name != "normal") out += fmt::format("sacctmgr -i add qos {}\n", q.name);
  }
  for (const Qos& q : data.qos) {
    const std::string fields = qos_fields(q);
    if (!fields.empty())
      out += fmt::format("sacctmgr -i modify qos where name={} set {}\n", q.name, fields);
  }
  out += "sacctmgr -i load accounts.cfg\n";
  return out;
}

// --- slurm.conf ----------------------------------------------------------------

struct Hosts {
  std::map<std::string, std::string> renamed;  // declared name -> the machine's
  std::vector<std::string> names_of(const std::vector<NodeDef>& nodes) const {
    std::vector<std::string> out;
    out.reserve(nodes.size());
    for (const NodeDef& n : nodes) {
      auto it = renamed.find(n.name);
      out.push_back(it == renamed.end() ? n.name : it->second);
    }
    return out;
  }
};

Hosts map_hosts(const std::vector<NodeDef>& nodes, const std::vector<std::string>& hosts) {
  Hosts h;
  if (hosts.empty()) return h;
  if (hosts.size() != nodes.size())
    throw Error(Errc::invalid_argument,
                fmt::format("--nodes names {} machine{}, and the cluster declares {} node{} "
                            "({}): give one name per node, in that order",
                            hosts.size(), hosts.size() == 1 ? "" : "s", nodes.size(),
                            nodes.size() == 1 ? "" : "s",
                            parse::compress_hostlist(Hosts{}.names_of(nodes))));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!seen.insert(hosts[i]).second)
      throw Error(
          Errc::invalid_argument,
          fmt::format("--nodes names {} twice: each node needs a machine of its own", hosts[i]));
    h.renamed[nodes[i].name] = hosts[i];
  }
  return h;
}

// The memory a job gets per CPU without --mem: stint's default is a share of
// the node's memory by CPUs; Slurm's would be the whole node, so the
// partition gets it as DefMemPerCPU (the smallest share of its pools).
std::optional<std::uint64_t> default_mem_per_cpu(const Config& config, const PartitionConfig& p) {
  for (std::string_view key : {"DefMemPerCPU", "DefMemPerNode"}) {
    const auto v = config.conf_with_origin(key);
    if (v && v->second != ConfigOrigin::built_in_default) return std::nullopt;
  }
  std::optional<std::uint64_t> least;
  for (const NodeDef& n : config.partition_nodes(p)) {
    if (n.cpus == 0) continue;
    const std::uint64_t share = n.memory_mb / n.cpus;
    if (!least || share < *least) least = share;
  }
  return least;
}

struct SiteScript {
  std::vector<ExportedFile> files;
  std::string key_line;  // "Prolog=/etc/slurm/prolog", or ""
};

// Slurm runs one Prolog= program: the file's own (copied) and the
// prolog_bash_scripts, in stint's order, become one.
SiteScript site_script(const Config& config, bool prolog, const std::string& conf_dir) {
  const std::string key = prolog ? "Prolog" : "Epilog";
  const std::string name = prolog ? "prolog" : "epilog";
  const std::string path = config.conf(key).value_or("");
  const std::vector<std::string>& lines =
      prolog ? config.prolog_bash_scripts : config.epilog_bash_scripts;
  SiteScript s;
  if (path.empty() && lines.empty()) return s;
  s.key_line = fmt::format("{}={}/{}\n", key, conf_dir, name);
  std::string original;
  if (!path.empty()) {
    try {
      original = fs::read_file(path);
    } catch (const Error& e) {
      throw Error(Errc::io, fmt::format("{}={} cannot be read: {}", key, path, e.what()));
    }
  }
  if (lines.empty()) {
    s.files.push_back({name, original, 0755});
    return s;
  }
  std::string text =
      fmt::format("#!/bin/bash\n# The {} of the stint cluster {}: what stint ran, in its order.\n",
                  name, config.cluster_name);
  if (!path.empty()) {
    s.files.push_back({name + ".site", original, 0755});
    text += fmt::format("{}/{}.site || exit $?\n", conf_dir, name);
  }
  for (const std::string& script : lines)
    text += fmt::format("/bin/bash -c {} {} || exit $?\n", quoted_shell(script), name);
  s.files.insert(s.files.begin(), ExportedFile{name, text, 0755});
  return s;
}

std::string slurm_conf(const Config& config, const Hosts& hosts, const std::string& controller,
                       const std::vector<SiteScript>& scripts) {
  const std::vector<NodeDef> nodes = config.nodes();
  std::string out = fmt::format(
      "# slurm.conf of the cluster {}, exported by stint {} from {}.\n"
      "# Check SlurmctldHost and the node names (stint export slurm --nodes) before use;\n"
      "# gres.conf and cgroup.conf go beside it.\n",
      config.cluster_name, stint::version(),
      config.source_path.empty() ? "its built-in configuration" : config.source_path);
  out += fmt::format("ClusterName={}\nSlurmctldHost={}\n", config.cluster_name, controller);
  std::map<std::string, std::string> configured;
  for (const auto& [key, value, origin] : config.all_conf()) {
    if (origin == ConfigOrigin::built_in_default || key == "ClusterName") continue;
    if (key.rfind("Stint", 0) == 0 || key == "Prolog" || key == "Epilog") continue;
    configured[key] = value;
  }
  out +=
      "# How the cluster runs jobs as stint does: cores and memory held per job by cgroups,\n"
      "# accounting in slurmdbd.\n";
  for (const auto& [key, value] : k_cluster_keys) {
    if (!configured.contains(std::string(key))) out += fmt::format("{}={}\n", key, value);
  }
  if (!configured.contains("AccountingStorageHost"))
    out += fmt::format("AccountingStorageHost={}\n", controller);
  const bool gpus = std::any_of(config.node_pools.begin(), config.node_pools.end(),
                                [](const NodePool& p) { return p.gpus > 0; });
  if (gpus && !configured.contains("GresTypes")) out += "GresTypes=gpu\n";
  if (gpus && !configured.contains("AccountingStorageTRES"))
    out += "AccountingStorageTRES=gres/gpu\n";
  if (!configured.empty()) out += "# Set in stint.yaml's config.\n";
  for (const auto& [key, value] : configured) out += fmt::format("{}={}\n", key, value);
  for (const SiteScript& s : scripts) out += s.key_line;
  out += "# The node pools.\n";
  for (const NodePool& pool : config.node_pools) {
    const std::vector<NodeDef> of_pool = pool_nodes(nodes, pool.id);
    if (!of_pool.empty()) out += node_conf_line(pool, hosts.names_of(of_pool));
  }
  out += "# The partitions.\n";
  const PartitionConfig* def = config.default_partition();
  for (const PartitionConfig& p : config.partitions) {
    std::string line = partition_conf_line(p, hosts.names_of(config.partition_nodes(p)), &p == def);
    if (auto mem = default_mem_per_cpu(config, p)) {
      // Before the final State= word.
      const std::size_t state = line.rfind(" State=");
      line.insert(state, fmt::format(" DefMemPerCPU={}", *mem));
    }
    out += line;
  }
  return out;
}

std::string left_out_comments(const Config& config) {
  std::string out;
  const auto note = [&](const std::string& what, std::string_view todo) {
    out += fmt::format("#   {}: {}\n", what, todo);
  };
  for (const auto& [key, value, origin] : config.all_conf()) {
    if (key.rfind("Stint", 0) != 0 || origin == ConfigOrigin::built_in_default) continue;
    // A copy: clang before 16 (clang-tidy's here) cannot capture a structured binding.
    const std::string& name = key;
    auto it = std::find_if(std::begin(k_stint_keys), std::end(k_stint_keys),
                           [&name](const auto& k) { return k.first == name; });
    note(fmt::format("{}={}", key, value),
         it == std::end(k_stint_keys) ? std::string_view("stint's own; Slurm has no such key")
                                      : it->second);
  }
  if (!config.aliases.empty())
    note("aliases",
         "names mapped to this machine's for a cluster's scripts; on the cluster "
         "they are its own names: nothing to do");
  if (config.run_backend != "local" || !config.projects.empty())
    note("run_backend, projects",
         "where the run tools send runs; keep them in stint.yaml on the machines that run "
         "run-create");
  if (!config.login_node_pool_id.empty() || !config.home_directory_storage.empty())
    note("login_node_pool_id, home_directory_storage",
         "NSML's login pool and home storage; on a cluster, login nodes and a shared file "
         "system");
  if (out.empty()) return out;
  return "# Not carried over: stint's own settings, with what to do about each.\n" + out;
}

}  // namespace

std::string sacctmgr_dump_text(const Accounting& accounting, const std::string& cluster) {
  DumpTree tree{accounting, {}};
  tree.out =
      "# To edit this file start with a cluster line for the new cluster\n"
      "# Cluster - 'cluster_name':MaxTRESPerJob=node=50\n"
      "# Followed by Accounts you want in this fashion (root is created by default)...\n"
      "# Parent - 'root'\n"
      "# Account - 'cs':MaxTRESPerJob=node=5:MaxJobs=4:MaxTRESMinsPerJob=cpu=20:FairShare=399:"
      "MaxWallDurationPerJob=40:Description='Computer Science':Organization='LC'\n"
      "# Any of the options after a ':' can be left out and they can be in any order.\n"
      "# If you want to add any sub accounts just list the Parent THAT HAS ALREADY\n"
      "# BEEN CREATED before the account line in this fashion...\n"
      "# Parent - 'cs'\n"
      "# Account - 'test':MaxTRESPerJob=node=1:MaxJobs=1:MaxTRESMinsPerJob=cpu=1:FairShare=1:"
      "MaxWallDurationPerJob=1:Description='Test Account':Organization='Test'\n"
      "# To add users to a account add a line like this after a Parent - 'line'\n"
      "# User - 'lipari':MaxTRESPerJob=node=2:MaxJobs=3:MaxTRESMinsPerJob=cpu=4:FairShare=1:"
      "MaxWallDurationPerJob=1\n";
  std::string line = fmt::format("Cluster - '{}'", cluster);
  if (const Association* root = accounting.find_association("root", "", ""))
    line += assoc_fields(*root);
  tree.out += line + "\n";
  tree.children("root");
  return tree.out;
}

std::vector<ExportedFile> export_slurm(const Config& config, const Accounting& accounting,
                                       const SlurmExportOptions& options) {
  const std::vector<NodeDef> nodes = config.nodes();
  const Hosts hosts = map_hosts(nodes, options.hosts);
  std::string controller = options.controller;
  if (controller.empty()) controller = nodes.empty() ? "localhost" : hosts.names_of(nodes).front();
  std::vector<SiteScript> scripts = {site_script(config, true, options.conf_dir),
                                     site_script(config, false, options.conf_dir)};
  std::vector<ExportedFile> files;
  files.push_back(
      {"slurm.conf", slurm_conf(config, hosts, controller, scripts) + left_out_comments(config)});

  std::string gres;
  for (const NodePool& pool : config.node_pools) {
    if (pool.gpus == 0) continue;
    const std::vector<NodeDef> of_pool = pool_nodes(nodes, pool.id);
    if (of_pool.empty()) continue;
    gres += fmt::format("NodeName={} Name=gpu{} File=/dev/nvidia{}\n",
                        parse::compress_hostlist(hosts.names_of(of_pool)),
                        pool.gpu_type.empty() ? "" : " Type=" + pool.gpu_type,
                        pool.gpus == 1 ? std::string("0") : fmt::format("[0-{}]", pool.gpus - 1));
  }
  files.push_back({"gres.conf",
                   "# The GPUs of each node pool (NVIDIA device files; check them "
                   "on each machine).\n" +
                       gres});
  files.push_back({"cgroup.conf",
                   "# What stint enforces per job: its cores, its memory and its GPUs.\n"
                   "ConstrainCores=yes\nConstrainRAMSpace=yes\nConstrainDevices=yes\n"});
  for (SiteScript& s : scripts)
    files.insert(files.end(), std::make_move_iterator(s.files.begin()),
                 std::make_move_iterator(s.files.end()));
  files.push_back({"accounts.cfg", sacctmgr_dump_text(accounting, config.cluster_name)});
  files.push_back({"accounts.sh", accounts_script(accounting, config.cluster_name), 0755});
  return files;
}

}  // namespace stint::daemon
