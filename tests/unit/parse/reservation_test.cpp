// scontrol's reservation words (create_res.c), the Flags= words
// (parse_resv_flags), Flags= as Slurm prints it, and Users=/Accounts= lists.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>
#include <stint/reservation.hpp>

#include "error_of.hpp"

using namespace stint;
using stint::test::error_of;

namespace {

constexpr Seconds k_now = 1'800'000'000;

ReservationRequest create(const std::vector<std::string>& words) {
  return parse_reservation_words(words, ResvCommand::create, k_now);
}

ReservationRequest update(const std::vector<std::string>& words) {
  return parse_reservation_words(words, ResvCommand::update, k_now);
}

std::string create_error(const std::vector<std::string>& words) {
  auto e = error_of([&] { create(words); });
  return e ? e->what() : "(accepted)";
}

std::string update_error(const std::vector<std::string>& words) {
  auto e = error_of([&] { update(words); });
  return e ? e->what() : "(accepted)";
}

}  // namespace

TEST_CASE("create reservation: Slurm's keys, abbreviated and in any case", "[reservation]") {
  ReservationRequest r =
      create({"reservation", "ReservationName=maint", "StartTime=now", "Duration=60",
              "Users=alice,bob", "Nodes=n-[1-2]", "Flags=MAINT,ignore_jobs"});
  CHECK(r.name == "maint");
  CHECK(r.start_time == k_now);
  CHECK(r.duration == 3600);
  CHECK(r.users == "alice,bob");
  CHECK(r.nodes == "n-[1-2]");
  CHECK(r.flags_set.has(ResvFlag::maint));
  CHECK(r.flags_set.has(ResvFlag::ignore_jobs));
  CHECK_FALSE(r.flags_set.has(ResvFlag::overlap));

  // "res" words are skipped; keys abbreviate (st=, dur=, U=, A=, node=
  // needs five letters).
  r = create({"res", "st=now+1hour", "dur=1-00:00:00", "acc=lab", "nodecnt=2", "p=debug"});
  CHECK(r.start_time == k_now + 3600);
  CHECK(r.duration == 86400);
  CHECK(r.accounts == "lab");
  CHECK(r.node_count == 2);
  CHECK(r.partition == "debug");
  CHECK(create_error({"res", "start=now", "dur=5", "users=a", "node=n-1"}) ==
        "Unknown parameter node=n-1.  No reservation created.");

  // A duration in minutes is whole minutes, rounded up; UNLIMITED is k_infinite.
  CHECK(create({"res", "start=now", "duration=0:30", "users=a", "nodes=n-1"}).duration == 60);
  CHECK(create({"res", "start=now", "duration=UNLIMITED", "users=a", "nodes=n-1"}).duration ==
        k_infinite);
  // EndTime= as a date.
  CHECK(create({"res", "start=now", "end=now+2hours", "users=a", "nodes=n-1"}).end_time ==
        k_now + 7200);
}

TEST_CASE("create reservation: scontrol's own checks and messages", "[reservation]") {
  CHECK(create_error({"res", "duration=5", "users=a", "nodes=n-1"}) ==
        "A start time must be given.  No reservation created.");
  CHECK(create_error({"res", "start=now", "users=a", "nodes=n-1"}) ==
        "An end time or duration must be given.  No reservation created.");
  CHECK(create_error({"res", "start=now", "end=now+60", "duration=5", "users=a", "nodes=n-1"}) ==
        "StartTime + Duration does not equal EndTime.  No reservation created.");
  CHECK(create_error({"res", "start=now+1hour", "end=now", "users=a", "nodes=n-1"}) ==
        "Start time cannot be after end time.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5", "nodes=n-1"}) ==
        "Either Users/Groups and/or Accounts must be specified.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a"}) ==
        "CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified.  No "
        "reservation created.");
  CHECK(create_error(
            {"res", "start=now", "duration=5", "users=a", "flags=part_nodes", "nodes=n-1"}) ==
        "PART_NODES flag requires specifying a Partition and ALL nodes.  No reservation "
        "created.");
  // A partition alone reserves all of it.
  ReservationRequest r = create({"res", "start=now", "duration=5", "users=a", "partition=debug"});
  CHECK(r.nodes == "ALL");
  CHECK(r.flags_set.has(ResvFlag::part_nodes));
  r = create({"res", "start=now", "duration=5", "users=a", "partition=debug", "nodes=ALL"});
  CHECK(r.flags_set.has(ResvFlag::part_nodes));
}

