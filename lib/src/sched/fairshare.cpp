// Fair share: usage decay, the association tree, Fair Tree and classic.
// Slurm: src/plugins/priority/multifactor/{priority_multifactor,fair_tree}.c,
// https://slurm.schedmd.com/fair_tree.html, classic_fair_share.html.

#include "sched/fairshare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <limits>
#include <set>

#include "util/text.hpp"

namespace stint::sched {
namespace {

using text::iequals;

// The tree with links, built from the flat list.
struct Node {
  const ShareAssoc* assoc = nullptr;
  ShareAssoc synthetic;  // root, when the list has none
  int parent = -1;
  int depth = 0;
  std::vector<int> children;
  double raw_usage = 0;
  double level_shares = 0;  // shares of this node and its siblings
  double norm_shares = 0;
  double norm_usage = 0;
  double effective_usage = 0;
  double level_fs = 0;
  std::optional<double> fairshare;

  const ShareAssoc& a() const { return assoc ? *assoc : synthetic; }
  bool is_user() const { return !a().key.user.empty(); }
  bool uses_parent() const { return a().shares == k_fairshare_parent; }
};

class Tree {
 public:
  explicit Tree(const std::vector<ShareAssoc>& list) {
    // Root first, then the accounts, then the users, so that every parent is
    // known before its children are linked.
    const ShareAssoc* root = nullptr;
    for (const auto& a : list) {
      if (a.key.user.empty() && a.key.account == k_root_account) root = &a;
    }
    m_nodes.emplace_back();
    if (root) {
      m_nodes[0].assoc = root;
    } else {
      m_nodes[0].synthetic.key.account = std::string(k_root_account);
    }
    std::map<std::string, int> accounts{{std::string(k_root_account), 0}};
    std::vector<const ShareAssoc*> pending_accounts;
    for (const auto& a : list) {
      if (a.key.user.empty() && &a != root && a.key.account != k_root_account)
        pending_accounts.push_back(&a);
    }
    // Accounts may come in any order: link those whose parent is known until
    // none is left; an account whose parent never appears goes under root.
    while (!pending_accounts.empty()) {
      bool linked = false;
      for (auto it = pending_accounts.begin(); it != pending_accounts.end();) {
        const ShareAssoc* a = *it;
        std::string parent = a->parent.empty() ? std::string(k_root_account) : a->parent;
        auto p = accounts.find(parent);
        if (p == accounts.end()) {
          ++it;
          continue;
        }
        accounts.emplace(a->key.account, add(a, p->second));
        it = pending_accounts.erase(it);
        linked = true;
      }
      if (!linked) {
        const ShareAssoc* a = pending_accounts.front();
        accounts.emplace(a->key.account, add(a, 0));
        pending_accounts.erase(pending_accounts.begin());
      }
    }
    for (const auto& a : list) {
      if (a.key.user.empty()) continue;
      auto p = accounts.find(a.key.account);
      add(&a, p == accounts.end() ? 0 : p->second);
    }
    // sshare's order: users first, then accounts, each by name.
    for (auto& n : m_nodes) {
      std::stable_sort(n.children.begin(), n.children.end(), [this](int x, int y) {
        const Node& a = m_nodes[static_cast<std::size_t>(x)];
        const Node& b = m_nodes[static_cast<std::size_t>(y)];
        if (a.is_user() != b.is_user()) return a.is_user();
        return a.is_user() ? a.a().key.user < b.a().key.user
                           : a.a().key.account < b.a().key.account;
      });
    }
  }

  Node& at(int i) { return m_nodes[static_cast<std::size_t>(i)]; }
  std::vector<Node>& nodes() { return m_nodes; }

 private:
  int add(const ShareAssoc* a, int parent) {
    Node n;
    n.assoc = a;
    n.parent = parent;
    n.depth = at(parent).depth + 1;
    m_nodes.push_back(std::move(n));
    int id = static_cast<int>(m_nodes.size()) - 1;
    at(parent).children.push_back(id);
    return id;
  }

