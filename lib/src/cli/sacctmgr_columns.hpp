#pragma once
// sacctmgr show|list: the columns of each kind of record (name, header,
// width, accessor), as sacctmgr_show.cpp picks and prints them.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/accounts.hpp>

namespace stint::cli {

/// One listed line: whichever records it shows.
struct Row {
  const Association* assoc = nullptr;
  const Account* account = nullptr;
  const User* user = nullptr;
  const Qos* qos = nullptr;
  std::string tres_type;  ///< show tres
  std::string tres_name;
  int tres_id = 0;
  int depth = 0;  ///< tree
};

struct Ctx {
  const Accounting& data;
  const std::string& cluster;
  bool parent_limits = true;  ///< Max* and QOS as inherited (not woplimits)
};

using Get = std::function<std::string(const Ctx&, const Row&)>;

struct Column {
  std::string_view key;      ///< lower-case name
  std::string_view aliases;  ///< more lower-case names, ',' between
  std::string_view header;
  int width;
  Get get;
};

const std::vector<Column>& assoc_columns();
const std::vector<Column>& user_columns();
const std::vector<Column>& account_columns();
const std::vector<Column>& qos_columns();
const std::vector<Column>& cluster_columns();
const std::vector<Column>& tres_columns();

}  // namespace stint::cli
