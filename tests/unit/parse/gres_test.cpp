#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Errc;
using stint::parse::gpus;
using stint::parse::gres;
using stint::test::error_of;

namespace {

void check_invalid_gres(const std::string& text, bool as_gpus) {
  CAPTURE(text, as_gpus);
  const auto e = error_of([&] { (void)(as_gpus ? gpus(text) : gres(text)); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_gres);
  CHECK(std::string(e->what()) == "Invalid generic resource (gres) specification");
}

}  // namespace

TEST_CASE("gres reads gpu[:type][:count]", "[parse]") {
  const auto [text, type, count] = GENERATE(table<std::string, std::string, std::uint32_t>({
      {"gpu", "", 1},
      {"gpu:2", "", 2},
      {"gpu:0", "", 0},
      {"gpu:a100", "a100", 1},
      {"gpu:a100:2", "a100", 2},
      {"gpu:tesla_v100-32g.x:4", "tesla_v100-32g.x", 4},
      {"gpu:4294967295", "", 4294967295U},
  }));
  CAPTURE(text);
  const auto req = gres(text);
  CHECK(req.type == type);
  CHECK(req.count == count);
}

TEST_CASE("gres=none asks for no GPUs", "[parse]") {
  const auto req = gres("none");
  CHECK(req.type.empty());
  CHECK(req.count == 0);
}

TEST_CASE("gres refuses other resources, lists and junk with Slurm's message", "[parse]") {
  const std::string text = GENERATE(
      as<std::string>{}, "", "gpu:", "gpu::2", "gpu:a100:", "gpu:a100:x", "gpu:-1", "gpu:1:2",
      "gpu:2x", "gpu:a100:2:3", "gpus:1", "GPU:1", "mps:100", "license:1", "gpu:1,gpu:1",
      "gpu:1,mps:1", "gpu:1,", ",gpu:1", " gpu", "gpu ", "gpu:a 100:1", "gpu:99999999999",
      "gpu:4294967296", "gpu:+1", "gpu:a100:+1", "None", "gpu:a/b:1", "gpu:_x:1", "gpu:1x:1");
  check_invalid_gres(text, false);
}

TEST_CASE("gpus reads N or TYPE:N", "[parse]") {
  auto req = gpus("2");
  CHECK(req.type.empty());
  CHECK(req.count == 2);
  req = gpus("a100:4");
  CHECK(req.type == "a100");
  CHECK(req.count == 4);
  req = gpus("0");
  CHECK(req.count == 0);
}

TEST_CASE("gpus refuses junk with Slurm's message", "[parse]") {
  const std::string text =
      GENERATE(as<std::string>{}, "", "x", "gpu", "a100", "a100:", ":2", "2:a100", "-1", "+1",
               "a100:2:3", "1:2", "2 ", "a100:x", "4294967296", "a100:-1", "gpu:a100:2");
  check_invalid_gres(text, true);
}
