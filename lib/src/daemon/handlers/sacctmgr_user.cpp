// sacctmgr add|modify|delete user: user records and their associations.
// `sacctmgr add User Accounts=<account> Partition=<partition> <user>` (the
// seed's form) lands here.

#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/sacctmgr.hpp"

namespace stint::daemon::acct {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

void check_clusters(const Controller& c, const std::vector<sched::Setting>& settings) {
  for (const auto& name : condition_values(settings, {"cluster", "clusters"})) {
    if (name != lower(c.config().cluster_name))
      throw refusal(
          fmt::format(" This cluster '{}' doesn't exist.\n"
                      "        Contact your admin to add it to accounting.",
                      name));
  }
}

void check_accounts(const Accounting& data, const std::vector<std::string>& accounts) {
  for (const auto& a : accounts) {
    if (!data.find_account(a))
      throw refusal(
          fmt::format(" This account '{}' doesn't exist.\n"
                      "        Contact your admin to add this account.\n"
                      " No associations or wckeys created.",
                      a));
  }
}

void check_partitions(const Controller& c, const std::vector<std::string>& partitions) {
  for (const auto& p : partitions) {
    if (!c.config().find_partition(p))
      throw refusal(fmt::format(" This partition '{}' doesn't exist on cluster '{}'.", p,
                                c.config().cluster_name));
  }
}

AdminLevel admin_level_value(const sched::Setting& s) {
  auto level = sched::admin_level_from_name(s.value);
  if (!level) throw refusal(fmt::format(" Unknown AdminLevel '{}'", s.value));
  return *level;
}

void require_admin(Controller& c, const Caller& caller) {
  if (caller_level(c, caller) != AdminLevel::admin)
    throw Error(Errc::access_denied, "Only administrators may change admin levels");
}

std::vector<std::string> user_names(const Request& r) {
  std::vector<std::string> names = r.names;
  for (const auto& n : condition_values(r.where, {"name", "names", "user", "users"}, true))
    names.push_back(n);
  return names;
}

const std::initializer_list<std::string_view> k_account_keys = {"account", "accounts"};
const std::initializer_list<std::string_view> k_partition_keys = {"partition", "partitions"};

// The default-account refusal for users left without an association to it.
void refuse_losing_default(const Controller& c, const Accounting& before, const Accounting& after) {
  std::string lines;
  for (const auto& u : after.users) {
    bool had = false;
    bool has = false;
    bool any_left = false;
    for (const auto& a : before.associations)
      had = had || (a.user == u.name && a.account == u.default_account);
    for (const auto& a : after.associations) {
      has = has || (a.user == u.name && a.account == u.default_account);
      any_left = any_left || a.user == u.name;
    }
    if (had && !has && any_left)
      lines += fmt::format("  C = {:<15} A = {:<10} U = {:<9}\n", c.config().cluster_name,
                           u.default_account, u.name);
  }
  if (!lines.empty())
    throw refusal(" Error with request: You can not remove the default account of a user\n" +
                  lines +
                  " Please either remove the accounts listed above from list and resubmit,\n"
                  " or change these users' default accounts to remove the account(s).\n"
                  " Changes Discarded");
}

}  // namespace

Json add_user(Controller& c, Accounting& next, const Request& r, const Caller& caller) {
  if (r.names.empty()) throw refusal(" Need name of user to add.");
  std::vector<std::string> accounts;
  std::vector<std::string> partitions;
  std::string default_account;
  std::optional<AdminLevel> level;
  std::vector<sched::Setting> assoc_settings;
  for (const auto& s : r.settings) {
    if (key_is(s.key, k_account_keys)) {
      for (const auto& a : condition_values({s}, k_account_keys))
        if (!contains(accounts, a)) accounts.push_back(a);
    } else if (key_is(s.key, k_partition_keys)) {
      for (const auto& p : condition_values({s}, k_partition_keys, true))
        if (!contains(partitions, p)) partitions.push_back(p);
    } else if (key_is(s.key, {"cluster", "clusters"})) {
      check_clusters(c, {s});
    } else if (key_is(s.key, {"defaultaccount"})) {
      default_account = lower(s.value);
    } else if (key_is(s.key, {"adminlevel"})) {
      level = admin_level_value(s);
    } else if (key_is(s.key, {"defaultwckey", "wckey", "wckeys"})) {
      // stint keeps no WCKeys; accepted so Slurm scripts run.
    } else if (sched::is_assoc_setting(s.key)) {
      assoc_settings.push_back(s);
    } else {
      throw refusal(fmt::format(" Unknown option: {}{}{}", s.key, s.op, s.value));
    }
  }
  if (!default_account.empty() && !contains(accounts, default_account))
    accounts.push_back(default_account);
  if (accounts.empty()) throw refusal(" Need name of account to add user to.");
  check_accounts(next, accounts);
  check_partitions(c, partitions);
  if (level && *level != AdminLevel::none) require_admin(c, caller);
  if (partitions.empty()) partitions.push_back("");

  Json users = Json::array();
  Json assocs = Json::array();
  Association shown;  // for the settings lines
  for (const auto& name : r.names) {
    if (name.empty() || name.find_first_of(" ,=|'\"") != std::string::npos)
      throw refusal(fmt::format(" Bad user name '{}'", name));
    if (!next.find_user(name)) {
      next.users.push_back({name, default_account.empty() ? accounts.front() : default_account,
                            level.value_or(AdminLevel::none)});
      users.push_back(name);
    }
    for (const auto& account : accounts) {
      for (const auto& partition : partitions) {
        if (next.find_association(account, name, partition)) continue;
        Association a;
        a.account = account;
        a.user = name;
        a.partition = partition;
        const Association* parent = next.find_association(account, "", "");
        const std::vector<std::string> inherited =
            parent ? sched::effective_qos(next, *parent) : std::vector<std::string>{};
        for (const auto& s : assoc_settings) sched::apply_assoc_setting(a, s, next, inherited);
        shown = a;
        next.associations.push_back(a);
        assocs.push_back(assoc_json(next, next.associations.back()));
      }
    }
  }
  std::sort(next.users.begin(), next.users.end(),
            [](const User& x, const User& y) { return x.name < y.name; });
  return {{"users", users},
          {"associations", assocs},
          {"lines", sched::assoc_limit_lines(shown, assoc_settings)}};
}

