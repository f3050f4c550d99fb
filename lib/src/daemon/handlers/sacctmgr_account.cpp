// sacctmgr add|modify|delete account.

#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/sacctmgr.hpp"

namespace stint::daemon::acct {
namespace {

void check_cluster(const Controller& c, const sched::Setting& s) {
  for (const auto& name : condition_values({s}, {lower(s.key)})) {
    if (name != lower(c.config().cluster_name))
      throw refusal(
          fmt::format(" This cluster '{}' doesn't exist.\n"
                      "        Contact your admin to add it to accounting.",
                      name));
  }
}

Error unknown_option(const sched::Setting& s, bool modify) {
  std::string text = fmt::format(" Unknown option: {}{}{}", s.key, s.op, s.value);
  if (modify) text += "\n Use keyword 'where' to modify condition";
  return refusal(text);
}

// Parent is one of the association's keys in Slurm ("Pa" names it), kept
// on the account here.
bool is_parent(const sched::Setting& s) { return sched::assoc_setting_name(s.key) == "Parent"; }

bool valid_name(const std::string& name) {
  return !name.empty() && name.find_first_of(" ,=|'\"") == std::string::npos;
}

// The accounts a modify or delete names: by name, or every account when none is named.
std::vector<std::string> named_accounts(const Accounting& data, const Request& r) {
  std::vector<std::string> names;
  for (const auto& n : r.names) names.push_back(lower(n));
  for (const auto& n : condition_values(r.where, {"name", "names", "account", "accounts"}))
    names.push_back(n);
  std::vector<std::string> out;
  for (const auto& a : data.accounts) {
    if (names.empty() || std::find(names.begin(), names.end(), a.name) != names.end())
      out.push_back(a.name);
  }
  return out;
}

}  // namespace

Json add_account(Controller& c, Accounting& next, const Request& r) {
  if (r.names.empty()) throw refusal(" Need name of account to add.");
  Account proto;
  std::string parent = "root";
  bool described = false;
  bool organized = false;
  std::vector<sched::Setting> assoc_settings;
  for (const auto& s : r.settings) {
    if (key_is(s.key, {"description"})) {
      proto.description = s.value;
      described = true;
    } else if (key_is(s.key, {"organization"})) {
      proto.organization = s.value;
      organized = true;
    } else if (is_parent(s)) {
      parent = lower(s.value);
    } else if (key_is(s.key, {"cluster", "clusters"})) {
      check_cluster(c, s);
    } else if (sched::is_assoc_setting(s.key)) {
      assoc_settings.push_back(s);
    } else {
      throw unknown_option(s, false);
    }
  }
  const Association* parent_assoc = next.find_association(parent, "", "");
  if (!next.find_account(parent) || !parent_assoc)
    throw refusal(fmt::format(" Parent account '{}' doesn't exist.", parent));
  Association proto_assoc;
  proto_assoc.account = parent;  // for the inherited QOS list while applying
  const std::vector<std::string> inherited = sched::effective_qos(next, *parent_assoc);
  for (const auto& s : assoc_settings) sched::apply_assoc_setting(proto_assoc, s, next, inherited);

  Json accounts = Json::array();
  Json assocs = Json::array();
  for (const auto& given : r.names) {
    const std::string name = lower(given);
    if (!valid_name(name)) throw refusal(fmt::format(" Bad account name '{}'", given));
    if (next.find_account(name)) continue;
    Account a = proto;
    a.name = name;
    a.parent = parent;
    if (!described) a.description = name;
    if (!organized) a.organization = parent == "root" ? name : parent;
    next.accounts.push_back(a);
    Association assoc = proto_assoc;
    assoc.account = name;
    next.associations.push_back(assoc);
    accounts.push_back(
        {{"name", a.name}, {"description", a.description}, {"organization", a.organization}});
    assocs.push_back(assoc_json(next, next.associations.back()));
  }
  std::sort(next.accounts.begin(), next.accounts.end(),
            [](const Account& x, const Account& y) { return x.name < y.name; });
  // Slurm prints the association's settings, Parent first among them, when
  // anything beyond the names was given.
  std::vector<std::string> lines;
  if (!r.settings.empty()) lines = sched::assoc_limit_lines(proto_assoc, assoc_settings, parent);
  return {{"accounts", accounts}, {"associations", assocs}, {"parent", parent}, {"lines", lines}};
}

Json modify_account(Controller& c, Accounting& next, const Request& r) {
  for (const auto& s : r.where) {
    if (key_is(s.key, {"cluster", "clusters"})) {
      check_cluster(c, s);
    } else if (!key_is(s.key, {"name", "names", "account", "accounts", "user", "users", "partition",
                               "partitions"})) {
      throw refusal(fmt::format(" Unknown condition: {}{}{}", s.key, s.op, s.value));
    }
  }
  const std::vector<std::string> names = named_accounts(next, r);
  // "where user=" (or partition=) picks the users' associations under the
  // accounts, as Slurm's association condition does; their limits change,
  // not the accounts.
  const std::vector<std::string> users = condition_values(r.where, {"user", "users"});
  const std::vector<std::string> partitions =
      condition_values(r.where, {"partition", "partitions"}, true);
  if (!users.empty() || !partitions.empty()) {
    std::vector<std::int64_t> changed;
    for (const auto& s : r.settings) {
      if (!sched::is_assoc_setting(s.key) || is_parent(s)) {
        if (key_is(s.key, {"description", "organization"}) || is_parent(s))
          throw refusal(
              fmt::format(" {}{}{}: an account's own setting; leave out the user and partition "
                          "conditions to change it",
                          s.key, s.op, s.value));
        throw unknown_option(s, true);
      }
      for (auto& a : next.associations) {
        if (std::find(names.begin(), names.end(), a.account) == names.end()) continue;
        if (!users.empty() &&
            (!a.is_user() || std::find(users.begin(), users.end(), a.user) == users.end()))
          continue;
        if (!partitions.empty() &&
            std::find(partitions.begin(), partitions.end(), a.partition) == partitions.end())
          continue;
        const Association* parent = sched::parent_association(next, a);
        const std::vector<std::string> inherited =
            parent ? sched::effective_qos(next, *parent) : std::vector<std::string>{};
        sched::apply_assoc_setting(a, s, next, inherited);
        if (std::find(changed.begin(), changed.end(), a.id) == changed.end())
          changed.push_back(a.id);
      }
    }
    Json assocs = Json::array();
    for (const auto& [a, depth] : sched::association_tree(next)) {
      if (std::find(changed.begin(), changed.end(), a->id) != changed.end())
        assocs.push_back(assoc_json(next, *a));
    }
    return {{"accounts", Json::array()}, {"associations", assocs}};
  }
  std::vector<std::string> changed_accounts;
  std::vector<std::int64_t> changed_assocs;
  for (const auto& s : r.settings) {
    const bool record = key_is(s.key, {"description", "organization"}) || is_parent(s);
    if (!record && !sched::is_assoc_setting(s.key)) throw unknown_option(s, true);
    for (const auto& name : names) {
      Account& acct = *std::find_if(next.accounts.begin(), next.accounts.end(),
                                    [&](const Account& a) { return a.name == name; });
      auto own = std::find_if(next.associations.begin(), next.associations.end(),
                              [&](const Association& a) {
                                return a.account == name && !a.is_user() && a.partition.empty();
                              });
      if (is_parent(s)) {
        const std::string parent = lower(s.value);
        if (name == "root") throw refusal(" Error with request: The root account has no parent");
        if (!next.find_account(parent))
          throw refusal(fmt::format(" Parent account '{}' doesn't exist.", parent));
        std::vector<std::string> below = sched::descendant_accounts(next, name);
        if (parent == name || std::find(below.begin(), below.end(), parent) != below.end())
          throw refusal(
              fmt::format(" Error with request: Can't make '{}' a child of '{}': it is "
                          "beneath it",
                          parent, name));
        acct.parent = parent;
        if (own != next.associations.end()) changed_assocs.push_back(own->id);
      } else if (record) {
        (key_is(s.key, {"description"}) ? acct.description : acct.organization) = s.value;
        if (std::find(changed_accounts.begin(), changed_accounts.end(), name) ==
            changed_accounts.end())
          changed_accounts.push_back(name);
      } else if (own != next.associations.end()) {
        const Association* parent = sched::parent_association(next, *own);
        const std::vector<std::string> inherited =
            parent ? sched::effective_qos(next, *parent) : std::vector<std::string>{};
        sched::apply_assoc_setting(*own, s, next, inherited);
        if (std::find(changed_assocs.begin(), changed_assocs.end(), own->id) ==
            changed_assocs.end())
          changed_assocs.push_back(own->id);
      }
    }
  }
  Json assocs = Json::array();
  for (const auto& a : next.associations) {
    if (std::find(changed_assocs.begin(), changed_assocs.end(), a.id) != changed_assocs.end())
      assocs.push_back(assoc_json(next, a));
  }
  return {{"accounts", changed_accounts}, {"associations", assocs}};
}

Json delete_account(Controller& c, Accounting& next, const Request& r) {
  if (r.names.empty() && r.where.empty()) throw refusal(" No conditions given to delete.");
  std::vector<std::string> names;
  for (const auto& n : r.names) names.push_back(lower(n));
  for (const auto& n : condition_values(r.where, {"name", "names", "account", "accounts"}))
    names.push_back(n);
  std::vector<std::string> doomed;
  for (const auto& n : names) {
    if (next.find_account(n) && std::find(doomed.begin(), doomed.end(), n) == doomed.end())
      doomed.push_back(n);
  }
  if (std::find(doomed.begin(), doomed.end(), "root") != doomed.end())
    throw refusal(" Error with request: You can not remove the root account");
  // Slurm refuses to take a user's default account away.
  std::string users;
  for (const auto& u : next.users) {
    if (std::find(doomed.begin(), doomed.end(), u.default_account) != doomed.end())
      users += fmt::format("  C = {:<15} A = {:<10} U = {:<9}\n", c.config().cluster_name,
                           u.default_account, u.name);
  }
  if (!users.empty())
    throw refusal(" Error with request: You can not remove the default account of a user\n" +
                  users +
                  " Please either remove the accounts listed above from list and resubmit,\n"
                  " or change these users' default accounts to remove the account(s).\n"
                  " Changes Discarded");
  for (const auto& name : doomed) {
    for (const auto& child : sched::descendant_accounts(next, name)) {
      if (std::find(doomed.begin(), doomed.end(), child) == doomed.end())
        throw refusal(
            fmt::format(" Error with request: Account '{}' has sub-account '{}'; "
                        "delete it too, or give it another parent",
                        name, child));
    }
  }
  std::vector<std::int64_t> assoc_ids;
  for (const auto& a : next.associations) {
    if (std::find(doomed.begin(), doomed.end(), a.account) != doomed.end())
      assoc_ids.push_back(a.id);
  }
  refuse_if_jobs(c, next, assoc_ids);
  std::erase_if(next.associations, [&](const Association& a) {
    return std::find(doomed.begin(), doomed.end(), a.account) != doomed.end();
  });
  std::erase_if(next.accounts, [&](const Account& a) {
    return std::find(doomed.begin(), doomed.end(), a.name) != doomed.end();
  });
  return {{"accounts", doomed}};
}

}  // namespace stint::daemon::acct
