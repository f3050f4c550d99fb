// Fair share: usage decay over a fixed clock, Fair Tree ranking and classic
// fair share against values worked out by hand.

#include "sched/fairshare.hpp"

#include <cmath>
#include <cstdlib>
#include <ctime>

#include <catch2/catch.hpp>

using namespace stint;
using namespace stint::sched;

namespace {

ShareAssoc account(std::string name, std::uint32_t shares = 1, std::string parent = "root") {
  ShareAssoc a;
  a.key.account = std::move(name);
  a.parent = std::move(parent);
  a.shares = shares;
  return a;
}

ShareAssoc user(std::string name, std::string acct, std::uint32_t shares = 1) {
  ShareAssoc a;
  a.key = {std::move(name), acct};
  a.parent = std::move(acct);
  a.shares = shares;
  return a;
}

UsageRecord rec(JobId id, std::uint32_t attempt, std::string u, std::string a, double billing,
                Seconds start, Seconds end) {
  UsageRecord r;
  r.job_id = id;
  r.attempt = attempt;
  r.user = std::move(u);
  r.account = std::move(a);
  r.billing = billing;
  r.start = start;
  r.end = end;
  return r;
}

const ShareRow& row(const FairShare& fs, const std::string& u, const std::string& a) {
  for (const auto& r : fs.rows) {
    if (r.assoc.key.user == u && r.assoc.key.account == a) return r;
  }
  FAIL("no row " << u << "/" << a);
  return fs.rows.front();
}

}  // namespace

TEST_CASE("usage is billing x seconds, halved every half-life", "[fairshare]") {
  UsageRecord r = rec(1, 0, "alice", "lab", 2.0, 1000, 1100);
  // No decay: the plain product.
  CHECK(decayed_usage(r, 5000, 0, 0) == Approx(200));
  // One half-life after the end, half of what it was at the end.
  const Seconds h = 3600;
  double at_end = decayed_usage(r, 1100, h, 0);
  CHECK(at_end == Approx(2 * h / std::log(2.0) * (1 - std::exp2(-100.0 / h))));
  CHECK(at_end == Approx(200).epsilon(0.01));  // 100 s is short next to an hour
  CHECK(decayed_usage(r, 1100 + h, h, 0) == Approx(at_end / 2));
  CHECK(decayed_usage(r, 1100 + 3 * h, h, 0) == Approx(at_end / 8));
  // Splitting the run changes nothing: decay is per second of use.
  UsageRecord a = r, b = r;
  a.end = 1040;
  b.start = 1040;
  CHECK(decayed_usage(a, 9000, h, 0) + decayed_usage(b, 9000, h, 0) ==
        Approx(decayed_usage(r, 9000, h, 0)));
  // A running job counts up to now; nothing before `since` or after now counts.
  UsageRecord running = rec(2, 0, "bob", "lab", 1.0, 1000, k_no_time);
  CHECK(decayed_usage(running, 1060, 0, 0) == 60);
  CHECK(decayed_usage(r, 1050, 0, 0) == 100);
  CHECK(decayed_usage(r, 5000, 0, 1080) == 40);
  CHECK(decayed_usage(r, 5000, 0, 2000) == 0);
  UsageRecord never = rec(3, 0, "bob", "lab", 1.0, k_no_time, k_no_time);
  CHECK(decayed_usage(never, 5000, 0, 0) == 0);
}

TEST_CASE("usage per association sums the records", "[fairshare]") {
  std::vector<UsageRecord> records = {
      rec(3, 0, "alice", "lab", 1, 1000, 1010), rec(1, 0, "alice", "lab", 2, 1000, 1010),
      rec(2, 0, "bob", "lab", 1, 1000, 1005),
      rec(1, 1, "alice", "lab", 1, 1020, 1025),  // another attempt of job 1
  };
  auto u = association_usage(records, 2000, 0, 0);
  CHECK(u.at({"alice", "lab"}) == 35);
  CHECK(u.at({"bob", "lab"}) == 5);
  CHECK(u.size() == 2);
}

