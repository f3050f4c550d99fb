// node_view: a task's own host name and /etc/hosts, entered in a child.

#include "util/node_view.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string this_host() {
  utsname u{};
  ::uname(&u);
  return u.nodename;
}

std::string temp_file(const std::string& text) {
  char path[] = "/tmp/stint-node-view-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  ::fchmod(fd, 0644);
  ::close(fd);
  return path;
}

// Runs `check` in a child after entering `p`; its exit status: 0 when the
// view held, 1 when it did not, 100 + errno when it could not be entered.
int in_child(const stint::node_view::Plan& p, const std::string& hosts_text) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (const int err = stint::node_view::enter(p); err != 0) ::_exit(100 + (err & 0x1f));
    std::ifstream in("/etc/hosts");
    std::stringstream seen;
    seen << in.rdbuf();
    ::_exit(this_host() == p.hostname && seen.str() == hosts_text ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("node view: nothing to enter for this machine's own name", "[util][node_view]") {
  const auto p = stint::node_view::plan(this_host(), "/nonexistent/hosts");
  CHECK_FALSE(p.set_hostname);
  CHECK_FALSE(p.bind_hosts);
  CHECK_FALSE(p.needed());
  // The hosts file already in place (a task started by a task of the node).
  CHECK_FALSE(stint::node_view::plan(this_host(), "/etc/hosts").bind_hosts);
  CHECK(stint::node_view::enter(p) == 0);
}

TEST_CASE("node view: a task sees its node's name and the cluster's hosts", "[util][node_view]") {
  const std::string hosts = "127.0.1.1\tg-1\n127.0.1.2\tg-2\n";
  const std::string file = temp_file(hosts);
  const auto p = stint::node_view::plan("g-2", file);
  CHECK(p.set_hostname);
  CHECK(p.bind_hosts);
  const std::string why = stint::node_view::unavailable_reason();
  if (!why.empty()) {
    WARN("not entered here: " << why);
  } else {
    CHECK(in_child(p, hosts) == 0);
    // This process kept the machine's.
    CHECK(this_host() != "g-2");
  }
  ::unlink(file.c_str());
}
