#pragma once
// Time as the scheduler sees it, behind a seam so tests can fix "now".

#include <stint/model.hpp>

namespace stint {

/// Seconds since the epoch from the real clock.
Seconds wall_now();

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Seconds now() const = 0;
};

class SystemClock final : public Clock {
 public:
  Seconds now() const override { return wall_now(); }
};

class FixedClock final : public Clock {
 public:
  explicit FixedClock(Seconds t) : m_now(t) {}
  Seconds now() const override { return m_now; }
  void set(Seconds t) { m_now = t; }

 private:
  Seconds m_now;
};

}  // namespace stint
