#include "cli/salloc_options.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace stint;
using namespace stint::cli;

namespace {

bool has_long(std::string_view name) {
  const auto table = salloc_option_table();
  return std::any_of(table.begin(), table.end(),
                     [&](const OptionSpec& o) { return o.long_name == name; });
}

}  // namespace

TEST_CASE("salloc's table: sbatch's options less the batch script's, plus its own") {
  for (auto name : {"bell", "no-bell", "immediate", "kill-command", "no-shell", "x11", "nodes",
                    "time", "gres", "partition", "hold", "mail-type"})
    CHECK(has_long(name));
  for (auto name : {"output", "error", "array", "wrap", "export", "parsable", "wait", "test-only",
                    "requeue", "open-mode", "input"})
    CHECK_FALSE(has_long(name));
}

TEST_CASE("salloc's command line: options, then the command with its own options") {
  const SallocCommandLine cl =
      parse_salloc_command_line({"-N2", "--bell", "-K", "-I5", "python3", "-u", "x.py"});
  CHECK(cl.command == std::vector<std::string>{"python3", "-u", "x.py"});
  CHECK(cl.bell == Bell::always);
  CHECK(cl.kill_command_signal == 15);
  CHECK(cl.immediate == 5U);
  REQUIRE(cl.allocation.options.size() == 1);
  CHECK(cl.allocation.options[0].id == static_cast<int>(SbatchOpt::nodes));
  CHECK(cl.allocation.action == SbatchCommandLine::Action::submit);

  CHECK(parse_salloc_command_line({"--kill-command=USR1"}).kill_command_signal == 10);
  CHECK(parse_salloc_command_line({"-I"}).immediate == 0U);
  CHECK(parse_salloc_command_line({"--no-bell"}).bell == Bell::never);
  CHECK(parse_salloc_command_line({"--no-shell"}).no_shell);
  CHECK(parse_salloc_command_line({"--help"}).allocation.action == SbatchCommandLine::Action::help);
  CHECK(parse_salloc_command_line({}).command.empty());
}

TEST_CASE("salloc's refusals") {
  CHECK_THROWS_AS(parse_salloc_command_line({"--output=x", "true"}), UsageError);
  CHECK_THROWS_WITH(parse_salloc_command_line({"--no", "true"}),
                    "option '--no' is ambiguous; possibilities: '--no-bell' '--no-kill' "
                    "'--no-shell' '--nodefile' '--nodelist' '--nodes'");
  CHECK_THROWS_WITH(parse_salloc_command_line({"--be"}),
                    "option '--be' is ambiguous; possibilities: '--begin' '--bell'");
  CHECK_THROWS_AS(parse_salloc_command_line({"-N1", ":", "-N1", "true"}), Error);
  CHECK_THROWS_AS(parse_salloc_command_line({"--kill-command=NOTASIGNAL"}), Error);
  CHECK_THROWS_AS(parse_salloc_command_line({"--immediate=soon"}), Error);
  CHECK_THROWS_AS(parse_salloc_command_line({"--x11"}), Error);
  CHECK_THROWS_AS(parse_salloc_command_line({"--no-shell", "true"}), Error);
}

TEST_CASE("SALLOC_ variables read as sbatch's SBATCH_ ones; SBATCH_ ones go") {
  const EnvList env = salloc_input_environment(
      {{"SALLOC_PARTITION", "gpu"}, {"SBATCH_PARTITION", "cpu"}, {"HOME", "/root"}});
  CHECK(env == EnvList{{"SBATCH_PARTITION", "gpu"}, {"HOME", "/root"}});
}
