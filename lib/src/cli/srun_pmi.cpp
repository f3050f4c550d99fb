#include "cli/srun_pmi.hpp"

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <thread>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "util/fs.hpp"

namespace stint::cli {

namespace {

// What a PMI-1 client may ask: Slurm's limits, which MPICH sizes its keys by.
constexpr int k_max_kvs_name = 256;
constexpr int k_max_key = 64;
constexpr int k_max_value = 1024;
// A client that sends more than this without ending a command is not a PMI client.
constexpr std::size_t k_max_pending = 1 << 20;

enum class Wire : std::uint8_t { unknown, pmi1, pmi2 };

struct Client {
  int fd = -1;
  std::uint32_t rank = 0;
  Wire wire = Wire::unknown;
  std::string in;
  bool in_barrier = false;
  /// info-getnodeattr with wait=TRUE on a key nobody has put yet.
  std::optional<std::string> waiting_for_node_attr;
};

/// PMI-1's "cmd=put kvsname=12.0 key=k value=v": words of key=value. The
/// value of "value" is the rest of the line: MPICH writes it last and a
/// business card may hold spaces.
std::map<std::string, std::string> pmi1_fields(std::string_view line) {
  std::map<std::string, std::string> fields;
  while (!line.empty()) {
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.empty()) break;
    if (line.rfind("value=", 0) == 0) {
      fields["value"] = std::string(line.substr(6));
      break;
    }
    const std::size_t space = line.find(' ');
    const std::string_view word = line.substr(0, space);
    const std::size_t eq = word.find('=');
    if (eq != std::string_view::npos)
      fields[std::string(word.substr(0, eq))] = std::string(word.substr(eq + 1));
    line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
  }
  return fields;
}

/// PMI-2's "cmd=kvs-put;key=k;value=v;": pairs ended by ';', a ';' inside a
/// value doubled.
std::map<std::string, std::string> pmi2_fields(std::string_view body) {
  std::map<std::string, std::string> fields;
  std::size_t i = 0;
  while (i < body.size()) {
    const std::size_t eq = body.find('=', i);
    if (eq == std::string_view::npos) break;
    const std::string key(body.substr(i, eq - i));
    std::string value;
    std::size_t j = eq + 1;
    for (; j < body.size(); ++j) {
      if (body[j] == ';') {
        if (j + 1 < body.size() && body[j + 1] == ';') {
          value += ';';
          ++j;
          continue;
        }
        break;
      }
      value += body[j];
    }
    fields[key] = std::move(value);
    i = j + 1;
  }
  return fields;
}

std::string pmi2_escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    out += c;
    if (c == ';') out += ';';
  }
  return out;
}

/// A PMI-2 message on the wire: its length in six columns, then the body.
std::string pmi2_frame(const std::string& body) {
  return fmt::format("{:<6}{}", body.size(), body);
}

std::string field(const std::map<std::string, std::string>& fields, const std::string& key) {
  const auto it = fields.find(key);
  return it == fields.end() ? std::string() : it->second;
}

}  // namespace

struct PmiServer::State {
  std::uint32_t ranks = 0;
  std::string kvs_name;
  std::map<std::string, std::string> kvs;
  std::map<std::string, std::string> node_attrs;  // one node's, shared by all: one machine
  std::vector<Client> clients;
  std::vector<int> task_ends;
  int wake[2] = {-1, -1};
  std::thread thread;
  std::function<void(int)> abort_callback;

  void reply(Client& c, const std::string& body) {
    fs::write_fully(c.fd, c.wire == Wire::pmi2 ? pmi2_frame(body) : body);
  }

  void barrier_in(Client& c) {
    c.in_barrier = true;
    std::uint32_t arrived = 0;
    for (const Client& other : clients) arrived += other.in_barrier ? 1 : 0;
    if (arrived < ranks) return;
    for (Client& other : clients) {
      other.in_barrier = false;
      reply(other, other.wire == Wire::pmi2 ? "cmd=kvs-fence-response;rc=0;" : "cmd=barrier_out\n");
    }
  }

  void abort(int code) {
    if (abort_callback) abort_callback(code);
  }

