#include <stint/tools.hpp>

namespace stint {
std::string_view version() { return STINT_VERSION; }
std::string version_line() { return std::string("slurm 22.05.8 (stint ") + STINT_VERSION + ")"; }
}  // namespace stint
