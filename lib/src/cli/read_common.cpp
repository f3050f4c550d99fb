#include "cli/read_common.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>

#include <fmt/core.h>
#include <grp.h>
#include <pwd.h>
#include <sys/utsname.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "util/clock.hpp"

namespace stint::cli {
namespace {

Seconds boot_time() {
  std::ifstream in("/proc/stat");
  std::string key;
  while (in >> key) {
    if (key == "btime") {
      Seconds t = 0;
      in >> t;
      return t;
    }
    in.ignore(1 << 20, '\n');
  }
  return k_no_time;
}

std::string group_of(std::uint32_t gid) {
  struct group gr {};
  struct group* found = nullptr;
  std::vector<char> buf(16384);
  if (::getgrgid_r(gid, &gr, buf.data(), buf.size(), &found) != 0 || found == nullptr) return {};
  return gr.gr_name;
}

bool detail_yes(std::string_view v) {
  return !v.empty() && (v[0] == 'Y' || v[0] == 'y' || v == "1");
}

}  // namespace

void warn_if_stale(std::string_view tool, const Paths& paths) {
  static bool warned = false;
  if (warned || !query::state_may_be_stale(paths)) return;
  warned = true;
  std::fflush(stdout);
  fmt::print(stderr,
             "{}: warning: stintd is not running; the state shown may be stale (start it with "
             "'stint daemon start')\n",
             tool);
}

format::Context read_context(const Config& config) {
  format::Context ctx;
  ctx.now = wall_now();
  ctx.cluster_name = config.cluster_name;
  for (const auto& p : config.partitions) ctx.partition_tier[p.id] = p.priority_tier;
  ctx.group_name = group_of;
  struct utsname u {};
  if (::uname(&u) == 0) {
    ctx.arch = u.machine;
    ctx.os = std::string(u.sysname) + " " + u.release + " " + u.version;
  }
  ctx.boot_time = boot_time();
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    double load = 0;
    if (std::fscanf(f, "%lf", &load) == 1) ctx.cpu_load = load;
    std::fclose(f);
  }
  ctx.version = std::string(stint::version());
  if (const auto track = config.conf("TrackWCKey")) ctx.track_wckey = detail_yes(*track);
  if (const auto preempt = config.conf("PreemptMode")) ctx.preempt_mode = *preempt;
  return ctx;
}

Seconds min_job_age(const Config& config) {
  if (auto v = config.conf("MinJobAge")) {
    Seconds s = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), s);
    if (ec == std::errc() && end == v->data() + v->size() && s >= 0) return s;
  }
  return 300;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::optional<std::string> unknown_clusters(std::string_view clusters,
                                            std::string_view cluster_name, bool from_env) {
  for (const std::string& name : split_list(clusters)) {
    if (name == "all" || name == cluster_name) continue;
    return fmt::format(
        "'{}' can't be reached now, or it is an invalid entry for {}.  Use 'sacctmgr list "
        "clusters' to see available clusters.",
        clusters, from_env ? "SLURM_CLUSTERS" : "--cluster");
  }
  return std::nullopt;
}

std::optional<JobId> job_id_from_text(std::string_view text) {
  JobId id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id == 0) return std::nullopt;
  return id;
}

std::vector<std::string> split_job_list(std::string_view text) {
  std::vector<std::string> out;
  std::string item;
  int depth = 0;
  for (char c : text) {
    if (c == ',' && depth == 0) {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
      continue;
    }
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    item += c;
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

std::optional<std::vector<query::JobRef>> job_refs_from_text(std::string_view text) {
  // "12+1": component 1 of het job 12, whose id is 13 (components have
  // consecutive ids).
  if (const std::size_t plus = text.find('+'); plus != std::string_view::npos) {
    const auto id = job_id_from_text(text.substr(0, plus));
    std::string_view rest = text.substr(plus + 1);
    std::uint32_t offset = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), offset);
    if (!id || rest.empty() || ec != std::errc() || end != rest.data() + rest.size() ||
        offset > k_no_array_task - *id)
      return std::nullopt;
    return std::vector<query::JobRef>{{*id + offset, k_no_array_task, false}};
  }
  const std::size_t underscore = text.find('_');
  const auto id = job_id_from_text(text.substr(0, underscore));
  if (!id) return std::nullopt;
  if (underscore == std::string_view::npos) return std::vector<query::JobRef>{{*id}};
  std::string_view task = text.substr(underscore + 1);
  std::vector<query::JobRef> out;
  if (task.size() >= 2 && task.front() == '[' && task.back() == ']') {
    // The task list of an array spec, without its throttle; Slurm's largest
    // MaxArraySize bounds the ids.
    task = task.substr(1, task.size() - 2);
    if (task.empty() || task.find('%') != std::string_view::npos) return std::nullopt;
    try {
      for (std::uint32_t t : parse::array_spec(task, 4000001).tasks.ids()) out.push_back({*id, t});
    } catch (const Error&) {
      return std::nullopt;
    }
    return out;
  }
  std::uint32_t t = 0;
  const auto [end, ec] = std::from_chars(task.data(), task.data() + task.size(), t);
  if (task.empty() || ec != std::errc() || end != task.data() + task.size() || t >= k_no_array_task)
    return std::nullopt;
  out.push_back({*id, t});
  return out;
}

std::optional<std::vector<JobState>> states_from_list(std::string_view text, std::string& bad) {
  std::vector<JobState> out;
  for (const std::string& name : split_list(text)) {
    if (name == "all" || name == "ALL") return std::vector<JobState>{};
    auto s = state_from_name(name);
    if (!s) {
      bad = name;
      return std::nullopt;
    }
    out.push_back(*s);
  }
  return out;
}

bool user_exists(const std::string& user) {
  if (::getpwnam(user.c_str()) != nullptr) return true;
  std::uint32_t uid = 0;
  const auto [end, ec] = std::from_chars(user.data(), user.data() + user.size(), uid);
  return ec == std::errc() && end == user.data() + user.size() && ::getpwuid(uid) != nullptr;
}

std::string user_name_of(const std::string& user) {
  if (::getpwnam(user.c_str()) != nullptr) return user;
  std::uint32_t uid = 0;
  const auto [end, ec] = std::from_chars(user.data(), user.data() + user.size(), uid);
  if (ec != std::errc() || end != user.data() + user.size()) return user;
  const passwd* pw = ::getpwuid(uid);
  return pw != nullptr ? std::string(pw->pw_name) : user;
}

std::string_view slurm_job_state_names() {
  return "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,"
         "BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,"
         "REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED";
}

std::vector<std::string> join_dash_values(
    int argc, char** argv, const std::vector<std::pair<std::string, std::string>>& options) {
  std::vector<std::string> out;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    bool joined = false;
    if (i > 0 && i + 1 < argc) {
      for (const auto& [short_name, long_name] : options) {
        if (arg == short_name || arg == long_name) {
          out.push_back(long_name + "=" + argv[i + 1]);
          ++i;
          joined = true;
          break;
        }
      }
    }
    if (!joined) out.push_back(std::move(arg));
  }
  return out;
}

}  // namespace stint::cli
