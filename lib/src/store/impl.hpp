#pragma once
// Store's private part, shared by the files that implement Store's methods
// (store.cpp: jobs and meta; accounts.cpp: accounts, users, associations, QOS).

#include <string>

#include <stint/store.hpp>

#include "store/sqlite.hpp"

namespace stint {

struct Store::Impl {
  sql::Connection conn;
  bool read_only;

  Impl(const std::string& path, bool ro) : conn(path, ro), read_only(ro) {}
};

}  // namespace stint
