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
    if (!r.backend.empty()) j["run"]["backend"] = r.backend;
    if (!r.lost.empty()) j["run"]["lost"] = r.lost;
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
  return json{{"nodes", r.nodes},
              {"tasks", r.tasks},
              {"tasks_per_node", r.tasks_per_node},
              {"cpus_per_task", r.cpus_per_task},
              {"cpus_per_node", r.cpus_per_node},
              {"mem_per_node_mb", r.mem_per_node_mb},
              {"whole_node_mem", r.whole_node_mem},
              {"gpus_per_node", r.gpus_per_node},
              {"gpu_type", r.gpu_type}};
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
    get_or(j, "whole_node_mem", r.whole_node_mem);
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
      out.push_back(std::move(a));
    }
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, std::string("malformed allocation: ") + e.what());
  }
  return out;
}

}  // namespace stint
