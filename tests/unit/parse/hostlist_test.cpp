#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::parse::compress_hostlist;
using stint::parse::expand_hostlist;
using stint::test::error_of;
using Hosts = std::vector<std::string>;

TEST_CASE("expand_hostlist expands ranges, keeping order and padding", "[parse]") {
  CHECK(expand_hostlist("vm") == Hosts{"vm"});
  CHECK(expand_hostlist("a[1-3],b") == Hosts{"a1", "a2", "a3", "b"});
  CHECK(expand_hostlist("node[01-04,7],login") ==
        Hosts{"node01", "node02", "node03", "node04", "node7", "login"});
  CHECK(expand_hostlist("linux[0000-0002]") == Hosts{"linux0000", "linux0001", "linux0002"});
  CHECK(expand_hostlist("lx[15,18,32-33]") == Hosts{"lx15", "lx18", "lx32", "lx33"});
  CHECK(expand_hostlist("n[5]") == Hosts{"n5"});
  CHECK(expand_hostlist("n[3,1,2]") == Hosts{"n3", "n1", "n2"});
  CHECK(expand_hostlist("a,a") == Hosts{"a", "a"});
  CHECK(expand_hostlist("[1-3]") == Hosts{"1", "2", "3"});
  CHECK(expand_hostlist("") == Hosts{});
}

TEST_CASE("expand_hostlist takes its width from the low end of a range", "[parse]") {
  CHECK(expand_hostlist("node[8-10]") == Hosts{"node8", "node9", "node10"});
  CHECK(expand_hostlist("node[08-10]") == Hosts{"node08", "node09", "node10"});
  CHECK(expand_hostlist("n[098-100]") == Hosts{"n098", "n099", "n100"});
  // Mixed widths stay distinct names.
  CHECK(expand_hostlist("n[1,01,001]") == Hosts{"n1", "n01", "n001"});
}

TEST_CASE("expand_hostlist multiplies several bracket groups, first slowest", "[parse]") {
  CHECK(expand_hostlist("rack[0-1]_blade[0-1]") ==
        Hosts{"rack0_blade0", "rack0_blade1", "rack1_blade0", "rack1_blade1"});
  // Three groups in hostlist.c's order: the last fastest, then the first.
  CHECK(expand_hostlist("row[0,1]_rack[2-3]_blade[4,5]") ==
        Hosts{"row0_rack2_blade4", "row0_rack2_blade5", "row1_rack2_blade4", "row1_rack2_blade5",
              "row0_rack3_blade4", "row0_rack3_blade5", "row1_rack3_blade4", "row1_rack3_blade5"});
  CHECK(expand_hostlist("a[1-2]b[3-4]c[5-6]d7").size() == 8);
  CHECK(expand_hostlist("a[1-2]b[3-4]c[5-6]d7").at(1) == "a1b3c6d7");
  CHECK(expand_hostlist("a[1-2]b[3-4]c[5-6]d7").at(2) == "a2b3c5d7");
  CHECK(expand_hostlist("n[1-2]-ib") == Hosts{"n1-ib", "n2-ib"});
  CHECK(expand_hostlist("r[1-2]n[01-02],x") == Hosts{"r1n01", "r1n02", "r2n01", "r2n02", "x"});
}

TEST_CASE("expand_hostlist skips empty items as Slurm does", "[parse]") {
  CHECK(expand_hostlist("a,,b") == Hosts{"a", "b"});
  CHECK(expand_hostlist("a,") == Hosts{"a"});
  CHECK(expand_hostlist(",a") == Hosts{"a"});
}

TEST_CASE("expand_hostlist refuses bad brackets and ranges", "[parse]") {
  const std::string text = GENERATE(
      as<std::string>{}, "a[1-3", "a1-3]", "a[[1]]", "a[1[2]]", "a[]", "a[1-]", "a[-3]", "a[3-1]",
      "a[x]", "a[1,,2]", "a[1,]", "a[,1]", "a[1-2-3]", "a[1 - 3]", "a b", "a,\tb", "a]", "]a[",
      "a[1]]", "a[+1]", "a[0x1]", "a[1-100000]", "a[0-256]b[0-255]", "a[1234567890123456789]");
  CAPTURE(text);
  const auto e = error_of([&] { (void)expand_hostlist(text); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK_THAT(e->what(), Catch::StartsWith("Invalid hostlist \"" + text + "\""));
}

TEST_CASE("expand_hostlist allows up to 65536 names", "[parse]") {
  CHECK(expand_hostlist("a[0-255]b[0-255]").size() == 65536);
  CHECK(expand_hostlist("a[1-65536]").size() == 65536);
  CHECK(error_of([] { (void)expand_hostlist("a[1-65536],b"); }));
}

TEST_CASE("compress_hostlist folds consecutive numbers into ranges", "[parse]") {
  CHECK(compress_hostlist({}).empty());
  CHECK(compress_hostlist({"vm"}) == "vm");
  CHECK(compress_hostlist({"vm1"}) == "vm1");
  CHECK(compress_hostlist({"vm1", "vm2", "vm3", "vm5"}) == "vm[1-3,5]");
  CHECK(compress_hostlist({"vm1", "vm2"}) == "vm[1-2]");
  CHECK(compress_hostlist({"vm1", "vm5"}) == "vm[1,5]");
  CHECK(compress_hostlist({"node01", "node02", "node03", "node04", "node7", "login"}) ==
        "node[01-04,7],login");
  CHECK(compress_hostlist({"rack1_blade1", "rack1_blade2"}) == "rack1_blade[1-2]");
  CHECK(compress_hostlist({"1", "2", "3"}) == "[1-3]");
}

TEST_CASE("compress_hostlist keeps the zero padding of each name", "[parse]") {
  CHECK(compress_hostlist({"n9", "n10", "n11"}) == "n[9-11]");
  CHECK(compress_hostlist({"n09", "n10"}) == "n[09-10]");
  CHECK(compress_hostlist({"n99", "n100"}) == "n[99-100]");
  CHECK(compress_hostlist({"n1", "n02"}) == "n[1,02]");
  CHECK(compress_hostlist({"n01", "n2"}) == "n[01,2]");
}

TEST_CASE("compress_hostlist keeps the order given and duplicates", "[parse]") {
  CHECK(compress_hostlist({"vm3", "vm1", "vm2"}) == "vm[3,1-2]");
  CHECK(compress_hostlist({"a1", "b1", "a2"}) == "a1,b1,a2");
  CHECK(compress_hostlist({"a1", "a1"}) == "a[1,1]");
  CHECK(compress_hostlist({"login", "login"}) == "login,login");
  CHECK(compress_hostlist({"n", "n1"}) == "n,n1");
}

TEST_CASE("expand_hostlist reads back what compress_hostlist prints", "[parse]") {
  const std::vector<Hosts> lists = {
      {"vm1", "vm2", "vm3", "vm5"},       {"node01", "node02", "node10", "node7", "login"},
      {"n9", "n10", "n1", "n02", "n002"}, {"a1", "b1", "a2", "a3"},
      {"x", "x", "y12", "y13"},
  };
  for (const auto& hosts : lists) {
    CAPTURE(hosts);
    CHECK(expand_hostlist(compress_hostlist(hosts)) == hosts);
  }
}
