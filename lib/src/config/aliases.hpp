#pragma once
// stint.yaml's `aliases`: a cluster's partition, QOS, account, reservation
// and GPU type names mapped to this machine's.

#include <string>

#include <stint/config.hpp>

#include "config/raw.hpp"

namespace stint::config_detail {

/// The `aliases` map at `path`, checked against the partitions and node pools
/// already in `c`: a partition or GPU type target must exist there (accounts,
/// QOS and reservations live in the state and are checked at submit), "" drops
/// the request so the default applies, and a name this machine has cannot be
/// an alias (it would never apply). QOS and account names are lower-cased, as
/// sacctmgr keeps them. Throws Errc::config_invalid "<name>:<line>: <path>: <problem>".
ForeignNames build_aliases(const RawNode& node, const std::string& path, const std::string& name,
                           const Config& c);

}  // namespace stint::config_detail
