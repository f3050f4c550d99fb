#include "util/background.hpp"

#include <stdexcept>
#include <utility>

namespace stint {

Background::~Background() {
  {
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_busy; });
    m_stop = true;
  }
  m_changed.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void Background::start(std::function<void()> work) {
  {
    std::lock_guard lock(m_mutex);
    if (m_busy) throw std::logic_error("Background::start while busy");
    m_work = std::move(work);
    m_error = nullptr;
    m_busy = true;
  }
  // The thread inherits the caller's signal mask: started by stintd after it
  // blocked what its signalfd reads, it takes none of those signals.
  if (!m_thread.joinable()) m_thread = std::thread([this] { run(); });
  m_changed.notify_all();
}

void Background::wait() {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [this] { return !m_busy; });
  if (m_error) std::rethrow_exception(std::exchange(m_error, nullptr));
}

void Background::run() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    m_changed.wait(lock, [this] { return m_stop || m_busy; });
    if (m_busy) {
      std::function<void()> work = std::move(m_work);
      lock.unlock();
      std::exception_ptr error;
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      m_error = error;
      m_busy = false;
      m_changed.notify_all();
      continue;
    }
    return;  // m_stop, nothing in hand
  }
}

}  // namespace stint
