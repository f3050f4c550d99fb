#include "daemon/connections.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "daemon/log.hpp"

namespace stint::daemon {
namespace {

using Json = nlohmann::json;

Json refusal(const Error& e) {
  return {{"ok", false}, {"error", std::string(errc_name(e.code()))}, {"message", e.what()}};
}

std::string peer(const Caller& caller) {
  return fmt::format("{} pid {}", Controller::who(caller), caller.pid);
}

Json answer(Controller& controller, std::string_view payload, const Caller& caller) {
  try {
    Json request;
    try {
      request = Json::parse(payload);
    } catch (const Json::exception& e) {
      throw Error(Errc::protocol, fmt::format("malformed request: {}", e.what()));
    }
    return controller.handle(request, caller);
  } catch (const Error& e) {
    return refusal(e);
  } catch (const std::exception& e) {
    log_error("request failed: {}", e.what());
    return {{"ok", false}, {"error", "internal"}, {"message", e.what()}};
  }
}

}  // namespace

std::string answer_frame(Controller& controller, std::string_view payload, const Caller& caller) {
  const Json reply = answer(controller, payload, caller);
  if (reply.value("error", std::string()) == errc_name(Errc::protocol))
    log_info("refused a request from {}: {}", peer(caller), reply.value("message", ""));
  try {
    // A message may quote the request's bytes, which need not be UTF-8.
    return rpc::encode_frame(reply.dump(-1, ' ', false, Json::error_handler_t::replace));
  } catch (const Error& e) {
    log_error("reply to {} not sent: {}", peer(caller), e.what());
    return rpc::encode_frame(refusal(e).dump());
  }
}

Connections::~Connections() {
  for (const auto& [fd, c] : m_open) ::close(fd);
}

void Connections::accept_all(int listener) {
  for (;;) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) log_error("accept: {}", std::strerror(errno));
      return;
    }
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
      ::close(fd);
      continue;
    }
    make_room();
    Connection& c = m_open[fd];
    c.caller = Caller{cred.uid, cred.gid, cred.pid};
    c.deadline = SteadyClock::now() + k_request_time;
    // A client usually has its request sent by now: answer it at once.
    serve(fd, c);
  }
}

void Connections::add_poll_fds(std::vector<pollfd>& fds) const {
  for (const auto& [fd, c] : m_open)
    fds.push_back({fd, static_cast<short>(c.reply.empty() ? POLLIN : POLLOUT), 0});
}

void Connections::on_ready(const std::vector<pollfd>& fds, std::size_t first) {
  for (std::size_t i = first; i < fds.size(); ++i) {
    if (fds[i].revents == 0) continue;
    auto it = m_open.find(fds[i].fd);
    if (it != m_open.end()) serve(it->first, it->second);
  }
  const auto now = SteadyClock::now();
  std::vector<int> expired;
  for (const auto& [fd, c] : m_open)
    if (now >= c.deadline) expired.push_back(fd);
  for (int fd : expired) {
    const Connection& c = m_open.at(fd);
    if (c.reply.empty()) {
      log_info("closed a connection from {}: no complete request within {} s ({} of {} bytes)",
               peer(c.caller), k_request_time.count(), c.reader.received(), c.reader.announced());
    } else {
      log_info("closed a connection from {}: reply not taken within {} s", peer(c.caller),
               k_reply_time.count());
    }
    close_connection(fd);
  }
}

int Connections::poll_timeout_ms(int longest) const {
  if (m_open.empty()) return longest;
  auto soonest = m_open.begin()->second.deadline;
  for (const auto& [fd, c] : m_open) soonest = std::min(soonest, c.deadline);
  const auto wait =
      std::chrono::duration_cast<std::chrono::milliseconds>(soonest - SteadyClock::now()).count() +
      1;
  return static_cast<int>(std::clamp<long long>(wait, 0, longest));
}

bool Connections::take_activity() {
  const bool was = m_activity;
  m_activity = false;
  return was;
}

void Connections::serve(int fd, Connection& c) {
  if (c.reply.empty()) {
    if (!receive(fd, c)) return;
    if (c.reply.empty()) return;  // the rest of the request is still to come
  }
  if (!send_reply(fd, c)) close_connection(fd);
}

