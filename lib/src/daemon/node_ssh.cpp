// SSH into a run's node: the sshd of each node, its files and its end.

#include "daemon/node_ssh.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <set>

#include <dirent.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "config/warnings.hpp"
#include "daemon/log.hpp"
#include "daemon/node_hosts.hpp"
#include "process/run.hpp"
#include "stepd/spawn.hpp"
#include "util/fs.hpp"
#include "util/node_view.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

constexpr const char* k_host_key = "host_key";

std::string node_config_path(const Paths& paths, JobId job, std::uint32_t node) {
  return fmt::format("{}/sshd-{}.conf", ssh_dir(paths, job), node);
}

// sshd_config's quoting (argv_split): double quotes, with \ and " escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

// Gives a file stintd wrote to the job's user, who runs the sshd reading it.
void give_to_user(const std::string& path, const Job& job) {
  if (::geteuid() != 0 || job.user_id == 0) return;
  if (::chown(path.c_str(), job.user_id, job.group_id) != 0)
    throw Error(Errc::io, fmt::format("chown {}: {}", path, std::strerror(errno)));
}

// How long stintd waits for a node's sshd to exec (its report pipe closes).
constexpr int k_sshd_report_wait_ms = 2000;

// Runs `argv` to its end with stdout and stderr into stintd's log; its exit
// status (-1 when it could not start or was killed).
int run_quietly(const std::vector<std::string>& args) {
  process::Spec spec;
  spec.argv = args;
  spec.stdout_to = process::Output::inherited;
  spec.stderr_to = process::Output::inherited;
  spec.new_process_group = false;
  try {
    const process::Result r = process::run(spec);
    return r.term_signal != 0 ? -1 : r.exit_code;
  } catch (const Error&) {
    return -1;
  }
}

// SIGKILLs every process under a stopped `pid`, until none is left: one
// forked while the last were being killed is found in the next round.
void kill_descendants(std::int64_t pid) {
  constexpr int k_rounds = 50;
  for (int round = 0; round < k_rounds; ++round) {
    const auto under = proc::descendants(pid);
    if (under.empty()) return;
    for (std::int64_t p : under) ::kill(static_cast<pid_t>(p), SIGKILL);
  }
  log_error("sshd {}: processes under it kept appearing; some may be left", pid);
}

}  // namespace

std::optional<std::string> node_sshd(const Config& config) {
  const RunSshd sshd = run_sshd(config);
  if (!sshd.wanted || !sshd.usable) return std::nullopt;
  return sshd.path;
}

std::string ssh_dir(const Paths& paths, JobId job) {
  return fmt::format("{}/ssh/{}", paths.state_dir, job);
}

std::string node_sshd_config(std::uint16_t port, const std::string& host_key,
                             const std::string& user,
                             const std::vector<std::pair<std::string, std::string>>& env) {
  // Only what this file says: the machine's /etc/ssh/sshd_config is for its
  // own sshd. Keys only: an sshd that is not root cannot check passwords,
  // and one that is (root's runs) must not start to.
  std::string text = fmt::format(
      "# Written by stintd: the sshd of a run's node.\n"
      "Port {}\n"
      "HostKey {}\n"
      "PidFile none\n"
      "UsePAM no\n"
      "PasswordAuthentication no\n"
      "KbdInteractiveAuthentication no\n"
      "PubkeyAuthentication yes\n"
      "PermitRootLogin prohibit-password\n"
      "AllowUsers {}\n"
      "AuthorizedKeysFile .ssh/authorized_keys .ssh/authorized_keys2\n"
      "PrintMotd no\n",
      port, host_key, user);
  // One line: sshd takes the first SetEnv it reads and ignores the others.
  std::string setenv;
  for (const auto& [name, value] : env) {
    if (value.find_first_of("\n\r") != std::string::npos) continue;
    setenv += ' ' + quoted(name + '=' + value);
  }
  if (!setenv.empty()) text += "SetEnv" + setenv + '\n';
  return text;
}

std::vector<std::pair<std::string, std::string>> node_session_env(
    const std::vector<std::pair<std::string, std::string>>& node_env,
    const std::vector<std::pair<std::string, std::string>>& run_env) {
  static const std::set<std::string, std::less<>> k_node_names{
      "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "RANK",        "NODE_RANK",
      "LOCAL_RANK",           "WORLD_SIZE",         "MASTER_ADDR", "MASTER_PORT"};
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& kv : node_env) {
    const std::string& name = kv.first;
    const bool run_own =
        std::any_of(run_env.begin(), run_env.end(), [&](const auto& r) { return r.first == name; });
    if (name.starts_with("SLURM_") || name.starts_with("STINT_") || k_node_names.contains(name) ||
        run_own)
      out.push_back(kv);
  }
  return out;
}

