#pragma once
// One handler per request op (docs/protocol.md). Each validates everything
// before it changes anything, so a refused request leaves no trace.

#include <nlohmann/json.hpp>

#include "daemon/controller.hpp"

namespace stint::daemon {

using Json = nlohmann::json;

Json handle_ping(Controller& c, const Json& req, const Caller& caller);
Json handle_shutdown(Controller& c, const Json& req, const Caller& caller);
Json handle_task_done(Controller& c, const Json& req, const Caller& caller);
Json handle_submit(Controller& c, const Json& req, const Caller& caller);
Json handle_cancel(Controller& c, const Json& req, const Caller& caller);
Json handle_hold(Controller& c, const Json& req, const Caller& caller);
Json handle_release(Controller& c, const Json& req, const Caller& caller);
Json handle_update_job(Controller& c, const Json& req, const Caller& caller);

/// A per-job outcome for replies that act on several jobs.
Json job_result(JobId id, const std::optional<Error>& error);
/// The job ids a request names ("job_ids": [..]); throws Errc::protocol.
std::vector<JobId> requested_ids(const Json& req);

}  // namespace stint::daemon
