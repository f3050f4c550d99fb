#pragma once
// The frame of the RPC protocol: a 4-byte big-endian length, then that many
// bytes of JSON text. FrameReader takes a frame's bytes as they arrive, so
// that stintd can read many connections at once without waiting on any.

#include <cstddef>
#include <string>
#include <string_view>

namespace stint::rpc {

inline constexpr std::size_t k_max_frame = std::size_t{16} * 1024 * 1024;

/// The length prefix and the payload, ready to send; throws Errc::protocol
/// past k_max_frame.
std::string encode_frame(std::string_view payload);

class FrameReader {
 public:
  explicit FrameReader(std::size_t max = k_max_frame) : m_max(max) {}

  /// Takes bytes from the peer and returns how many it used: all of them up to
  /// the end of the frame. Throws Errc::protocol as soon as the header
  /// announces more than `max`, before anything is allocated for it; the
  /// payload grows only as its bytes arrive.
  std::size_t feed(std::string_view bytes);
  bool complete() const { return m_header_got == 4 && m_payload.size() == m_length; }
  /// Whether any byte has arrived.
  bool started() const { return m_header_got > 0; }
  /// The bytes received and the bytes the header announced (for the log of a
  /// frame cut short); the announced length counts the header.
  std::size_t received() const { return m_header_got + m_payload.size(); }
  std::size_t announced() const { return m_header_got == 4 ? 4 + m_length : 4; }
  /// The payload of a complete frame.
  const std::string& payload() const { return m_payload; }

 private:
  std::size_t m_max;
  unsigned char m_header[4] = {};
  std::size_t m_header_got = 0;
  std::size_t m_length = 0;
  std::string m_payload;
};

}  // namespace stint::rpc
