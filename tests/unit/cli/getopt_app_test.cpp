#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/cli11.hpp"

namespace {

struct Parsed {
  int rc = -1;
  std::string accounts;
  std::string jobs;
  bool jobs_given = false;
  bool no_header = false;
  std::string sort;
  std::int64_t verbose = 0;
  std::vector<std::string> operands;
};

// A small squeue: -A (Slurm's long name "accounts"), -j with an optional
// value, -h, -S, -v, --noconvert.
Parsed parse(std::vector<std::string> words) {
  CLI::App app;
  stint::cli::configure_app(app, "squeue");
  app.set_help_flag("--help", "help");
  Parsed p;
  bool no_convert = false;
  app.add_option("-A,--account", p.accounts, "accounts");
  app.add_option("-j,--jobs", p.jobs, "jobs");
  app.add_flag("-h,--noheader", p.no_header, "no header");
  app.add_flag("--noconvert", no_convert, "no convert");
  app.add_option("-S,--sort", p.sort, "sort");
  app.add_flag_function(
      "-v,--verbose", [&p](std::int64_t n) { p.verbose = n; }, "verbose");
  static const stint::cli::GetoptRules rules{{{"accounts", "--account"},
                                              {"jobs", "--jobs"},
                                              {"noconvert", "--noconvert"},
                                              {"noheader", "--noheader"},
                                              {"sort", "--sort"},
                                              {"verbose", "--verbose"}},
                                             {"--jobs"},
                                             1};
  words.insert(words.begin(), "squeue");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  p.rc = stint::cli::parse_args_getopt(app, "squeue", static_cast<int>(argv.size()), argv.data(),
                                       rules, p.operands);
  p.jobs_given = app.count("--jobs") > 0;
  return p;
}

}  // namespace

TEST_CASE("squeue's and sinfo's command lines are read as getopt_long reads them", "[getopt]") {
  SECTION("prefixes and Slurm's own long names") {
    auto p = parse({"--acc=a1", "--noh"});
    CHECK(p.rc == -1);
    CHECK(p.accounts == "a1");
    CHECK(p.no_header);
    CHECK(parse({"--accounts", "a2"}).accounts == "a2");
    CHECK(parse({"--account=a3"}).accounts == "a3");
  }
  SECTION("an ambiguous prefix and an unknown option are getopt's errors, exit 1") {
    CHECK(parse({"--no"}).rc == 1);
    CHECK(parse({"--bogus"}).rc == 1);
    CHECK(parse({"-Z"}).rc == 1);
    CHECK(parse({"--noheader=x"}).rc == 1);
  }
  SECTION("a value that starts with '-', bundles, counted flags") {
    auto p = parse({"-S", "-p,i", "-hvv"});
    CHECK(p.rc == -1);
    CHECK(p.sort == "-p,i");
    CHECK(p.no_header);
    CHECK(p.verbose == 2);
  }
  SECTION("an optional value is attached only; operands come back in order") {
    auto attached = parse({"-j12"});
    CHECK(attached.jobs == "12");
    CHECK(attached.operands.empty());
    auto bare = parse({"-j", "12", "-h", "13"});
    CHECK(bare.rc == -1);
    CHECK(bare.jobs_given);
    CHECK(bare.jobs.empty());
    CHECK(bare.no_header);
    CHECK(bare.operands == std::vector<std::string>{"12", "13"});
    CHECK(parse({"--jobs=14"}).jobs == "14");
    CHECK(parse({"--", "-h"}).operands == std::vector<std::string>{"-h"});
  }
}
