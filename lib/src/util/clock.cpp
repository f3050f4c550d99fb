#include "util/clock.hpp"

#include <ctime>

namespace stint {
Seconds wall_now() { return static_cast<Seconds>(std::time(nullptr)); }
}  // namespace stint
