#include "model/json.hpp"

#include <stint/error.hpp>

namespace stint {
namespace {

using nlohmann::json;

template <typename T>
void put_opt(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <typename T>
void get_opt(const json& j, const char* key, std::optional<T>& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

template <typename T>
void get_or(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) out = it->get<T>();
}

// JobOptions: only what was given is written, so a job's spec in the
// database grows only by the options it used.
template <typename T>
void put_nonempty(json& j, const char* key, const T& v) {
  if (v != T{}) j[key] = v;
}

json options_to_json(const JobOptions& o) {
  json j = json::object();
  put_nonempty(j, "nodelist", o.nodelist);
  put_nonempty(j, "exclude", o.exclude);
  put_nonempty(j, "constraint", o.constraint);
  put_nonempty(j, "prefer", o.prefer);
  put_nonempty(j, "cluster_constraint", o.cluster_constraint);
  if (o.exclusive != Exclusive::unset) j["exclusive"] = exclusive_name(o.exclusive);
  put_opt(j, "oversubscribe", o.oversubscribe);
  put_nonempty(j, "contiguous", o.contiguous);
  put_opt(j, "max_nodes", o.max_nodes);
  put_opt(j, "mincpus", o.mincpus);
  put_opt(j, "tmp_mb", o.tmp_mb);
  put_nonempty(j, "spread_job", o.spread_job);
  put_nonempty(j, "use_min_nodes", o.use_min_nodes);
  put_nonempty(j, "licenses", o.licenses);
  put_nonempty(j, "reservation", o.reservation);
  put_opt(j, "time_min", o.time_min);
  put_opt(j, "gpus_per_task", o.gpus_per_task);
  put_opt(j, "gpus_per_socket", o.gpus_per_socket);
  put_opt(j, "cpus_per_gpu", o.cpus_per_gpu);
  put_opt(j, "mem_per_gpu_mb", o.mem_per_gpu_mb);
  put_opt(j, "ntasks_per_gpu", o.ntasks_per_gpu);
  put_opt(j, "ntasks_per_core", o.ntasks_per_core);
  put_opt(j, "ntasks_per_socket", o.ntasks_per_socket);
  put_opt(j, "sockets_per_node", o.sockets_per_node);
  put_opt(j, "cores_per_socket", o.cores_per_socket);
  put_opt(j, "threads_per_core", o.threads_per_core);
  put_nonempty(j, "hint", o.hint);
  put_nonempty(j, "overcommit", o.overcommit);
  put_nonempty(j, "distribution", o.distribution);
  put_nonempty(j, "cpu_bind", o.cpu_bind);
  put_nonempty(j, "mem_bind", o.mem_bind);
  put_nonempty(j, "gpu_bind", o.gpu_bind);
  put_nonempty(j, "gres_flags", o.gres_flags);
  put_nonempty(j, "gres", o.gres);
  put_nonempty(j, "mail_type", o.mail_type);
  put_nonempty(j, "mail_user", o.mail_user);
  put_nonempty(j, "wckey", o.wckey);
  put_nonempty(j, "acctg_freq", o.acctg_freq);
  put_opt(j, "propagate", o.propagate);
  put_nonempty(j, "no_kill", o.no_kill);
  put_opt(j, "wait_all_nodes", o.wait_all_nodes);
  put_nonempty(j, "stdin_pattern", o.stdin_pattern);
  put_nonempty(j, "cluster", o.cluster);
  put_opt(j, "get_user_env", o.get_user_env);
  put_opt(j, "uid", o.uid);
  put_opt(j, "gid", o.gid);
  if (!o.recorded.empty()) j["recorded"] = o.recorded;
  return j;
}

JobOptions options_from_json(const json& j) {
  JobOptions o;
  get_or(j, "nodelist", o.nodelist);
  get_or(j, "exclude", o.exclude);
  get_or(j, "constraint", o.constraint);
  get_or(j, "prefer", o.prefer);
  get_or(j, "cluster_constraint", o.cluster_constraint);
  std::string exclusive;
  get_or(j, "exclusive", exclusive);
  for (Exclusive e : {Exclusive::node, Exclusive::user, Exclusive::mcs}) {
    if (exclusive == exclusive_name(e)) o.exclusive = e;
  }
  get_opt(j, "oversubscribe", o.oversubscribe);
  get_or(j, "contiguous", o.contiguous);
  get_opt(j, "max_nodes", o.max_nodes);
  get_opt(j, "mincpus", o.mincpus);
  get_opt(j, "tmp_mb", o.tmp_mb);
  get_or(j, "spread_job", o.spread_job);
  get_or(j, "use_min_nodes", o.use_min_nodes);
  get_or(j, "licenses", o.licenses);
  get_or(j, "reservation", o.reservation);
  get_opt(j, "time_min", o.time_min);
  get_opt(j, "gpus_per_task", o.gpus_per_task);
  get_opt(j, "gpus_per_socket", o.gpus_per_socket);
  get_opt(j, "cpus_per_gpu", o.cpus_per_gpu);
  get_opt(j, "mem_per_gpu_mb", o.mem_per_gpu_mb);
  get_opt(j, "ntasks_per_gpu", o.ntasks_per_gpu);
  get_opt(j, "ntasks_per_core", o.ntasks_per_core);
  get_opt(j, "ntasks_per_socket", o.ntasks_per_socket);
  get_opt(j, "sockets_per_node", o.sockets_per_node);
  get_opt(j, "cores_per_socket", o.cores_per_socket);
  get_opt(j, "threads_per_core", o.threads_per_core);
  get_or(j, "hint", o.hint);
  get_or(j, "overcommit", o.overcommit);
  get_or(j, "distribution", o.distribution);
  get_or(j, "cpu_bind", o.cpu_bind);
  get_or(j, "mem_bind", o.mem_bind);
  get_or(j, "gpu_bind", o.gpu_bind);
  get_or(j, "gres_flags", o.gres_flags);
  get_or(j, "gres", o.gres);
  get_or(j, "mail_type", o.mail_type);
  get_or(j, "mail_user", o.mail_user);
  get_or(j, "wckey", o.wckey);
  get_or(j, "acctg_freq", o.acctg_freq);
  get_opt(j, "propagate", o.propagate);
  get_or(j, "no_kill", o.no_kill);
  get_opt(j, "wait_all_nodes", o.wait_all_nodes);
  get_or(j, "stdin_pattern", o.stdin_pattern);
  get_or(j, "cluster", o.cluster);
  get_opt(j, "get_user_env", o.get_user_env);
  get_opt(j, "uid", o.uid);
  get_opt(j, "gid", o.gid);
  get_or(j, "recorded", o.recorded);
  return o;
}

}  // namespace

json to_json(const JobSpec& s) {
  json j = json::object();
  j["name"] = s.name;
  put_opt(j, "partition", s.partition);
  put_opt(j, "account", s.account);
  put_opt(j, "qos", s.qos);
  put_opt(j, "nodes", s.nodes);
  put_opt(j, "ntasks", s.ntasks);
  put_opt(j, "ntasks_per_node", s.ntasks_per_node);
  put_opt(j, "cpus_per_task", s.cpus_per_task);
  put_opt(j, "mem_per_node_mb", s.mem_per_node_mb);
  put_opt(j, "mem_per_cpu_mb", s.mem_per_cpu_mb);
  put_opt(j, "gpus", s.gpus);
  put_opt(j, "gpus_per_node", s.gpus_per_node);
  if (!s.gpu_type.empty()) j["gpu_type"] = s.gpu_type;
  put_opt(j, "time_limit", s.time_limit);
  j["stdout_pattern"] = s.stdout_pattern;
  j["stderr_pattern"] = s.stderr_pattern;
  j["work_dir"] = s.work_dir;
  j["export_spec"] = s.export_spec;
  j["hold"] = s.hold;
  j["nice"] = s.nice;
  if (s.fixed_priority) j["fixed_priority"] = *s.fixed_priority;
  if (s.site_factor != 0) j["site_factor"] = s.site_factor;
  j["comment"] = s.comment;
  j["script"] = s.script;
  j["script_name"] = s.script_name;
  j["script_args"] = s.script_args;
  json env = json::array();
  for (const auto& [k, v] : s.environment) env.push_back(json::array({k, v}));
  j["environment"] = std::move(env);
  j["submit_dir"] = s.submit_dir;
  j["submit_host"] = s.submit_host;
  if (!s.array_spec.empty()) j["array_spec"] = s.array_spec;
  if (!s.dependency.empty()) j["dependency"] = s.dependency;
  put_opt(j, "kill_on_invalid_dep", s.kill_on_invalid_dep);
  put_opt(j, "begin_time", s.begin_time);
  put_opt(j, "deadline", s.deadline);
  put_opt(j, "requeue", s.requeue);
  put_opt(j, "open_append", s.open_append);
  if (s.allocation_only) j["allocation_only"] = true;
  if (s.run) {
    const RunInfo& r = *s.run;
    json storages = json::array();
    for (const auto& [name, mount] : r.storages) storages.push_back(json::array({name, mount}));
    json run_env = json::array();
    for (const auto& [k, v] : r.env) run_env.push_back(json::array({k, v}));
    j["run"] = json{{"project", r.project},
                    {"number", r.number},
                    {"keep_alive", r.keep_alive},
                    {"ports_per_node", r.ports_per_node},
                    {"image", r.image},
                    {"storages", std::move(storages)},
                    {"env", std::move(run_env)},
                    {"command", r.command},
                    {"description", r.description},
                    {"cloned_from", r.cloned_from},
                    {"stopped", r.stopped}};
    if (!r.metrics_files.empty()) j["run"]["metrics_files"] = r.metrics_files;
    if (r.metrics_all_ranks) j["run"]["metrics_all_ranks"] = true;
    if (!r.backend.empty()) j["run"]["backend"] = r.backend;
    if (!r.lost.empty()) j["run"]["lost"] = r.lost;
  }
  if (s.more) {
    json more = options_to_json(*s.more);
    if (!more.empty()) j["more"] = std::move(more);
  }
  if (s.signal.signal != 0) {
    j["signal"] = json{{"signal", s.signal.signal},
                       {"before", s.signal.before},
                       {"batch_only", s.signal.batch_only}};
  }
  return j;
}

JobSpec job_spec_from_json(const json& j) {
  if (!j.is_object()) throw Error(Errc::protocol, "job spec is not an object");
  JobSpec s;
  try {
    get_or(j, "name", s.name);
    get_opt(j, "partition", s.partition);
    get_opt(j, "account", s.account);
    get_opt(j, "qos", s.qos);
    get_opt(j, "nodes", s.nodes);
    get_opt(j, "ntasks", s.ntasks);
    get_opt(j, "ntasks_per_node", s.ntasks_per_node);
    get_opt(j, "cpus_per_task", s.cpus_per_task);
    get_opt(j, "mem_per_node_mb", s.mem_per_node_mb);
    get_opt(j, "mem_per_cpu_mb", s.mem_per_cpu_mb);
    get_opt(j, "gpus", s.gpus);
    get_opt(j, "gpus_per_node", s.gpus_per_node);
    get_or(j, "gpu_type", s.gpu_type);
    get_opt(j, "time_limit", s.time_limit);
    get_or(j, "stdout_pattern", s.stdout_pattern);
    get_or(j, "stderr_pattern", s.stderr_pattern);
    get_or(j, "work_dir", s.work_dir);
    get_or(j, "export_spec", s.export_spec);
    get_or(j, "hold", s.hold);
    get_or(j, "nice", s.nice);
    get_opt(j, "fixed_priority", s.fixed_priority);
    get_or(j, "site_factor", s.site_factor);
    get_or(j, "comment", s.comment);
    get_or(j, "script", s.script);
    get_or(j, "script_name", s.script_name);
    get_or(j, "script_args", s.script_args);
    if (auto it = j.find("environment"); it != j.end() && it->is_array()) {
      for (const auto& kv : *it) {
        s.environment.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
      }
    }
    get_or(j, "submit_dir", s.submit_dir);
    get_or(j, "submit_host", s.submit_host);
    get_or(j, "array_spec", s.array_spec);
    get_or(j, "dependency", s.dependency);
    get_opt(j, "kill_on_invalid_dep", s.kill_on_invalid_dep);
    get_opt(j, "begin_time", s.begin_time);
    get_opt(j, "deadline", s.deadline);
    get_opt(j, "requeue", s.requeue);
    get_opt(j, "open_append", s.open_append);
    s.allocation_only = j.value("allocation_only", false);
    if (auto it = j.find("run"); it != j.end() && it->is_object()) {
      RunInfo r;
      const json& rj = *it;
      get_or(rj, "project", r.project);
      get_or(rj, "number", r.number);
      get_or(rj, "keep_alive", r.keep_alive);
      get_or(rj, "ports_per_node", r.ports_per_node);
      get_or(rj, "image", r.image);
      get_or(rj, "command", r.command);
      get_or(rj, "description", r.description);
      get_or(rj, "cloned_from", r.cloned_from);
      get_or(rj, "stopped", r.stopped);
      get_or(rj, "backend", r.backend);
      get_or(rj, "lost", r.lost);
      get_or(rj, "metrics_files", r.metrics_files);
      get_or(rj, "metrics_all_ranks", r.metrics_all_ranks);
      auto pairs = [&](const char* key, std::vector<std::pair<std::string, std::string>>& out) {
        if (auto p = rj.find(key); p != rj.end() && p->is_array()) {
          for (const auto& e : *p) {
            if (e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string())
              out.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
          }
        }
      };
      pairs("storages", r.storages);
      pairs("env", r.env);
      s.run = std::move(r);
    }
    if (auto it = j.find("more"); it != j.end() && it->is_object()) {
      s.more = options_from_json(*it);
    }
    if (auto it = j.find("signal"); it != j.end() && it->is_object()) {
      get_or(*it, "signal", s.signal.signal);
      get_or(*it, "before", s.signal.before);
      get_or(*it, "batch_only", s.signal.batch_only);
    }
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, std::string("malformed job spec: ") + e.what());
  }
  return s;
}

json to_json(const Dependency& d) {
  json terms = json::array();
  for (const auto& t : d.terms) {
    terms.push_back(json{{"type", std::string(dependency_type_name(t.type))},
                         {"job_id", t.job_id},
                         {"array_task", t.array_task},
                         {"delay", t.delay}});
  }
  return json{{"any", d.any}, {"terms", std::move(terms)}};
}

Dependency dependency_from_json(const json& j) {
  Dependency d;
  if (!j.is_object()) return d;
  try {
    get_or(j, "any", d.any);
    for (const auto& t : j.value("terms", json::array())) {
      DependencyTerm term;
      std::string type = t.value("type", std::string("afterany"));
      for (auto candidate :
           {DependencyType::after, DependencyType::afterany, DependencyType::afterok,
            DependencyType::afternotok, DependencyType::aftercorr, DependencyType::singleton}) {
        if (dependency_type_name(candidate) == type) term.type = candidate;
      }
      get_or(t, "job_id", term.job_id);
      get_or(t, "array_task", term.array_task);
      get_or(t, "delay", term.delay);
      d.terms.push_back(term);
    }
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, std::string("malformed dependency: ") + e.what());
  }
  return d;
}

