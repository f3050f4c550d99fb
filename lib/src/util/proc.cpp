#include "util/proc.hpp"

#include <fstream>
#include <sstream>
#include <vector>

#include <pwd.h>
#include <unistd.h>

namespace stint::proc {
namespace {

// The fields after the command name, which may itself hold spaces and ')'.
std::optional<std::vector<std::string>> stat_fields(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::vector<std::string> fields;
  std::string f;
  while (rest >> f) fields.push_back(f);
  return fields;
}

}  // namespace

std::optional<std::uint64_t> start_ticks(std::int64_t pid) {
  auto fields = stat_fields(pid);
  // fields[0] is field 3 (state); field 22 is fields[19].
  if (!fields || fields->size() < 20) return std::nullopt;
  try {
    return std::stoull((*fields)[19]);
  } catch (...) {
    return std::nullopt;
  }
}

bool alive(std::int64_t pid, std::uint64_t ticks) {
  if (pid <= 0) return false;
  auto fields = stat_fields(pid);
  if (!fields || fields->size() < 20) return false;
  if ((*fields)[0] == "Z" || (*fields)[0] == "X") return false;
  try {
    return std::stoull((*fields)[19]) == ticks;
  } catch (...) {
    return false;
  }
}

std::string user_name(std::uint32_t uid) {
  passwd pw{};
  passwd* result = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &result) == 0 && result)
    return result->pw_name;
  return std::to_string(uid);
}

std::string short_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string name(buf);
  auto dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace stint::proc
