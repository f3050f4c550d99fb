#pragma once
// The stint::Error a call throws, so a test can check its code and message.

#include <functional>
#include <optional>

#include <stint/error.hpp>

namespace stint::test {

/// The error `f` throws, or nullopt when it returns (or throws something else,
/// which Catch reports on its own).
inline std::optional<Error> error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace stint::test
