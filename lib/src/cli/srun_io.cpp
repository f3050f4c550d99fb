#include "cli/srun_io.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/fs.hpp"

namespace stint::cli {
namespace {

/// A client whose unsent output grows past this is dropped: srun never waits
/// for a client, and never holds more than this for one.
constexpr std::size_t k_client_backlog = 4U << 20;
/// srun reads no more of its own stdin, nor clients' input, while a task has
/// this much of it unread: the step's input is paced by its readers.
constexpr std::size_t k_input_backlog = 64U << 10;
constexpr std::size_t k_chunk = 64U << 10;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
}

std::uint32_t get_u32(std::string_view in) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}

sockaddr_un abstract_address(const std::string& name, socklen_t& length) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::size_t n = std::min(name.size(), sizeof address.sun_path - 1);
  std::memcpy(address.sun_path + 1, name.data(), n);
  length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  return address;
}

}  // namespace

std::string encode_frame(std::uint32_t task, FrameKind kind, std::string_view payload) {
  std::string out;
  out.reserve(k_frame_header_size + payload.size());
  put_u32(out, task);
  out.push_back(static_cast<char>(kind));
  put_u32(out, static_cast<std::uint32_t>(payload.size()));
  out.append(payload);
  return out;
}

std::optional<Frame> take_frame(std::string& buffer, bool& bad) {
  bad = false;
  if (buffer.size() < k_frame_header_size) return std::nullopt;
  const std::string_view view = buffer;
  const auto kind = static_cast<std::uint8_t>(view[4]);
  const std::uint32_t length = get_u32(view.substr(5));
  if (kind > static_cast<std::uint8_t>(FrameKind::task_end) || length > k_max_frame_payload) {
    bad = true;
    return std::nullopt;
  }
  if (buffer.size() < k_frame_header_size + length) return std::nullopt;
  Frame f;
  f.task = get_u32(view);
  f.kind = static_cast<FrameKind>(kind);
  f.payload = buffer.substr(k_frame_header_size, length);
  buffer.erase(0, k_frame_header_size + length);
  return f;
}

std::string encode_layout(const AttachLayout& layout) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const AttachLayout::Node& n : layout.nodes)
    nodes.push_back({{"name", n.name}, {"tasks", n.tasks}});
  return nlohmann::json{{"task_count", layout.task_count}, {"nodes", nodes}}.dump();
}

