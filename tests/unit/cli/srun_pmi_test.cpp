#include "cli/srun_pmi.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <poll.h>
#include <unistd.h>

using namespace stint::cli;

namespace {

// One rank's end of its PMI socket, as an MPI library drives it.
class Rank {
 public:
  explicit Rank(int fd) : m_fd(fd) {}
  ~Rank() {
    if (m_fd >= 0) ::close(m_fd);
  }
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;

  void send(const std::string& text) const {
    REQUIRE(::write(m_fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  void send_pmi2(const std::string& body) const { send(fmt::format("{:<6}{}", body.size(), body)); }

  /// Whether something (or the end) can be read within `ms` milliseconds.
  bool readable(int ms) const {
    pollfd p{m_fd, POLLIN, 0};
    return ::poll(&p, 1, ms) > 0;
  }

  /// The next PMI-1 line, without its newline; "" at the end of the stream.
  std::string line() {
    while (m_in.find('\n') == std::string::npos) {
      if (!fill()) return "";
    }
    const std::size_t nl = m_in.find('\n');
    std::string out = m_in.substr(0, nl);
    m_in.erase(0, nl + 1);
    return out;
  }

  /// The next PMI-2 message's body; "" at the end of the stream.
  std::string pmi2() {
    while (m_in.size() < 6) {
      if (!fill()) return "";
    }
    const std::size_t length = std::stoul(m_in.substr(0, 6));
    while (m_in.size() < 6 + length) {
      if (!fill()) return "";
    }
    std::string out = m_in.substr(6, length);
    m_in.erase(0, 6 + length);
    return out;
  }

  /// Whether the server closed this rank's connection (within two seconds).
  bool closed() { return readable(2000) && !fill(); }

 private:
  bool fill() {
    if (!readable(5000)) FAIL("no answer from the PMI server within 5 s");
    char buf[4096];
    const ssize_t n = ::read(m_fd, buf, sizeof buf);
    if (n <= 0) return false;
    m_in.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  int m_fd;
  std::string m_in;
};

}  // namespace

TEST_CASE("PMI server: each rank's environment names its own descriptor", "[srun][pmi]") {
  PmiServer server(2, "12.0", "(vector,(0,1,2))");
  const auto env = server.task_environment(1);
  REQUIRE(env.size() == 4);
  CHECK(env[0] == std::pair<std::string, std::string>{"PMI_FD", std::to_string(server.task_fd(1))});
  CHECK(env[1].second == "12.0");
  CHECK(env[2] == std::pair<std::string, std::string>{"PMI_RANK", "1"});
  CHECK(env[3] == std::pair<std::string, std::string>{"PMI_SIZE", "2"});
  CHECK(server.task_fd(0) > 2);
  CHECK(server.task_fd(0) != server.task_fd(1));
}

TEST_CASE("PMI-1 as MPICH speaks it: put, barrier, get across ranks", "[srun][pmi]") {
  PmiServer server(2, "12.0", "(vector,(0,2,1))");
  Rank r0(::dup(server.task_fd(0)));
  Rank r1(::dup(server.task_fd(1)));
  server.start();

  r0.send("cmd=init pmi_version=1 pmi_subversion=1\n");
  CHECK(r0.line() == "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1");
  r0.send("cmd=get_maxes\n");
  CHECK(r0.line() == "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024");
  r0.send("cmd=get_my_kvsname\n");
  CHECK(r0.line() == "cmd=my_kvsname rc=0 kvsname=12.0");
  r0.send("cmd=get_universe_size\n");
  CHECK(r0.line() == "cmd=universe_size rc=0 size=2");
  r1.send("cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_appnum\n");
  CHECK(r1.line() == "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1");
  CHECK(r1.line() == "cmd=appnum rc=0 appnum=0");

  // A value is the rest of its line, spaces and '=' included.
  r0.send("cmd=put kvsname=12.0 key=card-0 value=tcp://127.0.0.1:5000 a=b\n");
  CHECK(r0.line() == "cmd=put_result rc=0");
  r0.send("cmd=barrier_in\n");
  CHECK_FALSE(r0.readable(100));  // rank 1 has not arrived
  r1.send("cmd=put kvsname=12.0 key=card-1 value=x\ncmd=barrier_in\n");
  CHECK(r1.line() == "cmd=put_result rc=0");
  CHECK(r1.line() == "cmd=barrier_out");
  CHECK(r0.line() == "cmd=barrier_out");

  r1.send("cmd=get kvsname=12.0 key=card-0\n");
  CHECK(r1.line() == "cmd=get_result rc=0 value=tcp://127.0.0.1:5000 a=b");
  r1.send("cmd=get kvsname=12.0 key=PMI_process_mapping\n");
  CHECK(r1.line() == "cmd=get_result rc=0 value=(vector,(0,2,1))");
  r1.send("cmd=get kvsname=12.0 key=nobody\n");
  CHECK(r1.line() == "cmd=get_result rc=1");
  r1.send("cmd=lookup_name service=s\n");
  CHECK(r1.line().rfind("cmd=lookup_result rc=1", 0) == 0);

  r0.send("cmd=finalize\n");
  CHECK(r0.line() == "cmd=finalize_ack rc=0");
  CHECK(r0.closed());
}

TEST_CASE("PMI-2 after an init asking for version 2", "[srun][pmi]") {
  PmiServer server(2, "7.3", "(vector,(0,1,2))");
  Rank r0(::dup(server.task_fd(0)));
  Rank r1(::dup(server.task_fd(1)));
  server.start();

  for (Rank* r : {&r0, &r1}) {
    r->send("cmd=init pmi_version=2 pmi_subversion=0\n");
    CHECK(r->line() == "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0");
  }
  r1.send_pmi2("cmd=fullinit;pmirank=1;threaded=FALSE;");
  CHECK(r1.pmi2() ==
        "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=1;size=2;appnum=-1;"
        "debugged=FALSE;pmiverbose=FALSE;");
  r1.send_pmi2("cmd=job-getid;");
  CHECK(r1.pmi2() == "cmd=job-getid-response;rc=0;jobid=7.3;");

  // A ';' in a value travels doubled, both ways.
  r0.send_pmi2("cmd=kvs-put;key=k;value=a;;b;");
  CHECK(r0.pmi2() == "cmd=kvs-put-response;rc=0;");
  r0.send_pmi2("cmd=kvs-fence;");
  CHECK_FALSE(r0.readable(100));
  r1.send_pmi2("cmd=kvs-fence;");
  CHECK(r1.pmi2() == "cmd=kvs-fence-response;rc=0;");
  CHECK(r0.pmi2() == "cmd=kvs-fence-response;rc=0;");
  r1.send_pmi2("cmd=kvs-get;jobid=7.3;srcid=-1;key=k;");
  CHECK(r1.pmi2() == "cmd=kvs-get-response;rc=0;found=TRUE;value=a;;b;");
  r1.send_pmi2("cmd=kvs-get;jobid=7.3;srcid=-1;key=missing;");
  CHECK(r1.pmi2() == "cmd=kvs-get-response;rc=0;found=FALSE;");
  r1.send_pmi2("cmd=info-getjobattr;key=PMI_process_mapping;");
  CHECK(r1.pmi2() == "cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,1,2));");

  // A node attribute asked for with wait=TRUE is answered when it is put.
  r1.send_pmi2("cmd=info-getnodeattr;key=shm;wait=TRUE;");
  CHECK_FALSE(r1.readable(100));
  r0.send_pmi2("cmd=info-putnodeattr;key=shm;value=/dev/shm/x;");
  CHECK(r0.pmi2() == "cmd=info-putnodeattr-response;rc=0;");
  CHECK(r1.pmi2() == "cmd=info-getnodeattr-response;rc=0;found=TRUE;value=/dev/shm/x;");
  r0.send_pmi2("cmd=info-getnodeattr;key=other;wait=FALSE;");
  CHECK(r0.pmi2() == "cmd=info-getnodeattr-response;rc=0;found=FALSE;");

  r0.send_pmi2("cmd=spawn;ncmds=1;");
  CHECK(r0.pmi2() == "cmd=spawn-response;rc=-1;errmsg=not supported by this srun;");
  r0.send_pmi2("cmd=finalize;");
  CHECK(r0.pmi2() == "cmd=finalize-response;rc=0;");
  CHECK(r0.closed());
}

TEST_CASE("PMI server: abort reaches srun; broken clients are dropped", "[srun][pmi]") {
  PmiServer server(3, "1.0", "(vector,(0,1,3))");
  std::atomic<int> abort_code{-1};
  server.on_abort([&](int code) { abort_code = code; });
  Rank r0(::dup(server.task_fd(0)));
  Rank r1(::dup(server.task_fd(1)));
  Rank r2(::dup(server.task_fd(2)));
  server.start();

  r0.send("cmd=init pmi_version=1 pmi_subversion=1\ncmd=abort exitcode=7\n");
  CHECK(r0.line() == "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (abort_code == -1 && std::chrono::steady_clock::now() < deadline) r0.readable(10);
  CHECK(abort_code == 7);

  // A PMI-2 length that is not a number, and a command PMI-1 has no answer for.
  r1.send("cmd=init pmi_version=2 pmi_subversion=0\n");
  CHECK(r1.line() == "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0");
  r1.send("abcdefcmd=kvs-fence;");
  CHECK(r1.closed());
  r2.send("cmd=init pmi_version=3 pmi_subversion=0\n");
  CHECK(r2.line() == "cmd=response_to_init rc=-1 pmi_version=1 pmi_subversion=1");
  r2.send("cmd=mcmd=spawn\n");
  CHECK(r2.closed());
}