TEST_CASE("create reservation: malformed words are refused as scontrol refuses them",
          "[reservation]") {
  CHECK(create_error({"res", "start=now", "duration", "users=a", "nodes=n-1"}) ==
        "Misformatted parameter 'duration', most options have a parameter after '='.  No "
        "reservation created.");
  CHECK(create_error({"res", "start=yesterday-ish", "duration=5", "users=a", "nodes=n-1"}) ==
        "Invalid start time start=yesterday-ish.  No reservation created.");
  CHECK(create_error({"res", "start=now", "end=soon", "users=a", "nodes=n-1"}) ==
        "Invalid end time end=soon.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5x", "users=a", "nodes=n-1"}) ==
        "Invalid duration duration=5x.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a", "nodecnt=two"}) ==
        "Invalid node count two");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a", "users=b", "nodes=n-1"}) ==
        "Parameter users=b specified more than once");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a", "nodes=n-1", "flags=bogus"}) ==
        "Error parsing flags bogus.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a", "nodes+=n-1"}) ==
        "The +=/-= notation is not supported when updating nodes.  No reservation created.");
  CHECK(create_error({"res", "start=now", "duration=5", "users=a", "color=blue"}) ==
        "Unknown parameter color=blue.  No reservation created.");
}

TEST_CASE("what stint cannot honour is refused, saying what exists", "[reservation]") {
  for (const char* word : {"Groups=wheel", "CoreCnt=2", "TRES=cpu=2", "Licenses=matlab:1",
                           "BurstBuffer=1G", "Watts=100", "MaxStartDelay=10"}) {
    const std::string message =
        create_error({"res", "start=now", "duration=5", "users=a", "nodes=n-1", word});
    INFO(word);
    CHECK(message.find("is not supported here") != std::string::npos);
    CHECK(message.find("No reservation created.") != std::string::npos);
  }
  for (const char* flags : {"MAGNETIC", "TIME_FLOAT", "ANY_NODES", "LICENSE_ONLY", "STATIC_ALLOC",
                            "FIRST_CORES", "REPLACE", "REPLACE_DOWN"}) {
    const std::string message = create_error(
        {"res", "start=now", "duration=5", "users=a", "nodes=n-1", std::string("flags=") + flags});
    INFO(flags);
    CHECK(message.find("is not supported here") != std::string::npos);
    CHECK(message.find("supported flags: MAINT") != std::string::npos);
  }
}

