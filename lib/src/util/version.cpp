#include <stint/tools.hpp>

namespace stint {
std::string_view version() { return STINT_VERSION; }
}  // namespace stint
