#pragma once
// The RPC protocol between the tools (and stepd) and stintd: one request and
// one reply per connection over the Unix socket <state>/stintd.sock, each a
// frame of a 4-byte big-endian length and that many bytes of JSON text.
//
// Request: {"op": "<name>", ...}. Reply: {"ok": true, ...} or
// {"ok": false, "error": "<errc name>", "message": "..."}. The caller's uid is
// taken from SO_PEERCRED by stintd, never from the request. The operations
// are listed in docs/protocol.md.

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <stint/paths.hpp>

#include "rpc/frame.hpp"

namespace stint::rpc {

/// Writes one frame; throws Errc::io.
void write_frame(int fd, const std::string& payload);
/// Reads one frame; nullopt on a clean end of input before any byte; throws
/// Errc::protocol on a short or oversized frame, Errc::io on errors.
std::optional<std::string> read_frame(int fd, std::size_t max = k_max_frame);

enum class AutoStart { yes, no };

/// Sends `request` to the stintd of `paths` and returns its reply. With
/// AutoStart::yes a missing stintd is started (detached) and waited for.
/// A reply with ok=false is thrown as Error(code, message). A submission
/// ("submit") is given a token of its own and, should its answer be lost
/// with a stintd that was killed, sent again until one answers: it is made
/// exactly once.
nlohmann::json call(const Paths& paths, const nlohmann::json& request,
                    AutoStart autostart = AutoStart::yes);

/// Whether a stintd answers on the socket now (sends "ping").
bool daemon_running(const Paths& paths);
/// Whether a stintd holds the state directory's lock (a stopping one still
/// does after its socket has gone).
bool daemon_holds_lock(const Paths& paths);

}  // namespace stint::rpc
