// config_to_yaml round trips, files on disk, load_or_init_config, the examples.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "helpers.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using stint::Config;
using stint::ConfigOrigin;
using stint::test::parse;

namespace {

/// A fresh folder under $TMPDIR, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stint-config-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    m_path = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(m_path); }
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The config as a file would give it back: from a file, every pool written out.
Config as_loaded(Config c, const std::string& source) {
  for (stint::NodePool& pool : c.node_pools) pool.origin = ConfigOrigin::config_file;
  c.source_path = source;
  return c;
}

void check_round_trip(const Config& c) {
  std::string yaml = stint::config_to_yaml(c);
  INFO(yaml);
  Config back = parse(yaml, "back.yaml");
  CHECK(back == as_loaded(c, "back.yaml"));
  // And the text is stable: writing the result again gives the same text.
  CHECK(stint::config_to_yaml(back) == yaml);
}

}  // namespace

TEST_CASE("config_to_yaml round-trips through parse_config", "[config][yaml][roundtrip]") {
  SECTION("a full config") {
    check_round_trip(parse(R"(cluster_name: lab
node_pools:
  - {id: cpu, count: 2, cpus: 16, memory: 64G}
  - {id: gpu, cpus: 32, memory: 1536M, gpus: 4, gpu_type: a100, node_names: [big, "n[07-08]"], count: 3}
partitions:
  - {id: short, node_pool_ids: [cpu, gpu], max_time: "4:00:00", default_time: 30}
  - {id: high, node_pool_ids: [gpu], priority_tier: 10, max_time: 2-0, state: inactive}
default_partition_id: high
login_node_pool_id: login
home_directory_storage: "projects/P/locations/R-Z/instances/X: with colon"
config: {PriorityWeightAge: 1000, preemptmode: requeue, Prolog: "", PreemptExemptTime: "00:10:00"}
)"));
  }
  SECTION("the seed's spec, its undefined pool written out") {
    check_round_trip(parse(R"({"orchestratorSpec": {"slurmSpec": {
        "partitions": [{"id": "a4", "node_pool_ids": ["a4"]}],
        "login_node_pool_id": "login",
        "prolog_bash_scripts": ["#!/bin/bash\necho 'First prolog script running'"]}}})",
                           "seed.json"));
  }
  SECTION("an autodetected config") {
    check_round_trip(stint::config_for_machine(stint::test::test_machine()));
  }
  SECTION("scripts of every shape") {
    Config c = parse("partitions: [{id: a, node_pool_ids: [p]}]\n");
    c.prolog_bash_scripts = {"#!/bin/bash\necho 'no newline'",
                             "#!/bin/bash\necho one newline\n",
                             "echo two newlines\n\n",
                             "with\n\nblank line inside\n",
                             "  leading spaces",
                             "tab\tinside: and # hash",
                             "trailing blank line with spaces\n   \n",
                             "",
                             "\nstarts with a newline",
                             "control \x01 char",
                             "line\r\nwith CRLF"};
    c.epilog_bash_scripts = {"echo bye"};
    check_round_trip(c);
  }
  SECTION("default node names are not written") {
    Config c = parse(
        "node_pools: [{id: p, count: 2, cpus: 1, memory: 1, node_names: [p-1, p-2]}]\n"
        "partitions: [{id: a, node_pool_ids: [p]}]\n");
    std::string yaml = stint::config_to_yaml(c);
    CHECK_THAT(yaml, !Contains("node_names"));
    Config back = parse(yaml);
    CHECK(back.nodes() == c.nodes());
  }
}

TEST_CASE("load_config reads files; a missing one is an io error", "[config][files]") {
  TempDir dir;
  write(dir.path() + "/a.yaml", "partitions: [{id: a, node_pool_ids: [p]}]\nbogus: 1\n");
  try {
    stint::load_config(dir.path() + "/a.yaml");
    FAIL("no error");
  } catch (const stint::Error& e) {
    CHECK(e.code() == stint::Errc::config_invalid);
    CHECK_THAT(e.what(), StartsWith(dir.path() + "/a.yaml:2: bogus: unknown key"));
  }
  try {
    stint::load_config(dir.path() + "/none.yaml");
    FAIL("no error");
  } catch (const stint::Error& e) {
    CHECK(e.code() == stint::Errc::io);
    CHECK_THAT(e.what(), Contains("none.yaml"));
  }
}

TEST_CASE("load_or_init_config writes the autodetected config once", "[config][files]") {
  TempDir dir;
  std::string state = dir.path() + "/state";
  Config first = stint::load_or_init_config(state);
  REQUIRE(std::filesystem::exists(state + "/stint.yaml"));
  CHECK((std::filesystem::status(state).permissions() & std::filesystem::perms::others_all) ==
        std::filesystem::perms::none);
  CHECK(first.source_path == state + "/stint.yaml");
  CHECK(first.node_pools.size() == 1);
  CHECK(first.node_pools[0].id == "local");
  CHECK(first.node_pools[0].origin == ConfigOrigin::config_file);  // as a later load sees it
  CHECK(first.partitions[0].id == "local");
  std::string text = read(state + "/stint.yaml");
  Config second = stint::load_or_init_config(state);
  CHECK(second == first);
  CHECK(read(state + "/stint.yaml") == text);
  // No temporary file is left behind.
  CHECK(std::distance(std::filesystem::directory_iterator(state),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("load_or_init_config keeps an existing file, and reads stint.json", "[config][files]") {
  TempDir dir;
  write(dir.path() + "/stint.json",
        R"({"partitions": [{"id": "j", "node_pool_ids": ["p"]}]} // json)");
  Config from_json = stint::load_or_init_config(dir.path());
  CHECK(from_json.partitions[0].id == "j");
  CHECK_FALSE(std::filesystem::exists(dir.path() + "/stint.yaml"));

  write(dir.path() + "/stint.yaml", "partitions: [{id: y, node_pool_ids: [p]}]\n");
  CHECK(stint::load_or_init_config(dir.path()).partitions[0].id == "y");

  write(dir.path() + "/stint.yaml", "partitions: [\n");
  CHECK_THROWS_AS(stint::load_or_init_config(dir.path()), stint::Error);
  CHECK(read(dir.path() + "/stint.yaml") == "partitions: [\n");  // a bad file is never replaced
}

TEST_CASE("examples/clusters/workstation.yaml: one node, two GPUs", "[config][files]") {
  Config c = stint::load_config(STINT_SOURCE_DIR "/examples/clusters/workstation.yaml");
  REQUIRE(c.nodes().size() == 1);
  CHECK(c.nodes()[0].gpus == 2);
  CHECK(c.default_partition()->id == "short");
  check_round_trip(c);
}

TEST_CASE("examples/clusters: every file loads", "[config][files]") {
  for (const auto& entry :
       std::filesystem::directory_iterator(STINT_SOURCE_DIR "/examples/clusters")) {
    INFO(entry.path());
    CHECK_NOTHROW(stint::load_config(entry.path().string()));
  }
}
