#include "daemon/node_hosts.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "util/fs.hpp"

namespace stint::daemon {
namespace {

// A hosts line's fields, its comment left out.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line.substr(0, line.find('#')));
  std::string word;
  while (in >> word) out.push_back(word);
  return out;
}

}  // namespace

std::string node_hosts_path(const std::string& state_dir) { return state_dir + "/hosts"; }

std::string node_hosts_text(const Config& config, std::string_view etc_hosts,
                            std::string_view machine) {
  const std::vector<NodeDef> nodes = config.nodes();
  std::set<std::string, std::less<>> node_names;
  std::map<std::string, std::size_t> node_at;  // address -> index in nodes
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    node_names.insert(nodes[i].name);
    node_at.emplace(nodes[i].addr, i);
  }
  std::vector<std::vector<std::string>> aliases(nodes.size());
  std::string rest;
  bool machine_named = node_names.count(machine) > 0;
  std::istringstream in{std::string(etc_hosts)};
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = fields_of(line);
    if (f.empty()) {
      rest += line + "\n";
      continue;
    }
    std::vector<std::string> names;
    for (std::size_t i = 1; i < f.size(); ++i) {
      if (node_names.count(f[i])) continue;
      if (f[i] == machine) machine_named = true;
      names.push_back(f[i]);
    }
    if (auto it = node_at.find(f[0]); it != node_at.end()) {
      auto& a = aliases[it->second];
      for (std::string& n : names) {
        if (std::find(a.begin(), a.end(), n) == a.end()) a.push_back(std::move(n));
      }
      continue;
    }
    if (names.empty()) continue;
    if (names.size() + 1 == f.size())
      rest += line + "\n";
    else
      rest += fmt::format("{}\t{}\n", f[0], fmt::join(names, " "));
  }
  std::string out = fmt::format(
      "# The nodes of stint cluster {} as its jobs see them, then this machine's "
      "/etc/hosts.\n# stintd writes this file from stint.yaml; edits are lost.\n",
      config.cluster_name);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out += fmt::format("{}\t{}", nodes[i].addr, nodes[i].name);
    for (const std::string& a : aliases[i]) out += " " + a;
    out += "\n";
  }
  out += rest;
  if (!machine_named && !machine.empty()) out += fmt::format("127.0.0.1\t{}\n", machine);
  return out;
}

std::string address_of(std::string_view hosts_text, std::string_view name) {
  std::istringstream in{std::string(hosts_text)};
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields_of(line);
    if (std::find(f.begin() + (f.empty() ? 0 : 1), f.end(), name) != f.end()) return f.front();
  }
  return {};
}

void write_node_hosts(const std::string& state_dir, const Config& config,
                      const std::string& machine) {
  const std::string path = node_hosts_path(state_dir);
  if (!config.has_virtual_nodes(machine)) {
    ::unlink(path.c_str());
    return;
  }
  std::string etc_hosts;
  try {
    etc_hosts = fs::read_file("/etc/hosts");
  } catch (const Error&) {
    // None, or unreadable: the nodes alone.
  }
  // A new file, not the old one rewritten: a task's bind mount keeps the
  // text it started with, whole. Not synced: written again at every start.
  fs::write_file_if_changed(path, node_hosts_text(config, etc_hosts, machine), 0644, fs::Sync::no);
}

}  // namespace stint::daemon
