// Submissions by token: a submission sent again after its answer was lost is
// answered with what the first made, per user, and a rolled-back submission
// leaves no token behind.

#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include <stint/store.hpp>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-submissions-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

}  // namespace

TEST_CASE("a submission's token finds what it made, for its user only", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  CHECK_FALSE(store->submission(1000, "abc").has_value());
  {
    stint::Store::Transaction tx(*store);
    store->add_submission(1000, "abc", {42, ""}, 100);
    store->add_submission(1000, "run-token", {43, "mnist/7"}, 100);
    tx.commit();
  }
  auto made = store->submission(1000, "abc");
  REQUIRE(made.has_value());
  CHECK(made->job_id == 42);
  CHECK(made->run.empty());
  auto run = store->submission(1000, "run-token");
  REQUIRE(run.has_value());
  CHECK(run->job_id == 43);
  CHECK(run->run == "mnist/7");
  // Another user sending the same token (read from stint.db) has made nothing.
  CHECK_FALSE(store->submission(1001, "abc").has_value());
  // ... and may submit under it: the key is the user and the token.
  store->add_submission(1001, "abc", {44, ""}, 100);
  CHECK(store->submission(1001, "abc")->job_id == 44);
  CHECK(store->submission(1000, "abc")->job_id == 42);
  // The same user cannot keep one token twice.
  CHECK_THROWS(store->add_submission(1000, "abc", {45, ""}, 100));
}

TEST_CASE("a token survives reopening, goes with a rolled-back submission", "[store]") {
  TempDir dir;
  const std::string path = dir.path + "/stint.db";
  {
    auto store = stint::Store::open(path, stint::Store::Mode::read_write);
    {
      stint::Store::Transaction tx(*store, stint::Store::Sync::durable);
      store->add_submission(7, "kept", {5, ""}, 10);
      tx.commit();
    }
    {
      stint::Store::Transaction tx(*store);
      store->add_submission(7, "rolled-back", {6, ""}, 10);
    }
  }
  auto store = stint::Store::open(path, stint::Store::Mode::read_write);
  CHECK(store->submission(7, "kept")->job_id == 5);
  CHECK_FALSE(store->submission(7, "rolled-back").has_value());
  store->remove_submission(7, "kept");
  CHECK_FALSE(store->submission(7, "kept").has_value());
  // A reader (a tool) sees the table too: the schema is the same.
  auto reader = stint::Store::open(path, stint::Store::Mode::read_only);
  CHECK_FALSE(reader->submission(7, "kept").has_value());
}

TEST_CASE("purge_submissions forgets the tokens made before the cutoff", "[store]") {
  TempDir dir;
  auto store = stint::Store::open(dir.path + "/stint.db", stint::Store::Mode::read_write);
  store->add_submission(1, "old", {1, ""}, 100);
  store->add_submission(1, "edge", {2, ""}, 200);
  store->add_submission(2, "new", {3, ""}, 300);
  CHECK(store->purge_submissions(200) == 1);
  CHECK_FALSE(store->submission(1, "old").has_value());
  CHECK(store->submission(1, "edge").has_value());
  CHECK(store->submission(2, "new").has_value());
  CHECK(store->purge_submissions(200) == 0);
  CHECK(store->purge_submissions(1000) == 2);
}
