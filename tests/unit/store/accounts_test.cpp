// Accounts, users, associations and QOS in the store (migration 3).

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-accounts-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

std::unique_ptr<stint::Store> open_rw(const TempDir& dir) {
  return stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
}

}  // namespace

TEST_CASE("a new database has root, its user and the normal QOS", "[store][accounts]") {
  TempDir dir;
  auto store = open_rw(dir);
  const stint::Accounting a = store->accounting();

  REQUIRE(a.accounts.size() == 1);
  CHECK(a.accounts[0].name == "root");
  CHECK(a.accounts[0].description == "default root account");
  CHECK(a.accounts[0].organization == "root");
  CHECK(a.accounts[0].parent.empty());

  REQUIRE(a.users.size() == 1);
  CHECK(a.users[0].name == "root");
  CHECK(a.users[0].default_account == "root");
  CHECK(a.users[0].admin_level == stint::AdminLevel::admin);

  REQUIRE(a.associations.size() == 2);
  const stint::Association* root = a.find_association("root", "", "");
  REQUIRE(root != nullptr);
  CHECK(root->qos == std::vector<std::string>{"normal"});
  CHECK(root->shares == 1);
  REQUIRE(a.find_association("root", "root", "") != nullptr);

  REQUIRE(a.qos.size() == 1);
  CHECK(a.qos[0].name == "normal");
  CHECK(a.qos[0].priority == 0);
  CHECK(a.qos[0].usage_factor == 1.0);
  CHECK(a.qos[0].preempt_mode == "cluster");
}

TEST_CASE("accounts, users, associations and QOS round trip", "[store][accounts]") {
  TempDir dir;
  stint::Accounting want;
  {
    auto store = open_rw(dir);
    stint::Store::Transaction tx(*store);
    store->put_account({"lab", "test lab", "uni", "root"});
    store->put_user({"alice", "lab", stint::AdminLevel::operator_level});

    stint::Association a;
    a.account = "lab";
    a.user = "alice";
    a.partition = "cpu";
    a.shares = 50;
    a.priority = 7;
    a.limits.grp_jobs = 3;
    a.limits.grp_submit_jobs = 9;
    a.limits.grp_tres = {{"cpu", 4}, {"mem", 2048}, {"gres/gpu", 1}};
    a.limits.max_jobs = 2;
    a.limits.max_submit_jobs = 5;
    a.limits.max_wall = 3600;
    a.limits.max_tres_per_job = {{"cpu", 2}};
    a.limits.max_tres_per_node = {{"mem", 1024}};
    a.limits.grp_tres_mins = {{"cpu", 6000}, {"gres/gpu", 60}};
    a.limits.grp_tres_run_mins = {{"cpu", 600}};
    a.limits.grp_wall = 36000;
    a.limits.max_tres_mins_per_job = {{"cpu", 120}};
    a.qos = {"high", "normal"};
    a.default_qos = "normal";
    a.id = store->put_association(a);
    CHECK(a.id > 2);

    stint::Qos q;
    q.name = "high";
    q.description = "high";
    q.priority = 100;
    q.usage_factor = 2.5;
    q.preempt = {"normal"};
    q.preempt_mode = "requeue";
    q.grace_time = 30;
    q.preempt_exempt_time = 60;
    q.flags = {"DenyOnLimit"};
    q.limits.max_jobs_per_user = 1;
    q.limits.max_submit_jobs_per_user = 4;
    q.limits.max_wall = 7200;
    q.limits.max_tres_per_user = {{"cpu", 8}};
    q.limits.grp_tres = {{"node", 1}};
    q.limits.grp_tres_mins = {{"mem", 1000}};
    q.limits.grp_tres_run_mins = {{"node", 10}};
    q.limits.grp_wall = 600;
    q.limits.max_tres_mins_per_job = {{"billing", 5}};
    q.id = store->put_qos(q);
    tx.commit();

    want = store->accounting();
    CHECK(want.find_account("lab") != nullptr);
    REQUIRE(want.find_association("lab", "alice", "cpu") != nullptr);
    CHECK(*want.find_association("lab", "alice", "cpu") == a);
    REQUIRE(want.find_qos("high") != nullptr);
    CHECK(*want.find_qos("high") == q);
    CHECK(*want.find_user("alice") ==
          stint::User{"alice", "lab", stint::AdminLevel::operator_level});
  }
  // Read back by a read-only opener, as the tools do.
  auto ro = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_only);
  CHECK(ro->accounting() == want);
}

TEST_CASE("replacing and deleting account records", "[store][accounts]") {
  TempDir dir;
  auto store = open_rw(dir);
  stint::Association a;
  a.account = "root";
  a.user = "bob";
  a.id = store->put_association(a);
  a.limits.max_jobs = 1;
  CHECK(store->put_association(a) == a.id);
  CHECK(store->accounting().find_association("root", "bob", "")->limits.max_jobs == 1);

  // A second association of the same (account, user, partition) is refused.
  stint::Association dup = a;
  dup.id = 0;
  CHECK_THROWS_AS(store->put_association(dup), stint::Error);

  store->delete_association(a.id);
  CHECK(store->accounting().find_association("root", "bob", "") == nullptr);

  store->put_user({"bob", "root", stint::AdminLevel::none});
  store->put_user({"bob", "root", stint::AdminLevel::admin});
  CHECK(store->accounting().find_user("bob")->admin_level == stint::AdminLevel::admin);
  store->delete_user("bob");
  CHECK(store->accounting().find_user("bob") == nullptr);

  store->put_account({"tmp", "tmp", "tmp", "root"});
  store->delete_account("tmp");
  CHECK(store->accounting().find_account("tmp") == nullptr);

  const std::int64_t normal = store->accounting().find_qos("normal")->id;
  store->delete_qos(normal);
  CHECK(store->accounting().qos.empty());
}

TEST_CASE("a deleted association's id is not reused", "[store][accounts]") {
  TempDir dir;
  auto store = open_rw(dir);
  stint::Association a;
  a.account = "root";
  a.user = "carol";
  const std::int64_t first = store->put_association(a);
  store->delete_association(first);
  CHECK(store->put_association(a) > first);
}
