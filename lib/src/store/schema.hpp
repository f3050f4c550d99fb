#pragma once
// The database schema as a list of forward migrations. Migration i (0-based)
// takes a database from user_version i to i + 1. Never edit a released
// migration: add a new one (tests/unit/store keeps an old database as a fixture).

#include <string_view>
#include <vector>

namespace stint::store_schema {

const std::vector<std::string_view>& migrations();

}  // namespace stint::store_schema
