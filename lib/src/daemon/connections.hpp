#pragma once
// stintd's clients: every open connection on the socket, read and answered
// without blocking, so that a client that sends nothing, sends half a frame or
// does not read its reply holds up nobody else. Each connection has a
// deadline; what is refused is logged.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <poll.h>

#include "daemon/controller.hpp"
#include "rpc/frame.hpp"

namespace stint::daemon {

/// The reply frame to one request's payload: the JSON is parsed and handled,
/// a refusal becomes {"ok": false, "error": ..., "message": ...} (and is
/// logged when the request itself is malformed). Never throws for anything the
/// request holds: this is what tests/fuzz/request.cpp fuzzes.
std::string answer_frame(Controller& controller, std::string_view payload, const Caller& caller);

class Connections {
 public:
  using SteadyClock = std::chrono::steady_clock;

  /// A client has this long to send its request, and then to take its reply.
  static constexpr std::chrono::seconds k_request_time{5};
  static constexpr std::chrono::seconds k_reply_time{10};
  /// At most this many open at once; past it the oldest still waiting for its
  /// request is closed, so a flood of idle connections cannot lock others out.
  static constexpr std::size_t k_max_open = 256;
  /// The bytes of requests still arriving (and of requests being answered)
  /// stintd holds for one user, and for everyone: a connection whose next
  /// bytes would pass either is closed, so that partial frames cannot grow
  /// stintd without bound (64 connections of 16 MiB each were 1 GB). Four
  /// frames of the largest size fit one user's share.
  static constexpr std::size_t k_max_held_per_user = std::size_t{64} << 20;
  static constexpr std::size_t k_max_held_total = std::size_t{256} << 20;

  explicit Connections(Controller& controller) : m_controller(controller) {}
  ~Connections();
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  /// Accepts every connection waiting on the listening socket and serves
  /// what each has already sent.
  void accept_all(int listener);
  /// Appends one pollfd per connection, in the order on_ready expects.
  void add_poll_fds(std::vector<pollfd>& fds) const;
  /// Serves the connections whose pollfds (from add_poll_fds, starting at
  /// fds[first]) are ready, and closes those past their deadline.
  void on_ready(const std::vector<pollfd>& fds, std::size_t first);
  /// How long poll may wait before a deadline passes, at most `longest`.
  int poll_timeout_ms(int longest) const;
  /// Whether a request was answered since the last call (for idle exit).
  bool take_activity();

 private:
  struct Connection {
    Caller caller;
    rpc::FrameReader reader;
    std::string reply;  ///< the encoded reply frame, once the request is answered
    std::size_t sent = 0;
    SteadyClock::time_point deadline;
  };

  void serve(int fd, Connection& c);
  /// Reads what is there; false when the connection is done with (closed).
  bool receive(int fd, Connection& c);
  /// Sends what the socket takes; false when the reply is sent or cannot be.
  bool send_reply(int fd, Connection& c);
  /// Answers a request that cannot be read with a protocol error, and logs it.
  void refuse(Connection& c, const std::string& why);
  void close_connection(int fd);
  /// Closes the oldest connection past k_max_open.
  void make_room();
  /// Closes the connection that has waited longest for its request (else for
  /// its reply), logging `why`.
  void close_oldest(const std::string& why);

  Controller& m_controller;
  std::map<std::uint32_t, std::size_t> m_held_by_uid;  ///< request bytes held, by user
  std::size_t m_held_total = 0;
  std::map<int, Connection> m_open;  ///< by file descriptor
  bool m_activity = false;
};

}  // namespace stint::daemon
