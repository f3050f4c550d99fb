// Ports reserved for a run's nodes, and what each node's task finds in its
// environment.

#include <cctype>
#include <charconv>
#include <set>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/run.hpp>

namespace stint::run {

PortRange parse_port_range(std::string_view text) {
  auto bad = [&] {
    return Error(Errc::invalid_argument,
                 fmt::format("Invalid port range: {} (expected LOW-HIGH within 1024-65535)", text));
  };
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) throw bad();
  unsigned low = 0, high = 0;
  auto lo = std::from_chars(text.data(), text.data() + dash, low);
  auto hi = std::from_chars(text.data() + dash + 1, text.data() + text.size(), high);
  if (lo.ec != std::errc() || lo.ptr != text.data() + dash || hi.ec != std::errc() ||
      hi.ptr != text.data() + text.size() || low < 1024 || high > 65535 || low > high)
    throw bad();
  return PortRange{static_cast<std::uint16_t>(low), static_cast<std::uint16_t>(high)};
}

std::vector<std::vector<std::uint16_t>> reserve_ports(
    const PortRange& range, std::uint32_t nodes, std::uint32_t per_node,
    const std::set<std::uint16_t>& taken, const std::function<bool(std::uint16_t)>& free) {
  std::vector<std::vector<std::uint16_t>> out(nodes);
  std::uint32_t port = range.first;
  for (auto& node : out) {
    while (node.size() < per_node) {
      if (port > range.last)
        throw Error(Errc::node_config_unavailable,
                    fmt::format("port range {}-{} exhausted: {} nodes x {} ports do not fit "
                                "beside the ports other runs hold",
                                range.first, range.last, nodes, per_node));
      const auto p = static_cast<std::uint16_t>(port++);
      if (!taken.count(p) && (!free || free(p))) node.push_back(p);
    }
  }
  return out;
}

RunEnvironment rank_environment(const RunName& run, std::uint32_t rank, std::uint32_t world,
                                const std::string& master_addr,
                                const std::vector<std::vector<std::uint16_t>>& ports) {
  RunEnvironment env;
  env.emplace_back("RANK", std::to_string(rank));
  env.emplace_back("NODE_RANK", std::to_string(rank));
  env.emplace_back("LOCAL_RANK", "0");
  env.emplace_back("WORLD_SIZE", std::to_string(world));
  env.emplace_back("MASTER_ADDR", master_addr);
  if (!ports.empty() && !ports.front().empty())
    env.emplace_back("MASTER_PORT", std::to_string(ports.front().front()));
  env.emplace_back("STINT_RUN", run.text());
  env.emplace_back("STINT_PROJECT", run.project);
  if (rank < ports.size()) {
    std::string list;
    for (std::size_t i = 0; i < ports[rank].size(); ++i) {
      if (i) list += ',';
      list += std::to_string(ports[rank][i]);
      env.emplace_back(fmt::format("STINT_PORT_{}", i), std::to_string(ports[rank][i]));
    }
    env.emplace_back("STINT_TCP_PORTS", list);
  }
  return env;
}

bool is_directory_image(std::string_view image) {
  return !image.empty() && (image.front() == '/' || image.front() == '.');
}

std::vector<std::string> bubblewrap_argv(
    const std::string& bwrap, const std::string& image, const std::string& work_dir,
    const std::vector<std::string>& command,
    const std::vector<std::pair<std::string, std::string>>& binds) {
  std::vector<std::string> argv{bwrap,  "--bind",  image,  "/",      "--proc", "/proc", "--dev",
                                "/dev", "--tmpfs", "/tmp", "--bind", work_dir, work_dir};
  for (const auto& [host, inside] : binds) {
    argv.insert(argv.end(), {"--bind", host, inside});
  }
  argv.insert(argv.end(), {"--chdir", work_dir, "--die-with-parent", "--"});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::vector<std::string> podman_argv(const std::string& podman, const std::string& image,
                                     const std::string& name, const std::string& work_dir,
                                     const std::vector<std::string>& command,
                                     const std::vector<std::pair<std::string, std::string>>& binds,
                                     const std::vector<std::string>& env_names) {
  // The image's own: the host's values would point at the host's files.
  static const std::set<std::string, std::less<>> k_image_owned{
      "PATH",       "HOME", "PWD", "OLDPWD", "SHELL", "TMPDIR", "HOSTNAME", "LD_LIBRARY_PATH",
      "LD_PRELOAD", "_"};
  // --init: the command is not the container's PID 1, which would ignore
  // the SIGTERM of a cancel or a time limit, and the SIGKILL that follows
  // would kill podman alone, leaving the container running.
  // --log-driver=none: the output reaches stepd's files through the attached
  // client already; conmon need not keep a second copy.
  // The podman client runs under a shell that, on the SIGTERM stepd sends
  // the task's process group (cancel, time limit, run-stop), also asks podman
  // to signal the container by name: the client forwards signals only once
  // it has attached, and a client killed before that leaves its container
  // running.
  static constexpr const char* k_supervise =
      "podman=$1; name=$2; shift 2\n"
      "\"$podman\" run \"$@\" &\n"
      "pid=$!\n"
      "trap '\"$podman\" kill --signal TERM \"$name\" >/dev/null 2>&1' TERM INT HUP\n"
      "while :; do\n"
      "  wait \"$pid\"; rc=$?\n"
      "  kill -0 \"$pid\" 2>/dev/null || exit \"$rc\"\n"
      "done\n";
  std::vector<std::string> argv{"/bin/sh", "-c", k_supervise,      "stint-podman",
                                podman,    name, "--rm",           "--init",
                                "--name",  name, "--network=host", "--log-driver=none"};
  argv.insert(argv.end(), {"-v", work_dir + ":" + work_dir, "-w", work_dir});
  for (const auto& [host, inside] : binds) argv.insert(argv.end(), {"-v", host + ":" + inside});
  for (const auto& env_name : env_names) {
    if (!k_image_owned.contains(env_name)) argv.insert(argv.end(), {"-e", env_name});
  }
  argv.push_back(image);
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::string storage_path(const std::string& state_dir, const std::string& name) {
  return state_dir + "/storages/" + name;
}

std::string storage_mount(const StorageMount& m) {
  return m.mount.empty() ? "/storage/" + m.name : m.mount;
}

std::string storage_env_name(const std::string& name) {
  std::string out = "STINT_STORAGE_";
  for (char c : name) {
    out += std::isalnum(static_cast<unsigned char>(c)) != 0
               ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
               : '_';
  }
  return out;
}

}  // namespace stint::run
