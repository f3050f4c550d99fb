#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::SignalSpec;
using stint::parse::signal_number;
using stint::parse::signal_spec;
using stint::test::error_of;

TEST_CASE("signal_number reads Slurm's names and numbers", "[parse][signal]") {
  CHECK(signal_number("TERM") == 15);
  CHECK(signal_number("SIGTERM") == 15);
  CHECK(signal_number("sigterm") == 15);
  CHECK(signal_number("KILL") == 9);
  CHECK(signal_number("SIGUSR1") == 10);
  CHECK(signal_number("usr1") == 10);
  CHECK(signal_number("usr2") == 12);
  CHECK(signal_number("HUP") == 1);
  CHECK(signal_number("INT") == 2);
  CHECK(signal_number("QUIT") == 3);
  CHECK(signal_number("ABRT") == 6);
  CHECK(signal_number("ALRM") == 14);
  CHECK(signal_number("URG") == 23);
  CHECK(signal_number("CONT") == 18);
  CHECK(signal_number("STOP") == 19);
  CHECK(signal_number("TSTP") == 20);
  CHECK(signal_number("TTIN") == 21);
  CHECK(signal_number("TTOU") == 22);
  CHECK(signal_number("XCPU") == 24);
  CHECK(signal_number(" TERM ") == 15);
  CHECK(signal_number("9") == 9);
  CHECK(signal_number("10") == 10);
  CHECK(signal_number("64") == 64);
  CHECK(signal_number(" 9\n") == 9);
}

TEST_CASE("signal_number refuses what is not a signal", "[parse][signal]") {
  for (const std::string text : {"0", "65", "-9", "+9", "9x", "BOGUS", "SIG", "SIGSIGTERM", "", " ",
                                 "TERMX", "TER", "SEGV", "99999999999999999999", "1.0"}) {
    CAPTURE(text);
    CHECK_FALSE(signal_number(text));
  }
}

TEST_CASE("signal_spec reads --signal's forms", "[parse][signal]") {
  CHECK(signal_spec("USR1") == SignalSpec{10, 60, false});
  CHECK(signal_spec("SIGUSR2@120") == SignalSpec{12, 120, false});
  CHECK(signal_spec("10@0") == SignalSpec{10, 0, false});
  CHECK(signal_spec("B:USR1@30") == SignalSpec{10, 30, true});
  CHECK(signal_spec("b:term") == SignalSpec{15, 60, true});
  CHECK(signal_spec("R:USR1@30") == SignalSpec{10, 30, false});  // R: no reservations here
  CHECK(signal_spec("RB:INT@5") == SignalSpec{2, 5, true});
  CHECK(signal_spec("BR:INT") == SignalSpec{2, 60, true});
  CHECK(signal_spec("TERM@65535").before == 65535);
}

TEST_CASE("signal_spec refuses junk with Slurm's message", "[parse][signal]") {
  // 10-errors.txt: sbatch --signal=BOGUS -> "Invalid --signal specification".
  const std::string text =
      GENERATE(as<std::string>{}, "BOGUS", "", "0", "65", "USR1@", "USR1@-1", "USR1@65536",
               "USR1@1x", "USR1@@1", "@60", "B:", "X:USR1", "B:R:USR1", "USR1@ 60", ":USR1");
  CAPTURE(text);
  const auto e = error_of([&] { (void)signal_spec(text); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK(std::string(e->what()) == "Invalid --signal specification");
}
