#include <stint/tools.hpp>

namespace stint {
std::string_view version() { return STINT_VERSION; }
std::string_view slurm_release() { return "22.05.8"; }
std::string version_line() {
  return "slurm " + std::string(slurm_release()) + " (stint " + STINT_VERSION + ")";
}
}  // namespace stint