TEST_CASE("usage reset periods start at local midnight", "[fairshare]") {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
  // Wednesday 2026-11-25 15:30:00 UTC.
  const Seconds now = 1795620600;
  CHECK(usage_reset_since("NONE", now, 0) == 0);
  CHECK(usage_reset_since("NOW", now, 1234) == 1234);
  CHECK(usage_reset_since("DAILY", now, 0) == 1795564800);      // 2026-11-25 00:00
  CHECK(usage_reset_since("WEEKLY", now, 0) == 1795305600);     // Sunday 2026-11-22
  CHECK(usage_reset_since("monthly", now, 0) == 1793491200);    // 2026-11-01
  CHECK(usage_reset_since("QUARTERLY", now, 0) == 1790812800);  // 2026-10-01
  CHECK(usage_reset_since("YEARLY", now, 0) == 1767225600);     // 2026-01-01
}

TEST_CASE("the implicit tree: accounts under root, users under their account", "[fairshare]") {
  auto tree = implicit_tree({{"bob", "lab"}, {"alice", "lab"}, {"root", "root"}, {"eve", "ops"}});
  auto fs = compute_fair_share(tree, {}, FairShareAlgorithm::fair_tree);
  std::vector<std::string> order;
  for (const auto& r : fs.rows)
    order.push_back(std::string(static_cast<std::size_t>(r.depth), ' ') + r.assoc.key.account +
                    (r.assoc.key.user.empty() ? "" : "/" + r.assoc.key.user));
  CHECK(order == std::vector<std::string>{"root", " root/root", " lab", "  lab/alice", "  lab/bob",
                                          " ops", "  ops/eve"});
  // Nobody has used anything: every user ties at the top.
  for (const auto& [key, f] : fs.factor) CHECK(f == 1.0);
}

TEST_CASE("Fair Tree ranks users by level fair share, depth first", "[fairshare]") {
  // root: A (1 share: a1, a2), B (1 share: b1). Usage a1 30, a2 10, b1 20.
  std::vector<ShareAssoc> tree = {account("root", 1, ""), account("A"),    account("B"),
                                  user("a1", "A"),        user("a2", "A"), user("b1", "B")};
  std::map<AssocKey, double> usage = {{{"a1", "A"}, 30}, {{"a2", "A"}, 10}, {{"b1", "B"}, 20}};
  auto fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  // A: S = 1/2, U = 40/60, LF 0.75. B: S = 1/2, U = 20/60, LF 1.5: B first.
  CHECK(row(fs, "", "A").level_fs == Approx(0.75));
  CHECK(row(fs, "", "B").level_fs == Approx(1.5));
  CHECK(row(fs, "", "A").effective_usage == Approx(40.0 / 60));
  // In A: a2 (S 1/2, U 1/4, LF 2) before a1 (LF 2/3).
  CHECK(row(fs, "a2", "A").level_fs == Approx(2));
  CHECK(row(fs, "a1", "A").level_fs == Approx(2.0 / 3));
  CHECK(fs.factor.at({"b1", "B"}) == Approx(3.0 / 3));
  CHECK(fs.factor.at({"a2", "A"}) == Approx(2.0 / 3));
  CHECK(fs.factor.at({"a1", "A"}) == Approx(1.0 / 3));
  // What sshare shows besides.
  CHECK(row(fs, "", "root").raw_usage == 60);
  CHECK(row(fs, "", "root").is_root);
  CHECK(row(fs, "", "A").raw_usage == 40);
  CHECK(row(fs, "a1", "A").norm_usage == Approx(0.5));
  CHECK(row(fs, "a1", "A").norm_shares == Approx(0.5));
  CHECK(row(fs, "a1", "A").fairshare == Approx(1.0 / 3));
  CHECK_FALSE(row(fs, "", "A").fairshare.has_value());
}

