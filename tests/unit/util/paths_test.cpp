// Which state directory the tools use (DESIGN.md "State directory").

#include <set>
#include <string>

#include <catch2/catch.hpp>

#include <stint/paths.hpp>

using stint::choose_state_dir;

namespace {

std::set<std::string> g_existing;
bool exists(const std::string& dir) { return g_existing.count(dir) > 0; }

}  // namespace

TEST_CASE("the state directory: STINT_STATE_DIR, personal, system") {
  g_existing.clear();
  SECTION("STINT_STATE_DIR wins, without its trailing slashes") {
    g_existing = {"/home/a/.local/state/stint", "/var/lib/stint"};
    CHECK(choose_state_dir("/srv/st//", "", "/home/a", "/var/lib/stint", exists) == "/srv/st");
  }
  SECTION("a personal one that exists wins over the system one") {
    g_existing = {"/home/a/.local/state/stint", "/var/lib/stint"};
    CHECK(choose_state_dir("", "", "/home/a", "/var/lib/stint", exists) ==
          "/home/a/.local/state/stint");
    g_existing = {"/x/stint", "/var/lib/stint"};
    CHECK(choose_state_dir("", "/x", "/home/a", "/var/lib/stint", exists) == "/x/stint");
  }
  SECTION("without a personal one, the system one when it exists") {
    g_existing = {"/var/lib/stint"};
    CHECK(choose_state_dir("", "", "/home/a", "/var/lib/stint", exists) == "/var/lib/stint");
  }
  SECTION("neither: the personal one, to be created") {
    CHECK(choose_state_dir("", "", "/home/a", "/var/lib/stint", exists) ==
          "/home/a/.local/state/stint");
    CHECK(choose_state_dir("", "/x", "/home/a", "/var/lib/stint", exists) == "/x/stint");
  }
}

TEST_CASE("the system state directory is an absolute path") {
  CHECK(!stint::system_state_dir().empty());
  CHECK(stint::system_state_dir().front() == '/');
}
