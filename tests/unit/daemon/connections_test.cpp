// stintd's answer to a request's bytes (daemon/connections.cpp): whatever a
// client sends, a reply frame comes back and stintd goes on. Each input here
// once took stintd down or was found by tests/fuzz/request.cpp.

#include "daemon/connections.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/store.hpp>

#include "rpc/frame.hpp"
#include "util/clock.hpp"

using namespace stint;
using Json = nlohmann::json;

namespace {

// A Controller over a state directory of its own.
struct Daemon {
  Paths paths;
  FixedClock clock{1795975241};
  std::unique_ptr<daemon::Controller> controller;

  Daemon() {
    std::string dir = (std::filesystem::temp_directory_path() / "stint-unit-XXXXXX").string();
    REQUIRE(::mkdtemp(dir.data()) != nullptr);
    paths.state_dir = dir;
    ensure_state_dir(paths);
    Machine m;
    m.hostname = "vm";
    m.cpus = 2;
    m.memory_mb = 4096;
    controller = std::make_unique<daemon::Controller>(
        paths, config_for_machine(m), Store::open(paths.db(), Store::Mode::read_write), clock);
  }
  ~Daemon() {
    controller.reset();
    std::filesystem::remove_all(paths.state_dir);
  }

  // The reply stintd sends for `payload`, unframed and parsed.
  Json answer(const std::string& payload) {
    const daemon::Caller caller{::getuid(), ::getgid(), ::getpid()};
    const std::string frame = daemon::answer_frame(*controller, payload, caller);
    rpc::FrameReader reader;
    REQUIRE(reader.feed(frame) == frame.size());
    REQUIRE(reader.complete());
    return Json::parse(reader.payload());
  }
};

}  // namespace

TEST_CASE("a request that is not UTF-8 gets a protocol error, not a dead stintd", "[daemon]") {
  // The parse error quotes the bytes, and dumping the reply threw
  // (json type_error 316) out of stintd's loop: stintd exited.
  Daemon d;
  for (const std::string payload : {"\xff\xfe{", "{\"op\": \"\xc3\x28\"}", "\x80"}) {
    CAPTURE(payload);
    const Json reply = d.answer(payload);
    CHECK(reply["ok"] == false);
    CHECK(reply["error"] == "protocol");
    CHECK(reply["message"].get<std::string>().starts_with("malformed request"));
  }
  CHECK(d.answer(R"({"op": "ping"})")["ok"] == true);
}

TEST_CASE("requests of the wrong shape get a protocol error", "[daemon]") {
  Daemon d;
  for (const std::string payload :
       {"[]", "\"ping\"", "{\"op\": 5}", "{\"op\": \"nope\"}", "{\"op\": \"submit\"}",
        "{\"op\": \"submit\", \"spec\": []}", "{\"op\": \"cancel\", \"job_ids\": \"all\"}"}) {
    CAPTURE(payload);
    const Json reply = d.answer(payload);
    CHECK(reply["ok"] == false);
    CHECK(reply["error"] == "protocol");
  }
}
