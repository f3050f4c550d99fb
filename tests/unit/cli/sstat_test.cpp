#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

#include "cli/sstat_fields.hpp"
#include "cli/sstat_usage.hpp"

using namespace stint::cli::sstat;

namespace {

std::size_t at(Tres t) { return static_cast<std::size_t>(t); }

TaskUsage task(std::uint32_t id, std::string node, std::uint64_t rss_kb, std::uint64_t hwm_kb,
               std::uint64_t ticks, std::uint64_t rchar, std::uint64_t wchar) {
  TaskUsage t;
  t.task = id;
  t.node = std::move(node);
  t.cpu_mhz = 2793;
  ProcessFigures f;
  f.rss_kb = rss_kb;
  f.rss_peak_kb = hwm_kb;
  f.vsize_kb = 2920;
  f.vsize_peak_kb = 2920;
  f.cpu_ticks = ticks;
  f.read_bytes = rchar;
  f.write_bytes = wchar;
  add_process(t, static_cast<int>(100 + id), f);
  return t;
}

}  // namespace

TEST_CASE("sstat reads a process's environment", "[sstat]") {
  using namespace std::string_literals;
  const std::string env =
      "PATH=/bin\0SLURM_JOB_ID=12\0SLURM_STEP_ID=0\0SLURM_PROCID=3\0SLURMD_NODENAME=n-2\0"
      "SLURM_CONF=/s/slurm.conf\0"s;
  const auto parsed = parse_environ(env);
  REQUIRE(parsed);
  CHECK(parsed->job_id == "12");
  CHECK(parsed->step_id == "0");
  CHECK(parsed->task == 3);
  CHECK(parsed->node == "n-2");
  CHECK(parsed->conf == "/s/slurm.conf");
  // The batch script's processes have no step id; others no job at all.
  const auto batch = parse_environ("SLURM_JOB_ID=12\0SLURM_PROCID=0\0"s);
  REQUIRE(batch);
  CHECK(batch->step_id.empty());
  CHECK_FALSE(parse_environ("HOME=/root\0SLURM_JOB_IDX=1\0"s));
}

TEST_CASE("sstat reads /proc/PID/stat, status and io", "[sstat]") {
  ProcessFigures f;
  // A command name with spaces and parentheses; utime 7, stime 3, cutime 20,
  // cstime 10; majflt 2, cmajflt 1.
  const std::string stat =
      "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 2 1 7 3 20 10 20 0 1 0 123 4096 256 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  REQUIRE(parse_proc_stat(stat, f));
  CHECK(f.cpu_ticks == 40);
  CHECK(f.major_faults == 3);
  CHECK_FALSE(parse_proc_stat("4242 (x", f));

  parse_proc_status(
      "Name:\tbash\nVmPeak:\t    9000 kB\nVmSize:\t    8000 kB\nVmHWM:\t    3000 kB\n"
      "VmRSS:\t    2000 kB\nThreads:\t1\n",
      f);
  CHECK(f.vsize_peak_kb == 9000);
  CHECK(f.vsize_kb == 8000);
  CHECK(f.rss_peak_kb == 3000);
  CHECK(f.rss_kb == 2000);

  parse_proc_io("rchar: 6977\nwchar: 1048576\nsyscr: 9\nread_bytes: 0\nwrite_bytes: 4096\n", f);
  CHECK(f.read_bytes == 6977);
  CHECK(f.write_bytes == 1048576);

  CHECK(parse_cpuinfo_mhz("processor\t: 0\ncpu MHz\t\t: 2793.438\ncache size\t: 1\n") == 2793);
  CHECK(parse_cpuinfo_mhz("processor\t: 0\n") == 0);
}

TEST_CASE("sstat sums a task's processes", "[sstat]") {
  TaskUsage t;
  ProcessFigures a, b;
  a.rss_kb = 100;
  a.rss_peak_kb = 150;
  b.rss_kb = 50;  // no VmHWM read: its current size is its peak
  a.cpu_ticks = 5;
  b.cpu_ticks = 7;
  add_process(t, 30, a);
  add_process(t, 20, b);
  CHECK(t.pids == std::vector<int>{20, 30});
  CHECK(t.sum.rss_kb == 150);
  CHECK(t.sum.rss_peak_kb == 200);
  CHECK(t.sum.cpu_ticks == 12);
}

