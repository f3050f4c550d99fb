#include "util/path_search.hpp"

#include <cstdlib>

#include <unistd.h>

namespace stint::proc {

std::string find_in_path(std::string_view name, std::string_view path) {
  std::string_view dirs = path;
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/" + std::string(name);
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  return find_in_path(name, path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
}

}  // namespace stint::proc
