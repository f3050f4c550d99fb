// Background: one piece of work at a time on a thread kept for the next.

#include "util/background.hpp"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <catch2/catch.hpp>

using stint::Background;

TEST_CASE("background work runs on another thread, and wait returns once it is done") {
  Background bg;
  std::atomic<bool> release{false};
  std::thread::id ran_on;
  bool done = false;
  bg.start([&] {
    ran_on = std::this_thread::get_id();
    while (!release) std::this_thread::yield();
    done = true;
  });
  // Running beside this thread: it waits for the release given here.
  release = true;
  bg.wait();
  CHECK(done);
  CHECK(ran_on != std::this_thread::get_id());

  // The same thread takes the next piece.
  std::thread::id second;
  bg.start([&] { second = std::this_thread::get_id(); });
  bg.wait();
  CHECK(second == ran_on);
}

TEST_CASE("what background work throws, wait rethrows, once") {
  Background bg;
  bg.start([] { throw std::runtime_error("disk on fire"); });
  CHECK_THROWS_WITH(bg.wait(), "disk on fire");
  CHECK_NOTHROW(bg.wait());
  int n = 0;
  bg.start([&] { n = 42; });
  bg.wait();
  CHECK(n == 42);
}

TEST_CASE("a second start before the wait is refused; the destructor waits for the work") {
  std::atomic<bool> finished{false};
  {
    Background bg;
    std::atomic<bool> release{false};
    bg.start([&] {
      while (!release) std::this_thread::yield();
      finished = true;
    });
    CHECK_THROWS_AS(bg.start([] {}), std::logic_error);
    release = true;
  }
  CHECK(finished);
}
