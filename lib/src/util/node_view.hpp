#pragma once
// What a task sees of the node it runs on: the node's name as its host name
// (uname, hostname, gethostname) and the cluster's hosts file as /etc/hosts,
// so that every node name resolves to that node's address. A task gets them
// from namespaces of its own, entered between fork and exec: UTS for the
// name, mount for the hosts file, and, for a process without CAP_SYS_ADMIN
// (a personal stintd, srun as a user), an unprivileged user namespace that
// maps only the task's own user and group to themselves.
//
// Nothing here is required for a task to run: where the kernel refuses the
// namespaces, the task runs with the machine's name and /etc/hosts, and the
// variables that name addresses (MASTER_ADDR) still hold addresses.

#include <string>

namespace stint::node_view {

/// Everything entering the view takes, made before the fork: enter() only
/// makes system calls on it.
struct Plan {
  bool set_hostname = false;  ///< the node's name differs from this host's
  bool bind_hosts = false;    ///< the hosts file is not already /etc/hosts
  std::string hostname;
  std::string hosts_file;
  std::string uid_map;  ///< "<uid> <uid> 1", for a user namespace
  std::string gid_map;
  /// Whether a user namespace may be made when the namespaces alone are
  /// refused: not for a process that becomes another user afterwards.
  bool user_ns_allowed = true;

  bool needed() const { return set_hostname || bind_hosts; }
};

/// The plan for a task of node `node`, with `hosts_file` (the cluster's,
/// written by stintd; "" or a missing file: none) as its /etc/hosts. Nothing
/// is needed for a node named after this machine with the hosts file
/// already in place (a task started from within another task of the node).
Plan plan(const std::string& node, const std::string& hosts_file);

/// Enters the view in the calling process, which is a child about to exec:
/// allocates nothing. Returns 0, or the errno of the step that failed (the
/// caller goes on without the view).
int enter(const Plan& p) noexcept;

/// Whether this process could give a task a view of its own: "" when it can,
/// else why not, in a sentence, for stint init's and stintd's warning.
std::string unavailable_reason();

}  // namespace stint::node_view