TEST_CASE("Flags= words as parse_resv_flags reads them", "[reservation]") {
  auto flags = [](const std::string& text) {
    return create({"res", "start=now", "duration=5", "users=a", "nodes=n-1", "flags=" + text});
  };
  ReservationRequest r = flags("maint,daily,weekday,weekend,weekly,hourly,flex,overlap");
  for (ResvFlag f : {ResvFlag::maint, ResvFlag::daily, ResvFlag::weekday, ResvFlag::weekend,
                     ResvFlag::weekly, ResvFlag::hourly, ResvFlag::flex, ResvFlag::overlap})
    CHECK(r.flags_set.has(f));
  // One letter is enough where Slurm takes it: "W" is WEEKDAY, "I" IGNORE_JOBS.
  r = flags("W,I,N");
  CHECK(r.flags_set.has(ResvFlag::weekday));
  CHECK(r.flags_set.has(ResvFlag::ignore_jobs));
  CHECK(r.flags_set.has(ResvFlag::no_hold_jobs));
  // MAINT needs three letters.
  CHECK(error_of([&] { flags("ma"); }));
  r = flags("PURGE_COMP=10:00");
  CHECK(r.flags_set.has(ResvFlag::purge_comp));
  CHECK(r.purge_comp_time == 600);
  r = flags("PURGE_COMP=5,MAINT");
  CHECK(r.purge_comp_time == 300);
  CHECK(r.flags_set.has(ResvFlag::maint));
  CHECK(error_of([&] { flags("PURGE_COMP=soon"); }));
  // Flags-= clears, and the sign holds for the words after it.
  r = update({"ReservationName=r", "Flags-=DAILY,MAINT"});
  CHECK(r.flags_clear.has(ResvFlag::daily));
  CHECK(r.flags_clear.has(ResvFlag::maint));
  CHECK(r.flags_set.empty());
  // OVERLAP cannot be taken away.
  CHECK(update_error({"ReservationName=r", "Flags-=OVERLAP"}) ==
        "Error parsing flags -OVERLAP.  No reservation update.");
}

TEST_CASE("update reservation: +=/-= forms and the name it needs", "[reservation]") {
  ReservationRequest r = update({"ReservationName=r", "Users+=carol,dave", "Duration+=30"});
  CHECK(r.name == "r");
  CHECK(r.users == "+carol,+dave");
  CHECK(r.duration == 1800);
  CHECK(r.duration_sign == '+');
  r = update({"Res=r", "Accounts-=lab"});
  CHECK(r.accounts == "-lab");
  CHECK(update_error({"Users=a"}) == "Reservation must be given.  No reservation update.");
  CHECK(update_error({"ReservationName=r", "Partition+=x"}) ==
        "The +=/-= notation is not supported when updating Partition.  No reservation update.");
  r = update({"ReservationName=r", "Skip"});
  CHECK(r.skip);
}

TEST_CASE("Users= lists and their updates", "[reservation]") {
  CHECK(name_list("a,b").names == std::vector<std::string>{"a", "b"});
  CHECK(name_list("-a,-b").denied);
  CHECK(error_of([] { name_list("a,-b"); }));
  CHECK(error_of([] { name_list("a,,b"); }));
  CHECK(update_name_list("a,b", "c", true) == "c");
  CHECK(update_name_list("a,b", "+c,-a", true) == "b,c");
  CHECK(update_name_list("a", "+a", true) == "a");
  // Removing one that is not there: users let it pass, accounts do not.
  CHECK(update_name_list("a", "-z", true) == "a");
  CHECK(error_of([] { update_name_list("a", "-z", false); }));
  // From nothing, "-x" makes a list of those denied; there "+x" lifts one.
  CHECK(update_name_list("", "-x", true) == "-x");
  CHECK(update_name_list("-x,-y", "-z", true) == "-x,-y,-z");
  CHECK(update_name_list("-x,-y", "+x", true) == "-y");
  CHECK(error_of([] { update_name_list("a", "+b,c", true); }));
}

TEST_CASE("Flags= as Slurm prints them", "[reservation]") {
  Reservation r;
  CHECK(reservation_flags_text(r).empty());
  r.flags.set(ResvFlag::spec_nodes);
  r.flags.set(ResvFlag::maint);
  r.flags.set(ResvFlag::daily);
  CHECK(reservation_flags_text(r) == "MAINT,DAILY,SPEC_NODES");
  r.flags = {};
  r.flags.set(ResvFlag::purge_comp);
  r.purge_comp_time = 300;
  r.flags.set(ResvFlag::part_nodes);
  r.flags.set(ResvFlag::no_hold_jobs);
  CHECK(reservation_flags_text(r) == "PART_NODES,PURGE_COMP=00:05:00,NO_HOLD_JOBS_AFTER_END");
}
