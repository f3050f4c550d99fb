#pragma once
// What `sacctmgr show stats` reports: stintd's count and time of the requests
// it answered since it started or since `sacctmgr clear stats`, by Slurm's
// message type for each request and by user (slurmdbd's rpc_stats), kept in
// memory as slurmdbd keeps them (handlers/rpc_stats.cpp).

#include <cstdint>

#include <nlohmann/json.hpp>

#include "daemon/controller.hpp"

namespace stint::daemon {

/// Counts one answered request of `uid` that took `usec` microseconds, and
/// the end of its connection (DBD_FINI): a client of stintd closes its
/// connection after each request, where Slurm's send DBD_FINI.
void record_rpc(const nlohmann::json& request, std::uint32_t uid, std::int64_t usec);

/// acct_stats: the counts (Administrator only, as slurmdbd's DBD_GET_STATS).
nlohmann::json handle_acct_stats(Controller& c, const nlohmann::json& req, const Caller& caller);
/// acct_clear_stats: starts the counts again (DBD_CLEAR_STATS).
nlohmann::json handle_acct_clear_stats(Controller& c, const nlohmann::json& req,
                                       const Caller& caller);

}  // namespace stint::daemon
