// The run backends' keys: run_backend, slurm, projects.

#include <catch2/catch.hpp>

#include <stint/config.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using stint::test::config_error;
using stint::test::parse;

namespace {

constexpr const char* k_base = "partitions:\n  - {id: p, node_pool_ids: [a]}\n";

std::string with(const std::string& more) { return std::string(k_base) + more; }

}  // namespace

TEST_CASE("the run backend: local by default, slurm globally or per project", "[config]") {
  auto c = parse(k_base);
  CHECK(c.run_backend == "local");
  CHECK(c.run_backend_for("any") == "local");
  c =
      parse(with("run_backend: slurm\n"
                 "slurm:\n  login: me@login1\n  conf: /etc/slurm/slurm.conf\n  account: ml\n"
                 "  partitions: {gpu: a100, cpu: short}\n  poll_interval: 5\n"
                 "projects:\n  mnist: {run_backend: local}\n"
                 "  big: {slurm: {account: big, login: \"\"}}\n"));
  CHECK(c.run_backend_for("other") == "slurm");
  CHECK(c.run_backend_for("mnist") == "local");
  CHECK(c.slurm_for("other").login == "me@login1");
  CHECK(c.slurm_for("other").partitions.at("gpu") == "a100");
  CHECK(c.slurm_for("other").poll_interval == 5);
  CHECK(c.slurm_for("other").command_timeout == 60);
  // A project's slurm map changes only what it names.
  CHECK(c.slurm_for("big").account == "big");
  CHECK(c.slurm_for("big").login.empty());
  CHECK(c.slurm_for("big").conf == "/etc/slurm/slurm.conf");
  CHECK(c.slurm_for("big").partitions.at("cpu") == "short");
}

TEST_CASE("the run backend's keys are checked", "[config]") {
  CHECK_THAT(config_error(with("run_backend: kubernetes\n")), Contains("is not a run backend"));
  CHECK_THAT(config_error(with("slurm: {acount: x}\n")), Contains("did you mean \"account\"?"));
  CHECK_THAT(config_error(with("slurm: {poll_interval: 0}\n")), Contains("must be at least 1"));
  CHECK_THAT(config_error(with("slurm: {login: \"-oProxyCommand=x\"}\n")),
             Contains("is not a login"));
  CHECK_THAT(config_error(with("projects: {p: {run_backnd: slurm}}\n")),
             Contains("did you mean \"run_backend\"?"));
  CHECK_THAT(config_error(with("slurm: {partitions: {gpu: \"a b\"}}\n")),
             Contains("is not a valid partition name"));
}
