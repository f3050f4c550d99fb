#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/format.hpp>

#include "fixtures.hpp"

using stint::format::Align;

TEST_CASE("pad aligns and cuts as Slurm's printf does") {
  using stint::format::pad;
  CHECK(pad("abc", 0, Align::right) == "abc");
  CHECK(pad("abc", 5, Align::right) == "  abc");
  CHECK(pad("abc", 5, Align::left) == "abc  ");
  // Right-aligned values are cut to the width unless the column keeps them
  // (node lists); left-aligned ones are always cut ("%.Ns").
  CHECK(pad("BeginTime", 8, Align::right) == "BeginTim");
  CHECK(pad("n[1-100]", 4, Align::right, false) == "n[1-100]");
  CHECK(pad("n[1-100]", 4, Align::left, false) == "n[1-");
}

TEST_CASE("id_ranges folds consecutive ids") {
  using stint::format::id_ranges;
  CHECK(id_ranges({}) == "");
  CHECK(id_ranges({0}) == "0");
  CHECK(id_ranges({0, 1, 2, 5}) == "0-2,5");
  CHECK(id_ranges({7, 3, 4, 4}) == "3-4,7");
}

TEST_CASE("date_line is ctime's layout") {
  fixtures::use_utc();
  CHECK(stint::format::date_line(fixtures::queue_now()) == "Sun Nov 29 18:00:41 2026");
  CHECK(stint::format::date_line(fixtures::at(0, 0, 0) - 24 * 86400) == "Thu Nov  5 00:00:00 2026");
}

TEST_CASE("squeue format strings: prefix, suffix, literal percent") {
  auto l = stint::format::parse_squeue_format("id=%.5i%%|%j end");
  CHECK(l.prefix == "id=");
  REQUIRE(l.fields.size() == 2);
  CHECK(l.fields[0].width == 5);
  CHECK(l.fields[0].align == Align::right);
  CHECK(l.fields[0].suffix == "%|");
  CHECK(l.fields[1].width == 0);
  CHECK(l.fields[1].suffix == " end");

  auto left = stint::format::parse_squeue_format("%-10j");
  REQUIRE(left.fields.size() == 1);
  CHECK(left.fields[0].width == 10);
  CHECK(left.fields[0].align == Align::left);

  auto o = stint::format::parse_squeue_long_format("name:.12 |,state");
  REQUIRE(o.fields.size() == 2);
  CHECK(o.fields[0].width == 12);
  CHECK(o.fields[0].suffix == " |");
  CHECK(o.fields[1].width == 20);
  CHECK(o.fields[1].align == Align::left);
}

TEST_CASE("malformed format strings are errors with Slurm's wording") {
  using stint::Error;
  CHECK_THROWS_AS(stint::format::parse_squeue_format("%.18"), Error);
  CHECK_THROWS_WITH(stint::format::parse_squeue_format("%i %?"),
                    "Invalid job format specification: ?");
  CHECK_THROWS_WITH(stint::format::parse_squeue_long_format(""),
                    "Invalid job format specification: (empty)");
  CHECK_THROWS_WITH(stint::format::parse_sinfo_format("%P %Q"),
                    "Invalid node format specification: Q");
  CHECK_THROWS_WITH(stint::format::parse_sacct_format("JobID,Foo"),
                    "Invalid field requested: \"Foo\"");
  CHECK_THROWS_WITH(stint::format::parse_sacct_format(""), "Invalid field requested: \"\"");
}

TEST_CASE("sacct field names: any case, a leading part, a width") {
  auto f = stint::format::parse_sacct_format("jobid,JOBNAME%30,stat,Elapsed%3");
  REQUIRE(f.size() == 4);
  CHECK(f[0].align == Align::left);
  CHECK(f[0].width == 12);
  CHECK(f[1].width == 30);
  CHECK(f[3].width == 3);
}