void prepare_ssh_dir(const Paths& paths, const Job& job) {
  fs::make_dirs(paths.state_dir + "/ssh", 0711);
  const std::string dir = ssh_dir(paths, job.id);
  remove_ssh_dir(paths, job.id);  // an earlier attempt's
  if (::mkdir(dir.c_str(), 0711) != 0 && errno != EEXIST)
    throw Error(Errc::io, fmt::format("mkdir {}: {}", dir, std::strerror(errno)));
  std::string keygen;
  try {
    keygen = find_helper("ssh-keygen");
  } catch (const Error&) {
    throw Error(Errc::io, "ssh-keygen not found (openssh-client)");
  }
  const std::string key = dir + '/' + k_host_key;
  const int rc = run_quietly({keygen, "-q", "-t", "ed25519", "-N", "", "-C",
                              fmt::format("stint job {}", job.id), "-f", key});
  if (rc != 0) throw Error(Errc::io, fmt::format("ssh-keygen failed (status {})", rc));
  ::unlink((key + ".pub").c_str());
  give_to_user(key, job);
}

std::int64_t start_node_sshd(const Paths& paths, const Job& job, std::uint32_t node,
                             const std::string& sshd,
                             const std::vector<std::pair<std::string, std::string>>& env) {
  const NodeAlloc& a = job.alloc.at(node);
  const std::string user = proc::user_name(job.user_id);
  const std::string config = node_config_path(paths, job.id, node);
  fs::write_file_atomic(
      config, node_sshd_config(a.ssh_port, ssh_dir(paths, job.id) + '/' + k_host_key, user, env),
      0600);
  give_to_user(config, job);
  // An sshd running as root wants its privilege separation folder.
  const bool as_root = ::geteuid() == 0 && job.user_id == 0;
  if (as_root) fs::make_dirs("/run/sshd", 0755);

  // Its own fork, not process::run: sshd lives as long as the node, reaped by
  // stintd's SIGCHLD loop, in a session of its own with its CPUs, and its
  // start is waited for a bounded time only. Everything the child needs is
  // made before fork: it only makes system calls.
  const bool switch_user = ::geteuid() == 0 && job.user_id != 0;
  const std::vector<gid_t> groups =
      switch_user ? proc::login_groups(user, job.group_id) : std::vector<gid_t>{};
  std::vector<std::string> args{sshd, "-D", "-e", "-f", config};
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::string path_var = "PATH=/usr/local/bin:/usr/bin:/bin";
  char* envp[] = {path_var.data(), nullptr};
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const std::vector<int> bound = stepd::detail::fold_cpus(a.cpu_ids);
  for (int c : bound) CPU_SET(c, &cpus);
  const std::string log = paths.log_dir() + "/sshd.log";
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log_fd < 0) throw Error(Errc::io, fmt::format("{}: {}", log, std::strerror(errno)));
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    ::close(log_fd);
    throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  }
  // A session on the node sees the node, as its tasks do (node_view.hpp).
  // Nothing to enter for the machine itself as its one node: stintd writes
  // no hosts file then, and the node's name is the machine's.
  node_view::Plan view = node_view::plan(a.node, node_hosts_path(paths.state_dir));
  view.user_ns_allowed = !switch_user;
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: async-signal-safe calls only. A failure writes errno to the
    // report pipe, which closes on a successful exec.
    auto fail = [&]() {
      const int err = errno;
      [[maybe_unused]] ssize_t n = ::write(report[1], &err, sizeof err);
      ::_exit(127);
    };
    ::close(report[0]);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s = 1; s < NSIG; ++s) ::signal(s, SIG_DFL);
    if (::setsid() < 0) fail();
    // What a session leaves behind stays under sshd (kill_descendants).
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) fail();
    if (!bound.empty()) ::sched_setaffinity(0, sizeof cpus, &cpus);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(log_fd, 1) < 0 || ::dup2(log_fd, 2) < 0)
      fail();
    if (view.needed()) (void)node_view::enter(view);
    if (switch_user) {
      if (::setgroups(groups.size(), groups.data()) != 0 ||
          ::setresgid(job.group_id, job.group_id, job.group_id) != 0 ||
          ::setresuid(job.user_id, job.user_id, job.user_id) != 0)
        fail();
    }
    ::execve(argv.front(), argv.data(), envp);
    fail();
  }
  const int fork_errno = errno;
  ::close(report[1]);
  ::close(log_fd);
  if (pid < 0) {
    ::close(report[0]);
    throw Error(Errc::io, fmt::format("fork: {}", std::strerror(fork_errno)));
  }
  // Between its setresuid and its exec the child is the user's, who may stop
  // it: its report is waited for a bounded time, then taken as a start (a
  // failed exec then shows as an sshd that exited, reaped by the loop).
  int child_errno = 0;
  ssize_t n = 0;
  pollfd ready{report[0], POLLIN, 0};
  int polled = 0;
  do {
    polled = ::poll(&ready, 1, k_sshd_report_wait_ms);
  } while (polled < 0 && errno == EINTR);
  if (polled > 0) {
    do {
      n = ::read(report[0], &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
  } else {
    log_error("sshd {} for job {} did not report its start within {} ms; not waiting", pid, job.id,
              k_sshd_report_wait_ms);
  }
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    // stintd's loop reaps it (SIGCHLD).
    throw Error(Errc::io,
                fmt::format("cannot start {} as {}: {}", sshd, user, std::strerror(child_errno)));
  }
  return pid;
}