  /// False: the client is done (finalized) or broke the protocol.
  bool pmi1_command(Client& c, std::string_view line) {
    auto f = pmi1_fields(line);
    const std::string cmd = field(f, "cmd");
    if (cmd == "init") {
      const std::string version = field(f, "pmi_version");
      if (version == "2") {
        c.wire = Wire::pmi1;  // the answer still goes out in PMI-1's form
        reply(c, "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n");
        c.wire = Wire::pmi2;
      } else {
        reply(c, fmt::format("cmd=response_to_init rc={} pmi_version=1 pmi_subversion=1\n",
                             version == "1" ? 0 : -1));
      }
    } else if (cmd == "get_maxes") {
      reply(c, fmt::format("cmd=maxes rc=0 kvsname_max={} keylen_max={} vallen_max={}\n",
                           k_max_kvs_name, k_max_key, k_max_value));
    } else if (cmd == "get_universe_size") {
      reply(c, fmt::format("cmd=universe_size rc=0 size={}\n", ranks));
    } else if (cmd == "get_appnum") {
      reply(c, "cmd=appnum rc=0 appnum=0\n");
    } else if (cmd == "get_my_kvsname") {
      reply(c, fmt::format("cmd=my_kvsname rc=0 kvsname={}\n", kvs_name));
    } else if (cmd == "barrier_in") {
      barrier_in(c);
    } else if (cmd == "put") {
      kvs[field(f, "key")] = field(f, "value");
      reply(c, "cmd=put_result rc=0\n");
    } else if (cmd == "get") {
      const auto it = kvs.find(field(f, "key"));
      reply(c, it == kvs.end() ? std::string("cmd=get_result rc=1\n")
                               : fmt::format("cmd=get_result rc=0 value={}\n", it->second));
    } else if (cmd == "finalize") {
      reply(c, "cmd=finalize_ack rc=0\n");
      return false;
    } else if (cmd == "abort") {
      abort(std::atoi(field(f, "exitcode").c_str()));
    } else if (cmd == "publish_name" || cmd == "unpublish_name" || cmd == "lookup_name") {
      reply(c, fmt::format("cmd={}_result rc=1 msg=name service not supported\n",
                           cmd.substr(0, cmd.find('_'))));
    } else {
      // mcmd (spawn), create_kvs, destroy_kvs, getbyidx: not in MPICH's
      // ordinary start; say so to the rank instead of leaving it waiting.
      fmt::print(stderr, "srun: error: mpi/pmi2: PMI1 request of '{}' not supported\n", cmd);
      return false;
    }
    return true;
  }

  bool pmi2_command(Client& c, std::string_view body) {
    auto f = pmi2_fields(body);
    const std::string cmd = field(f, "cmd");
    if (cmd == "fullinit") {
      reply(c, fmt::format("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank={};"
                           "size={};appnum=-1;debugged=FALSE;pmiverbose=FALSE;",
                           c.rank, ranks));
    } else if (cmd == "job-getid") {
      reply(c, fmt::format("cmd=job-getid-response;rc=0;jobid={};", pmi2_escape(kvs_name)));
    } else if (cmd == "kvs-put") {
      kvs[field(f, "key")] = field(f, "value");
      reply(c, "cmd=kvs-put-response;rc=0;");
    } else if (cmd == "kvs-fence") {
      barrier_in(c);
    } else if (cmd == "kvs-get") {
      const auto it = kvs.find(field(f, "key"));
      reply(c, it == kvs.end() ? std::string("cmd=kvs-get-response;rc=0;found=FALSE;")
                               : fmt::format("cmd=kvs-get-response;rc=0;found=TRUE;value={};",
                                             pmi2_escape(it->second)));
    } else if (cmd == "info-putnodeattr") {
      const std::string key = field(f, "key");
      node_attrs[key] = field(f, "value");
      reply(c, "cmd=info-putnodeattr-response;rc=0;");
      for (Client& other : clients) {
        if (other.waiting_for_node_attr == key) {
          other.waiting_for_node_attr.reset();
          reply(other, fmt::format("cmd=info-getnodeattr-response;rc=0;found=TRUE;value={};",
                                   pmi2_escape(node_attrs[key])));
        }
      }
    } else if (cmd == "info-getnodeattr") {
      const std::string key = field(f, "key");
      const auto it = node_attrs.find(key);
      if (it != node_attrs.end()) {
        reply(c, fmt::format("cmd=info-getnodeattr-response;rc=0;found=TRUE;value={};",
                             pmi2_escape(it->second)));
      } else if (field(f, "wait") == "TRUE") {
        c.waiting_for_node_attr = key;
      } else {
        reply(c, "cmd=info-getnodeattr-response;rc=0;found=FALSE;");
      }
    } else if (cmd == "info-getjobattr") {
      const auto it = kvs.find(field(f, "key"));
      reply(c, it == kvs.end()
                   ? std::string("cmd=info-getjobattr-response;rc=0;found=FALSE;")
                   : fmt::format("cmd=info-getjobattr-response;rc=0;found=TRUE;value={};",
                                 pmi2_escape(it->second)));
    } else if (cmd == "finalize") {
      reply(c, "cmd=finalize-response;rc=0;");
      return false;
    } else if (cmd == "abort") {
      abort(1);
    } else {
      // spawn, job-connect, name service, ring: answered as refused, so the
      // rank fails at once rather than waiting.
      reply(c, fmt::format("cmd={}-response;rc=-1;errmsg=not supported by this srun;", cmd));
    }
    return true;
  }

