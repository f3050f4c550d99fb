#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;
using sched::DependencyStatus;
using sched::DependencyView;

namespace {

// A small world of jobs the dependency names, by id.
struct World {
  std::map<JobId, std::vector<DependencyView>> jobs;
  sched::DependencyLookup lookup() const {
    return [this](JobId id) {
      auto it = jobs.find(id);
      return it == jobs.end() ? std::vector<DependencyView>{} : it->second;
    };
  }
  void add(JobId id, JobState s, Seconds start = 0, std::uint32_t task = k_no_array_task,
           JobId array = 0) {
    jobs[array ? array : id].push_back(DependencyView{id, task, s, start});
  }
};

Job depending(std::vector<DependencyTerm> terms, bool any = false) {
  Job j;
  j.id = 100;
  j.dependency.terms = std::move(terms);
  j.dependency.any = any;
  return j;
}

DependencyTerm term(DependencyType t, JobId id, Seconds delay = 0,
                    std::uint32_t task = k_no_array_task) {
  return DependencyTerm{t, id, task, delay};
}

}  // namespace

TEST_CASE("afterok waits, is satisfied by success and never by failure", "[sched][depend]") {
  World w;
  Job j = depending({term(DependencyType::afterok, 1)});
  w.add(1, JobState::running, 10);
  CHECK(sched::evaluate_dependency(j, w.lookup(), false, 100) == DependencyStatus::waiting);
  w.jobs.clear();
  w.add(1, JobState::completed, 10);
  CHECK(sched::evaluate_dependency(j, w.lookup(), false, 100) == DependencyStatus::satisfied);
  w.jobs.clear();
  w.add(1, JobState::failed, 10);
  CHECK(sched::evaluate_dependency(j, w.lookup(), false, 100) == DependencyStatus::never);
  w.jobs.clear();
  CHECK(sched::evaluate_dependency(j, w.lookup(), false, 100) == DependencyStatus::never);
}

TEST_CASE("afterany, afternotok and after with a delay", "[sched][depend]") {
  World w;
  w.add(1, JobState::failed, 10);
  w.add(2, JobState::completed, 10);
  w.add(3, JobState::running, 50);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afterany, 1)}), w.lookup(),
                                   false, 100) == DependencyStatus::satisfied);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afternotok, 1)}), w.lookup(),
                                   false, 100) == DependencyStatus::satisfied);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afternotok, 2)}), w.lookup(),
                                   false, 100) == DependencyStatus::never);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afterany, 3)}), w.lookup(),
                                   false, 100) == DependencyStatus::waiting);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::after, 3)}), w.lookup(), false,
                                   100) == DependencyStatus::satisfied);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::after, 3, 60)}), w.lookup(),
                                   false, 100) == DependencyStatus::waiting);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::after, 3, 60)}), w.lookup(),
                                   false, 110) == DependencyStatus::satisfied);
}

TEST_CASE("',' needs every term, '?' any one", "[sched][depend]") {
  World w;
  w.add(1, JobState::completed, 10);
  w.add(2, JobState::failed, 10);
  w.add(3, JobState::pending);
  auto all = depending({term(DependencyType::afterok, 1), term(DependencyType::afterok, 3)});
  CHECK(sched::evaluate_dependency(all, w.lookup(), false, 100) == DependencyStatus::waiting);
  auto all_bad = depending({term(DependencyType::afterok, 1), term(DependencyType::afterok, 2)});
  CHECK(sched::evaluate_dependency(all_bad, w.lookup(), false, 100) == DependencyStatus::never);
  auto any = depending({term(DependencyType::afterok, 2), term(DependencyType::afterok, 1)}, true);
  CHECK(sched::evaluate_dependency(any, w.lookup(), false, 100) == DependencyStatus::satisfied);
  auto any_never =
      depending({term(DependencyType::afterok, 2), term(DependencyType::afterok, 99)}, true);
  CHECK(sched::evaluate_dependency(any_never, w.lookup(), false, 100) == DependencyStatus::never);
}

TEST_CASE("arrays: the whole array, one task, and aftercorr", "[sched][depend]") {
  World w;
  w.add(10, JobState::completed, 5, 0, 10);
  w.add(11, JobState::failed, 5, 1, 10);
  w.add(12, JobState::running, 5, 2, 10);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afterok, 10)}), w.lookup(),
                                   false, 100) == DependencyStatus::never);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afterok, 10, 0, 0)}), w.lookup(),
                                   false, 100) == DependencyStatus::satisfied);
  CHECK(sched::evaluate_dependency(depending({term(DependencyType::afterany, 10)}), w.lookup(),
                                   false, 100) == DependencyStatus::waiting);
  Job corr = depending({term(DependencyType::aftercorr, 10)});
  corr.array_job_id = 20;
  corr.array_task_id = 0;
  CHECK(sched::evaluate_dependency(corr, w.lookup(), false, 100) == DependencyStatus::satisfied);
  corr.array_task_id = 1;
  CHECK(sched::evaluate_dependency(corr, w.lookup(), false, 100) == DependencyStatus::never);
  corr.array_task_id = 2;
  CHECK(sched::evaluate_dependency(corr, w.lookup(), false, 100) == DependencyStatus::waiting);
}

TEST_CASE("singleton follows the caller's view of same-name jobs", "[sched][depend]") {
  World w;
  Job j = depending({DependencyTerm{DependencyType::singleton, 0, k_no_array_task, 0}});
  CHECK(sched::evaluate_dependency(j, w.lookup(), true, 100) == DependencyStatus::waiting);
  CHECK(sched::evaluate_dependency(j, w.lookup(), false, 100) == DependencyStatus::satisfied);
}

TEST_CASE("the array throttle holds tasks back with JobArrayTaskLimit", "[sched]") {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.cpus = 8;
  pool.memory_mb = 8192;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  std::vector<Job> tasks;
  for (std::uint32_t t = 0; t < 5; ++t) {
    Job j;
    j.id = 10 + t;
    j.partition = "debug";
    j.array_job_id = 10;
    j.array_task_id = t;
    j.array_throttle = 2;
    j.req.cpus_per_node = 1;
    j.req.mem_per_node_mb = 10;
    j.priority = 1;
    tasks.push_back(j);
  }
  std::vector<const Job*> pending;
  for (const auto& t : tasks) pending.push_back(&t);
  sched::Cluster cluster(c.nodes());
  auto d = sched::schedule(pending, cluster, c, 100, std::map<JobId, std::uint32_t>{{10, 1}});
  CHECK(d.starts.size() == 1);
  CHECK(d.reasons.at(12) == Reason::job_array_task_limit);
}

TEST_CASE("met terms are dropped from a ',' list; a met '?' list goes whole", "[sched][depend]") {
  World w;
  w.add(1, JobState::completed, 10);
  w.add(2, JobState::running, 10);
  Job all = depending({term(DependencyType::afterok, 1), term(DependencyType::afterok, 2)});
  auto left = sched::prune_satisfied(all, w.lookup(), false, 100);
  REQUIRE(left.terms.size() == 1);
  CHECK(left.terms[0].job_id == 2);
  Job any = depending({term(DependencyType::afterok, 2), term(DependencyType::afterok, 1)}, true);
  CHECK(sched::prune_satisfied(any, w.lookup(), false, 100).empty());
}
