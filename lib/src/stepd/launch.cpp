// JSON forms of the launch, result and activity files (see launch.hpp). Keys are the
// field names. Reading is lenient about absent fields (they keep their
// defaults, so an older stintd's file still reads) and strict about types.

#include "stepd/launch.hpp"

#include <stdexcept>
#include <type_traits>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>

namespace stint {
namespace {

using nlohmann::json;

// A field of the right JSON type but an unusable value.
struct FieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <typename T>
void get_or(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  // nlohmann would wrap -1 into an unsigned field (a limit of 2^64-1 MiB).
  if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
    if (!it->is_number_unsigned())
      throw FieldError(fmt::format("{} is not a non-negative integer", key));
  }
  out = it->get<T>();
}

// Environment values and arguments are bytes, not always UTF-8; a stray byte
// must not make the job unlaunchable, so it becomes U+FFFD instead of throwing.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json parse_object(const std::string& text, const char* what) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, fmt::format("malformed {}: {}", what, e.what()));
  }
  if (!j.is_object()) throw Error(Errc::protocol, fmt::format("malformed {}: not an object", what));
  return j;
}

void require(const json& j, const char* key, const char* what) {
  if (!j.contains(key)) throw Error(Errc::protocol, fmt::format("malformed {}: no {}", what, key));
}

// One of the files as an object with `key` in it, its fields read by
// `fill(j, out)`; whatever does not fit is Errc::protocol naming `what`.
template <typename T, typename Fill>
T read_object(const std::string& text, const char* what, const char* key, Fill fill) {
  const json j = parse_object(text, what);
  require(j, key, what);
  T out;
  try {
    fill(j, out);
  } catch (const json::exception& e) {
    throw Error(Errc::protocol, fmt::format("malformed {}: {}", what, e.what()));
  } catch (const FieldError& e) {
    throw Error(Errc::protocol, fmt::format("malformed {}: {}", what, e.what()));
  }
  return out;
}

}  // namespace

std::string to_json_text(const TaskLaunch& l) {
  json j = json::object();
  j["job_id"] = l.job_id;
  j["node_index"] = l.node_index;
  j["node_name"] = l.node_name;
  j["argv"] = l.argv;
  json env = json::array();
  for (const auto& [k, v] : l.env) env.push_back(json::array({k, v}));
  j["env"] = std::move(env);
  j["work_dir"] = l.work_dir;
  j["stdout_path"] = l.stdout_path;
  j["stderr_path"] = l.stderr_path;
  if (!l.stdin_path.empty()) j["stdin_path"] = l.stdin_path;
  j["open_append"] = l.open_append;
  j["cpu_ids"] = l.cpu_ids;
  j["time_limit"] = l.time_limit;
  j["kill_wait"] = l.kill_wait;
  j["unkillable_timeout"] = l.unkillable_timeout;
  j["uid"] = l.uid;
  j["gid"] = l.gid;
  j["mem_limit_mb"] = l.mem_limit_mb;
  j["signal"] = json{{"signal", l.signal.signal},
                     {"before", l.signal.before},
                     {"batch_only", l.signal.batch_only}};
  j["result_path"] = l.result_path;
  j["socket_path"] = l.socket_path;
  if (l.node_view) {
    j["node_view"] = true;
    j["hosts_file"] = l.hosts_file;
  }
  if (!l.prolog.empty() || !l.epilog.empty()) {
    j["prolog"] = l.prolog;
    j["epilog"] = l.epilog;
    json script_env = json::array();
    for (const auto& [k, v] : l.script_env) script_env.push_back(json::array({k, v}));
    j["script_env"] = std::move(script_env);
    j["script_nodes"] = l.script_nodes;
    j["script_timeout"] = l.script_timeout;
  }
  // Written only when they differ from what an older launch file meant.
  if (l.propagate_rlimits != TaskLaunch{}.propagate_rlimits)
    j["propagate_rlimits"] = l.propagate_rlimits;
  if (l.user_env_timeout > 0) {
    j["user_env_timeout"] = l.user_env_timeout;
    if (l.user_env_mode != 0) j["user_env_mode"] = std::string(1, l.user_env_mode);
  }
  if (l.idle_after > 0) {
    j["idle_after"] = l.idle_after;
    j["activity_path"] = l.activity_path;
    j["gpu_ids"] = l.gpu_ids;
  }
  return dump(j);
}

