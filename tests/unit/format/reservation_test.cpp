// Reservations as scontrol show reservation and sinfo -T print them
// (slurm_sprint_reservation_info, print_sinfo_reservation), and the node
// states a reservation gives (RESERVED, MAINT).

#include <catch2/catch.hpp>

#include <stint/format.hpp>
#include <stint/reservation.hpp>

#include "fixtures.hpp"

using namespace fixtures;
using stint::Reservation;
using stint::ResvFlag;

namespace {

Reservation maint() {
  Reservation r;
  r.name = "root_1";
  r.id = 1;
  r.start_time = at(18, 0, 0);
  r.end_time = at(19, 0, 0);
  r.duration = 3600;
  r.nodes = {"n1", "n2"};
  r.users = "root";
  r.flags.set(ResvFlag::maint);
  r.flags.set(ResvFlag::spec_nodes);
  return r;
}

}  // namespace

TEST_CASE("scontrol show reservation prints Slurm's block", "[reservation]") {
  use_utc();
  const Reservation r = maint();
  CHECK(stint::format::scontrol_reservation(r, 8, context(at(18, 30, 0)), false) ==
        "ReservationName=root_1 StartTime=2026-11-29T18:00:00 EndTime=2026-11-29T19:00:00 "
        "Duration=01:00:00\n"
        "   Nodes=n[1-2] NodeCnt=2 CoreCnt=8 Features=(null) PartitionName=(null) "
        "Flags=MAINT,SPEC_NODES\n"
        "   TRES=cpu=8\n"
        "   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=ACTIVE "
        "BurstBuffer=(null) Watts=n/a\n"
        "   MaxStartDelay=(null)\n"
        "\n");
  // -o: one line; INACTIVE before its start.
  Reservation later = r;
  later.accounts = "lab";
  later.partition = "cpu";
  CHECK(stint::format::scontrol_reservation(later, 8, context(at(17, 0, 0)), true) ==
        "ReservationName=root_1 StartTime=2026-11-29T18:00:00 EndTime=2026-11-29T19:00:00 "
        "Duration=01:00:00 Nodes=n[1-2] NodeCnt=2 CoreCnt=8 Features=(null) PartitionName=cpu "
        "Flags=MAINT,SPEC_NODES TRES=cpu=8 Users=root Groups=(null) Accounts=lab "
        "Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n");
}

TEST_CASE("sinfo -T lists reservations in fixed columns", "[reservation]") {
  use_utc();
  Reservation a = maint();
  Reservation b = maint();
  b.name = "a_much_longer_name_2";
  b.start_time = at(20, 0, 0);
  b.end_time = at(20, 0, 0) + 2 * 86400;
  b.nodes = {"n3"};
  const auto ctx = context(at(18, 30, 0));
  CHECK(stint::format::sinfo_reservations({a, b}, false, ctx) ==
        "RESV_NAME                STATE           START_TIME             END_TIME     DURATION  "
        "NODELIST\n"
        "root_1                  ACTIVE  2026-11-29T18:00:00  2026-11-29T19:00:00     01:00:00  "
        "n[1-2]\n"
        "a_much_longer_name_2  INACTIVE  2026-11-29T20:00:00  2026-12-01T20:00:00   2-00:00:00  "
        "n3\n");
  // -h: no header, and the name column keeps its minimum of 9, as Slurm's.
  CHECK(stint::format::sinfo_reservations({a}, true, ctx) ==
        "root_1       ACTIVE  2026-11-29T18:00:00  2026-11-29T19:00:00     01:00:00  n[1-2]\n");
  CHECK(stint::format::sinfo_reservations({}, false, ctx) == "No reservations in the system\n");
}

TEST_CASE("reserved and maintenance nodes in sinfo and scontrol", "[reservation]") {
  use_utc();
  auto nodes = four_nodes();
  const Reservation m = maint();  // n1, n2, MAINT
  Reservation plain = maint();
  plain.name = "r";
  plain.flags = {};
  plain.nodes = {"n3", "n4"};
  stint::query::mark_reserved(nodes, {m, plain}, at(18, 30, 0));
  CHECK(stint::format::node_state_short(nodes[0]) == "maint");
  CHECK(stint::format::node_state_long(nodes[0]) == "maint");
  CHECK(stint::format::node_state_scontrol(nodes[0]) == "IDLE+MAINTENANCE+RESERVED");
  CHECK(stint::format::node_state_short(nodes[3]) == "resv");
  CHECK(stint::format::node_state_long(nodes[3]) == "reserved");
  CHECK(stint::format::node_state_scontrol(nodes[3]) == "IDLE+RESERVED");
  // A busy node keeps its state name; in a maintenance reservation with '$'.
  CHECK(stint::format::node_state_short(nodes[2]) == "alloc");
  CHECK(stint::format::node_state_scontrol(nodes[2]) == "ALLOCATED+RESERVED");
  CHECK(stint::format::node_state_short(nodes[1]) == "mix$");
  CHECK(stint::format::node_state_long(nodes[1]) == "mixed$");
  // Outside the window nothing is marked.
  auto later = four_nodes();
  stint::query::mark_reserved(later, {m}, at(19, 0, 0));
  CHECK_FALSE(later[0].reserved);
  CHECK_FALSE(later[0].maint);
}
