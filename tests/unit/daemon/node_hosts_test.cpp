// The cluster's hosts file, as a task sees it for /etc/hosts.

#include "daemon/node_hosts.hpp"

#include <catch2/catch.hpp>

#include <stint/config.hpp>

using namespace stint;
using Catch::Matchers::Contains;

namespace {

Config two_nodes() {
  Config c;
  c.cluster_name = "lab";
  NodePool g;
  g.id = "g";
  g.count = 2;
  c.node_pools.push_back(g);
  return c;
}

constexpr const char* k_debian_hosts =
    "127.0.0.1\tlocalhost\n"
    "127.0.1.1\tvm vm.example.org\n"
    "\n"
    "# The following lines are desirable for IPv6 capable hosts\n"
    "::1     localhost ip6-localhost ip6-loopback\n"
    "10.0.0.5 g-2 fileserver  # an old name of the lab's\n";

}  // namespace

TEST_CASE("hosts: the nodes first, then the machine's lines", "[daemon][hosts]") {
  const std::string text = daemon::node_hosts_text(two_nodes(), k_debian_hosts, "vm");
  // The machine's line at the first node's address lends it its names.
  CHECK_THAT(text, Contains("\n127.0.1.1\tg-1 vm vm.example.org\n127.0.1.2\tg-2\n"));
  // Lines that name no node stay as written, comments and blank lines too.
  CHECK_THAT(text, Contains("\n127.0.0.1\tlocalhost\n\n# The following lines"));
  CHECK_THAT(text, Contains("\n::1     localhost ip6-localhost ip6-loopback\n"));
  // A node's name elsewhere is taken out of that line; the rest stays.
  CHECK_THAT(text, Contains("\n10.0.0.5\tfileserver\n"));
  CHECK(daemon::address_of(text, "g-2") == "127.0.1.2");
  CHECK(daemon::address_of(text, "vm") == "127.0.1.1");
  CHECK(daemon::address_of(text, "fileserver") == "10.0.0.5");
  CHECK(daemon::address_of(text, "nosuch").empty());
  // The address itself is no name.
  CHECK(daemon::address_of(text, "127.0.1.1").empty());
}

TEST_CASE("hosts: the machine's name resolves where /etc/hosts lacks it", "[daemon][hosts]") {
  const std::string text = daemon::node_hosts_text(two_nodes(), "127.0.0.1 localhost\n", "box");
  CHECK(daemon::address_of(text, "box") == "127.0.0.1");
  CHECK(daemon::address_of(text, "g-1") == "127.0.1.1");
  // A machine named like a node is that node.
  const std::string named = daemon::node_hosts_text(two_nodes(), "", "g-1");
  CHECK(daemon::address_of(named, "g-1") == "127.0.1.1");
  CHECK_THAT(named, !Contains("127.0.0.1"));
}

TEST_CASE("hosts: pinned addresses and an empty /etc/hosts", "[daemon][hosts]") {
  Config c = two_nodes();
  c.node_pools[0].node_addrs = {"10.1.0.1", "10.1.0.2"};
  const std::string text = daemon::node_hosts_text(c, "", "vm");
  CHECK(daemon::address_of(text, "g-1") == "10.1.0.1");
  CHECK(daemon::address_of(text, "g-2") == "10.1.0.2");
  CHECK(daemon::address_of(text, "vm") == "127.0.0.1");
}
