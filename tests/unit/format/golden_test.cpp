// Golden outputs: each folder under cases/ is one run of a formatter over a
// fixture (fixtures.cpp) with a fixed "now". `case` holds "key: value" lines,
// `expected` the exact output, or `error` the message of the expected error.
//
// Keys: fixture (queue, queue-array, accounting, arrays, arrays-later, requeue,
// cluster, four), tool (squeue, squeue-json, sinfo, sinfo-json, sacct,
// sacct-json, sacct-helpformat, scontrol-job, scontrol-jobs, scontrol-node,
// scontrol-partition), o, O, sort, long, noheader, ids ("77" is job 77 or all
// of array 77, "77_3" one task), expand (squeue -r), duplicates (every attempt
// of a requeued job; else only the last), active (no ended jobs), parsable (p or P), delimiter,
// units, allocations, node, summarize, reasons, partitions, details, oneliner, preempt.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/format.hpp>

#include "fixtures.hpp"

namespace {

namespace fs = std::filesystem;
using stint::format::Context;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> read_case(const fs::path& p) {
  std::map<std::string, std::string> c;
  std::istringstream in(slurp(p));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    c[line.substr(0, colon)] = value;
  }
  return c;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

std::vector<stint::Job> keep_ids(std::vector<stint::Job> jobs, const std::string& ids) {
  if (ids.empty()) return jobs;
  std::vector<stint::query::JobRef> refs;
  for (const std::string& id : split(ids)) {
    const auto underscore = id.find('_');
    stint::query::JobRef r;
    r.id = static_cast<stint::JobId>(std::stoul(id.substr(0, underscore)));
    if (underscore != std::string::npos)
      r.array_task = static_cast<std::uint32_t>(std::stoul(id.substr(underscore + 1)));
    refs.push_back(r);
  }
  return stint::query::named_jobs(std::move(jobs), refs);
}

/// The last record of each job id: sacct without --duplicates.
std::vector<stint::Job> last_attempts(const std::vector<stint::Job>& jobs) {
  std::vector<stint::Job> out;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    bool later = false;
    for (std::size_t k = i + 1; k < jobs.size(); ++k) later = later || jobs[k].id == jobs[i].id;
    if (!later) out.push_back(jobs[i]);
  }
  return out;
}

std::vector<stint::Job> fixture_jobs(const std::string& fixture) {
  if (fixture == "accounting") return fixtures::accounting_jobs();
  if (fixture == "queue-array") return fixtures::queue_array_jobs();
  if (fixture == "arrays") return fixtures::array_jobs();
  if (fixture == "arrays-later") return fixtures::array_jobs_later();
  if (fixture == "requeue") return fixtures::requeue_jobs();
  return fixtures::queue_jobs();
}

stint::Seconds fixture_now(const std::string& fixture) {
  if (fixture == "accounting") return fixtures::accounting_now();
  if (fixture == "arrays" || fixture == "arrays-later") return fixtures::arrays_now();
  if (fixture == "requeue") return fixtures::requeue_now();
  return fixtures::queue_now();
}