TaskLaunch task_launch_from_json_text(const std::string& text) {
  constexpr const char* what = "launch file";
  TaskLaunch launch =
      read_object<TaskLaunch>(text, what, "job_id", [](const json& j, TaskLaunch& l) {
        require(j, "argv", what);
        get_or(j, "job_id", l.job_id);
        get_or(j, "node_index", l.node_index);
        get_or(j, "node_name", l.node_name);
        get_or(j, "argv", l.argv);
        if (auto it = j.find("env"); it != j.end() && !it->is_null()) {
          if (!it->is_array())
            throw Error(Errc::protocol, "malformed launch file: env is not a list");
          for (const auto& pair : *it) {
            if (!pair.is_array() || pair.size() != 2)
              throw Error(Errc::protocol, "malformed launch file: env entry is not [name, value]");
            l.env.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
          }
        }
        get_or(j, "work_dir", l.work_dir);
        get_or(j, "stdout_path", l.stdout_path);
        get_or(j, "stdin_path", l.stdin_path);
        get_or(j, "stderr_path", l.stderr_path);
        get_or(j, "open_append", l.open_append);
        get_or(j, "cpu_ids", l.cpu_ids);
        get_or(j, "time_limit", l.time_limit);
        get_or(j, "kill_wait", l.kill_wait);
        get_or(j, "unkillable_timeout", l.unkillable_timeout);
        get_or(j, "uid", l.uid);
        get_or(j, "gid", l.gid);
        get_or(j, "mem_limit_mb", l.mem_limit_mb);
        if (auto it = j.find("signal"); it != j.end() && !it->is_null()) {
          if (!it->is_object())
            throw Error(Errc::protocol, "malformed launch file: signal is not an object");
          get_or(*it, "signal", l.signal.signal);
          get_or(*it, "before", l.signal.before);
          get_or(*it, "batch_only", l.signal.batch_only);
        }
        get_or(j, "result_path", l.result_path);
        get_or(j, "socket_path", l.socket_path);
        get_or(j, "node_view", l.node_view);
        get_or(j, "hosts_file", l.hosts_file);
        get_or(j, "prolog", l.prolog);
        get_or(j, "epilog", l.epilog);
        if (auto it = j.find("script_env"); it != j.end() && it->is_array()) {
          for (const auto& pair : *it) {
            if (!pair.is_array() || pair.size() != 2)
              throw Error(Errc::protocol,
                          "malformed launch file: script_env entry is not [name, value]");
            l.script_env.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
          }
        }
        get_or(j, "script_nodes", l.script_nodes);
        get_or(j, "script_timeout", l.script_timeout);
        get_or(j, "propagate_rlimits", l.propagate_rlimits);
        get_or(j, "user_env_timeout", l.user_env_timeout);
        std::string mode;
        get_or(j, "user_env_mode", mode);
        if (mode.size() > 1 || (mode.size() == 1 && mode != "S" && mode != "L"))
          throw FieldError("user_env_mode is not S or L");
        l.user_env_mode = mode.empty() ? '\0' : mode.front();
        get_or(j, "idle_after", l.idle_after);
        get_or(j, "activity_path", l.activity_path);
        get_or(j, "gpu_ids", l.gpu_ids);
      });
  if (launch.argv.empty()) throw Error(Errc::protocol, "malformed launch file: argv is empty");
  return launch;
}

std::string to_json_text(const TaskResult& r) {
  json j = json::object();
  j["job_id"] = r.job_id;
  j["node_index"] = r.node_index;
  j["exit_status"] = r.exit_status;
  j["exit_signal"] = r.exit_signal;
  j["timed_out"] = r.timed_out;
  j["cancelled"] = r.cancelled;
  j["launch_failed"] = r.launch_failed;
  j["out_of_memory"] = r.out_of_memory;
  if (r.kill_failed) j["kill_failed"] = true;
  j["error"] = r.error;
  j["start_time"] = r.start_time;
  j["end_time"] = r.end_time;
  j["user_cpu_us"] = r.user_cpu_us;
  j["sys_cpu_us"] = r.sys_cpu_us;
  j["max_rss_kb"] = r.max_rss_kb;
  j["prolog_failed"] = r.prolog_failed;
  j["epilog_failed"] = r.epilog_failed;
  j["script_node"] = r.script_node;
  j["script_output"] = r.script_output;
  return dump(j);
}

TaskResult task_result_from_json_text(const std::string& text) {
  return read_object<TaskResult>(text, "result file", "job_id", [](const json& j, TaskResult& r) {
    get_or(j, "job_id", r.job_id);
    get_or(j, "node_index", r.node_index);
    get_or(j, "exit_status", r.exit_status);
    get_or(j, "exit_signal", r.exit_signal);
    get_or(j, "timed_out", r.timed_out);
    get_or(j, "cancelled", r.cancelled);
    get_or(j, "launch_failed", r.launch_failed);
    get_or(j, "out_of_memory", r.out_of_memory);
    get_or(j, "kill_failed", r.kill_failed);
    get_or(j, "error", r.error);
    get_or(j, "start_time", r.start_time);
    get_or(j, "end_time", r.end_time);
    get_or(j, "user_cpu_us", r.user_cpu_us);
    get_or(j, "sys_cpu_us", r.sys_cpu_us);
    get_or(j, "max_rss_kb", r.max_rss_kb);
    get_or(j, "prolog_failed", r.prolog_failed);
    get_or(j, "epilog_failed", r.epilog_failed);
    get_or(j, "script_node", r.script_node);
    get_or(j, "script_output", r.script_output);
  });
}

std::string to_json_text(const TaskActivity& a) {
  return dump(json{{"idle_since", a.idle_since}, {"gpus", a.gpus}});
}

TaskActivity task_activity_from_json_text(const std::string& text) {
  return read_object<TaskActivity>(text, "activity file", "idle_since",
                                   [](const json& j, TaskActivity& a) {
                                     get_or(j, "idle_since", a.idle_since);
                                     get_or(j, "gpus", a.gpus);
                                     if (a.idle_since < 0) throw FieldError("idle_since < 0");
                                   });
}

}  // namespace stint
