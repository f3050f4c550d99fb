// stintd's request decoding (lib/src/rpc/frame.cpp, daemon/connections.cpp
// and every handler under daemon/handlers): the bytes a client sends, read as
// a frame and answered by a Controller over a state directory of its own, as
// stintd would, without the socket. Nothing is scheduled, so nothing runs.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include <unistd.h>

#include <stint/config.hpp>
#include <stint/store.hpp>

#include "daemon/connections.hpp"
#include "daemon/controller.hpp"
#include "fuzz.hpp"
#include "rpc/frame.hpp"
#include "util/clock.hpp"

using namespace stint;

namespace {

struct Daemon {
  Paths paths;
  FixedClock clock{1795975241};
  std::unique_ptr<daemon::Controller> controller;
  std::size_t requests = 0;

  Daemon() {
    // tmpfs where there is one: SQLite's syncs cost nothing there.
    const char* base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    paths.state_dir = std::string(base) + "/stint-fuzz-request." + std::to_string(::getpid());
    std::filesystem::remove_all(paths.state_dir);
    restart();
  }
  ~Daemon() { std::filesystem::remove_all(paths.state_dir); }

  // A fresh state now and then, so that the jobs fuzzed in do not pile up
  // and slow every later request.
  void restart() {
    controller.reset();
    std::filesystem::remove_all(paths.state_dir);
    ensure_state_dir(paths);
    Machine machine;
    machine.hostname = "vm";
    machine.cpus = 4;
    machine.memory_mb = 16384;
    machine.gpus = 2;
    machine.gpu_type = "h200";
    Config config = config_for_machine(machine);
    // reconfigure reads it (without it, it would detect this machine).
    std::FILE* f = std::fopen(paths.config().c_str(), "w");
    const std::string yaml = config_to_yaml(config);
    std::fwrite(yaml.data(), 1, yaml.size(), f);
    std::fclose(f);
    controller = std::make_unique<daemon::Controller>(
        paths, std::move(config), Store::open(paths.db(), Store::Mode::read_write), clock);
    controller->recover();
  }
};

Daemon* the_daemon = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ::setenv("TZ", "UTC", 1);
  the_daemon = new Daemon;
  std::atexit([] { delete the_daemon; });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Daemon& d = *the_daemon;
  if (++d.requests % 2000 == 0) d.restart();
  if (size == 0) return 0;
  // The first byte picks what the rest is: a request's JSON, framed here, so
  // that a change to the JSON does not spoil the frame's length (even); or
  // the raw bytes of a frame, header and all (odd).
  std::string bytes(fuzz::text_of(data + 1, size - 1));
  if (data[0] % 2 == 0) bytes = rpc::encode_frame(bytes);
  rpc::FrameReader reader;
  try {
    // In two pieces, as a client's bytes may arrive.
    const std::size_t used = reader.feed(std::string_view(bytes).substr(0, bytes.size() / 2));
    reader.feed(std::string_view(bytes).substr(used));
  } catch (const Error& e) {
    if (e.code() != Errc::protocol) throw;
    return 0;
  }
  if (!reader.complete()) return 0;
  // The state directory's owner: every operation is allowed.
  const daemon::Caller caller{::getuid(), ::getgid(), ::getpid()};
  (void)daemon::answer_frame(*d.controller, reader.payload(), caller);
  return 0;
}
