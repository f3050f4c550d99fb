#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/cli11.hpp"

namespace {

struct Parsed {
  int rc = -1;
  bool allocations = false;
  bool all_users = false;
  bool all_clusters = false;
  std::string format;
  std::string users;
  std::string groups;
  std::optional<std::string> whole_hetjob;
  bool hetjob_given = false;
  std::vector<std::string> operands;
};

// A small sacct: Slurm's other spellings of -o (fields), -u (uid) and -g
// (group), three long names that share "all", and --whole-hetjob, whose value
// is optional.
Parsed parse_sacct(std::vector<std::string> words) {
  CLI::App app;
  stint::cli::configure_app(app, "sacct");
  Parsed p;
  app.add_flag("-a,--allusers", p.all_users, "all users");
  app.add_flag("-L,--allclusters", p.all_clusters, "all clusters");
  app.add_flag("-X,--allocations", p.allocations, "allocations");
  app.add_option("-g,--gid,--group", p.groups, "groups");
  app.add_option("-o,--format", p.format, "format");
  app.add_option("-u,--user", p.users, "users");
  app.add_option("--whole-hetjob", p.whole_hetjob, "hetjob");
  static const stint::cli::GetoptRules rules{{{"allusers", "--allusers"},
                                              {"allocations", "--allocations"},
                                              {"gid", "--gid"},
                                              {"group", "--gid"},
                                              {"allclusters", "--allclusters"},
                                              {"fields", "--format"},
                                              {"format", "--format"},
                                              {"uid", "--user"},
                                              {"user", "--user"},
                                              {"whole-hetjob", "--whole-hetjob"}},
                                             {"--whole-hetjob"},
                                             1};
  words.insert(words.begin(), "sacct");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  p.rc = stint::cli::parse_args_getopt(app, "sacct", static_cast<int>(argv.size()), argv.data(),
                                       rules, p.operands);
  p.hetjob_given = app.count("--whole-hetjob") > 0;
  return p;
}

}  // namespace

TEST_CASE("sacct's command line is read as Slurm's getopt_long reads it", "[getopt]") {
  SECTION("Slurm's other long names reach the same option") {
    CHECK(parse_sacct({"--fields=JobID"}).format == "JobID");
    CHECK(parse_sacct({"--uid", "alice"}).users == "alice");
    CHECK(parse_sacct({"--group=wheel"}).groups == "wheel");
    CHECK(parse_sacct({"--gid", "0"}).groups == "0");
  }
  SECTION("a prefix is enough when it is unique, an error when it is not") {
    auto p = parse_sacct({"--allo", "--allu", "--allc"});
    CHECK(p.rc == -1);
    CHECK(p.allocations);
    CHECK(p.all_users);
    CHECK(p.all_clusters);
    CHECK(parse_sacct({"--all"}).rc == 1);
    CHECK(parse_sacct({"--fi=JobID"}).format == "JobID");
    CHECK(parse_sacct({"--whole"}).hetjob_given);
  }
  SECTION("--whole-hetjob takes its value attached only") {
    auto bare = parse_sacct({"--whole-hetjob", "no"});
    CHECK(bare.rc == -1);
    CHECK(bare.hetjob_given);
    CHECK(bare.whole_hetjob.value_or("") == "");
    CHECK(bare.operands == std::vector<std::string>{"no"});
    auto attached = parse_sacct({"--whole-hetjob=no"});
    CHECK(attached.whole_hetjob.value_or("") == "no");
    CHECK(attached.operands.empty());
  }
  SECTION("bundled flags with a value last, as getopt takes them") {
    auto p = parse_sacct({"-aXoJobID,State"});
    CHECK(p.rc == -1);
    CHECK(p.all_users);
    CHECK(p.allocations);
    CHECK(p.format == "JobID,State");
  }
}
