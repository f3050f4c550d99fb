// The sshd of a run's node: its config (what sshd reads, quoting included),
// what a session finds in its environment, and whether it is served at all.

#include "daemon/node_ssh.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("a node's sshd_config lets its owner alone in, by key") {
  const std::string c = daemon::node_sshd_config(31402, "/s/ssh/7/host_key", "alice", {});
  CHECK(has_line(c, "Port 31402"));
  CHECK(has_line(c, "HostKey /s/ssh/7/host_key"));
  CHECK(has_line(c, "AllowUsers alice"));
  CHECK(has_line(c, "PasswordAuthentication no"));
  CHECK(has_line(c, "KbdInteractiveAuthentication no"));
  CHECK(has_line(c, "UsePAM no"));
  CHECK(has_line(c, "PidFile none"));
  CHECK(c.find("SetEnv") == std::string::npos);  // nothing to set, no empty line for sshd
}

TEST_CASE("the node's variables are one SetEnv line, quoted as sshd splits it") {
  const std::string c = daemon::node_sshd_config(22000, "/k", "bob",
                                                 {{"RANK", "1"},
                                                  {"NOTE", "say \"hi\" # not a comment"},
                                                  {"WIN", "C:\\dir"},
                                                  {"EMPTY", ""},
                                                  {"MULTI", "two\nlines"},
                                                  {"CR", "a\rb"}});
  CHECK(has_line(c,
                 "SetEnv \"RANK=1\" \"NOTE=say \\\"hi\\\" # not a comment\" "
                 "\"WIN=C:\\\\dir\" \"EMPTY=\""));
  // A value with a line break would end the line: left out.
  CHECK(c.find("MULTI") == std::string::npos);
  CHECK(c.find("CR=") == std::string::npos);
  // One SetEnv only: sshd ignores any after the first.
  CHECK(c.find("SetEnv") == c.rfind("SetEnv"));
}

TEST_CASE("a session gets the node's variables, not what was exported at submit") {
  const std::vector<std::pair<std::string, std::string>> node{{"PATH", "/submitter/bin"},
                                                              {"HOME", "/home/x"},
                                                              {"SLURM_JOB_ID", "12"},
                                                              {"STINT_RUN", "p/1"},
                                                              {"RANK", "1"},
                                                              {"WORLD_SIZE", "2"},
                                                              {"MASTER_ADDR", "127.0.0.1"},
                                                              {"MASTER_PORT", "20000"},
                                                              {"CUDA_VISIBLE_DEVICES", "0,1"},
                                                              {"LR", "0.1"},
                                                              {"SECRET", "exported"},
                                                              {"SLURMD_X", "not slurm's prefix"}};
  const auto env = daemon::node_session_env(node, {{"LR", "0.1"}});
  std::vector<std::string> names;
  for (const auto& [k, v] : env) names.push_back(k);
  CHECK(names == std::vector<std::string>{"SLURM_JOB_ID", "STINT_RUN", "RANK", "WORLD_SIZE",
                                          "MASTER_ADDR", "MASTER_PORT", "CUDA_VISIBLE_DEVICES",
                                          "LR"});
}

TEST_CASE("node SSH is served only when enabled and sshd is an executable") {
  Config c;
  CHECK_FALSE(daemon::node_sshd(c));  // off by default
  c.slurm_conf["StintRunSsh"] = "yes";
  c.slurm_conf["StintRunSshd"] = "/bin/sh";  // any executable will do here
  CHECK(daemon::node_sshd(c) == "/bin/sh");
  c.slurm_conf["StintRunSshd"] = "/no/such/sshd";
  CHECK_FALSE(daemon::node_sshd(c));
  c.slurm_conf["StintRunSshd"] = "sh";  // not a path
  CHECK_FALSE(daemon::node_sshd(c));
  c.slurm_conf["StintRunSshd"] = "/bin/sh";
  c.slurm_conf["StintRunSsh"] = "NO";
  CHECK_FALSE(daemon::node_sshd(c));
}

TEST_CASE("a job's ssh folder is under the state directory") {
  CHECK(daemon::ssh_dir(Paths{"/var/lib/stint"}, 42) == "/var/lib/stint/ssh/42");
}