bool Connections::receive(int fd, Connection& c) {
  char buffer[64 * 1024];
  while (!c.reader.complete()) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
      log_info("closed a connection from {}: {}", peer(c.caller), std::strerror(errno));
      close_connection(fd);
      return false;
    }
    if (n == 0) {
      // Closed before a byte (a probe) needs no word; cut short, it does.
      if (c.reader.started()) {
        log_info("refused a request from {}: connection closed after {} of {} bytes",
                 peer(c.caller), c.reader.received(), c.reader.announced());
      }
      close_connection(fd);
      return false;
    }
    const auto got = static_cast<std::size_t>(n);
    std::size_t& held = m_held_by_uid[c.caller.uid];
    if (held + got > k_max_held_per_user || m_held_total + got > k_max_held_total) {
      log_info(
          "closed a connection from {}: {} MiB of unfinished requests held for that "
          "user, {} MiB for all (at most {} and {})",
          peer(c.caller), held >> 20, m_held_total >> 20, k_max_held_per_user >> 20,
          k_max_held_total >> 20);
      close_connection(fd);
      return false;
    }
    const std::size_t before = c.reader.received();
    try {
      c.reader.feed(std::string_view(buffer, got));
    } catch (const Error& e) {
      refuse(c, e.what());
      return true;
    }
    const std::size_t added = c.reader.received() - before;
    held += added;
    m_held_total += added;
  }
  // A sender that has closed its end takes no answer: a tool that gave up
  // (MessageTimeout) while stintd was stopped or busy reported a failure,
  // so its request is not acted on now; a submission it called failed must
  // not run all the same. (A client that only shut down its writing half
  // still waits for the answer: POLLHUP means both halves are gone.)
  pollfd closed{fd, 0, 0};
  if (::poll(&closed, 1, 0) == 1 && (closed.revents & POLLHUP) != 0) {
    log_info("dropped a request from {}: its sender closed the connection before the answer",
             peer(c.caller));
    close_connection(fd);
    return false;
  }
  c.reply = answer_frame(m_controller, c.reader.payload(), c.caller);
  c.deadline = SteadyClock::now() + k_reply_time;
  m_activity = true;
  return true;
}

void Connections::refuse(Connection& c, const std::string& why) {
  log_info("refused a request from {}: {}", peer(c.caller), why);
  c.reply = rpc::encode_frame(refusal(Error(Errc::protocol, why)).dump());
  c.deadline = SteadyClock::now() + k_reply_time;
}

bool Connections::send_reply(int fd, Connection& c) {
  while (c.sent < c.reply.size()) {
    const ssize_t n = ::send(fd, c.reply.data() + c.sent, c.reply.size() - c.sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
      log_info("reply to {} not sent: {}", peer(c.caller), std::strerror(errno));
      return false;
    }
    c.sent += static_cast<std::size_t>(n);
  }
  return false;
}

void Connections::close_connection(int fd) {
  ::close(fd);
  const auto it = m_open.find(fd);
  if (it == m_open.end()) return;
  const std::size_t held = it->second.reader.received();
  if (auto user = m_held_by_uid.find(it->second.caller.uid); user != m_held_by_uid.end()) {
    user->second -= std::min(user->second, held);
    if (user->second == 0) m_held_by_uid.erase(user);
  }
  m_held_total -= std::min(m_held_total, held);
  m_open.erase(it);
}

void Connections::make_room() {
  if (m_open.size() >= k_max_open) close_oldest(fmt::format("{} connections open", k_max_open));
}

void Connections::close_oldest(const std::string& why) {
  // The one waiting longest for its request, else the one waiting longest on its reader.
  auto victim = m_open.end();
  for (auto it = m_open.begin(); it != m_open.end(); ++it) {
    if (victim == m_open.end()) {
      victim = it;
      continue;
    }
    const bool idle = it->second.reply.empty(), victim_idle = victim->second.reply.empty();
    if ((idle && !victim_idle) ||
        (idle == victim_idle && it->second.deadline < victim->second.deadline))
      victim = it;
  }
  if (victim == m_open.end()) return;
  log_info("closed a connection from {}: {}", peer(victim->second.caller), why);
  close_connection(victim->first);
}

}  // namespace stint::daemon