void stop_node_sshd(std::int64_t pid, std::uint64_t start_ticks) {
  if (pid <= 0 || !proc::alive(pid, start_ticks)) return;
  // Stopped, it accepts no session and reaps nothing while its tree goes;
  // the zombies it keeps go to init with it.
  ::kill(static_cast<pid_t>(pid), SIGSTOP);
  kill_descendants(pid);
  ::kill(static_cast<pid_t>(pid), SIGKILL);
}

void remove_ssh_dir(const Paths& paths, JobId job) {
  const std::string dir = ssh_dir(paths, job);
  // The folder is root's and the user cannot add to it: only stintd's files
  // are there, removed by name (no walking of what a user could have made).
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name == k_host_key || name == std::string(k_host_key) + ".pub" ||
        (name.starts_with("sshd-") && name.ends_with(".conf")) || name.starts_with(".tmp"))
      names.emplace_back(name);
  }
  ::closedir(d);
  for (const auto& name : names) ::unlink((dir + '/' + name).c_str());
  ::rmdir(dir.c_str());
}

std::vector<AdoptedSshd> sweep_node_sshds(const Paths& paths, const std::map<JobId, Job>& live) {
  std::vector<AdoptedSshd> adopted;
  const std::string root = paths.state_dir + "/ssh/";
  for (std::int64_t pid : proc::find_processes_mentioning("sshd", " -f " + root)) {
    // Its title: sshd: /usr/sbin/sshd -D -e -f <state>/ssh/<job>/sshd-<node>.conf [listener] ...
    std::string title;
    try {
      title = fs::read_file(fmt::format("/proc/{}/cmdline", pid));
    } catch (const Error&) {
      continue;
    }
    std::replace(title.begin(), title.end(), '\0', ' ');
    // A connection's sshd re-executes itself with the same line and -R
    // before it takes its own title: it is a session, not a listener.
    if (title.find(" -R") != std::string::npos) continue;
    const auto at = title.find(" -f " + root);
    JobId job = 0;
    std::uint32_t node = 0;
    if (at == std::string::npos ||
        std::sscanf(title.c_str() + at + 4 + root.size(), "%u/sshd-%u.conf", &job, &node) != 2)
      continue;
    const auto it = live.find(job);
    const auto uid = proc::real_uid(pid);
    // Only a process of the job's own user is the job's sshd: another user
    // could name a process so, and is not stintd's to kill.
    if (it != live.end()) {
      if (!uid || *uid != it->second.user_id) continue;
      if (node < it->second.alloc.size() && it->second.alloc[node].ssh_port != 0) {
        const NodeAlloc& a = it->second.alloc[node];
        if (a.sshd_pid == pid) continue;
        if (a.sshd_pid == 0 || !proc::alive(a.sshd_pid, a.sshd_start_ticks)) {
          adopted.push_back({job, node, pid});
          continue;
        }
      }
    } else {
      // A job that is over: its folder is gone below; the owner was the
      // folder's files' owner, which this process must be too.
      struct stat st {};
      if (::stat(node_config_path(paths, job, node).c_str(), &st) != 0 || !uid || *uid != st.st_uid)
        continue;
    }
    log_info("job {}: stopping an sshd left from before (pid {})", job, pid);
    if (const auto ticks = proc::start_ticks(pid)) stop_node_sshd(pid, *ticks);
  }
  // Folders of jobs no longer live.
  if (DIR* d = ::opendir(root.c_str())) {
    std::vector<JobId> over;
    while (dirent* e = ::readdir(d)) {
      char* end = nullptr;
      const unsigned long id = std::strtoul(e->d_name, &end, 10);
      if (id > 0 && *end == '\0' && !live.count(static_cast<JobId>(id)))
        over.push_back(static_cast<JobId>(id));
    }
    ::closedir(d);
    for (JobId id : over) remove_ssh_dir(paths, id);
  }
  return adopted;
}

}  // namespace stint::daemon
