// squeue -r reads only a listing's part of each job (JobPart::listing) unless
// its layout prints more: every column is checked against what the store
// really leaves out.

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/format.hpp>
#include <stint/store.hpp>

#include "fixtures.hpp"

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-listing-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Jobs with every field a column may print set.
std::vector<stint::Job> full_jobs() {
  std::vector<stint::Job> jobs = fixtures::queue_jobs();
  for (stint::Job& j : jobs) {
    j.spec.comment = "a note";
    j.spec.script_name = "train.sh";
    j.spec.submit_dir = "/home/u";
    j.spec.work_dir = "/home/u/w";
    j.spec.mem_per_cpu_mb = 100;
    j.spec.nice = 7;
    j.stdout_path = "/home/u/out.txt";
    j.stderr_path = "/home/u/err.txt";
    j.exit_status = 2;
    j.restart_count = 1;
    j.array_throttle = 3;
    j.user_cpu_us = 5;
    j.max_rss_kb = 6;
    j.cancelled_by = 1000;
  }
  return jobs;
}

}  // namespace

TEST_CASE("a squeue column that prints what a listing leaves out asks for whole jobs") {
  fixtures::use_utc();
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  for (const stint::Job& j : full_jobs()) store->insert_job(j);
  std::vector<stint::Job> whole, listing;
  store->each_job({}, [&](const stint::Job& j) { whole.push_back(j); });
  store->each_job(
      {}, [&](const stint::Job& j) { listing.push_back(j); }, stint::JobPart::listing);
  REQUIRE(whole.size() == listing.size());
  REQUIRE(!whole.empty());

  const auto ctx = stint::format::Context(fixtures::context(fixtures::queue_now()));
  std::istringstream names(stint::format::squeue_helpformat());
  std::string name;
  int columns = 0, whole_columns = 0;
  while (names >> name) {
    CAPTURE(name);
    ++columns;
    const stint::format::Layout layout = stint::format::parse_squeue_long_format(name);
    bool differs = false;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      differs = differs || stint::format::squeue_line(layout, whole[i], ctx) !=
                               stint::format::squeue_line(layout, listing[i], ctx);
    }
    // A column that reads less is fine either way; one that prints what the
    // listing lacks must ask for whole jobs.
    if (differs) CHECK(stint::format::squeue_needs_whole_jobs(layout));
    if (stint::format::squeue_needs_whole_jobs(layout)) ++whole_columns;
  }
  CHECK(columns > 50);
  // comment, command, workdir, minmemory, nice, stdout, stderr, reservation.
  CHECK(whole_columns == 8);
  // The default layouts need no more than the listing.
  CHECK_FALSE(stint::format::squeue_needs_whole_jobs(stint::format::squeue_default_layout(false)));
  CHECK_FALSE(stint::format::squeue_needs_whole_jobs(stint::format::squeue_default_layout(true)));
  CHECK(stint::format::squeue_needs_whole_jobs(stint::format::parse_squeue_format("%.18i %k")));
}