json to_json(const ResourceRequest& r) {
  json out{{"nodes", r.nodes},
           {"tasks", r.tasks},
           {"tasks_per_node", r.tasks_per_node},
           {"cpus_per_task", r.cpus_per_task},
           {"cpus_per_node", r.cpus_per_node},
           {"mem_per_node_mb", r.mem_per_node_mb},
           {"whole_node_mem", r.whole_node_mem},
           {"gpus_per_node", r.gpus_per_node},
           {"gpu_type", r.gpu_type}};
  // Written only when memory is per CPU: most requests' text stays as it was.
  if (r.mem_per_cpu_mb != 0) out["mem_per_cpu_mb"] = r.mem_per_cpu_mb;
  if (r.whole_nodes) out["whole_nodes"] = true;
  return out;
}

ResourceRequest resource_request_from_json(const json& j) {
  ResourceRequest r;
  try {
    get_or(j, "nodes", r.nodes);
    get_or(j, "tasks", r.tasks);
    get_or(j, "tasks_per_node", r.tasks_per_node);
    get_or(j, "cpus_per_task", r.cpus_per_task);
    get_or(j, "cpus_per_node", r.cpus_per_node);
    get_or(j, "mem_per_node_mb", r.mem_per_node_mb);
    get_or(j, "mem_per_cpu_mb", r.mem_per_cpu_mb);
    get_or(j, "whole_node_mem", r.whole_node_mem);
    get_or(j, "whole_nodes", r.whole_nodes);
    get_or(j, "gpus_per_node", r.gpus_per_node);
    get_or(j, "gpu_type", r.gpu_type);
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, std::string("malformed resource request: ") + e.what());
  }
  return r;
}