std::string run_case(std::map<std::string, std::string> c) {
  const std::string fixture = c["fixture"];
  const std::string tool = c["tool"];
  Context ctx = fixtures::context(fixture_now(fixture));
  // The arrays fixtures' dependencies name the arrays 77 and 87.
  ctx.array_jobs = {77, 87};
  std::vector<stint::Job> jobs = keep_ids(fixture_jobs(fixture), c["ids"]);
  if (c["duplicates"].empty()) jobs = last_attempts(jobs);
  if (!c["active"].empty())
    std::erase_if(jobs, [](const stint::Job& j) { return stint::is_terminal(j.state); });
  const bool four = fixture == "four";
  const auto nodes = four ? fixtures::four_nodes() : fixtures::cluster_nodes();
  const auto parts = four ? fixtures::four_partitions() : fixtures::cluster_partitions();

  if (tool == "squeue") {
    stint::format::SqueueOptions o;
    o.long_list = !c["long"].empty();
    o.no_header = !c["noheader"].empty();
    o.expand_arrays = !c["expand"].empty();
    // ids naming a task (28_3), as squeue -j 28_3 is a task query.
    o.task_query = c["ids"].find('_') != std::string::npos;
    o.sort = c["sort"];
    if (c.count("O") != 0)
      o.layout = stint::format::parse_squeue_long_format(c["O"]);
    else if (c.count("o") != 0)
      o.layout = stint::format::parse_squeue_format(c["o"]);
    else
      o.layout = stint::format::squeue_default_layout(o.long_list);
    return stint::format::render_squeue(jobs, o, ctx);
  }
  if (tool == "squeue-json") return stint::format::squeue_json(jobs, ctx, !c["expand"].empty());
  if (tool == "sinfo") {
    stint::format::SinfoOptions o;
    o.format = c["o"];
    o.node_oriented = !c["node"].empty();
    o.long_list = !c["long"].empty();
    o.summarize = !c["summarize"].empty();
    o.reasons = !c["reasons"].empty();
    o.no_header = !c["noheader"].empty();
    if (!c["partitions"].empty()) o.partitions = split(c["partitions"]);
    return stint::format::render_sinfo(parts, nodes, o, ctx);
  }
  if (tool == "sinfo-json") return stint::format::sinfo_json(nodes, ctx);
  if (tool == "sacct") {
    stint::format::SacctOptions o;
    o.fields = stint::format::parse_sacct_format(
        c.count("o") != 0 ? c["o"] : std::string(stint::format::sacct_default_format()));
    o.no_header = !c["noheader"].empty();
    o.allocations_only = !c["allocations"].empty();
    o.task_query = c["ids"].find('_') != std::string::npos;
    if (c["parsable"] == "p") o.parsable = stint::format::Parsable::trailing;
    if (c["parsable"] == "P") o.parsable = stint::format::Parsable::no_trailing;
    if (!c["delimiter"].empty()) o.delimiter = c["delimiter"];
    if (!c["units"].empty()) o.units = c["units"][0];
    return stint::format::render_sacct(jobs, o, ctx);
  }
  if (tool == "sacct-json") return stint::format::sacct_json(jobs, ctx);
  if (tool == "sacct-helpformat") return stint::format::sacct_helpformat();
  if (tool == "scontrol-job") {
    std::string out;
    for (const auto& j : jobs)
      out += stint::format::scontrol_job(j, ctx, !c["oneliner"].empty(), !c["details"].empty());
    return out;
  }
  if (tool == "scontrol-jobs")
    return stint::format::scontrol_jobs(jobs, ctx, !c["oneliner"].empty(), !c["details"].empty());
  if (tool == "scontrol-node") {
    std::string out;
    for (const auto& n : nodes) out += stint::format::scontrol_node(n, ctx, !c["oneliner"].empty());
    return out;
  }
  if (tool == "scontrol-partition") {
    std::string out;
    for (const auto& p : parts) {
      if (!c["partitions"].empty() && p.name != c["partitions"]) continue;
      out += stint::format::scontrol_partition(p, c["preempt"], !c["oneliner"].empty());
    }
    return out;
  }
  FAIL("unknown tool in case: " << tool);
  return {};
}

}  // namespace

TEST_CASE("golden outputs match the files under cases/") {
  fixtures::use_utc();
  const fs::path root = fs::path(STINT_SOURCE_DIR) / "tests/unit/format/cases";
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(!dirs.empty());
  for (const fs::path& dir : dirs) {
    DYNAMIC_SECTION(dir.filename().string()) {
      const auto c = read_case(dir / "case");
      if (fs::exists(dir / "error")) {
        std::string want = slurp(dir / "error");
        while (!want.empty() && want.back() == '\n') want.pop_back();
        try {
          run_case(c);
          FAIL("no error; expected: " << want);
        } catch (const stint::Error& e) {
          CHECK(std::string(e.what()) == want);
        }
      } else {
        const std::string got = run_case(c);
        const std::string want = slurp(dir / "expected");
        if (got != want && std::getenv("STINT_GOLDEN_UPDATE") != nullptr) {
          std::ofstream(dir / "expected", std::ios::binary) << got;
        }
        CHECK(got == want);
      }
    }
  }
}