TEST_CASE("Fair Tree ties: users share a rank, tied accounts merge", "[fairshare]") {
  // Two accounts with the same level fair share: their users are ranked as one
  // level. A: a1 10, a2 30; B: b1 40, b2 0 (A and B each used 40 of 80).
  std::vector<ShareAssoc> tree = {account("A"),    account("B"),    user("a1", "A"),
                                  user("a2", "A"), user("b1", "B"), user("b2", "B")};
  std::map<AssocKey, double> usage = {{{"a1", "A"}, 10}, {{"a2", "A"}, 30}, {{"b1", "B"}, 40}};
  auto fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  // Merged level: b2 (inf), a1 (0.5/0.25 = 2), a2 (0.5/0.75), b1 (0.5/1).
  CHECK(fs.factor.at({"b2", "B"}) == Approx(4.0 / 4));
  CHECK(fs.factor.at({"a1", "A"}) == Approx(3.0 / 4));
  CHECK(fs.factor.at({"a2", "A"}) == Approx(2.0 / 4));
  CHECK(fs.factor.at({"b1", "B"}) == Approx(1.0 / 4));

  // Users with the same level fair share share the rank; the next one skips.
  tree = {account("A"), user("x", "A"), user("y", "A"), user("z", "A")};
  usage = {{{"x", "A"}, 10}, {{"y", "A"}, 10}, {{"z", "A"}, 20}};
  fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  CHECK(fs.factor.at({"x", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"y", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"z", "A"}) == Approx(1.0 / 3));

  // A user tied with a sibling account gets the rank of the account's best user.
  tree = {user("root", "root"), account("A"), user("a1", "A"), user("a2", "A")};
  usage = {{{"root", "root"}, 10}, {{"a1", "A"}, 5}, {{"a2", "A"}, 5}};
  fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  CHECK(fs.factor.at({"root", "root"}) == Approx(1.0));
  CHECK(fs.factor.at({"a1", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"a2", "A"}) == Approx(1.0));
}

TEST_CASE("Fair Tree: shares count, no shares rank last, parent ranks first", "[fairshare]") {
  std::vector<ShareAssoc> tree = {account("A", 3), account("B", 1), user("a", "A"), user("b", "B")};
  // Equal usage; A holds 3 of 4 shares and is under-served.
  std::map<AssocKey, double> usage = {{{"a", "A"}, 10}, {{"b", "B"}, 10}};
  auto fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  CHECK(row(fs, "", "A").level_fs == Approx(1.5));
  CHECK(row(fs, "", "B").level_fs == Approx(0.5));
  CHECK(fs.factor.at({"a", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"b", "B"}) == Approx(0.5));

  tree = {account("A"), user("none", "A", 0), user("some", "A", 1), user("par", "A")};
  tree.back().shares = k_fairshare_parent;
  usage = {{{"par", "A"}, 100}};
  fs = compute_fair_share(tree, usage, FairShareAlgorithm::fair_tree);
  // "par" ranks first; "some" has used nothing and ties with it; "none" has
  // no shares and is last.
  CHECK(fs.factor.at({"par", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"some", "A"}) == Approx(1.0));
  CHECK(fs.factor.at({"none", "A"}) == Approx(1.0 / 3));
}

TEST_CASE("classic fair share: F = 2^(-UE/S) down the tree", "[fairshare]") {
  // root: A (1 share: a1, a2), B (3 shares: b1). Usage a1 30, b1 10.
  std::vector<ShareAssoc> tree = {account("A", 1), account("B", 3), user("a1", "A"),
                                  user("a2", "A"), user("b1", "B")};
  std::map<AssocKey, double> usage = {{{"a1", "A"}, 30}, {{"b1", "B"}, 10}};
  auto fs = compute_fair_share(tree, usage, FairShareAlgorithm::classic);
  // A: S = 1/4, UE = UA = 30/40: F = 2^-3.
  CHECK(row(fs, "", "A").norm_shares == Approx(0.25));
  CHECK(row(fs, "", "A").effective_usage == Approx(0.75));
  CHECK(*row(fs, "", "A").fairshare == Approx(0.125));
  // a1: S = 1/4 x 1/2; UE = .75 + (.75 - .75) x 1/2 = .75: F = 2^-6.
  CHECK(row(fs, "a1", "A").norm_shares == Approx(0.125));
  CHECK(fs.factor.at({"a1", "A"}) == Approx(1.0 / 64));
  // a2: UA 0; UE = 0 + (.75 - 0) x 1/2 = .375: F = 2^-3.
  CHECK(row(fs, "a2", "A").effective_usage == Approx(0.375));
  CHECK(fs.factor.at({"a2", "A"}) == Approx(0.125));
  // B: S = 3/4, UE = 1/4: F = 2^(-1/3); b1 alone in B, the same.
  CHECK(fs.factor.at({"b1", "B"}) == Approx(std::exp2(-1.0 / 3)));
  // FairShareDampeningFactor divides the exponent.
  fs = compute_fair_share(tree, usage, FairShareAlgorithm::classic, 2);
  CHECK(fs.factor.at({"a1", "A"}) == Approx(1.0 / 8));
  // No usage at all: everyone at 2^0.
  fs = compute_fair_share(tree, {}, FairShareAlgorithm::classic);
  CHECK(fs.factor.at({"b1", "B"}) == 1.0);
  CHECK(row(fs, "", "root").effective_usage == 1.0);
}