  /// Handles every whole command in the client's buffer. False: drop it.
  bool handle_input(Client& c) {
    for (;;) {
      if (c.wire == Wire::pmi2) {
        if (c.in.size() < 6) return true;
        std::size_t length = 0;
        try {
          length = std::stoul(c.in.substr(0, 6));
        } catch (const std::exception&) {
          return false;
        }
        if (c.in.size() < 6 + length) return c.in.size() <= k_max_pending;
        const std::string body = c.in.substr(6, length);
        c.in.erase(0, 6 + length);
        if (!pmi2_command(c, body)) return false;
      } else {
        const std::size_t nl = c.in.find('\n');
        if (nl == std::string::npos) return c.in.size() <= k_max_pending;
        const std::string line = c.in.substr(0, nl);
        c.in.erase(0, nl + 1);
        if (c.wire == Wire::unknown) c.wire = Wire::pmi1;
        if (!pmi1_command(c, line)) return false;
      }
    }
  }

  void serve() {
    for (;;) {
      std::vector<pollfd> fds;
      fds.push_back({wake[0], POLLIN, 0});
      for (const Client& c : clients) fds.push_back({c.fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) return;
      if (fds[0].revents != 0) return;
      for (std::size_t k = 0; k < clients.size(); ++k) {
        Client& c = clients[k];
        if (c.fd < 0 || fds[k + 1].revents == 0) continue;
        char buf[8192];
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        bool keep = n > 0;
        if (keep) {
          c.in.append(buf, static_cast<std::size_t>(n));
          keep = handle_input(c);
        }
        if (!keep) {
          ::close(c.fd);
          c.fd = -1;  // poll skips a negative descriptor
        }
      }
    }
  }
};

PmiServer::PmiServer(std::uint32_t ranks, std::string kvs_name, std::string process_mapping)
    : m_state(std::make_unique<State>()) {
  State& s = *m_state;
  s.ranks = ranks;
  s.kvs_name = std::move(kvs_name);
  s.kvs["PMI_process_mapping"] = std::move(process_mapping);
  auto fail = [&](const char* what) {
    const int err = errno;
    for (const Client& c : s.clients) ::close(c.fd);
    for (int fd : s.task_ends) ::close(fd);
    throw Error(Errc::io, fmt::format("mpi/pmi2: {}: {}", what, std::strerror(err)));
  };
  for (std::uint32_t r = 0; r < ranks; ++r) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) fail("socketpair");
    s.clients.push_back({pair[0], r, Wire::unknown, {}, false, std::nullopt});
    s.task_ends.push_back(pair[1]);
  }
  if (::pipe2(s.wake, O_CLOEXEC) != 0) fail("pipe");
}

PmiServer::~PmiServer() {
  stop();
  for (const Client& c : m_state->clients) {
    if (c.fd >= 0) ::close(c.fd);
  }
  for (int fd : m_state->task_ends) {
    if (fd >= 0) ::close(fd);
  }
  ::close(m_state->wake[0]);
  ::close(m_state->wake[1]);
}

int PmiServer::task_fd(std::uint32_t rank) const { return m_state->task_ends.at(rank); }

std::vector<std::pair<std::string, std::string>> PmiServer::task_environment(
    std::uint32_t rank) const {
  return {{"PMI_FD", std::to_string(task_fd(rank))},
          {"PMI_JOBID", m_state->kvs_name},
          {"PMI_RANK", std::to_string(rank)},
          {"PMI_SIZE", std::to_string(m_state->ranks)}};
}

void PmiServer::on_abort(std::function<void(int)> callback) {
  m_state->abort_callback = std::move(callback);
}

void PmiServer::start() {
  // A rank's peer end must be closed here, or its socket never reports the
  // rank's exit.
  for (int& fd : m_state->task_ends) {
    ::close(fd);
    fd = -1;
  }
  m_state->thread = std::thread([state = m_state.get()] { state->serve(); });
}

void PmiServer::stop() {
  if (!m_state->thread.joinable()) return;
  const char byte = 1;
  (void)!::write(m_state->wake[1], &byte, 1);
  m_state->thread.join();
}

}  // namespace stint::cli
