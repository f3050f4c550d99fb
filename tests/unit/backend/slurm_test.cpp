#include "backend/slurm.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

#include "backend/command.hpp"

using namespace stint;
using namespace stint::backend;

namespace {

ClusterRun two_node_run() {
  ClusterRun run;
  run.project = "mnist";
  run.number = 3;
  run.cluster_job_id = 41;
  run.spec.nodes = 2;
  run.spec.cpus_per_task = 2;
  run.spec.mem_per_node_mb = 512;
  run.spec.time_limit = 90;
  run.spec.partition = "gpu";
  run.spec.submit_dir = "/home/u/exp";
  RunInfo info;
  info.project = "mnist";
  info.number = 3;
  info.env = {{"LR", "0.1"}, {"NOTE", "it's"}};
  info.command = {"python3", "train.py", "--x=a b"};
  run.spec.run = info;
  run.ports = {{20000, 20001}, {20002, 20003}};
  return run;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_CASE("a run becomes sbatch options and a script with one step per rank") {
  SlurmBackendConfig config;
  config.partitions["gpu"] = "a100";
  config.account = "ml";
  const SlurmSubmission s = slurm_submission(two_node_run(), config);
  CHECK(s.options.front() == "--parsable");
  CHECK(has(s.options, "--nodes=2"));
  CHECK(has(s.options, "--ntasks-per-node=1"));
  CHECK(has(s.options, "--cpus-per-task=2"));
  CHECK(has(s.options, "--mem=512M"));
  CHECK(has(s.options, "--time=0-00:02:00"));  // 90 s rounds up to 2 minutes
  CHECK(has(s.options, "--partition=a100"));
  CHECK(has(s.options, "--account=ml"));
  CHECK(has(s.options, "--job-name=mnist/3"));
  CHECK(has(s.options, "--output=/home/u/exp/run-%j.batch.out"));
  CHECK(s.script.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(s.script.find("export NOTE='it'\\''s'") != std::string::npos);
  CHECK(s.script.find("--relative=1 --job-name=rank1 --output='/home/u/exp/run-%j.1.out' -- "
                      "'python3' 'train.py' '--x=a b'") != std::string::npos);
  CHECK(s.script.find("export RANK='1'") != std::string::npos);
  CHECK(s.script.find("export MASTER_PORT='20000'") != std::string::npos);
  CHECK(s.script.find("export STINT_TCP_PORTS='20002,20003'") != std::string::npos);
  CHECK(s.script.find("sleep 3600") == std::string::npos);  // no keep-alive
  CHECK(slurm_partition(config, "cpu") == "cpu");
  CHECK(slurm_partition(config, "") == "");
}

TEST_CASE("sacct's records give the run's state and each rank's node and exit") {
  ClusterRun run = two_node_run();
  const auto records = parse_sacct(
      "41|mnist/3|FAILED|3:0|n[1-2]|cpu|1700000000|1700000001|1700000009\n"
      "41.batch|batch|FAILED|3:0|n1||1700000001|1700000001|1700000009\n"
      "41.0|rank1|FAILED|3:0|n2||1700000002|1700000002|1700000008\n"
      "41.1|rank0|COMPLETED|0:0|n1||1700000002|1700000002|1700000003\n");
  REQUIRE(records.size() == 4);
  REQUIRE(apply_sacct(run, records));
  CHECK(run.state == JobState::failed);
  CHECK(run.partition == "cpu");
  CHECK(run.exit_status == 3);
  CHECK(run.start_time == 1700000001);
  REQUIRE(run.nodes.size() == 2);
  CHECK(run.nodes[0].node == "n1");
  CHECK(run.nodes[0].exit_status == 0);
  CHECK(run.nodes[1].node == "n2");
  CHECK(run.nodes[1].exit_status == 3);
  CHECK(run.nodes[1].task_ended);
  CHECK(run.nodes[1].ports == std::vector<std::uint16_t>{20002, 20003});
  ClusterRun other = two_node_run();
  other.cluster_job_id = 99;
  CHECK_FALSE(apply_sacct(other, records));
}

TEST_CASE("a rank whose step sacct has not recorded yet is corrected by a later answer") {
  ClusterRun run = two_node_run();
  const auto early = parse_sacct(
      "41|mnist/3|FAILED|3:0|n[1-2]|cpu|1700000000|1700000001|1700000009\n"
      "41.0|rank1|FAILED|3:0|n2||1700000002|1700000002|1700000008\n");
  REQUIRE(apply_sacct(run, early));
  CHECK_FALSE(ranks_recorded(run, early));
  // Meanwhile rank 0 shares the job's outcome.
  CHECK(run.nodes[0].task_ended);
  CHECK(run.nodes[0].exit_status == 3);
  auto later = early;
  later.push_back(
      parse_sacct("41.1|rank0|COMPLETED|0:0|n1||1700000002|1700000002|1700000003\n").front());
  REQUIRE(apply_sacct(run, later));
  CHECK(ranks_recorded(run, later));
  CHECK(run.nodes[0].exit_status == 0);
  CHECK(run.nodes[1].exit_status == 3);
  // A step still running, another job's step, a step not named after a rank: not the ranks'.
  CHECK_FALSE(ranks_recorded(
      run,
      parse_sacct("41.0|rank1|FAILED|3:0|n2||1|1|2\n41.1|rank0|RUNNING|0:0|n1||1|1|Unknown\n"
                  "42.2|rank0|COMPLETED|0:0|n1||1|1|2\n41.3|rank0x|COMPLETED|0:0|n1||1|1|2\n")));
}

TEST_CASE("a pending job has no nodes, a running one has its hosts") {
  ClusterRun run = two_node_run();
  REQUIRE(apply_sacct(
      run, parse_sacct("41|mnist/3|PENDING|0:0|None assigned|cpu|1700000000|Unknown|Unknown\n")));
  CHECK(run.state == JobState::pending);
  CHECK(run.nodes.empty());
  CHECK(run.start_time == k_no_time);
  REQUIRE(apply_scontrol(
      run,
      parse_scontrol_jobs("JobId=41 JobName=mnist/3 JobState=RUNNING Reason=None "
                          "ExitCode=0:0 Partition=cpu NodeList=n[1-2] StartTime=1700000005\n")));
  CHECK(run.state == JobState::running);
  REQUIRE(run.nodes.size() == 2);
  CHECK(run.nodes[1].node == "n2");
  CHECK_FALSE(run.nodes[1].task_ended);
}

TEST_CASE("Slurm's state words") {
  CHECK(slurm_state("CANCELLED by 0") == JobState::cancelled);
  CHECK(slurm_state("OUT_OF_MEMORY") == JobState::out_of_memory);
  CHECK(slurm_state("REQUEUED") == JobState::pending);
  CHECK_FALSE(slurm_state("WHATEVER").has_value());
}

TEST_CASE("a run's view as a job") {
  ClusterRun run = two_node_run();
  run.state = JobState::running;
  run.backend = "slurm";
  const Job job = job_view(run);
  CHECK(job.id == 41);
  CHECK(job.req.nodes == 2);
  CHECK(job.spec.run->backend == "slurm");
}

TEST_CASE("commands: output, exit status, stdin, a deadline, a missing program") {
  CommandTarget here;
  here.timeout_s = 5;
  auto r = run_command(here, {"sh", "-c", "cat; echo err >&2; exit 3"}, "hello");
  CHECK(r.out == "hello");
  CHECK(r.err == "err\n");
  CHECK(r.exit_code == 3);
  here.timeout_s = 1;
  r = run_command(here, {"sleep", "30"});
  CHECK(r.timed_out);
  CHECK_THROWS_AS(run_command(here, {"no-such-program-here"}), Error);
  CHECK(shell_quote("a'b") == "'a'\\''b'");
}
