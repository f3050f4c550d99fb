// The prolog/epilog runner: order, environment, output, failure and timeout.

#include "stepd/scripts.hpp"

#include <chrono>

#include <catch2/catch.hpp>

using stint::stepd::run_scripts;

namespace {

std::vector<std::string> bash(const std::string& text) { return {"/bin/bash", "-c", text, "p"}; }

}  // namespace

TEST_CASE("scripts run in order with exactly the given environment, their output kept") {
  auto o = run_scripts({bash("echo one $SLURM_JOB_ID"), bash("echo two >&2; echo ${HOME:-nohome}")},
                       {{"SLURM_JOB_ID", "12"}}, stint::k_infinite);
  CHECK(o.ok);
  CHECK(o.output == "one 12\ntwo\nnohome\n");
}

TEST_CASE("the first failing script stops the rest and says how it failed") {
  auto o = run_scripts({bash("echo a; exit 3"), bash("echo b")}, {}, stint::k_infinite);
  CHECK_FALSE(o.ok);
  CHECK(o.output == "a\n");
  CHECK(o.failure == "/bin/bash exited with status 3");
  auto killed = run_scripts({bash("kill -9 $$")}, {}, stint::k_infinite);
  CHECK(killed.failure == "/bin/bash killed by signal 9");
  auto missing = run_scripts({{"/no/such/prolog"}}, {}, stint::k_infinite);
  CHECK_FALSE(missing.ok);
  CHECK(missing.output.find("/no/such/prolog") != std::string::npos);
}

TEST_CASE(
    "a script over the timeout is killed, and one that leaves a process behind is not waited for") {
  const auto start = std::chrono::steady_clock::now();
  auto slow = run_scripts({bash("sleep 30")}, {}, 1);
  CHECK_FALSE(slow.ok);
  CHECK(slow.failure == "/bin/bash timed out after 1 s");
  auto left = run_scripts({bash("sleep 30 & echo started")}, {}, stint::k_infinite);
  CHECK(left.ok);
  CHECK(left.output == "started\n");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}
