// stint report's SVG on a fixed set of jobs: lanes, bars, pending spans,
// marks, colours by state, escaping, and the window.

#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/report.hpp>

using namespace stint;
using report::ReportNode;

namespace {

constexpr Seconds k_t0 = 1'800'000'000;

Job job(JobId id, std::string name, JobState state, Seconds submit, Seconds start, Seconds end,
        std::vector<NodeAlloc> alloc) {
  Job j;
  j.id = id;
  j.spec.name = std::move(name);
  j.user_name = "alice";
  j.state = state;
  j.submit_time = submit ? k_t0 + submit : k_no_time;
  j.start_time = start ? k_t0 + start : k_no_time;
  j.end_time = end ? k_t0 + end : k_no_time;
  j.alloc = std::move(alloc);
  return j;
}

NodeAlloc on(std::string node, std::uint32_t cpus, std::vector<std::uint32_t> gpus = {}) {
  NodeAlloc a;
  a.node = std::move(node);
  a.cpus = cpus;
  a.gpu_ids = std::move(gpus);
  return a;
}

std::vector<ReportNode> nodes() { return {{"n1", 4, 2}, {"n2", 4, 0}}; }

// Every attempt, oldest first per job, as query::with_attempts gives them.
std::vector<Job> jobs() {
  std::vector<Job> v;
  v.push_back(job(1, "train <a&b>", JobState::completed, 100, 110, 200, {on("n1", 2, {0})}));
  v.push_back(job(2, "prep", JobState::failed, 100, 120, 150, {on("n2", 1)}));
  Job first = job(3, "ckpt", JobState::preempted, 100, 130, 160, {on("n1", 1, {1})});
  Job second = job(3, "ckpt", JobState::completed, 100, 300, 400, {on("n2", 4)});
  second.restart_count = 1;
  v.push_back(first);
  v.push_back(second);
  // A pending job with the backfill plan's expected start draws nothing.
  v.push_back(job(4, "waits", JobState::pending, 120, 600, 0, {}));
  v.push_back(job(5, "runs", JobState::running, 340, 350, 0, {on("n1", 1)}));
  v.push_back(job(6, "gone", JobState::cancelled, 150, 0, 170, {}));
  return v;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string render(Seconds from, Seconds to) {
  report::ReportOptions o;
  o.start = k_t0 + from;
  o.end = k_t0 + to;
  o.now = k_t0 + 500;
  o.title = "lab \"A\"";
  return report::render_svg(nodes(), jobs(), o);
}

}  // namespace

TEST_CASE("report: the default window spans the jobs that ran", "[report]") {
  auto [from, to] = report::default_window(jobs(), k_t0 + 500);
  CHECK(from == k_t0 + 100);
  CHECK(to == k_t0 + 500);
  CHECK(report::default_window({}, k_t0).first == 0);
}

TEST_CASE("report: one lane per node and per GPU, a bar per attempt per lane", "[report]") {
  const std::string svg = render(100, 500);
  CHECK(svg.starts_with("<?xml"));
  CHECK(count(svg, "class=\"lane-bg") == 4);
  CHECK(svg.find("data-lane=\"n1 gpu1\"") != std::string::npos);
  // 1: n1 and its gpu0; 2: n2; 3: n1 and gpu1, then n2; 5: n1.
  CHECK(count(svg, "class=\"bar\"") == 7);
  CHECK(count(svg, "class=\"bar\" data-job=\"3\"") == 3);
  CHECK(count(svg, "data-job=\"4\"") == 0);
  CHECK(count(svg, "data-job=\"6\"") == 0);
  // Pending spans: submit to start, and for the second attempt of 3 the
  // end of the first to its start.
  CHECK(count(svg, "class=\"pending\" data-job") == 7);
  // The preempted attempt is marked, once per lane it held.
  CHECK(count(svg, "class=\"mark\" data-job=\"3\" data-state=\"PREEMPTED\"") == 2);
  CHECK(count(svg, "class=\"mark\" data-job") == 2);
  CHECK(count(svg, "<g") == count(svg, "</g>"));
  CHECK(count(svg, "class=\"util-cpu\"") == 1);
  CHECK(count(svg, "class=\"util-gpu\"") == 1);
}

TEST_CASE("report: bars are coloured by the state the attempt ended in", "[report]") {
  const std::string svg = render(100, 500);
  const std::regex bar(
      R"re(class="bar" data-job="([0-9_]+)" data-state="([A-Z_]+)"[^>]*fill="(#[0-9a-f]{6})")re");
  std::size_t n = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
       ++it, ++n) {
    const std::string state = (*it)[2];
    const auto st = state_from_name(state);
    REQUIRE(st);
    CHECK((*it)[3] == std::string(report::state_colour(*st)));
  }
  CHECK(n == 7);
  CHECK(report::state_colour(JobState::completed) != report::state_colour(JobState::failed));
  CHECK(report::state_colour(JobState::preempted) != report::state_colour(JobState::completed));
  // The legend names each state that has a bar, once.
  CHECK(count(svg, "class=\"legend-state\"") == 4);
}

TEST_CASE("report: job names and titles are escaped", "[report]") {
  const std::string svg = render(100, 500);
  CHECK(svg.find("train &lt;a&amp;b&gt;") != std::string::npos);
  CHECK(svg.find("<a&b>") == std::string::npos);
  CHECK(svg.find("lab &quot;A&quot;") != std::string::npos);
  CHECK(report::xml_escape("a'b\x01") == "a&apos;b?");
  const std::string html = report::render_html(svg, "x < y");
  CHECK(html.starts_with("<!DOCTYPE html>"));
  CHECK(html.find("<?xml") == std::string::npos);
  CHECK(html.find("<title>x &lt; y</title>") != std::string::npos);
  CHECK(html.find("<svg ") != std::string::npos);
}

TEST_CASE("report: only what lies in the window is drawn", "[report]") {
  const std::string svg = render(140, 180);
  // 1, 2 and 3's first attempt overlap; 3's second attempt shows its pending
  // span only; 5 waits after the window.
  CHECK(count(svg, "class=\"bar\"") == 5);
  CHECK(count(svg, "class=\"pending\" data-job=\"3\"") == 1);
  CHECK(count(svg, "data-job=\"5\"") == 0);
  CHECK(count(svg, "class=\"mark\" data-job") == 2);
  // Before everything: empty lanes, still a valid picture.
  const std::string empty = render(0, 50);
  CHECK(count(empty, "class=\"bar\"") == 0);
  CHECK(count(empty, "class=\"lane-bg") == 4);
}

TEST_CASE("report: jobs sharing a node stack in rows", "[report]") {
  std::vector<Job> v{job(1, "a", JobState::completed, 10, 10, 100, {on("n2", 1)}),
                     job(2, "b", JobState::completed, 10, 10, 100, {on("n2", 1)}),
                     job(3, "c", JobState::completed, 100, 100, 150, {on("n2", 1)})};
  report::ReportOptions o{k_t0, k_t0 + 200, k_t0 + 200, "rows"};
  const std::string svg = report::render_svg({{"n2", 4, 0}}, v, o);
  const std::regex y(R"re(class="bar" data-job="(\d)"[^>]* y="([0-9.]+)")re");
  std::vector<std::string> ys;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), y); it != std::sregex_iterator();
       ++it)
    ys.push_back((*it)[2]);
  REQUIRE(ys.size() == 3);
  CHECK(ys[0] != ys[1]);  // overlapping: two rows
  CHECK(ys[2] == ys[0]);  // 3 starts when 1 ends: the first row again
}
