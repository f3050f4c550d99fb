#pragma once
// What the sacctmgr handlers share (docs/protocol.md "Accounts, users and
// QOS"). Each entity has its own file, as in Slurm's sacctmgr:
// sacctmgr_account.cpp, sacctmgr_user.cpp, sacctmgr_qos.cpp; this header and
// sacctmgr.cpp hold the request's parts, authorisation and the commit.
//
// A request works on a copy of the records. With "commit": false the reply
// says what would change and nothing is written (sacctmgr asks before it
// commits); with "commit": true the copy is saved in one transaction.

#include <string>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/error.hpp>

#include "daemon/handlers/handlers.hpp"
#include "sched/limits.hpp"

namespace stint::daemon::acct {

/// The parts of an acct_* request.
struct Request {
  std::string entity;                    ///< "account", "user", "qos"
  std::vector<std::string> names;        ///< the entities named
  std::vector<sched::Setting> where;     ///< conditions (modify, delete)
  std::vector<sched::Setting> settings;  ///< what to set (add, modify)
};
/// Reads a request; throws Errc::protocol on a malformed one.
Request read_request(const Json& req);

/// An error sacctmgr prints as it is (Slurm's own lines, leading space
/// included), exiting 1.
Error refusal(const std::string& text);

/// The caller's admin level: root and the state directory's owner are
/// administrators; others as their user record says.
AdminLevel caller_level(Controller& c, const Caller& caller);
/// Throws Slurm's refusal unless the caller is at least an operator.
void require_operator(Controller& c, const Caller& caller);

/// An association as replies list it: account, user, partition, parent.
Json assoc_json(const Accounting& data, const Association& a);

/// Values of the conditions named `keys` (any case), split on commas,
/// lower-cased unless `keep_case`.
std::vector<std::string> condition_values(const std::vector<sched::Setting>& where,
                                          std::initializer_list<std::string_view> keys,
                                          bool keep_case = false);
/// Whether `key` is one of `keys` (any case).
bool key_is(std::string_view key, std::initializer_list<std::string_view> keys);
std::string lower(std::string_view s);

/// Live jobs that run under one of `assoc_ids` (or use `qos`), as Slurm's
/// "Job(s) active, cancel job(s) before remove" lists them; throws that
/// refusal when there are any.
void refuse_if_jobs(Controller& c, const Accounting& data,
                    const std::vector<std::int64_t>& assoc_ids, const std::string& qos = "");

// One function per entity and verb; each changes `next` and returns the reply.
Json add_account(Controller& c, Accounting& next, const Request& r);
Json modify_account(Controller& c, Accounting& next, const Request& r);
Json delete_account(Controller& c, Accounting& next, const Request& r);
Json add_user(Controller& c, Accounting& next, const Request& r, const Caller& caller);
Json modify_user(Controller& c, Accounting& next, const Request& r, const Caller& caller);
Json delete_user(Controller& c, Accounting& next, const Request& r);
Json add_qos(Controller& c, Accounting& next, const Request& r);
Json modify_qos(Controller& c, Accounting& next, const Request& r);
Json delete_qos(Controller& c, Accounting& next, const Request& r);

}  // namespace stint::daemon::acct