TEST_CASE("squeue's default order: partition, state, priority, then newest") {
  fixtures::use_utc();
  auto jobs = fixtures::queue_jobs();
  stint::format::sort_squeue(jobs, "", fixtures::context(fixtures::queue_now()));
  std::vector<stint::JobId> ids;
  for (const auto& j : jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<stint::JobId>{23, 25, 24, 22, 29, 27, 26, 21});

  // A higher partition tier sorts first among pending jobs with -p.
  auto high = fixtures::queue_jobs();
  high[1].partition = "high";  // 22
  stint::format::sort_squeue(high, "-p", fixtures::context(fixtures::queue_now()));
  CHECK(high.front().id == 22);
}

TEST_CASE("effective reason and time used") {
  auto jobs = fixtures::queue_jobs();
  CHECK(stint::format::effective_reason(jobs[5]) == stint::Reason::job_held_user);
  CHECK(stint::format::time_used(jobs[0], fixtures::queue_now()) == 4);
  CHECK(stint::format::time_used(jobs[1], fixtures::queue_now()) == 0);
  CHECK(stint::format::job_tres(jobs[0]) == "cpu=2,mem=512M,node=1,billing=2");
  CHECK(stint::format::job_tres(jobs[2]) == "cpu=2,mem=1G,node=1,billing=2");
}

TEST_CASE("an array's record sorts where its job id is, its tasks in task order") {
  fixtures::use_utc();
  auto jobs = fixtures::queue_array_jobs();
  stint::format::sort_squeue(jobs, "", fixtures::context(fixtures::queue_now()));
  std::vector<stint::JobId> ids;
  for (const auto& j : jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<stint::JobId>{23, 25, 28, 24, 22, 29, 27, 26, 21});
  // squeue -r: the record's tasks, in task order, where the record is.
  jobs = stint::format::expand_array_records(std::move(jobs));
  stint::format::sort_squeue(jobs, "", fixtures::context(fixtures::queue_now()));
  std::vector<std::string> shown;
  for (const auto& j : jobs) shown.push_back(j.display_id());
  CHECK(shown == std::vector<std::string>{"23", "25", "28_1", "28_2", "28_3", "28_4", "28_5",
                                          "28_6", "28_7", "28_8", "28_9", "28_10", "24", "22", "29",
                                          "27", "26", "21"});
}

TEST_CASE("an array's record is one line; its tasks split off are lines of their own") {
  stint::Job record;
  record.id = 28;
  record.array_job_id = 28;
  record.array_throttle = 2;
  record.array_pending = stint::TaskSet::of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  stint::Job plain;
  plain.id = 23;
  auto groups = stint::format::array_groups({plain, record});
  REQUIRE(groups.size() == 2);
  CHECK(stint::format::group_id_text(groups[0]) == "23");
  CHECK(stint::format::group_task_text(groups[0]) == "N/A");
  CHECK(stint::format::group_id_text(groups[1]) == "28_[1-10%2]");
  CHECK(stint::format::group_task_text(groups[1]) == "1-10%2");
  CHECK(groups[1].job.id == 28);
  CHECK(record.display_id() == "28_[1-10%2]");

  // Tasks 3 and 4 split off (own ids), the others still in the record.
  record.array_pending = stint::TaskSet::of({1, 2, 5});
  stint::Job three = stint::array_task_of(record, 3);
  three.id = 40;
  std::vector<std::string> texts;
  for (const auto& g : stint::format::array_groups({record, three}))
    texts.push_back(stint::format::group_id_text(g));
  CHECK(texts == std::vector<std::string>{"28_[1-2,5%2]", "28_3"});
  CHECK(three.display_id() == "28_3");

  // A record of one task left: in a listing, the record Slurm prints
  // (28_[5%2]); named as a task, that task (28_5).
  record.array_pending = stint::TaskSet::of({5});
  CHECK(stint::format::group_id_text(stint::format::array_groups({record}, true).front()) ==
        "28_[5%2]");
  const auto named = stint::format::array_groups({record}, false).front();
  CHECK(stint::format::group_id_text(named) == "28_5");
  CHECK(named.job.id == 28);
  CHECK(named.tasks.empty());

  // Expanded (squeue -r): a job per task, in task order, each the record's id.
  record.array_pending = stint::TaskSet::of({7, 2, 4});
  const auto tasks = stint::format::expand_array_records({plain, record, three});
  REQUIRE(tasks.size() == 5);
  CHECK(tasks[0].id == 23);
  CHECK(tasks[1].display_id() == "28_2");
  CHECK(tasks[2].display_id() == "28_4");
  CHECK(tasks[3].display_id() == "28_7");
  CHECK(tasks[3].id == 28);
  CHECK_FALSE(tasks[3].is_array_record());
  CHECK(tasks[4].id == 40);
  CHECK(stint::format::single_groups(tasks).size() == tasks.size());
}

