// The NSML layer's pure rules: names, clone, sweeps, variable sets, ports and
// each node's environment, including malformed input.

#include <algorithm>

#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/run.hpp>

#include "run/secret_env.hpp"

using namespace stint;
using Catch::Matchers::Contains;

namespace {

RunSettings base() {
  RunSettings s;
  s.project = "mnist";
  s.server_type = "gpu";
  s.nodes = 2;
  s.keep_alive = true;
  s.image = "/images/torch";
  s.storages = {{"data", "/data"}};
  s.env = {{"LR", "0.1"}, {"BATCH", "64"}};
  s.command = {"python", "train.py"};
  return s;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("run names, project names and variable names", "[run]") {
  CHECK(run::parse_run_name("mnist/3") == RunName{"mnist", 3});
  CHECK(run::parse_run_name("a.b-c_d/12").text() == "a.b-c_d/12");
  for (const char* bad : {"mnist", "mnist/", "/3", "mnist/0", "mnist/x", "mnist/3x", "-a/1",
                          "a b/1", "mnist/-1", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(run::parse_run_name(bad), Error);
  }
  CHECK(run::valid_project_name("lab-01"));
  CHECK_FALSE(run::valid_project_name(std::string(65, 'a')));
  CHECK_FALSE(run::valid_project_name(".hidden"));
  CHECK(run::valid_env_name("_X1"));
  CHECK_FALSE(run::valid_env_name("1X"));
  CHECK_FALSE(run::valid_env_name("A-B"));
  CHECK_FALSE(run::valid_env_name(""));
}

TEST_CASE("NAME=VALUE and storages", "[run]") {
  CHECK(run::parse_env_assignment("LR=0.1") == std::pair<std::string, std::string>{"LR", "0.1"});
  CHECK(run::parse_env_assignment("OPTS=a=b").second == "a=b");
  CHECK(run::parse_env_assignment("EMPTY=").second.empty());
  CHECK_THROWS_AS(run::parse_env_assignment("LR"), Error);
  CHECK_THROWS_AS(run::parse_env_assignment("=1"), Error);
  CHECK_THROWS_AS(run::parse_env_assignment("1X=1"), Error);
  CHECK(run::parse_storage("data") == StorageMount{"data", ""});
  CHECK(run::parse_storage("data:/mnt/d") == StorageMount{"data", "/mnt/d"});
  CHECK_THROWS_AS(run::parse_storage("data:relative"), Error);
  CHECK_THROWS_AS(run::parse_storage("data:"), Error);
  CHECK_THROWS_AS(run::parse_storage(":/x"), Error);
}

TEST_CASE("run-create's checks", "[run]") {
  RunSettings s = base();
  CHECK_NOTHROW(run::check_settings(s, false, true));
  // A CPU (notebook) server type takes neither a node count nor keep-alive.
  CHECK_THAT(error_of([&] { run::check_settings(s, true, true); }), Contains("no node count"));
  CHECK_THAT(error_of([&] { run::check_settings(s, true, false); }), Contains("no keep-alive"));
  s.keep_alive = false;
  CHECK_NOTHROW(run::check_settings(s, true, false));
  s.command.clear();
  CHECK_THAT(error_of([&] { run::check_settings(s, false, false); }),
             Contains("command is required"));
  s = base();
  s.env.emplace_back("LR", "0.2");
  CHECK_THAT(error_of([&] { run::check_settings(s, false, false); }),
             Contains("LR is given twice"));
  s = base();
  s.project = "";
  CHECK_THROWS_AS(run::check_settings(s, false, false), Error);
  s.project = ".hidden";
  CHECK_THAT(error_of([&] { run::check_settings(s, false, false); }),
             Contains("not starting with '.' or '-'"));
}

TEST_CASE("run-create refuses the names stint sets and a multi-node run without ports", "[run]") {
  for (const char* name : {"RANK", "NODE_RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR",
                           "MASTER_PORT", "SLURM_JOB_ID", "SLURM_X", "STINT_RUN", "STINT_PORT_0"}) {
    RunSettings s = base();
    s.env.emplace_back(name, "1");
    CHECK_THAT(error_of([&] { run::check_settings(s, false, true); }),
               Contains(std::string(name) + " is set by stint on every node"));
  }
  // Names that only look alike are the user's.
  for (const char* name : {"RANKS", "MY_RANK", "SLURM", "STINT", "slurm_x", "WORLD"}) {
    RunSettings s = base();
    s.env.emplace_back(name, "1");
    CHECK_NOTHROW(run::check_settings(s, false, true));
  }
  RunSettings s = base();  // two nodes
  s.ports_per_node = 0;
  CHECK_THAT(error_of([&] { run::check_settings(s, false, true); }),
             Contains("needs --ports 1 or more"));
  s.nodes = 1;  // one node needs no MASTER_PORT to meet on
  CHECK_NOTHROW(run::check_settings(s, false, true));
}

TEST_CASE("a clone copies all but command and environment; names stay", "[run]") {
  const RunSettings src = base();
  run::CloneRequest req;
  req.env = {{"LR", "0.01"}, {"WD", "1e-4"}};
  req.command = {"python", "train.py", "--resume"};
  RunSettings c = run::clone_settings(src, {"mnist", 1}, req);
  CHECK(c.nodes == 2);
  CHECK(c.keep_alive);
  CHECK(c.image == src.image);
  CHECK(c.storages == src.storages);
  CHECK(c.command == req.command);
  // The source's names in their order, new ones after.
  REQUIRE(c.env.size() == 3);
  CHECK(c.env[0] == std::pair<std::string, std::string>{"LR", "0.01"});
  CHECK(c.env[1] == std::pair<std::string, std::string>{"BATCH", "64"});
  CHECK(c.env[2] == std::pair<std::string, std::string>{"WD", "1e-4"});

  run::CloneRequest same;
  same.same_command = true;
  CHECK(run::clone_settings(src, {"mnist", 1}, same).command == src.command);
  run::CloneRequest none;
  CHECK_THAT(error_of([&] {
               run::clone_settings(src, {"mnist", 1}, none);
             }),
             Contains("command is required"));
  run::CloneRequest both = same;
  both.command = {"x"};
  CHECK_THROWS_AS(run::clone_settings(src, {"mnist", 1}, both), Error);
  run::CloneRequest drop = same;
  drop.unset = {"BATCH"};
  CHECK_THAT(error_of([&] {
               run::clone_settings(src, {"mnist", 1}, drop);
             }),
             Contains("BATCH of run mnist/1 cannot be dropped"));
  run::CloneRequest rename = same;
  rename.rename = {{"LR", "LEARNING_RATE"}};
  CHECK_THAT(error_of([&] {
               run::clone_settings(src, {"mnist", 1}, rename);
             }),
             Contains("cannot be renamed"));
}

TEST_CASE("a sweep is one clone per value", "[run]") {
  run::CloneRequest base_req;
  base_req.same_command = true;
  base_req.env = {{"LR", "1"}, {"BATCH", "32"}};
  auto reqs = run::sweep(base_req, "LR=0.1,0.01,0.001");
  REQUIRE(reqs.size() == 3);
  CHECK(reqs[1].env.back() == std::pair<std::string, std::string>{"LR", "0.01"});
  CHECK(reqs[1].env.front() == std::pair<std::string, std::string>{"BATCH", "32"});
  CHECK(reqs[2].env.size() == 2);
  for (const char* bad : {"LR", "LR=", "LR=1,,2", "1X=1", "LR=1,"}) {
    INFO(bad);
    CHECK_THROWS_AS(run::sweep(base_req, bad), Error);
  }
}

TEST_CASE("the project's variable set, with empty cells", "[run]") {
  RunSettings a = base();
  RunSettings b = base();
  b.env.emplace_back("WD", "0.1");
  RunSettings c;
  c.env = {{"SEED", "7"}};
  CHECK(run::variable_set({&a, &b, &c}) == std::vector<std::string>{"LR", "BATCH", "WD", "SEED"});
  CHECK(run::env_value(a.env, "WD").empty());
  CHECK(run::env_value(b.env, "WD") == "0.1");
}

TEST_CASE("ports: reserved per node, free of others, exhausted clearly", "[run]") {
  CHECK(run::parse_port_range("20000-20009").first == 20000);
  for (const char* bad : {"20000", "80-90", "30000-20000", "20000-70000", "a-b", "1-2-3"}) {
    INFO(bad);
    CHECK_THROWS_AS(run::parse_port_range(bad), Error);
  }
  run::PortRange r{20000, 20009};
  auto free = [](std::uint16_t p) { return p != 20003; };  // something else listens there
  auto ports = run::reserve_ports(r, 2, 2, {20000}, free);
  CHECK(ports == std::vector<std::vector<std::uint16_t>>{{20001, 20002}, {20004, 20005}});
  CHECK_THAT(error_of([&] { run::reserve_ports(r, 3, 3, {20000}, free); }),
             Contains("port range 20000-20009 exhausted"));
}

TEST_CASE("each node's environment", "[run]") {
  std::vector<std::vector<std::uint16_t>> ports{{21000, 21001}, {21002, 21003}};
  auto env = run::rank_environment({"mnist", 4}, 1, 2, "127.0.0.1", ports);
  CHECK(run::env_value(env, "RANK") == "1");
  CHECK(run::env_value(env, "NODE_RANK") == "1");
  CHECK(run::env_value(env, "LOCAL_RANK") == "0");
  CHECK(run::env_value(env, "WORLD_SIZE") == "2");
  CHECK(run::env_value(env, "MASTER_ADDR") == "127.0.0.1");
  CHECK(run::env_value(env, "MASTER_PORT") == "21000");  // rank 0's first port
  CHECK(run::env_value(env, "STINT_TCP_PORTS") == "21002,21003");
  CHECK(run::env_value(env, "STINT_PORT_1") == "21003");
  CHECK(run::env_value(env, "STINT_RUN") == "mnist/4");
}

TEST_CASE("directory images run with bubblewrap", "[run]") {
  CHECK(run::is_directory_image("/srv/images/torch"));
  CHECK(run::is_directory_image("./rootfs"));
  CHECK_FALSE(run::is_directory_image("docker.io/library/python:3"));
  CHECK_FALSE(run::is_directory_image(""));
  auto argv = run::bubblewrap_argv("/usr/bin/bwrap", "/img", "/home/a/exp", {"python3", "t.py"});
  REQUIRE(argv.size() >= 4);
  CHECK(argv.front() == "/usr/bin/bwrap");
  CHECK(argv[argv.size() - 2] == "python3");
  CHECK(argv.back() == "t.py");
  auto at = [&](const std::string& s) {
    return std::find(argv.begin(), argv.end(), s) - argv.begin();
  };
  CHECK(argv[static_cast<std::size_t>(at("--chdir")) + 1] == "/home/a/exp");
  CHECK(argv[static_cast<std::size_t>(at("--bind")) + 1] == "/img");
  CHECK(argv[static_cast<std::size_t>(at("--bind")) + 2] == "/");
  CHECK(argv[static_cast<std::size_t>(at("--")) + 1] == "python3");
}

TEST_CASE("storages are bound into a directory image and named in the environment", "[run]") {
  auto argv = run::bubblewrap_argv("/usr/bin/bwrap", "/img", "/w", {"true"},
                                   {{"/state/storages/data", "/storage/data"}});
  auto bind_of = [&](const std::string& host) {
    for (std::size_t i = 0; i + 2 < argv.size(); ++i) {
      if (argv[i] == "--bind" && argv[i + 1] == host) return argv[i + 2];
    }
    return std::string();
  };
  CHECK(bind_of("/state/storages/data") == "/storage/data");
  CHECK(run::storage_mount({"data", ""}) == "/storage/data");
  CHECK(run::storage_mount({"data", "/mnt/d"}) == "/mnt/d");
  CHECK(run::storage_env_name("imagenet-1k.v2") == "STINT_STORAGE_IMAGENET_1K_V2");
  CHECK(run::storage_path("/s", "data") == "/s/storages/data");
}

TEST_CASE("OCI images run with podman, the node's variables passed in", "[run]") {
  auto argv = run::podman_argv("/usr/bin/podman", "localhost/torch:2", "stint-12-1", "/home/a/exp",
                               {"python3", "t.py"}, {{"/state/storages/data", "/storage/data"}},
                               {"RANK", "PATH", "MASTER_PORT", "HOME", "SLURM_JOB_ID"});
  REQUIRE(argv.size() > 6);
  // Under a shell that signals the container by name: sh -c SCRIPT $0 PODMAN NAME ARGS...
  CHECK(argv[0] == "/bin/sh");
  CHECK(argv[4] == "/usr/bin/podman");
  CHECK(argv[5] == "stint-12-1");
  CHECK(std::find(argv.begin(), argv.end(), "--rm") != argv.end());
  CHECK(std::find(argv.begin(), argv.end(), "--network=host") != argv.end());
  auto after = [&](const std::string& flag, const std::string& value) {
    for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == flag && argv[i + 1] == value) return true;
    }
    return false;
  };
  CHECK(after("--name", "stint-12-1"));
  CHECK(after("-v", "/home/a/exp:/home/a/exp"));
  CHECK(after("-w", "/home/a/exp"));
  CHECK(after("-v", "/state/storages/data:/storage/data"));
  CHECK(after("-e", "RANK"));
  CHECK(after("-e", "MASTER_PORT"));
  CHECK(after("-e", "SLURM_JOB_ID"));
  // The image keeps its own PATH and HOME.
  CHECK_FALSE(after("-e", "PATH"));
  CHECK_FALSE(after("-e", "HOME"));
  // The image, then the command, last.
  REQUIRE(argv.size() >= 3);
  CHECK(argv[argv.size() - 3] == "localhost/torch:2");
  CHECK(argv[argv.size() - 2] == "python3");
  CHECK(argv.back() == "t.py");
}

TEST_CASE("another user sees a run's variable names, never their values", "[run]") {
  const run::EnvPairs env = {{"WANDB_API_KEY", "k-123"}, {"LR", "0.1"}, {"EMPTY", ""}};
  const run::EnvPairs masked = run::masked_env(env);
  // Every name, in order; every value "***", an empty one too.
  CHECK(masked == run::EnvPairs{{"WANDB_API_KEY", "***"}, {"LR", "***"}, {"EMPTY", "***"}});
  CHECK(run::masked_env({}).empty());
  // The owner's values come back from the job's environment by name.
  run::EnvPairs names_only = {{"WANDB_API_KEY", ""}, {"LR", ""}, {"GONE", "stale"}};
  run::fill_env_values(names_only, {{"PATH", "/bin"}, {"LR", "0.1"}, {"WANDB_API_KEY", "k-123"}});
  CHECK(names_only == run::EnvPairs{{"WANDB_API_KEY", "k-123"}, {"LR", "0.1"}, {"GONE", ""}});
}
