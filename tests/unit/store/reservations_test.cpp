// Advance reservations (migration 10): written whole, read back by name,
// deleted; the next reservation id starts at 1.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/reservation.hpp>
#include <stint/store.hpp>

namespace {

struct ResvDir {
  std::string path;
  ResvDir() {
    char tmpl[] = "/tmp/stint-resv-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~ResvDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

}  // namespace

TEST_CASE("reservations are kept whole and listed by name", "[store][reservation]") {
  ResvDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK(store->reservations().empty());
  CHECK(store->meta("next_resv_id") == "1");
  stint::Reservation r;
  r.name = "zeta";
  r.id = 7;
  r.start_time = 1000;
  r.end_time = 4600;
  r.duration = 3600;
  r.nodes = {"n-1", "n-2"};
  r.users = "-carol";
  r.accounts = "lab";
  r.partition = "debug";
  r.features = "fast";
  r.flags.set(stint::ResvFlag::maint);
  r.flags.set(stint::ResvFlag::purge_comp);
  r.purge_comp_time = 600;
  r.idle_since = 2000;
  stint::Reservation a = r;
  a.name = "alpha";
  a.duration.reset();
  {
    stint::Store::Transaction tx(*store);
    store->put_reservation(r);
    store->put_reservation(a);
    tx.commit();
  }
  auto reader = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_only);
  auto all = reader->reservations();
  REQUIRE(all.size() == 2);
  CHECK(all[0] == a);
  CHECK(all[1] == r);
  r.end_time = 9000;
  store->put_reservation(r);  // replaces
  store->delete_reservation("alpha");
  all = reader->reservations();
  REQUIRE(all.size() == 1);
  CHECK(all[0].end_time == 9000);
}
