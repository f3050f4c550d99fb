#pragma once
// JSON forms of the model, shared by the RPC protocol and the store.
// Internal header: keeps nlohmann-json out of the public ones.

#include <nlohmann/json.hpp>

#include <stint/model.hpp>

namespace stint {

nlohmann::json to_json(const JobSpec& spec);
JobSpec job_spec_from_json(const nlohmann::json& j);

nlohmann::json to_json(const Dependency& d);
Dependency dependency_from_json(const nlohmann::json& j);

nlohmann::json to_json(const ResourceRequest& r);
ResourceRequest resource_request_from_json(const nlohmann::json& j);

nlohmann::json to_json(const std::vector<NodeAlloc>& alloc);
std::vector<NodeAlloc> alloc_from_json(const nlohmann::json& j);

}  // namespace stint
