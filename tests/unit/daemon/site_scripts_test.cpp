// What stintd hands stepd for the prolog and epilog, and the requeue marker
// that carries a node failure across a restart.

#include "daemon/site_scripts.hpp"

#include <cstdlib>

#include <catch2/catch.hpp>
#include <unistd.h>

#include "daemon/spool.hpp"

using namespace stint;

namespace {

std::string value_of(const daemon::Environment& env, const std::string& key) {
  for (const auto& [k, v] : env) {
    if (k == key) return v;
  }
  return "(unset)";
}

}  // namespace

TEST_CASE("the prolog is slurm.conf's Prolog, then the file's scripts run by bash") {
  Config c;
  CHECK(daemon::site_scripts(c, true).empty());
  c.slurm_conf["Prolog"] = "/etc/stint/prolog";
  c.prolog_bash_scripts = {"#!/bin/bash\necho one", "echo two"};
  c.epilog_bash_scripts = {"echo bye"};
  auto prolog = daemon::site_scripts(c, true);
  REQUIRE(prolog.size() == 3);
  CHECK(prolog[0] == std::vector<std::string>{"/etc/stint/prolog"});
  CHECK(prolog[1] ==
        std::vector<std::string>{"/bin/bash", "-c", "#!/bin/bash\necho one", "prolog"});
  auto epilog = daemon::site_scripts(c, false);
  REQUIRE(epilog.size() == 1);
  CHECK(epilog[0][2] == "echo bye");
}

TEST_CASE("the prolog environment is Slurm's") {
  Config c;
  c.cluster_name = "lab";
  Job job;
  job.id = 12;
  job.user_name = "alice";
  job.user_id = 1000;
  job.group_id = 1000;
  job.partition = "gpu";
  job.account = "lab";
  job.spec.name = "train";
  job.array_job_id = 10;
  job.array_task_id = 2;
  NodeAlloc a;
  a.node = "g-1";
  a.gpu_ids = {1, 3};
  NodeAlloc b;
  b.node = "g-2";
  job.alloc = {a, b};
  auto env = daemon::script_environment(job, c);
  CHECK(value_of(env, "SLURM_JOB_ID") == "12");
  CHECK(value_of(env, "SLURM_JOBID") == "12");
  CHECK(value_of(env, "SLURM_JOB_USER") == "alice");
  CHECK(value_of(env, "SLURM_JOB_UID") == "1000");
  CHECK(value_of(env, "SLURM_JOB_PARTITION") == "gpu");
  CHECK(value_of(env, "SLURM_JOB_NAME") == "train");
  CHECK(value_of(env, "SLURM_JOB_ACCOUNT") == "lab");
  CHECK(value_of(env, "SLURM_JOB_NODELIST") == "g-[1-2]");
  CHECK(value_of(env, "SLURM_CLUSTER_NAME") == "lab");
  CHECK(value_of(env, "SLURM_ARRAY_JOB_ID") == "10");
  CHECK(value_of(env, "SLURM_ARRAY_TASK_ID") == "2");
  CHECK(value_of(env, "CUDA_VISIBLE_DEVICES") == "1,3");
  CHECK(value_of(env, "PATH") == "(unset)");
}

TEST_CASE("the requeue marker keeps a node failure and whether the job is requeued") {
  char tmpl[] = "/tmp/stint-daemon-XXXXXX";
  Paths paths{::mkdtemp(tmpl)};
  daemon::RequeueMarker m;
  m.node_fail = true;
  m.requeue = false;
  daemon::write_requeue_marker(paths, 7, m);
  auto back = daemon::read_requeue_marker(paths, 7);
  REQUIRE(back);
  CHECK(back->node_fail);
  CHECK_FALSE(back->requeue);
  daemon::write_requeue_marker(paths, 7, daemon::RequeueMarker{true, true, false, true});
  back = daemon::read_requeue_marker(paths, 7);
  REQUIRE(back);
  CHECK(back->admin_hold);
  CHECK(back->requeue);
  CHECK_FALSE(back->node_fail);
  daemon::clear_requeue_marker(paths, 7);
  CHECK_FALSE(daemon::read_requeue_marker(paths, 7));
  std::system(("rm -rf '" + paths.state_dir + "'").c_str());
}