Json modify_user(Controller& c, Accounting& next, const Request& r, const Caller& caller) {
  check_clusters(c, r.where);
  for (const auto& s : r.where) {
    if (!key_is(s.key, {"name", "names", "user", "users", "account", "accounts", "partition",
                        "partitions", "cluster", "clusters"}))
      throw refusal(fmt::format(" Unknown condition: {}{}{}", s.key, s.op, s.value));
  }
  const std::vector<std::string> names = user_names(r);
  const std::vector<std::string> accounts = condition_values(r.where, k_account_keys);
  const std::vector<std::string> partitions = condition_values(r.where, k_partition_keys, true);
  auto user_matches = [&](const std::string& u) { return names.empty() || contains(names, u); };

  std::vector<std::string> changed_users;
  std::vector<std::int64_t> changed_assocs;
  for (const auto& s : r.settings) {
    if (key_is(s.key, {"defaultaccount", "adminlevel"})) {
      const bool is_level = key_is(s.key, {"adminlevel"});
      AdminLevel level = AdminLevel::none;
      if (is_level) {
        level = admin_level_value(s);
        require_admin(c, caller);
      }
      for (auto& u : next.users) {
        if (!user_matches(u.name)) continue;
        if (is_level) {
          u.admin_level = level;
        } else {
          const std::string account = lower(s.value);
          if (!next.find_association(account, u.name, "") &&
              std::none_of(
                  next.associations.begin(), next.associations.end(),
                  [&](const Association& a) { return a.account == account && a.user == u.name; }))
            throw refusal(
                fmt::format(" Error with request: User '{}' has no association to "
                            "account '{}'; add it first",
                            u.name, account));
          u.default_account = account;
        }
        if (!contains(changed_users, u.name)) changed_users.push_back(u.name);
      }
    } else if (sched::is_assoc_setting(s.key)) {
      for (auto& a : next.associations) {
        if (!a.is_user() || !user_matches(a.user)) continue;
        if (!accounts.empty() && !contains(accounts, a.account)) continue;
        if (!partitions.empty() && !contains(partitions, a.partition)) continue;
        const Association* parent = sched::parent_association(next, a);
        const std::vector<std::string> inherited =
            parent ? sched::effective_qos(next, *parent) : std::vector<std::string>{};
        sched::apply_assoc_setting(a, s, next, inherited);
        if (std::find(changed_assocs.begin(), changed_assocs.end(), a.id) == changed_assocs.end())
          changed_assocs.push_back(a.id);
      }
    } else {
      throw refusal(fmt::format(" Unknown option: {}{}{}\n Use keyword 'where' to modify condition",
                                s.key, s.op, s.value));
    }
  }
  // Listed in Slurm's order: the association tree.
  Json assocs = Json::array();
  for (const auto& [a, depth] : sched::association_tree(next)) {
    if (std::find(changed_assocs.begin(), changed_assocs.end(), a->id) != changed_assocs.end())
      assocs.push_back(assoc_json(next, *a));
  }
  return {{"users", changed_users}, {"associations", assocs}};
}

Json delete_user(Controller& c, Accounting& next, const Request& r) {
  check_clusters(c, r.where);
  const std::vector<std::string> names = user_names(r);
  if (names.empty()) throw refusal(" No conditions given to delete.");
  const std::vector<std::string> accounts = condition_values(r.where, k_account_keys);
  const std::vector<std::string> partitions = condition_values(r.where, k_partition_keys, true);
  const bool whole_users = accounts.empty() && partitions.empty();
  const Accounting before = next;

  std::vector<std::int64_t> assoc_ids;
  Json assocs = Json::array();
  for (const auto& [a, depth] : sched::association_tree(next)) {
    if (!a->is_user() || !contains(names, a->user)) continue;
    if (!accounts.empty() && !contains(accounts, a->account)) continue;
    if (!partitions.empty() && !contains(partitions, a->partition)) continue;
    assoc_ids.push_back(a->id);
    assocs.push_back(assoc_json(next, *a));
  }
  std::vector<std::string> users;
  if (whole_users) {
    for (const auto& u : next.users) {
      if (contains(names, u.name)) users.push_back(u.name);
    }
    if (contains(users, "root"))
      throw refusal(" Error with request: You can not remove the root user");
  }
  refuse_if_jobs(c, next, assoc_ids);
  std::erase_if(next.associations, [&](const Association& a) {
    return std::find(assoc_ids.begin(), assoc_ids.end(), a.id) != assoc_ids.end();
  });
  std::erase_if(next.users, [&](const User& u) { return contains(users, u.name); });
  if (!whole_users) {
    refuse_losing_default(c, before, next);
    return {{"associations", assocs}};
  }
  return {{"users", users}};
}

}  // namespace stint::daemon::acct
