#pragma once
// One piece of work at a time on a thread of its own, kept for the next: for
// a wait (a disk flush) that can overlap with the caller's own, where a
// thread started per call would cost a good part of what it saves.

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace stint {

class Background {
 public:
  Background() = default;
  ~Background();  ///< waits for the work in hand, then ends the thread
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  /// Starts `work` on the thread (started on first use); one at a time: the
  /// previous one must have been waited for.
  void start(std::function<void()> work);
  /// Waits for the work started last; rethrows what it threw.
  void wait();

 private:
  void run();

  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::function<void()> m_work;
  bool m_busy = false;
  bool m_stop = false;
  std::exception_ptr m_error;
};

}  // namespace stint
