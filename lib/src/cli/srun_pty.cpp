#include "cli/srun_pty.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <stint/error.hpp>

namespace stint::cli {

volatile int g_window_changed = 0;

namespace {

void on_window_change(int) { g_window_changed = 1; }

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

static_assert(sizeof(termios) <= 128, "PseudoTerminal keeps a struct termios in 128 bytes");

}  // namespace

PseudoTerminal::PseudoTerminal() {
  m_master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0 ||
      ::ptsname_r(m_master, m_slave_path, sizeof m_slave_path) != 0)
    throw Error(Errc::io, fmt::format("cannot open a pseudo-terminal: {}", std::strerror(errno)));
}

PseudoTerminal::~PseudoTerminal() {
  if (m_raw) {
    termios saved{};
    std::memcpy(&saved, m_saved_termios, sizeof saved);
    ::tcsetattr(0, TCSAFLUSH, &saved);
  }
  if (m_master >= 0) ::close(m_master);
  ::signal(SIGWINCH, SIG_DFL);
}

bool PseudoTerminal::attach_child() const {
  if (::setsid() < 0) return false;
  const int slave = ::open(m_slave_path, O_RDWR);
  if (slave < 0) return false;
  if (::ioctl(slave, TIOCSCTTY, 0) != 0) return false;
  if (::dup2(slave, 0) < 0 || ::dup2(slave, 1) < 0 || ::dup2(slave, 2) < 0) return false;
  if (slave > 2) ::close(slave);
  return true;
}

void PseudoTerminal::start() {
  copy_window_size();
  struct sigaction sa {};
  sa.sa_handler = on_window_change;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGWINCH, &sa, nullptr);
  termios t{};
  if (::isatty(0) && ::tcgetattr(0, &t) == 0) {
    std::memcpy(m_saved_termios, &t, sizeof t);
    ::cfmakeraw(&t);
    if (::tcsetattr(0, TCSAFLUSH, &t) == 0) m_raw = true;
  }
}

void PseudoTerminal::copy_window_size() const {
  winsize size{};
  if (::ioctl(0, TIOCGWINSZ, &size) == 0) ::ioctl(m_master, TIOCSWINSZ, &size);
  g_window_changed = 0;
}

bool PseudoTerminal::copy_input() {
  char buf[4096];
  const ssize_t n = ::read(0, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) {
    // The end of a piped input: the task reads its end as a terminal's ^D.
    const char eof = 4;
    (void)write_all(m_master, &eof, 1);
    return false;
  }
  return write_all(m_master, buf, static_cast<std::size_t>(n));
}

bool PseudoTerminal::copy_output() {
  char buf[65536];
  const ssize_t n = ::read(m_master, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;  // EIO: every holder of the task's side has closed it
  return write_all(1, buf, static_cast<std::size_t>(n));
}

}  // namespace stint::cli
