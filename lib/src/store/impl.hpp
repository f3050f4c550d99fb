#pragma once
// Store's private part, shared by the files that implement Store's methods
// (store.cpp: jobs and meta; accounts.cpp: accounts, users, associations, QOS).

#include <memory>
#include <string>

#include <stint/store.hpp>

#include "store/sqlite.hpp"

namespace stint {

struct Store::Impl {
  sql::Connection conn;
  bool read_only;
  // The job writes, prepared once and reused: preparing their 40-odd columns
  // anew for each row was a large part of submitting an array (10,000 rows).
  // Declared after conn, so they are finalized before it closes.
  std::unique_ptr<sql::Statement> insert_job;
  std::unique_ptr<sql::Statement> replace_job;

  Impl(const std::string& path, bool ro) : conn(path, ro), read_only(ro) {}
};

}  // namespace stint
