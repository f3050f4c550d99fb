#include "rpc/frame.hpp"

#include <string>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using stint::Errc;
using stint::Error;
using stint::rpc::encode_frame;
using stint::rpc::FrameReader;

TEST_CASE("a frame read in one piece or byte by byte", "[rpc]") {
  const std::string frame = encode_frame(R"({"op":"ping"})");
  REQUIRE(frame.size() == 4 + 13);
  CHECK(frame.substr(0, 4) == std::string("\0\0\0\x0d", 4));

  FrameReader whole;
  CHECK(whole.feed(frame) == frame.size());
  CHECK(whole.complete());
  CHECK(whole.payload() == R"({"op":"ping"})");

  FrameReader bytes;
  for (char c : frame) {
    CHECK_FALSE(bytes.complete());
    CHECK(bytes.feed(std::string(1, c)) == 1);
  }
  CHECK(bytes.complete());
  CHECK(bytes.payload() == whole.payload());
}

TEST_CASE("what follows a frame is left unread", "[rpc]") {
  FrameReader r;
  const std::string two = encode_frame("{}") + encode_frame("[]");
  CHECK(r.feed(two) == 6);
  CHECK(r.complete());
  CHECK(r.payload() == "{}");
  CHECK(r.feed("more") == 0);
}

TEST_CASE("an empty frame is complete after its header", "[rpc]") {
  FrameReader r;
  CHECK_FALSE(r.started());
  CHECK(r.feed(std::string("\0\0", 2)) == 2);
  CHECK(r.started());
  CHECK_FALSE(r.complete());
  CHECK(r.feed(std::string("\0\0", 2)) == 2);
  CHECK(r.complete());
  CHECK(r.payload().empty());
}

TEST_CASE("an oversized frame is refused from its header alone", "[rpc]") {
  // 4 GiB announced (garbage such as "GET " reads as a length too): refused
  // before anything is allocated for it.
  FrameReader r;
  try {
    r.feed("\xff\xff\xff\xff{");
    FAIL("accepted a 4 GiB frame");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::protocol);
    CHECK(std::string(e.what()) == "frame of 4294967295 bytes is too large");
  }
  FrameReader small(10);
  CHECK_THROWS_AS(small.feed(std::string("\0\0\0\x0b", 4)), Error);
  FrameReader exact(10);
  CHECK(exact.feed(std::string("\0\0\0\x0a", 4)) == 4);
}

TEST_CASE("a frame cut short says how much came", "[rpc]") {
  FrameReader r;
  r.feed(std::string("\0\0\0\x64", 4) + R"({"op": "pi)");
  CHECK_FALSE(r.complete());
  CHECK(r.received() == 14);
  CHECK(r.announced() == 104);
  // The payload grows with what arrives, not with what is announced.
  CHECK(r.payload().capacity() < 100);
}

TEST_CASE("encode_frame refuses a payload past the limit", "[rpc]") {
  CHECK_THROWS_AS(encode_frame(std::string(stint::rpc::k_max_frame + 1, 'x')), Error);
}