  std::vector<Node> m_nodes;
};

double sum_usage(Tree& t, int id, const std::map<AssocKey, double>& usage) {
  Node& n = t.at(id);
  if (n.is_user()) {
    auto it = usage.find(n.a().key);
    n.raw_usage = it == usage.end() ? 0 : it->second;
  } else {
    n.raw_usage = 0;
    for (int c : n.children) n.raw_usage += sum_usage(t, c, usage);
  }
  return n.raw_usage;
}

// Shares of the siblings that have their own (not FairShare=parent).
void set_level_shares(Tree& t) {
  for (auto& n : t.nodes()) {
    double level = 0;
    for (int c : n.children) {
      if (!t.at(c).uses_parent()) level += t.at(c).a().shares;
    }
    for (int c : n.children) t.at(c).level_shares = level;
  }
}

double share_of_level(const Node& n) {
  if (n.uses_parent() || n.level_shares <= 0) return 0;
  return n.a().shares / n.level_shares;
}

void set_norm_usage(Tree& t) {
  const double root = t.at(0).raw_usage;
  for (auto& n : t.nodes()) n.norm_usage = root > 0 ? std::min(1.0, n.raw_usage / root) : 0;
}

// --- classic -----------------------------------------------------------------

double fs_factor(double effective_usage, double norm_shares, std::uint32_t damping) {
  if (norm_shares <= 0) return 0;
  return std::exp2(-(effective_usage / norm_shares) / std::max<std::uint32_t>(damping, 1));
}

void classic(Tree& t, int id, std::uint32_t damping) {
  Node& parent = t.at(id);
  for (int c : parent.children) {
    Node& n = t.at(c);
    if (n.uses_parent()) {
      // FairShare=parent: the parent's shares and usage stand for this one.
      n.norm_shares = parent.norm_shares;
      n.effective_usage = parent.effective_usage;
    } else {
      n.norm_shares = (id == 0 ? 1.0 : parent.norm_shares) * share_of_level(n);
      if (id == 0 || n.level_shares <= 0) {
        n.effective_usage = n.norm_usage;
      } else {
        n.effective_usage =
            n.norm_usage + (parent.effective_usage - n.norm_usage) * n.a().shares / n.level_shares;
      }
    }
    n.fairshare = fs_factor(n.effective_usage, n.norm_shares, damping);
    classic(t, c, damping);
  }
}

// --- Fair Tree -----------------------------------------------------------------

void level_fs(Tree& t, int id) {
  Node& n = t.at(id);
  const Node& parent = t.at(n.parent);
  n.norm_shares = share_of_level(n);
  n.effective_usage = parent.raw_usage > 0 ? n.raw_usage / parent.raw_usage : 0;
  if (n.uses_parent()) {
    // Users that use their parent's share rank first in their account;
    // accounts that do have no level of their own.
    n.level_fs = n.is_user() ? std::numeric_limits<double>::infinity() : 0;
    return;
  }
  if (n.norm_shares == 0)
    n.level_fs = 0;
  else
    n.level_fs = n.effective_usage == 0 ? std::numeric_limits<double>::infinity()
                                        : n.norm_shares / n.effective_usage;
}

struct Ranking {
  std::uint32_t rank = 0;
  std::uint32_t rank_no_ties = 0;
  std::uint32_t users = 0;
};

// fair_tree.c's _calc_tree_fs: sort the siblings by level fair share (users
// before accounts on a tie), then walk them: a user takes the next rank unless
// tied with the previous sibling; tied sibling accounts have their children
// merged; a level that starts tied with its parent's predecessor starts tied.
void rank_level(Tree& t, std::vector<int> siblings, Ranking& r, bool account_tied) {
  for (int s : siblings) level_fs(t, s);
  std::stable_sort(siblings.begin(), siblings.end(), [&t](int x, int y) {
    const Node& a = t.at(x);
    const Node& b = t.at(y);
    if (a.level_fs != b.level_fs) return a.level_fs > b.level_fs;
    return a.is_user() && !b.is_user();
  });
  std::optional<double> previous;
  for (std::size_t i = 0; i < siblings.size(); ++i) {
    Node& n = t.at(siblings[i]);
    const bool tied = (i == 0 && account_tied) || (previous && *previous == n.level_fs);
    if (n.is_user()) {
      if (!tied) r.rank = r.rank_no_ties;
      n.fairshare = r.users > 0 ? r.rank / static_cast<double>(r.users) : 0;
      if (r.rank_no_ties > 0) --r.rank_no_ties;
    } else {
      std::vector<int> children = n.children;
      std::size_t j = i + 1;
      while (j < siblings.size() && !t.at(siblings[j]).is_user() &&
             t.at(siblings[j]).level_fs == n.level_fs) {
        const auto& more = t.at(siblings[j]).children;
        children.insert(children.end(), more.begin(), more.end());
        ++j;
      }
      rank_level(t, std::move(children), r, tied);
      i = j - 1;
    }
    previous = n.level_fs;
  }
}

void collect(Tree& t, int id, std::vector<ShareRow>& rows) {
  Node& n = t.at(id);
  ShareRow row;
  row.assoc = n.a();
  row.depth = n.depth;
  row.is_root = id == 0;
  row.raw_usage = n.raw_usage;
  row.norm_shares = n.norm_shares;
  row.norm_usage = n.norm_usage;
  row.effective_usage = n.effective_usage;
  row.level_fs = n.level_fs;
  row.fairshare = n.fairshare;
  if (row.is_root) {
    // As sshare prints root: no shares of its own, all of the usage.
    row.norm_shares = 0;
    row.effective_usage = 1;
    row.fairshare.reset();
  }
  rows.push_back(std::move(row));
  for (int c : n.children) collect(t, c, rows);
}

}  // namespace

std::vector<ShareAssoc> implicit_tree(const std::vector<AssocKey>& user_assocs) {
  // Every account named is taken as made, under root with its own 1 share.
  Accounting made;
  std::set<std::string> names;
  for (const AssocKey& k : user_assocs) {
    if (k.account.empty() || k.account == k_root_account || !names.insert(k.account).second)
      continue;
    made.accounts.push_back(Account{k.account, "", "", std::string(k_root_account)});
  }
  return tree_from_accounting(made, user_assocs);
}

std::vector<ShareAssoc> tree_from_accounting(const Accounting& accounting,
                                             const std::vector<AssocKey>& job_assocs) {
  std::vector<ShareAssoc> tree;
  std::set<std::string> accounts;
  std::set<AssocKey> users;
  auto own = [&](const std::string& account) -> const Association* {
    return accounting.find_association(account, "", "");
  };
  for (const Account& a : accounting.accounts) {
    ShareAssoc s;
    s.key.account = a.name;
    s.parent = a.name == k_root_account ? std::string() : a.parent;
    if (const Association* assoc = own(a.name)) {
      s.shares = assoc->shares;
      s.priority = assoc->priority.value_or(0);
    }
    tree.push_back(std::move(s));
    accounts.insert(a.name);
  }
  // A user's association without a partition first: its shares stand for the
  // user's associations with that account.
  std::vector<const Association*> user_assocs;
  for (const Association& a : accounting.associations) {
    if (a.is_user()) user_assocs.push_back(&a);
  }
  std::stable_sort(user_assocs.begin(), user_assocs.end(),
                   [](const Association* x, const Association* y) {
                     return x->partition.empty() && !y->partition.empty();
                   });
  for (const Association* a : user_assocs) {
    AssocKey key{a->user, a->account};
    if (!users.insert(key).second) continue;
    ShareAssoc s;
    s.key = key;
    s.parent = a->account;
    s.shares = a->shares;
    s.priority = a->priority.value_or(0);
    tree.push_back(std::move(s));
  }
  if (!accounts.count(std::string(k_root_account))) {
    ShareAssoc root;
    root.key.account = std::string(k_root_account);
    tree.push_back(root);
    accounts.insert(root.key.account);
  }
  for (const AssocKey& k : job_assocs) {
    if (k.user.empty() || k.account.empty() || users.count(k)) continue;
    // An account nobody made is a typo of -A that enforcement let through:
    // it has no association, as on a cluster, rather than one sshare would
    // list. The account a user with no record is given is named after them.
    if (!accounts.count(k.account) && k.account != k.user) continue;
    if (accounts.insert(k.account).second) {
      ShareAssoc a;
      a.key.account = k.account;
      a.parent = std::string(k_root_account);
      tree.push_back(std::move(a));
    }
    ShareAssoc u;
    u.key = k;
    u.parent = k.account;
    tree.push_back(std::move(u));
    users.insert(k);
  }
  return tree;
}

Seconds usage_reset_since(std::string_view period, Seconds now, Seconds reset_now) {
  Seconds since = reset_now;
  if (iequals(period, "NONE") || iequals(period, "NOW") || period.empty()) return since;
  std::time_t tt = static_cast<std::time_t>(now);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  tm.tm_sec = 0;
  tm.tm_min = 0;
  tm.tm_hour = 0;
  tm.tm_isdst = -1;
  if (iequals(period, "WEEKLY")) {
    tm.tm_mday -= tm.tm_wday;
  } else if (iequals(period, "MONTHLY")) {
    tm.tm_mday = 1;
  } else if (iequals(period, "QUARTERLY")) {
    tm.tm_mday = 1;
    tm.tm_mon -= tm.tm_mon % 3;
  } else if (iequals(period, "YEARLY")) {
    tm.tm_mday = 1;
    tm.tm_mon = 0;
  } else if (!iequals(period, "DAILY")) {
    return since;
  }
  return std::max(since, static_cast<Seconds>(std::mktime(&tm)));
}

double decayed_usage(const UsageRecord& r, Seconds now, Seconds half_life, Seconds since) {
  if (r.start == k_no_time || r.billing <= 0) return 0;
  const Seconds end = r.end == k_no_time ? now : std::min(r.end, now);
  const Seconds start = std::max(r.start, since);
  if (end <= start) return 0;
  if (half_life <= 0) return r.billing * static_cast<double>(end - start);
  // The integral of 2^(-(now - t)/h) from start to end, written with expm1 so
  // that a short run long before `now` keeps its precision.
  const double rate = std::log(2.0) / static_cast<double>(half_life);
  const double at_end = std::exp2(-static_cast<double>(now - end) / static_cast<double>(half_life));
  return r.billing * at_end * -std::expm1(-rate * static_cast<double>(end - start)) / rate;
}

std::map<AssocKey, double> association_usage(std::vector<UsageRecord> records, Seconds now,
                                             Seconds half_life, Seconds since) {
  std::sort(records.begin(), records.end(), [](const UsageRecord& a, const UsageRecord& b) {
    return a.job_id != b.job_id ? a.job_id < b.job_id : a.attempt < b.attempt;
  });
  std::map<AssocKey, double> out;
  for (const auto& r : records) {
    double u = decayed_usage(r, now, half_life, since);
    if (u > 0) out[AssocKey{r.user, r.account}] += u;
  }
  return out;
}

FairShare compute_fair_share(const std::vector<ShareAssoc>& tree,
                             const std::map<AssocKey, double>& usage, FairShareAlgorithm algorithm,
                             std::uint32_t damping) {
  Tree t(tree);
  sum_usage(t, 0, usage);
  set_level_shares(t);
  set_norm_usage(t);
  t.at(0).effective_usage = 1;
  if (algorithm == FairShareAlgorithm::classic) {
    classic(t, 0, damping);
  } else {
    Ranking r;
    for (auto& n : t.nodes()) {
      if (n.is_user()) ++r.users;
    }
    r.rank = r.rank_no_ties = r.users;
    rank_level(t, t.at(0).children, r, false);
    // Accounts have no factor of their own under Fair Tree.
    for (auto& n : t.nodes()) {
      if (!n.is_user()) n.fairshare.reset();
    }
  }
  FairShare out;
  collect(t, 0, out.rows);
  for (auto& n : t.nodes()) {
    out.max_assoc_priority = std::max(out.max_assoc_priority, n.a().priority);
    if (!n.is_user()) continue;
    out.factor[n.a().key] = n.fairshare.value_or(0);
    // An association without a Priority of its own inherits its account's.
    std::uint32_t priority = 0;
    for (const Node* up = &n; up; up = up->parent < 0 ? nullptr : &t.at(up->parent)) {
      if (up->a().priority > 0) {
        priority = up->a().priority;
        break;
      }
    }
    out.assoc_priority[n.a().key] = priority;
  }
  return out;
}

std::vector<UsageRecord> usage_records(const std::vector<JobRun>& runs) {
  std::vector<UsageRecord> out;
  out.reserve(runs.size());
  for (const JobRun& run : runs) {
    UsageRecord r;
    r.job_id = run.job_id;
    r.attempt = run.attempt;
    r.user = run.user;
    r.account = run.account;
    r.qos = run.qos;
    r.partition = run.partition;
    r.start = run.start;
    r.end = run.end;
    r.tres = {static_cast<double>(run.cpus), static_cast<double>(run.mem_mb),
              static_cast<double>(run.nodes), static_cast<double>(run.gpus)};
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace stint::sched
