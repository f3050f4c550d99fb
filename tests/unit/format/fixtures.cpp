#include "fixtures.hpp"

#include <cstdlib>
#include <ctime>
#include <map>

#include <fmt/core.h>

namespace fixtures {

using stint::Job;
using stint::JobState;
using stint::NodeAlloc;
using stint::Reason;
using stint::Seconds;

Seconds at(int h, int m, int s) {
  // 2026-11-29T00:00:00Z
  constexpr Seconds k_midnight = 1795910400;
  return k_midnight + h * 3600 + m * 60 + s;
}

Seconds queue_now() { return at(18, 0, 41); }
Seconds accounting_now() { return at(18, 2, 33); }

void use_utc() {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
}

namespace {

Job base(stint::JobId id, const std::string& name, JobState state) {
  Job j;
  j.id = id;
  j.spec.name = name;
  j.user_name = "root";
  j.partition = "cpu";
  j.account = "root";
  j.qos = "normal";
  j.state = state;
  j.req.nodes = 1;
  j.req.tasks = 1;
  j.req.cpus_per_task = 1;
  j.req.cpus_per_node = 1;
  // The transcripts' cluster has DefMemPerCPU=256.
  j.req.mem_per_node_mb = 256;
  j.spec.mem_per_cpu_mb = 256;
  j.spec.work_dir = "/tmp/slurm-oracle/jobs";
  j.spec.submit_dir = "/tmp/slurm-oracle/jobs";
  j.spec.submit_host = "localhost";
  j.stdout_path = fmt::format("/tmp/slurm-oracle/jobs/slurm-{}.out", id);
  j.stderr_path = j.stdout_path;
  return j;
}

NodeAlloc on_vm(std::uint32_t cpus, std::uint64_t mem_mb) {
  NodeAlloc a;
  a.node = "vm";
  a.cpus = cpus;
  for (std::uint32_t i = 0; i < cpus; ++i) a.cpu_ids.push_back(i);
  a.mem_mb = mem_mb;
  return a;
}

Job pending(stint::JobId id, const std::string& name, Reason reason, std::uint32_t prio) {
  Job j = base(id, name, JobState::pending);
  j.reason = reason;
  j.priority = prio;
  j.submit_time = at(18, 0, 37);
  j.eligible_time = j.submit_time;
  return j;
}

Job two_cpus(Job j) {
  j.req.cpus_per_task = 2;
  j.req.cpus_per_node = 2;
  j.req.mem_per_node_mb = 512;
  return j;
}

Job ended(stint::JobId id, const std::string& name, JobState state, Seconds start,
          Seconds elapsed) {
  Job j = base(id, name, state);
  j.priority = 10850;
  j.submit_time = start - 1;
  j.eligible_time = j.submit_time;
  j.start_time = start;
  j.end_time = start + elapsed;
  j.alloc = {on_vm(1, 256)};
  j.user_cpu_us = 1000;
  j.sys_cpu_us = 1000;
  return j;
}

// The tasks of each array that have not started, held, been requeued or
// changed alone folded into the array's record, as stintd keeps them: the
// lowest such task's job holds them all.
std::vector<Job> with_array_records(std::vector<Job> jobs) {
  std::map<stint::JobId, std::size_t> record_of;  // array -> index in `out`
  std::vector<Job> out;
  for (Job& j : jobs) {
    const bool in_record = j.is_array_task() && j.state == JobState::pending &&
                           j.restart_count == 0 && !j.array_split && j.hold_reason == Reason::none;
    if (!in_record) {
      out.push_back(std::move(j));
      continue;
    }
    auto [at, added] = record_of.try_emplace(j.array_job_id, out.size());
    if (added) {
      const std::uint32_t task = j.array_task_id;
      j.array_task_id = stint::k_no_array_task;
      j.array_pending.insert(task);
      out.push_back(std::move(j));
    } else {
      Job& record = out[at->second];
      record.array_pending.insert(j.array_task_id);
      if (j.id < record.id) record.id = j.id;
    }
  }
  return out;
}

}  // namespace

std::vector<Job> queue_jobs() {
  std::vector<Job> jobs;

  Job blocker = two_cpus(base(21, "blocker", JobState::running));
  blocker.priority = 11100;
  blocker.submit_time = at(18, 0, 34);
  blocker.eligible_time = blocker.submit_time;
  blocker.start_time = at(18, 0, 37);
  blocker.time_limit = 600;
  blocker.alloc = {on_vm(2, 512)};
  jobs.push_back(blocker);

  Job pend1 = pending(22, "pend1", Reason::priority, 10850);
  pend1.time_limit = 300;
  jobs.push_back(pend1);

  Job pend2 = two_cpus(pending(23, "pend2", Reason::resources, 11100));
  pend2.time_limit = 300;
  pend2.spec.mem_per_cpu_mb.reset();
  pend2.spec.mem_per_node_mb = 1024;
  pend2.req.mem_per_node_mb = 1024;
  jobs.push_back(pend2);

  jobs.push_back(pending(24, "depjob", Reason::dependency, 10850));

  Job later = pending(25, "later", Reason::begin_time, 10850);
  // The scheduler's expected start of a job waiting for its --begin time.
  later.start_time = at(19, 0, 37);
  later.eligible_time = later.start_time;
  jobs.push_back(later);

  Job held = pending(26, "held", Reason::none, 0);
  held.hold_reason = Reason::job_held_user;
  held.eligible_time = stint::k_no_time;
  jobs.push_back(held);

  Job admhold = pending(27, "admhold", Reason::none, 0);
  admhold.hold_reason = Reason::job_held_admin;
  jobs.push_back(admhold);

  Job niced = pending(29, "niced", Reason::priority, 10750);
  niced.spec.nice = 100;
  jobs.push_back(niced);
  return jobs;
}

std::vector<Job> accounting_jobs() {
  std::vector<Job> jobs;

  Job pend1 = pending(22, "pend1", Reason::priority, 10850);
  pend1.state = JobState::cancelled;
  pend1.time_limit = 300;
  pend1.end_time = at(18, 1, 1);
  jobs.push_back(pend1);

  Job pend2 = ended(23, "pend2", JobState::completed, at(18, 0, 47), 5);
  pend2 = two_cpus(pend2);
  pend2.req.mem_per_node_mb = 1024;
  pend2.spec.mem_per_cpu_mb.reset();
  pend2.spec.mem_per_node_mb = 1024;
  pend2.alloc = {on_vm(2, 1024)};
  jobs.push_back(pend2);

  Job exit1 = ended(32, "exit1", JobState::failed, at(18, 1, 5), 0);
  exit1.exit_status = 1;
  exit1.reason = Reason::non_zero_exit_code;
  jobs.push_back(exit1);

  Job kill9 = ended(33, "kill9", JobState::failed, at(18, 1, 6), 0);
  kill9.exit_signal = 9;
  jobs.push_back(kill9);

  Job term = ended(34, "term", JobState::failed, at(18, 1, 7), 0);
  term.exit_signal = 15;
  jobs.push_back(term);

  Job segv = ended(35, "segv", JobState::failed, at(18, 1, 8), 0);
  segv.exit_status = 11;
  segv.user_cpu_us = 100000;
  segv.sys_cpu_us = 40000;
  jobs.push_back(segv);

  Job timeout = ended(36, "timeout", JobState::timeout, at(18, 1, 19), 71);
  timeout.exit_signal = 15;
  timeout.time_limit = 60;
  timeout.max_rss_kb = 3240;
  timeout.user_cpu_us = 2000;
  jobs.push_back(timeout);

  Job tocancel = ended(38, "tocancel", JobState::cancelled, at(18, 1, 30), 1);
  tocancel.exit_signal = 15;
  jobs.push_back(tocancel);
  return jobs;
}

std::vector<Job> queue_array_jobs() {
  std::vector<Job> jobs = queue_jobs();
  std::vector<Job> tasks;
  for (std::uint32_t task = 1; task <= 10; ++task) {
    Job t = pending(task == 1 ? 28 : 28 + task, "arr", Reason::priority, 10850);
    t.array_job_id = 28;
    t.array_task_id = task;
    t.array_throttle = 2;
    t.time_limit = 120;
    t.eligible_time = at(18, 0, 40);
    t.stdout_path = fmt::format("/tmp/slurm-oracle/jobs/slurm-28_{}.out", task);
    t.stderr_path = t.stdout_path;
    tasks.push_back(t);
  }
  for (Job& record : with_array_records(std::move(tasks))) jobs.push_back(std::move(record));
  return jobs;
}

namespace {

Job task_of(stint::JobId id, stint::JobId array, std::uint32_t task, std::uint32_t throttle,
            const std::string& name) {
  Job t = pending(id, name, Reason::none, 10850);
  t.array_job_id = array;
  t.array_task_id = task;
  t.array_throttle = throttle;
  return t;
}

Job waiting_on(stint::JobId id, const std::string& name, std::vector<stint::DependencyTerm> terms,
               bool any = false) {
  Job j = pending(id, name, Reason::dependency, 10850);
  j.submit_time = at(18, 4, 35);
  j.eligible_time = stint::k_no_time;
  j.dependency.terms = std::move(terms);
  j.dependency.any = any;
  return j;
}

stint::DependencyTerm on(stint::DependencyType type, stint::JobId id) {
  stint::DependencyTerm t;
  t.type = type;
  t.job_id = id;
  return t;
}

Job completed_at(Job j, Seconds start, Seconds elapsed, int status = 0) {
  j.state = status == 0 ? JobState::completed : JobState::failed;
  j.reason = status == 0 ? Reason::none : Reason::non_zero_exit_code;
  j.exit_status = status;
  j.start_time = start;
  j.end_time = start + elapsed;
  j.alloc = {on_vm(1, 256)};
  return j;
}

}  // namespace

Seconds arrays_now() { return at(18, 4, 40); }

std::vector<Job> array_jobs() { return with_array_records(array_task_rows()); }

std::vector<Job> array_task_rows() {
  using stint::DependencyType;
  std::vector<Job> jobs;
  for (std::uint32_t task = 1; task <= 10; ++task) {
    Job t = task_of(76 + task, 77, task, 2, "arr");
    t.submit_time = at(18, 3, 59);
    t.eligible_time = t.submit_time;
    if (task <= 4) {
      const Seconds start = task <= 2 ? at(18, 4, 0) : at(18, 4, 4);
      t = completed_at(t, start, 3);
    } else {
      t.reason = Reason::job_array_task_limit;
    }
    jobs.push_back(t);
  }
  const stint::JobId mixed_ids[] = {87, 90, 91, 92};
  for (std::uint32_t task = 0; task < 4; ++task) {
    Job t = task_of(mixed_ids[task], 87, task, 0, "mixed");
    t.submit_time = at(18, 4, 20);
    t.eligible_time = t.submit_time;
    jobs.push_back(t);
  }
  Job after = waiting_on(88, "after-array", {on(DependencyType::afterok, 87)});
  after.submit_time = at(18, 4, 20);
  jobs.push_back(after);
  Job afterany = waiting_on(89, "afterany-array", {on(DependencyType::afterany, 87)});
  afterany.submit_time = at(18, 4, 20);
  jobs.push_back(afterany);

  Job first = base(93, "first", JobState::running);
  first.priority = 10850;
  first.submit_time = at(18, 4, 32);
  first.eligible_time = first.submit_time;
  first.start_time = at(18, 4, 35);
  first.alloc = {on_vm(1, 256)};
  jobs.push_back(first);
  jobs.push_back(waiting_on(95, "d-afterok", {on(DependencyType::afterok, 93)}));
  jobs.push_back(waiting_on(96, "d-afterany", {on(DependencyType::afterany, 93)}));
  jobs.push_back(waiting_on(97, "d-afternotok", {on(DependencyType::afternotok, 93)}));
  jobs.push_back(
      waiting_on(98, "d-and", {on(DependencyType::afterany, 93), on(DependencyType::afterok, 93)}));
  jobs.push_back(waiting_on(
      99, "d-or", {on(DependencyType::afterany, 93), on(DependencyType::afterok, 93)}, true));
  Job single = pending(100, "single", Reason::resources, 10850);
  single.submit_time = at(18, 4, 35);
  single.eligible_time = single.submit_time;
  jobs.push_back(single);
  jobs.push_back(waiting_on(101, "single", {on(DependencyType::singleton, 0)}));
  jobs.push_back(waiting_on(102, "single", {on(DependencyType::singleton, 0)}));
  return jobs;
}

std::vector<Job> array_jobs_later() {
  std::vector<Job> jobs = array_task_rows();
  for (Job& j : jobs) {
    if (j.array_job_id == 87) {
      // Tasks 1 and 3 exit 1.
      j = completed_at(j, at(18, 4, 22), 1, j.array_task_id % 2 == 1 ? 1 : 0);
    } else if (j.id == 88 || j.id == 95 || j.id == 98) {
      j.reason = Reason::dependency_never_satisfied;
      j.priority = 0;
    } else if (j.id == 93) {
      j = completed_at(j, at(18, 4, 35), 8, 2);
    } else if (j.id == 89) {
      j = completed_at(j, at(18, 4, 24), 0);
    } else if (j.id >= 96 && j.id <= 102) {
      const Seconds start = j.id == 100 ? at(18, 4, 41) : at(18, 4, 44);
      j = completed_at(j, start, j.id >= 100 ? 3 : 0);
    } else if (j.array_job_id == 77 && j.state == JobState::pending) {
      const Seconds start = at(18, 4, 8) + 4 * ((j.array_task_id - 5) / 2);
      j = completed_at(j, start, 3);
    }
  }
  return with_array_records(std::move(jobs));
}

Seconds requeue_now() { return at(18, 10, 0); }

std::vector<Job> requeue_jobs() {
  std::vector<Job> jobs;
  Job low = base(108, "low", JobState::preempted);
  low.priority = 2516;
  low.submit_time = at(18, 6, 1);
  low.eligible_time = low.submit_time;
  low.start_time = at(18, 6, 3);
  low.end_time = at(18, 6, 6);
  low.exit_signal = 15;
  low.alloc = {on_vm(1, 256)};
  jobs.push_back(low);

  Job noreq = low;
  noreq.id = 109;
  noreq.spec.name = "low-noreq";
  noreq.requeue = false;
  jobs.push_back(noreq);

  Job urgent = base(110, "urgent", JobState::completed);
  urgent.partition = "high";
  urgent.priority = 3666;
  urgent.submit_time = at(18, 6, 5);
  urgent.eligible_time = urgent.submit_time;
  urgent.start_time = at(18, 6, 6);
  urgent.end_time = at(18, 6, 11);
  urgent.alloc = {on_vm(2, 512)};
  jobs.push_back(urgent);

  // The second attempt: queued again at the preemption, eligible after the
  // requeue delay, then completed.
  Job again = low;
  again.state = JobState::completed;
  again.reason = Reason::begin_time;
  again.restart_count = 1;
  again.exit_signal = 0;
  again.submit_time = at(18, 6, 6);
  again.eligible_time = at(18, 8, 7);
  again.start_time = at(18, 8, 49);
  again.end_time = at(18, 9, 49);
  jobs.push_back(again);
  return jobs;
}

std::vector<stint::query::NodeInfo> cluster_nodes() {
  stint::query::NodeInfo vm;
  vm.name = "vm";
  vm.pool_id = "vm";
  vm.cpus = 2;
  vm.cpus_alloc = 2;
  vm.memory_mb = 23849;
  vm.memory_alloc_mb = 512;
  vm.state = stint::query::NodeState::allocated;
  vm.partitions = {"cpu", "high"};
  vm.jobs = {21};
  vm.last_busy = at(18, 0, 34);
  return {vm};
}

std::vector<stint::query::PartitionInfo> cluster_partitions() {
  stint::query::PartitionInfo cpu;
  cpu.name = "cpu";
  cpu.is_default = true;
  cpu.priority_tier = 1;
  cpu.nodes = {"vm"};
  cpu.total_cpus = 2;
  cpu.total_memory_mb = 23849;
  stint::query::PartitionInfo high = cpu;
  high.name = "high";
  high.is_default = false;
  high.priority_tier = 10;
  return {cpu, high};
}

std::vector<stint::query::NodeInfo> four_nodes() {
  std::vector<stint::query::NodeInfo> nodes;
  for (int i = 1; i <= 4; ++i) {
    stint::query::NodeInfo n;
    n.name = fmt::format("n{}", i);
    n.pool_id = "n";
    n.cpus = 2;
    n.memory_mb = 23849;
    n.partitions = {"cpu", "high"};
    nodes.push_back(n);
  }
  // n2 runs a 1-CPU job with two of its four GPUs; n3 is full.
  for (auto& n : nodes) {
    n.gpus = 4;
    n.gpu_type = "a100";
  }
  nodes[1].cpus_alloc = 1;
  nodes[1].memory_alloc_mb = 1024;
  nodes[1].gpu_ids_alloc = {0, 1};
  nodes[1].state = stint::query::NodeState::mixed;
  nodes[1].jobs = {117};
  nodes[2].cpus_alloc = 2;
  nodes[2].memory_alloc_mb = 2048;
  nodes[2].state = stint::query::NodeState::allocated;
  nodes[2].jobs = {118};
  return nodes;
}

std::vector<stint::query::PartitionInfo> four_partitions() {
  auto parts = cluster_partitions();
  for (auto& p : parts) {
    p.nodes = {"n1", "n2", "n3", "n4"};
    p.total_cpus = 8;
    p.total_memory_mb = 4 * 23849;
    p.total_gpus = 16;
  }
  parts[0].max_time = 2 * 86400;
  parts[0].default_time = 3600;
  return parts;
}

stint::format::Context context(Seconds now) {
  stint::format::Context ctx;
  ctx.now = now;
  ctx.cluster_name = "stint";
  ctx.partition_tier = {{"cpu", 1}, {"high", 10}};
  ctx.group_name = [](std::uint32_t gid) { return gid == 0 ? std::string("root") : std::string(); };
  ctx.arch = "x86_64";
  ctx.os = "Linux 6.1.0";
  ctx.boot_time = at(16, 25, 40);
  ctx.version = "0.1.0";
  return ctx;
}

}  // namespace fixtures
