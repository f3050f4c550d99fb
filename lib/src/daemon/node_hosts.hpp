#pragma once
// The cluster's hosts file: what a task sees as /etc/hosts (util/node_view),
// so that every node name resolves to that node's address (NodeAddr) as on
// a cluster whose nodes are in DNS. stintd writes it into the state
// directory with the configuration it runs with.

#include <string>
#include <string_view>

#include <stint/config.hpp>

namespace stint::daemon {

/// Where it is: `<state_dir>/hosts`.
std::string node_hosts_path(const std::string& state_dir);

/// Its text: a line per node (its address, its name), then the lines of
/// `etc_hosts` (the machine's /etc/hosts) with node names taken out of them;
/// a line of the machine's at a node's address gives that node line its
/// names as aliases (Debian's "127.0.1.1 <machine>"), and `machine` is kept
/// resolvable (127.0.0.1) where no line names it.
std::string node_hosts_text(const Config& config, std::string_view etc_hosts,
                            std::string_view machine);

/// The address `hosts_text` (the file's text) gives `name`; "" for none.
std::string address_of(std::string_view hosts_text, std::string_view name);

/// Writes it (0644, atomically) when the cluster needs it and its text
/// differs from what is there, and removes it when the cluster does not.
/// Throws Errc::io when it cannot.
void write_node_hosts(const std::string& state_dir, const Config& config,
                      const std::string& machine);

}  // namespace stint::daemon
