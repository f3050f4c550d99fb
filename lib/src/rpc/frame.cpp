#include "rpc/frame.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint::rpc {

std::string encode_frame(std::string_view payload) {
  if (payload.size() > k_max_frame) throw Error(Errc::protocol, "request too large");
  const auto n = static_cast<std::uint32_t>(payload.size());
  std::string frame = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                       static_cast<char>(n >> 8), static_cast<char>(n)};
  frame += payload;
  return frame;
}

std::size_t FrameReader::feed(std::string_view bytes) {
  std::size_t used = 0;
  while (m_header_got < 4 && used < bytes.size())
    m_header[m_header_got++] = static_cast<unsigned char>(bytes[used++]);
  if (m_header_got < 4) return used;
  if (m_length == 0 && m_payload.empty()) {
    m_length = (std::size_t{m_header[0]} << 24) | (std::size_t{m_header[1]} << 16) |
               (std::size_t{m_header[2]} << 8) | std::size_t{m_header[3]};
    if (m_length > m_max)
      throw Error(Errc::protocol, fmt::format("frame of {} bytes is too large", m_length));
  }
  const std::size_t take = std::min(bytes.size() - used, m_length - m_payload.size());
  m_payload.append(bytes.substr(used, take));
  return used + take;
}

}  // namespace stint::rpc