TEST_CASE("association priority: the user's own or its account's", "[fairshare]") {
  std::vector<ShareAssoc> tree = {account("A"), user("a1", "A"), user("a2", "A")};
  tree[0].priority = 7;
  tree[2].priority = 20;
  auto fs = compute_fair_share(tree, {}, FairShareAlgorithm::fair_tree);
  CHECK(fs.assoc_priority.at({"a1", "A"}) == 7);
  CHECK(fs.assoc_priority.at({"a2", "A"}) == 20);
  CHECK(fs.max_assoc_priority == 20);
}

TEST_CASE("the tree of the accounts store, with the jobs' unknown associations", "[fairshare]") {
  Accounting acc;
  acc.accounts = {{"lab", "", "", "root"}, {"root", "", "", ""}};
  Association root_own;
  root_own.account = "root";
  Association lab_own;
  lab_own.account = "lab";
  lab_own.shares = 3;
  lab_own.priority = 9;
  Association alice;
  alice.account = "lab";
  alice.user = "alice";
  alice.shares = 2;
  Association alice_gpu = alice;
  alice_gpu.partition = "gpu";
  alice_gpu.shares = 50;
  acc.associations = {root_own, lab_own, alice_gpu, alice};
  auto tree = tree_from_accounting(acc, {{"alice", "lab"}, {"carol", "carol"}, {"dan", "lab"}});
  auto find = [&](const std::string& u, const std::string& a) {
    for (const auto& s : tree) {
      if (s.key.user == u && s.key.account == a) return s;
    }
    FAIL("no association " << u << "/" << a);
    return tree.front();
  };
  CHECK(find("", "lab").shares == 3);
  CHECK(find("", "lab").priority == 9);
  CHECK(find("", "lab").parent == "root");
  CHECK(find("alice", "lab").shares == 2);  // the association without a partition
  CHECK(find("dan", "lab").shares == 1);    // charged to lab, unknown to sacctmgr
  CHECK(find("", "carol").parent == "root");
  CHECK(find("carol", "carol").shares == 1);
  CHECK(tree.size() == 6);
  // No accounts at all: a user's own account joins under root, with the user.
  CHECK(tree_from_accounting({}, {{"x", "x"}}).size() == 3);
  // An account nobody made (a mistyped -A, enforcement off) has no
  // association: only root is left.
  CHECK(tree_from_accounting({}, {{"x", "y"}}).size() == 1);
  CHECK(tree_from_accounting(acc, {{"eve", "typo"}}).size() == 3);  // root, lab, alice/lab
}

TEST_CASE("usage records keep what the store read, the partition included") {
  JobRun run;
  run.job_id = 7;
  run.attempt = 1;
  run.user = "alice";
  run.account = "lab";
  run.partition = "gpu";
  run.qos = "normal";
  run.cpus = 4;
  run.mem_mb = 1024;
  run.nodes = 1;
  run.gpus = 2;
  run.start = 100;
  run.end = 200;
  const auto records = usage_records({run});
  REQUIRE(records.size() == 1);
  CHECK(records[0].partition == "gpu");
  CHECK(records[0].attempt == 1);
  CHECK(records[0].tres.cpu == 4);
  CHECK(records[0].tres.mem_mb == 1024);
  CHECK(records[0].tres.gpu == 2);
}
