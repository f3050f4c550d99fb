#include "cli/srun_multi_prog.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint;
using namespace stint::cli;

using Commands = std::vector<std::vector<std::string>>;

TEST_CASE("multi-prog file: ranges, lists, %t and %o, '*' for the rest", "[srun]") {
  const std::string conf =
      "# a comment\n"
      "0      echo master %t\n"
      "1-2,4  ./worker --rank=%t --offset=%o\n"
      "\n"
      "  # an indented comment\n"
      "*      'sleep' \"1 2\" \\\n"
      "       more\n";
  const Commands c = multi_prog_commands(conf, "x.conf", 6);
  CHECK(c[0] == std::vector<std::string>{"echo", "master", "0"});
  CHECK(c[1] == std::vector<std::string>{"./worker", "--rank=1", "--offset=0"});
  CHECK(c[2] == std::vector<std::string>{"./worker", "--rank=2", "--offset=1"});
  CHECK(c[4] == std::vector<std::string>{"./worker", "--rank=4", "--offset=2"});
  CHECK(c[3] == std::vector<std::string>{"sleep", "1 2", "more"});
  CHECK(c[5] == c[3]);
  CHECK(multi_prog_task_count(conf) == 5);
  CHECK(multi_prog_task_count("* true\n") == 0);
}

TEST_CASE("multi-prog file: Slurm's refusals", "[srun]") {
  CHECK_THROWS_WITH(multi_prog_commands("0 true\n", "x.conf", 2),
                    "Configuration file x.conf invalid, no record for task id 1");
  CHECK_THROWS_WITH(multi_prog_commands("0-1 true\n1 false\n", "x.conf", 2),
                    "Duplicate record for task 1\nsrun: error: Line 2 of configuration file "
                    "x.conf invalid");
  CHECK_THROWS_WITH(multi_prog_commands("0-5 true\n", "x.conf", 2),
                    "Invalid task id, 2 >= ntasks\nsrun: error: Line 1 of configuration file "
                    "x.conf invalid");
  CHECK_THROWS_WITH(multi_prog_commands("3-1 true\n", "x.conf", 4),
                    "Invalid task range, 3-1\nsrun: error: Line 1 of configuration file x.conf "
                    "invalid");
  CHECK_THROWS_WITH(multi_prog_commands("0\n", "x.conf", 1),
                    "Line 1 of configuration file x.conf invalid");
  CHECK_THROWS_WITH(multi_prog_commands("x true\n", "x.conf", 1),
                    "Invalid task range specification (x)\nsrun: error: Line 1 of configuration "
                    "file x.conf invalid");
  CHECK_THROWS_WITH(multi_prog_commands("* true\n0 false\n", "x.conf", 1),
                    "Task range specification with asterisk must be last\nsrun: error: Line 2 "
                    "of configuration file x.conf invalid");
}
