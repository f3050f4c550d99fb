// The registry of cluster runs (the slurm run backend).

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/store.hpp>

namespace {

struct RegistryDir {
  std::string path;
  RegistryDir() {
    char tmpl[] = "/tmp/stint-registry-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~RegistryDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

stint::ClusterRun cluster_run(std::uint32_t number) {
  stint::ClusterRun r;
  r.project = "mnist";
  r.number = number;
  r.cluster_job_id = 40 + number;
  r.login = "me@login1";
  r.user_id = 1000;
  r.spec.nodes = 2;
  stint::RunInfo info;
  info.project = "mnist";
  info.number = number;
  info.env = {{"LR", "0.1"}};
  info.command = {"python3", "train.py"};
  info.backend = "slurm";
  r.spec.run = info;
  r.ports = {{20000, 20001}, {20002, 20003}};
  r.state = stint::JobState::running;
  stint::NodeAlloc n;
  n.node = "n1";
  n.ports = {20000, 20001};
  r.nodes = {n, n};
  r.nodes[1].node = "n2";
  return r;
}

}  // namespace

TEST_CASE(
    "cluster runs are kept (less their variables' values), found by project, and numbered with the "
    "jobs' runs",
    "[store]") {
  RegistryDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->save_cluster_run(cluster_run(1));
  auto second = cluster_run(2);
  second.state = stint::JobState::failed;
  second.settled = true;
  second.spec.run->lost = "vanished";
  store->save_cluster_run(second);
  const auto all = store->cluster_runs("mnist");
  REQUIRE(all.size() == 2);
  CHECK(all[0].login == "me@login1");
  CHECK(all[0].cluster_job_id == 41);
  CHECK(all[0].ports == cluster_run(1).ports);
  CHECK(all[0].nodes[1].node == "n2");
  // The values of a run's variables are not kept here, where every user reads.
  CHECK(all[0].spec.run->env == std::vector<std::pair<std::string, std::string>>{{"LR", ""}});
  CHECK(all[1].spec.run->lost == "vanished");
  CHECK(store->cluster_runs("other").empty());
  const auto live = store->live_cluster_runs();
  REQUIRE(live.size() == 1);  // the second has ended and was asked about once more
  CHECK(live[0].number == 1);
  CHECK(store->max_run_number("mnist") == 2);
  // A record is replaced, not added.
  auto first = cluster_run(1);
  first.state = stint::JobState::completed;
  store->save_cluster_run(first);
  CHECK(store->cluster_runs("").size() == 2);
  CHECK(store->cluster_runs("mnist")[0].state == stint::JobState::completed);
}