json to_json(const std::vector<NodeAlloc>& alloc) {
  json arr = json::array();
  for (const auto& a : alloc) {
    arr.push_back(json{{"node", a.node},
                       {"cpus", a.cpus},
                       {"cpu_ids", a.cpu_ids},
                       {"mem_mb", a.mem_mb},
                       {"gpu_ids", a.gpu_ids},
                       {"tasks", a.tasks},
                       {"stepd_pid", a.stepd_pid},
                       {"stepd_start_ticks", a.stepd_start_ticks}});
    if (!a.ports.empty()) arr.back()["ports"] = a.ports;
    if (a.ssh_port != 0) {
      arr.back()["ssh_port"] = a.ssh_port;
      arr.back()["sshd_pid"] = a.sshd_pid;
      arr.back()["sshd_start_ticks"] = a.sshd_start_ticks;
    }
    if (a.task_ended) {
      arr.back()["task_ended"] = true;
      arr.back()["exit_status"] = a.exit_status;
      arr.back()["exit_signal"] = a.exit_signal;
    }
    if (a.idle_since != k_no_time) {
      arr.back()["idle_since"] = a.idle_since;
      arr.back()["idle_gpus"] = a.idle_gpus;
    }
  }
  return arr;
}

std::vector<NodeAlloc> alloc_from_json(const json& j) {
  std::vector<NodeAlloc> out;
  if (!j.is_array()) return out;
  try {
    for (const auto& e : j) {
      NodeAlloc a;
      get_or(e, "node", a.node);
      get_or(e, "cpus", a.cpus);
      get_or(e, "cpu_ids", a.cpu_ids);
      get_or(e, "mem_mb", a.mem_mb);
      get_or(e, "gpu_ids", a.gpu_ids);
      get_or(e, "tasks", a.tasks);
      get_or(e, "stepd_pid", a.stepd_pid);
      get_or(e, "stepd_start_ticks", a.stepd_start_ticks);
      get_or(e, "ports", a.ports);
      get_or(e, "ssh_port", a.ssh_port);
      get_or(e, "sshd_pid", a.sshd_pid);
      get_or(e, "sshd_start_ticks", a.sshd_start_ticks);
      get_or(e, "task_ended", a.task_ended);
      get_or(e, "exit_status", a.exit_status);
      get_or(e, "exit_signal", a.exit_signal);
      get_or(e, "idle_since", a.idle_since);
      get_or(e, "idle_gpus", a.idle_gpus);
      out.push_back(std::move(a));
    }
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, std::string("malformed allocation: ") + e.what());
  }
  return out;
}

}  // namespace stint
