// The association tree: parents, chains, inherited QOS lists and the order
// sacctmgr lists associations in.

#include <algorithm>
#include <functional>

#include "sched/limits.hpp"

namespace stint::sched {

const Association* job_association(const Accounting& data, std::string_view account,
                                   std::string_view user, std::string_view partition) {
  if (!partition.empty()) {
    if (const Association* a = data.find_association(account, user, partition)) return a;
  }
  return data.find_association(account, user, "");
}

const Association* parent_association(const Accounting& data, const Association& a) {
  if (a.is_user() || !a.partition.empty()) return data.find_association(a.account, "", "");
  const Account* account = data.find_account(a.account);
  if (!account || account->parent.empty()) return nullptr;
  return data.find_association(account->parent, "", "");
}

std::vector<const Association*> association_chain(const Accounting& data, const Association& a) {
  std::vector<const Association*> chain{&a};
  // The account tree has no cycles (sacctmgr refuses to make one), but a
  // damaged database must not hang the daemon.
  for (const Association* p = parent_association(data, a); p && chain.size() < 64;
       p = parent_association(data, *p)) {
    chain.push_back(p);
  }
  return chain;
}

std::vector<std::string> effective_qos(const Accounting& data, const Association& a) {
  for (const Association* p : association_chain(data, a)) {
    if (!p->qos.empty()) {
      std::vector<std::string> out = p->qos;
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  return {};
}

std::string default_qos(const Accounting& data, const Association& a) {
  for (const Association* p : association_chain(data, a)) {
    if (!p->default_qos.empty()) return p->default_qos;
  }
  std::vector<std::string> allowed = effective_qos(data, a);
  if (allowed.size() == 1) return allowed.front();
  return "normal";
}

std::vector<std::pair<const Association*, int>> association_tree(const Accounting& data) {
  std::vector<std::pair<const Association*, int>> out;
  std::function<void(const std::string&, int)> visit = [&](const std::string& account, int depth) {
    if (depth > 64) return;
    if (const Association* own = data.find_association(account, "", ""))
      out.emplace_back(own, depth);
    std::vector<const Association*> users;
    for (const auto& a : data.associations) {
      if (a.account == account && (a.is_user() || !a.partition.empty())) users.push_back(&a);
    }
    // By user; the association without a partition first, then the newest
    // partition first (Slurm puts a new association left of its siblings).
    std::sort(users.begin(), users.end(), [](const Association* x, const Association* y) {
      if (x->user != y->user) return x->user < y->user;
      if (x->partition.empty() != y->partition.empty()) return x->partition.empty();
      return x->id > y->id;
    });
    for (const Association* u : users) out.emplace_back(u, depth + 1);
    std::vector<std::string> children;
    for (const auto& acct : data.accounts) {
      if (acct.parent == account && acct.name != account) children.push_back(acct.name);
    }
    std::sort(children.begin(), children.end());
    for (const auto& child : children) visit(child, depth + 1);
  };
  for (const auto& acct : data.accounts) {
    if (acct.parent.empty() || !data.find_account(acct.parent)) visit(acct.name, 0);
  }
  return out;
}

std::vector<std::string> descendant_accounts(const Accounting& data, std::string_view account) {
  std::vector<std::string> out;
  std::vector<std::string> todo{std::string(account)};
  while (!todo.empty() && out.size() < data.accounts.size()) {
    std::string next = todo.back();
    todo.pop_back();
    for (const auto& a : data.accounts) {
      if (a.parent == next && a.name != next &&
          std::find(out.begin(), out.end(), a.name) == out.end()) {
        out.push_back(a.name);
        todo.push_back(a.name);
      }
    }
  }
  return out;
}

}  // namespace stint::sched