TEST_CASE("dependencies print with their state while the job waits on them") {
  auto ctx = fixtures::context(fixtures::arrays_now());
  ctx.array_jobs = {87};
  auto jobs = fixtures::array_jobs();
  auto find = [&](stint::JobId id) {
    return *std::find_if(jobs.begin(), jobs.end(), [&](const auto& j) { return j.id == id; });
  };
  using stint::format::dependency_text;
  CHECK(dependency_text(find(88), ctx) == "afterok:87_*(unfulfilled)");
  CHECK(dependency_text(find(99), ctx) == "afterany:93(unfulfilled)?afterok:93(unfulfilled)");
  CHECK(dependency_text(find(98), ctx) == "afterany:93(unfulfilled),afterok:93(unfulfilled)");
  CHECK(dependency_text(find(102), ctx) == "singleton(unfulfilled)");
  CHECK(dependency_text(find(93), ctx) == "(null)");

  auto j = find(95);
  j.reason = stint::Reason::dependency_never_satisfied;
  CHECK(dependency_text(j, ctx) == "afterok:93(failed)");
  // A held job still waits on its dependency; a job past it shows none.
  j.reason = stint::Reason::dependency;
  j.hold_reason = stint::Reason::job_held_user;
  CHECK(dependency_text(j, ctx) == "afterok:93(unfulfilled)");
  j.reason = stint::Reason::priority;
  CHECK(dependency_text(j, ctx) == "(null)");
  // One task of an array, and a delay.
  stint::DependencyTerm t;
  t.type = stint::DependencyType::after;
  t.job_id = 87;
  t.delay = 300;
  j.reason = stint::Reason::dependency;
  j.dependency.terms = {t};
  CHECK(dependency_text(j, ctx) == "after:87_*+5(unfulfilled)");
  j.dependency.terms[0].array_task = 2;
  CHECK(dependency_text(j, ctx) == "after:87_2+5(unfulfilled)");
}

TEST_CASE("sacct memory units: exact by default, or the unit asked for") {
  using stint::format::sacct_memory;
  CHECK(sacct_memory(0, 'K', std::nullopt) == "0");
  CHECK(sacct_memory(98480, 'K', std::nullopt) == "98480K");
  CHECK(sacct_memory(1048576, 'K', std::nullopt) == "1G");
  // --noconvert: the unit it is kept in.
  CHECK(sacct_memory(1048576, 'K', '*') == "1048576K");
  CHECK(sacct_memory(2048, 'M', '*') == "2048M");
  CHECK(sacct_memory(1536, 'M', std::nullopt) == "1.50G");
  CHECK(sacct_memory(256, 'M', std::nullopt) == "256M");
  CHECK(sacct_memory(98480, 'K', 'M') == "96.17M");
  CHECK(sacct_memory(256, 'M', 'K') == "262144K");
  CHECK(sacct_memory(256, 'M', 'g') == "0.25G");
  CHECK_THROWS_WITH(sacct_memory(1, 'M', 'X'), "Invalid unit type");
}

