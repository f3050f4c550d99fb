#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

using stint::parse::expand_pattern;
using stint::parse::k_batch_step;
using stint::parse::PatternValues;

namespace {

// A batch job as 01-sbatch.txt ran them: user root on node vm, not an array.
PatternValues batch_job(stint::JobId id, std::string name = "wrap") {
  PatternValues v;
  v.job_id = id;
  v.job_name = std::move(name);
  v.user = "root";
  v.node = "vm";
  v.step_id = k_batch_step;
  return v;
}

}  // namespace

TEST_CASE("expand_pattern reproduces the file names of 01-sbatch.txt", "[parse]") {
  // From slurm-oracle/capture/01-sbatch.sh: -o 'pct-%%-%j-%4j-%a-%s-%t.out' gave job 217
  // the file pct-%-217-0217-4294967294-batch-0.out.
  CHECK(expand_pattern("pct-%%-%j-%4j-%a-%s-%t.out", batch_job(217)) ==
        "pct-%-217-0217-4294967294-batch-0.out");
  CHECK(expand_pattern("name-%x-%j-%u-%N.out", batch_job(213, "named")) ==
        "name-named-213-root-vm.out");
  CHECK(expand_pattern("demo-%j.out", batch_job(211, "demo")) == "demo-211.out");
  CHECK(expand_pattern("err-%j.err", batch_job(214)) == "err-214.err");
  CHECK(expand_pattern("slurm-%j.out", batch_job(205)) == "slurm-205.out");

  // Array tasks: job 216 ran as tasks 1 and 2 under their own job ids.
  PatternValues task = batch_job(218);
  task.array_job_id = 216;
  task.array_task_id = 2;
  CHECK(expand_pattern("arr-%A_%a.out", task) == "arr-216_2.out");
  task.array_job_id = 215;
  task.array_task_id = 1;
  CHECK(expand_pattern("slurm-%A_%a.out", task) == "slurm-215_1.out");
}

TEST_CASE("PatternValues describe the batch step unless told otherwise", "[parse]") {
  PatternValues v;
  v.job_id = 9;
  CHECK(expand_pattern("%j-%J-%s-%a-%A", v) == "9-9-batch-4294967294-9");
}

TEST_CASE("expand_pattern uses the job id for %A outside an array", "[parse]") {
  CHECK(expand_pattern("%A", batch_job(42)) == "42");
  CHECK(expand_pattern("%a", batch_job(42)) == "4294967294");
}

TEST_CASE("expand_pattern names steps: batch, or jobid.stepid for %J", "[parse]") {
  PatternValues v = batch_job(217);
  CHECK(expand_pattern("%s", v) == "batch");
  CHECK(expand_pattern("%4s", v) == "batch");
  CHECK(expand_pattern("%J", v) == "217");
  v.step_id = 3;
  CHECK(expand_pattern("%s", v) == "3");
  CHECK(expand_pattern("%2s", v) == "03");
  CHECK(expand_pattern("%J", v) == "217.3");
  CHECK(expand_pattern("%5J", v) == "00217.3");
}

TEST_CASE("expand_pattern zero-pads numbers to at most ten digits", "[parse]") {
  PatternValues v = batch_job(128);
  v.task_id = 1;
  v.node_index = 2;
  CHECK(expand_pattern("job%4j.out", v) == "job0128.out");
  CHECK(expand_pattern("job%2j-%2t.out", v) == "job128-01.out");
  CHECK(expand_pattern("%3n", v) == "002");
  CHECK(expand_pattern("%n", v) == "2");
  CHECK(expand_pattern("%0j", v) == "128");
  CHECK(expand_pattern("%10j", v) == "0000000128");
  CHECK(expand_pattern("%12j", v) == "0000000128");
  CHECK(expand_pattern("%99999999999999999999j", v) == "0000000128");
  // Text values ignore the width.
  CHECK(expand_pattern("%5x-%3u-%4N", v) == "wrap-root-vm");
}

TEST_CASE("expand_pattern leaves unknown letters and a trailing % as written", "[parse]") {
  const PatternValues v = batch_job(7);
  CHECK(expand_pattern("%q", v) == "%q");
  CHECK(expand_pattern("%4q-%j", v) == "%4q-7");
  CHECK(expand_pattern("abc%", v) == "abc%");
  CHECK(expand_pattern("abc%5", v) == "abc%5");
  CHECK(expand_pattern("%%j", v) == "%j");
  CHECK(expand_pattern("%%%j", v) == "%7");
  CHECK(expand_pattern("100%%.out", v) == "100%.out");
  CHECK(expand_pattern("", v).empty());
  CHECK(expand_pattern("/abs/path/out.txt", v) == "/abs/path/out.txt");
}

TEST_CASE("expand_pattern expands nothing once a backslash appears", "[parse]") {
  const PatternValues v = batch_job(7);
  CHECK(expand_pattern("out\\%j.txt", v) == "out%j.txt");
  CHECK(expand_pattern("a\\\\b-%j", v) == "a\\b-%j");
  CHECK(expand_pattern("\\", v).empty());
  CHECK(expand_pattern("%j-\\-%%", v) == "%j--%%");
}