std::optional<AttachLayout> decode_layout(std::string_view payload) {
  try {
    const nlohmann::json j = nlohmann::json::parse(payload);
    AttachLayout layout;
    layout.task_count = j.at("task_count").get<std::uint32_t>();
    for (const nlohmann::json& n : j.at("nodes")) {
      layout.nodes.push_back(
          {n.at("name").get<std::string>(), n.at("tasks").get<std::vector<std::uint32_t>>()});
    }
    return layout;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string encode_task_end(const TaskEnd& end) {
  std::string out;
  put_u32(out, static_cast<std::uint32_t>(end.exit_status));
  put_u32(out, static_cast<std::uint32_t>(end.exit_signal));
  return out;
}

std::optional<TaskEnd> decode_task_end(std::string_view payload) {
  if (payload.size() != 8) return std::nullopt;
  return TaskEnd{static_cast<int>(get_u32(payload)), static_cast<int>(get_u32(payload.substr(4)))};
}

std::string step_io_socket_name(const std::string& state_dir, JobId job, std::uint32_t step) {
  // The same directory named two ways (a trailing slash, a symbolic link)
  // must give one name to srun and to sattach.
  std::error_code ec;
  std::string dir = std::filesystem::weakly_canonical(state_dir, ec).string();
  if (ec || dir.empty()) dir = state_dir;
  // FNV-1a, 64 bits: stable across builds and machines, unlike std::hash.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : dir) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("stint-step-{:016x}-{}.{}", hash, job, step);
}

int connect_step_io(const std::string& name) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  socklen_t length = 0;
  const sockaddr_un address = abstract_address(name, length);
  while (::connect(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    if (errno == EINTR) continue;
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

StepIo::StepIo(bool label, bool line_buffered) : m_label(label), m_line_buffered(line_buffered) {}

StepIo::~StepIo() {
  for (Output& o : m_outputs) {
    if (o.fd >= 0) ::close(o.fd);
  }
  for (Input& in : m_inputs) {
    if (in.fd >= 0) ::close(in.fd);
  }
  for (Client& c : m_clients) {
    if (c.fd >= 0) ::close(c.fd);
  }
  if (m_listener >= 0) ::close(m_listener);
}

bool StepIo::listen(const std::string& name, const AttachLayout& layout) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return false;
  socklen_t length = 0;
  const sockaddr_un address = abstract_address(name, length);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0 ||
      ::listen(fd, 16) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return false;
  }
  m_listener = fd;
  m_layout_frame = encode_frame(0, FrameKind::layout, encode_layout(layout));
  return true;
}

void StepIo::add_output(std::uint32_t task, FrameKind stream, int read_fd, int dest_fd,
                        bool to_clients) {
  m_outputs.push_back({task, stream, read_fd, dest_fd, to_clients, {}});
}

void StepIo::add_input(std::uint32_t task, int write_fd) {
  // Never wait on a task that does not read: srun has other work.
  ::fcntl(write_fd, F_SETFL, ::fcntl(write_fd, F_GETFL) | O_NONBLOCK);
  m_inputs.push_back({task, write_fd, {}, false});
}

bool StepIo::input_backlogged() const {
  return std::any_of(m_inputs.begin(), m_inputs.end(), [](const Input& in) {
    return in.fd >= 0 && in.pending.size() >= k_input_backlog;
  });
}

bool StepIo::any_input_open() const {
  return std::any_of(m_inputs.begin(), m_inputs.end(),
                     [](const Input& in) { return in.fd >= 0 && !in.closing; });
}

bool StepIo::output_open() const {
  return std::any_of(m_outputs.begin(), m_outputs.end(), [](const Output& o) { return o.fd >= 0; });
}

void StepIo::add_poll_fds(std::vector<pollfd>& fds) {
  std::erase_if(m_clients, [](const Client& c) { return c.fd < 0; });
  m_first_fd = fds.size();
  m_slots.clear();
  for (std::size_t i = 0; i < m_outputs.size(); ++i) {
    if (m_outputs[i].fd < 0) continue;
    fds.push_back({m_outputs[i].fd, POLLIN, 0});
    m_slots.emplace_back(Slot::output, i);
  }
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    const Input& in = m_inputs[i];
    if (in.fd < 0 || (in.pending.empty() && !in.closing)) continue;
    fds.push_back({in.fd, POLLOUT, 0});
    m_slots.emplace_back(Slot::input, i);
  }
  const bool backlogged = input_backlogged();
  // srun's stdin is read only while a task can take it and none has any of
  // it unread: what is left stays in the file for whoever reads it next.
  const bool pending = std::any_of(m_inputs.begin(), m_inputs.end(), [](const Input& in) {
    return in.fd >= 0 && !in.pending.empty();
  });
  if (m_own_stdin_open && any_input_open() && !pending) {
    fds.push_back({0, POLLIN, 0});
    m_slots.emplace_back(Slot::own_stdin, 0);
  }
  if (m_listener >= 0) {
    fds.push_back({m_listener, POLLIN, 0});
    m_slots.emplace_back(Slot::listener, 0);
  }
  for (std::size_t i = 0; i < m_clients.size(); ++i) {
    const Client& c = m_clients[i];
    short events = backlogged ? 0 : POLLIN;
    if (!c.unsent.empty()) events |= POLLOUT;
    fds.push_back({c.fd, events, 0});
    m_slots.emplace_back(Slot::client, i);
  }
}

void StepIo::handle(const std::vector<pollfd>& fds) {
  for (std::size_t k = 0; k < m_slots.size() && m_first_fd + k < fds.size(); ++k) {
    const short revents = fds[m_first_fd + k].revents;
    if (revents == 0) continue;
    const auto [slot, i] = m_slots[k];
    switch (slot) {
      case Slot::output:
        if (m_outputs[i].fd >= 0) read_output(m_outputs[i]);
        break;
      case Slot::input:
        if (m_inputs[i].fd < 0) break;
        if ((revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
          close_input(m_inputs[i]);  // the task closed its stdin, or ended
        } else {
          flush_input(m_inputs[i]);
        }
        break;
      case Slot::own_stdin:
        if (m_own_stdin_open) read_own_stdin();
        break;
      case Slot::listener:
        accept_client();
        break;
      case Slot::client: {
        Client& c = m_clients[i];
        if (c.fd >= 0 && (revents & POLLOUT) != 0) flush_client(c);
        if (c.fd >= 0 && (revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0) read_client(c);
        break;
      }
    }
  }
}

bool StepIo::read_output(Output& o) {
  char buf[k_chunk];
  const ssize_t n = ::read(o.fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;
  if (n <= 0) {
    close_output(o);
    return true;
  }
  const std::string_view bytes(buf, static_cast<std::size_t>(n));
  if (o.to_clients) broadcast(o.task, o.stream, bytes);
  pass_on(o, bytes);
  return true;
}

void StepIo::pass_on(Output& o, std::string_view bytes) {
  bool written = true;
  if (!m_label && !m_line_buffered) {
    written = fs::write_fully(o.dest, bytes);
  } else if (!m_label) {
    // Up to the last newline; a line longer than a read (a progress bar
    // redrawn with \r) goes as it is, rather than waiting without end.
    o.partial.append(bytes);
    std::size_t end = o.partial.rfind('\n');
    end = end == std::string::npos ? 0 : end + 1;
    if (o.partial.size() >= k_chunk) end = o.partial.size();
    if (end > 0) {
      written = fs::write_fully(o.dest, std::string_view(o.partial).substr(0, end));
      o.partial.erase(0, end);
    }
  } else {
    o.partial.append(bytes);
    std::string out;
    std::size_t start = 0;
    for (std::size_t nl; (nl = o.partial.find('\n', start)) != std::string::npos; start = nl + 1)
      out += fmt::format("{}: {}\n", o.task, std::string_view(o.partial).substr(start, nl - start));
    o.partial.erase(0, start);
    if (!out.empty()) written = fs::write_fully(o.dest, out);
  }
  if (!written) {
    // Nobody reads srun's output any more (`srun ... | head -1`): the task
    // hears it on its next write, as it would have writing there itself.
    o.partial.clear();
    close_output(o);
  }
}

void StepIo::close_output(Output& o) {
  if (!o.partial.empty())
    fs::write_fully(o.dest, m_label ? fmt::format("{}: {}\n", o.task, o.partial) : o.partial);
  o.partial.clear();
  ::close(o.fd);
  o.fd = -1;
}

void StepIo::drain_output() {
  for (Output& o : m_outputs) {
    if (o.fd < 0) continue;
    ::fcntl(o.fd, F_SETFL, ::fcntl(o.fd, F_GETFL) | O_NONBLOCK);
    while (o.fd >= 0) {
      if (!read_output(o) && o.fd >= 0) close_output(o);
    }
  }
}

void StepIo::flush_input(Input& in) {
  while (!in.pending.empty()) {
    const ssize_t n = ::write(in.fd, in.pending.data(), in.pending.size());
    if (n > 0) {
      in.pending.erase(0, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    close_input(in);  // EPIPE: the task will read no more
    return;
  }
  if (in.closing) close_input(in);
}

void StepIo::close_input(Input& in) {
  ::close(in.fd);
  in.fd = -1;
  in.pending.clear();
}

void StepIo::deliver(std::uint32_t task, std::string_view bytes) {
  for (Input& in : m_inputs) {
    if (in.fd < 0 || in.closing || (task != k_every_task && in.task != task)) continue;
    if (bytes.empty()) {
      in.closing = true;
    } else {
      in.pending.append(bytes);
    }
    flush_input(in);
  }
}

void StepIo::read_own_stdin() {
  char buf[k_chunk];
  const ssize_t n = ::read(0, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n > 0) {
    deliver(k_every_task, std::string_view(buf, static_cast<std::size_t>(n)));
    return;
  }
  // Its end, or an error (EIO: a terminal srun is in the background of), as
  // Slurm's srun takes either: the tasks' stdin ends too.
  m_own_stdin_open = false;
  deliver(k_every_task, {});
}

void StepIo::accept_client() {
  const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return;
  ucred cred{};
  socklen_t length = sizeof cred;
  // The step's I/O is its owner's: srun runs as the job's user, and root may
  // attach to anything.
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 ||
      (cred.uid != ::getuid() && cred.uid != 0)) {
    ::close(fd);
    return;
  }
  m_clients.push_back({fd, {}, m_layout_frame});
  flush_client(m_clients.back());
}

void StepIo::read_client(Client& c) {
  char buf[k_chunk];
  const ssize_t n = ::recv(c.fd, buf, sizeof buf, MSG_DONTWAIT);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    drop_client(c);
    return;
  }
  c.received.append(buf, static_cast<std::size_t>(n));
  bool bad = false;
  while (std::optional<Frame> f = take_frame(c.received, bad)) {
    if (f->kind == FrameKind::input) deliver(f->task, f->payload);
  }
  if (bad) drop_client(c);
}

void StepIo::flush_client(Client& c) {
  while (!c.unsent.empty()) {
    const ssize_t n = ::send(c.fd, c.unsent.data(), c.unsent.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      c.unsent.erase(0, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    drop_client(c);
    return;
  }
}

void StepIo::drop_client(Client& c) {
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  c.received.clear();
  c.unsent.clear();
}

void StepIo::broadcast(std::uint32_t task, FrameKind kind, std::string_view payload) {
  if (m_clients.empty()) return;
  const std::string frame = encode_frame(task, kind, payload);
  for (Client& c : m_clients) {
    if (c.fd < 0) continue;
    if (c.unsent.size() + frame.size() > k_client_backlog) {
      drop_client(c);  // too slow, or gone without saying so
      continue;
    }
    c.unsent += frame;
    flush_client(c);
  }
}

void StepIo::task_ended(std::uint32_t task, const TaskEnd& end) {
  // What the task wrote before it ended comes before the news of its end.
  for (Output& o : m_outputs) {
    if (o.task != task || o.fd < 0) continue;
    ::fcntl(o.fd, F_SETFL, ::fcntl(o.fd, F_GETFL) | O_NONBLOCK);
    while (o.fd >= 0 && read_output(o)) {
    }
  }
  broadcast(task, FrameKind::task_end, encode_task_end(end));
}

void StepIo::finish(int grace_ms) {
  for (Input& in : m_inputs) {
    if (in.fd >= 0) close_input(in);
  }
  if (m_listener >= 0) ::close(m_listener);
  m_listener = -1;
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(grace_ms);
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<Client*> waiting;
    for (Client& c : m_clients) {
      if (c.fd >= 0 && !c.unsent.empty()) {
        fds.push_back({c.fd, POLLOUT, 0});
        waiting.push_back(&c);
      }
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (fds.empty() || left <= 0) break;
    if (::poll(fds.data(), fds.size(), static_cast<int>(left)) <= 0) continue;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents != 0) flush_client(*waiting[i]);
    }
  }
  for (Client& c : m_clients) drop_client(c);
  m_clients.clear();
}

}  // namespace stint::cli