TEST_CASE("sstat aggregates tasks as Slurm does", "[sstat]") {
  const std::vector<TaskUsage> tasks = {task(0, "n-1", 1620, 1620, 100, 500, 10),
                                        task(1, "n-2", 1652, 1700, 300, 500, 30),
                                        task(2, "n-2", 1000, 1000, 200, 800, 20)};
  const StepUsage u = aggregate(tasks, 100);
  CHECK(u.tasks == 3);
  CHECK(u.nodes == std::vector<std::string>{"n-1", "n-2"});
  CHECK(u.pids == std::vector<int>{100, 101, 102});
  // Max: the highest peak, its task and node; ties keep the first task.
  CHECK(u.in_max[at(Tres::mem)] == 1700 * 1024);
  CHECK(u.in_max_task[at(Tres::mem)] == 1);
  CHECK(u.in_max_node[at(Tres::mem)] == "n-2");
  CHECK(u.in_max[at(Tres::fs_disk)] == 800);
  CHECK(u.in_max_task[at(Tres::fs_disk)] == 2);
  // Min compares the tasks' peaks too.
  CHECK(u.in_min[at(Tres::mem)] == 1000 * 1024);
  CHECK(u.in_min_task[at(Tres::mem)] == 2);
  // CPU in milliseconds (Slurm's CPU_TIME_ADJ): 100 ticks at 100/s is 1 s.
  CHECK(u.in_min[at(Tres::cpu)] == 1000);
  CHECK(u.in_min_task[at(Tres::cpu)] == 0);
  CHECK(u.in_tot[at(Tres::cpu)] == 6000);
  CHECK(u.in_ave[at(Tres::cpu)] == 2000);
  // Ave is the current figures over the tasks, whole.
  CHECK(u.in_ave[at(Tres::mem)] == (1620 + 1652 + 1000) * 1024 / 3);
  // Energy is per node: no task named for it.
  CHECK(u.in_max[at(Tres::energy)] == 0);
  CHECK_FALSE(u.in_max_task[at(Tres::energy)]);
  CHECK(u.in_max_node[at(Tres::energy)] == "n-1");
  // Out: disk writes and energy only.
  CHECK(u.out_max[at(Tres::fs_disk)] == 30);
  CHECK(u.out_max_task[at(Tres::fs_disk)] == 1);
  CHECK_FALSE(u.out_max[at(Tres::mem)]);
  CHECK(u.cpu_mhz == 2793);
}

TEST_CASE("sstat converts units as Slurm's convert_num_unit", "[sstat]") {
  CHECK(convert_units(0, 1024, false, true) == "0");
  CHECK(convert_units(1691648, 1024, false, true) == "1652K");
  CHECK(convert_units(64477312, 1024, false, true) == "64477312");
  CHECK(convert_units(1572864, 1024, false, true) == "1.50M");
  CHECK(convert_units(1691648, 1024, false, false) == "1691648");
  CHECK(convert_units(2793, 1000, true, true, 1) == "2.79M");
  CHECK(convert_units(2300, 1000, true, true, 1) == "2.30M");
}

TEST_CASE("sstat reads --format as Slurm does", "[sstat]") {
  const std::vector<Field> fields = parse_fields("JobID,maxrss%20,AveCPU%-12,ntas");
  REQUIRE(fields.size() == 4);
  CHECK(fields[0].width == -12);
  CHECK(fields[1].width == 20);
  CHECK(fields[2].width == -12);
  CHECK(fields[3].width == 8);
  // An empty item ends the list; "%x" is no width.
  CHECK(parse_fields("jobid,,ntasks").size() == 1);
  CHECK(parse_fields("ntasks%x").front().width == 8);
  CHECK_THROWS_WITH(parse_fields("jobid,bogus"), "Invalid field requested: \"bogus\"");
  CHECK(parse_fields(default_fields()).size() == 47);
}

TEST_CASE("sstat prints Slurm's header and lines", "[sstat]") {
  Output o;
  o.fields = parse_fields("JobID,MaxRSS,AveCPU,NTasks");
  CHECK(render_header(o) ==
        "JobID            MaxRSS     AveCPU   NTasks \n"
        "------------ ---------- ---------- -------- \n");
  const std::vector<TaskUsage> tasks = {task(0, "n-1", 1680, 1680, 0, 0, 0)};
  const StepUsage u = aggregate(tasks, 100);
  StepLine line;
  line.id = "115.0";
  line.usage = &u;
  CHECK(render_line(o, line) == "115.0             1680K   00:00:00        1 \n");
  o.parsable = stint::format::Parsable::trailing;
  CHECK(render_header(o) == "JobID|MaxRSS|AveCPU|NTasks|\n");
  CHECK(render_line(o, line) == "115.0|1680K|00:00:00|1|\n");
  o.parsable = stint::format::Parsable::no_trailing;
  CHECK(render_line(o, line) == "115.0|1680K|00:00:00|1\n");

  // The TRES strings, and a string cut to its width with '+'.
  Output tres;
  tres.parsable = stint::format::Parsable::no_trailing;
  tres.fields = parse_fields("tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageoutave");
  CHECK(render_line(tres, line) ==
        "cpu=00:00:00,energy=0,fs/disk=0,mem=1680K,pages=0,vmem=2920K|"
        "cpu=n-1,energy=n-1,fs/disk=n-1,mem=n-1,pages=n-1,vmem=n-1|"
        "cpu=00:00:00,fs/disk=0,mem=0,pages=0,vmem=0|energy=0,fs/disk=0\n");
  tres.parsable = stint::format::Parsable::no;
  tres.fields = parse_fields("tresusageinmax");
  CHECK(render_line(tres, line) == "cpu=00:00:00,+ \n");
}

TEST_CASE("sstat --helpformat lists the fields four to a line", "[sstat]") {
  const std::string text = helpformat();
  CHECK(
      text.starts_with("AveCPU              AveCPUFreq          AveDiskRead         AveDiskWrite"
                       "       \nAvePages "));
  CHECK(text.ends_with("TRESUsageOutTot    \n"));
}
