#include "cli/read_common.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

using stint::JobState;

TEST_CASE("lists of the read-side tools", "[read]") {
  using V = std::vector<std::string>;
  CHECK(stint::cli::split_list("a,b,,c") == V{"a", "b", "c"});
  CHECK(stint::cli::split_list("").empty());
  CHECK(stint::cli::split_list(",") == V{});

  CHECK(stint::cli::job_id_from_text("22") == 22U);
  CHECK_FALSE(stint::cli::job_id_from_text("0"));
  CHECK_FALSE(stint::cli::job_id_from_text("22x"));
  CHECK_FALSE(stint::cli::job_id_from_text(""));
  CHECK_FALSE(stint::cli::job_id_from_text("-1"));
}

TEST_CASE("job state lists take names, codes and all", "[read]") {
  std::string bad;
  auto s = stint::cli::states_from_list("PD,running,CA", bad);
  REQUIRE(s);
  CHECK(*s == std::vector<JobState>{JobState::pending, JobState::running, JobState::cancelled});
  auto all = stint::cli::states_from_list("all", bad);
  REQUIRE(all);
  CHECK(all->empty());
  CHECK_FALSE(stint::cli::states_from_list("R,BOGUS", bad));
  CHECK(bad == "BOGUS");
}

TEST_CASE("a sort list starting with '-' stays the option's value", "[read]") {
  std::vector<std::string> in = {"squeue", "-S", "-p,i", "-l", "--sort", "-t"};
  std::vector<char*> argv;
  for (auto& s : in) argv.push_back(s.data());
  auto out =
      stint::cli::join_dash_values(static_cast<int>(argv.size()), argv.data(), {{"-S", "--sort"}});
  CHECK(out == std::vector<std::string>{"squeue", "--sort=-p,i", "-l", "--sort=-t"});
}

TEST_CASE("job id lists keep array task lists whole", "[read]") {
  using V = std::vector<std::string>;
  CHECK(stint::cli::split_job_list("12_[1,3],14,,15_2") == V{"12_[1,3]", "14", "15_2"});
  CHECK(stint::cli::split_job_list("").empty());
}

TEST_CASE("job ids, array tasks and task ranges", "[read]") {
  using stint::query::JobRef;
  using R = std::vector<JobRef>;
  CHECK(stint::cli::job_refs_from_text("12") == R{JobRef{12}});
  CHECK(stint::cli::job_refs_from_text("12_3") == R{JobRef{12, 3}});
  CHECK(stint::cli::job_refs_from_text("12_0") == R{JobRef{12, 0}});
  CHECK(stint::cli::job_refs_from_text("12_[1-3,7]") ==
        R{JobRef{12, 1}, JobRef{12, 2}, JobRef{12, 3}, JobRef{12, 7}});
  for (const char* bad : {"", "x", "0", "12_", "12_x", "12_[", "12_[]", "12_[3-1]", "12_[1-3%2]",
                          "_3", "12_3_4", "12_-1"}) {
    CAPTURE(bad);
    CHECK_FALSE(stint::cli::job_refs_from_text(bad));
  }
}