TEST_CASE("sacct orders records by submit time, then array, task and id") {
  auto jobs = fixtures::requeue_jobs();
  std::reverse(jobs.begin(), jobs.end());
  stint::format::sort_sacct(jobs);
  std::vector<std::pair<stint::JobId, std::uint32_t>> order;
  for (const auto& j : jobs) order.emplace_back(j.id, j.restart_count);
  CHECK(order == std::vector<std::pair<stint::JobId, std::uint32_t>>{
                     {108, 0}, {109, 0}, {110, 0}, {108, 1}});
}

namespace {

// What SqueueLines prints, read back.
std::string printed(stint::format::SqueueLines& lines, std::set<stint::JobId> array_jobs) {
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* out = ::open_memstream(&text, &size);
  REQUIRE(out != nullptr);
  lines.print(out, std::move(array_jobs));
  std::fclose(out);
  std::string result(text, size);
  std::free(text);
  return result;
}

}  // namespace

TEST_CASE("squeue built one job at a time prints what render_squeue prints") {
  fixtures::use_utc();
  std::vector<stint::Job> jobs = fixtures::queue_array_jobs();
  for (stint::Job& j : fixtures::array_jobs()) jobs.push_back(std::move(j));
  // Ties on every letter but the last: two partitions, users, start times.
  for (std::size_t i = 0; i < jobs.size(); i += 3) jobs[i].partition = "high";
  for (std::size_t i = 0; i < jobs.size(); i += 4) jobs[i].user_name = "zed";
  auto ctx = stint::format::Context(fixtures::context(fixtures::arrays_now()));
  const std::set<stint::JobId> array_jobs{87};

  stint::format::SqueueOptions o;
  o.expand_arrays = true;
  o.layout = stint::format::parse_squeue_format("%i %P %j %u %t %M %D %E %R %S %p %Q %V");
  std::vector<std::string> sorts{"", "-p", "u,-i", "T,N,-V", "S", "-t,j,-D,C", "g,G,U,a,q,l,m,e"};
  for (char letter : std::string_view("iAFPjuUaqtTpQMlDCNSeVmgG")) sorts.emplace_back(1, letter);
  // Folded (squeue) and one line per task (squeue -r).
  for (bool expand : {true, false}) {
    for (bool start : {false, true}) {
      for (const std::string& sort : sorts) {
        CAPTURE(expand, sort, start);
        o.expand_arrays = expand;
        o.sort = sort;
        o.start = start;
        o.no_header = sort.size() % 2 == 1;
        stint::format::Context with_arrays = ctx;
        with_arrays.array_jobs = array_jobs;
        const std::string want = stint::format::render_squeue(jobs, o, with_arrays);
        stint::format::SqueueLines lines(o, ctx);
        for (const stint::Job& j : jobs) lines.add(j);
        // The jobs with a dependency are kept for Context::array_jobs.
        if (expand) {
          CHECK(lines.with_dependencies().size() ==
                static_cast<std::size_t>(std::count_if(jobs.begin(), jobs.end(), [](const auto& j) {
                  return !j.dependency.empty();
                })));
        }
        CHECK(printed(lines, array_jobs) == want);
      }
    }
  }
  // Folded, the pending tasks of an array are one line.
  o.expand_arrays = false;
  o.sort.clear();
  o.start = false;
  {
    stint::format::SqueueLines lines(o, ctx);
    for (const stint::Job& j : jobs) lines.add(j);
    const std::string text = printed(lines, array_jobs);
    CHECK(text.find("87_[0-3]") != std::string::npos);
    CHECK(text.find("87_1 ") == std::string::npos);
  }
  o.expand_arrays = true;
  // A dependency on an array prints as one (87_*) only with the array known.
  stint::format::SqueueLines lines(o, ctx);
  for (const stint::Job& j : jobs) lines.add(j);
  CHECK(printed(lines, array_jobs).find("afterok:87_*") != std::string::npos);
}
