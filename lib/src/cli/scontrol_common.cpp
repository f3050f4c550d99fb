#include "cli/scontrol_common.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>

namespace stint::tools::scontrol_common {

int fail(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}\n", message);
  return 1;
}

int not_supported(std::string_view word) {
  return fail(fmt::format("Update of this parameter is not supported: {}\nRequest aborted", word));
}

bool is(std::string_view word, std::string_view name, std::size_t min_len) {
  // Slurm takes abbreviations of its keywords ("sh j" for "show job").
  return word.size() >= min_len && word.size() <= name.size() &&
         std::equal(word.begin(), word.end(), name.begin(),
                    [](char a, char b) { return std::tolower(a) == std::tolower(b); });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

nlohmann::json ref_json(const query::JobRef& ref) {
  if (ref.array_task == k_no_array_task) return ref.id;
  return query::job_ref_text(ref);
}

bool refused_by_stintd(const Error& e) {
  switch (e.code()) {
    case Errc::daemon_unavailable:
    case Errc::protocol:
    case Errc::io:
    case Errc::internal:
      return false;
    default:
      return true;
  }
}

int send_admin(const nlohmann::json& request, std::string_view call, rpc::AutoStart autostart) {
  nlohmann::json reply;
  try {
    reply = rpc::call(default_paths(), request, autostart);
  } catch (const Error& e) {
    if (!refused_by_stintd(e)) throw;
    return fail(fmt::format("{} error: {}", call, e.what()));
  }
  // What stintd took but cannot give on this machine (reconfigure's).
  if (const auto it = reply.find("warnings"); it != reply.end() && it->is_array()) {
    for (const auto& w : *it)
      if (w.is_string()) fmt::print(stderr, "scontrol: warning: {}\n", w.get<std::string>());
  }
  return 0;
}

}  // namespace stint::tools::scontrol_common
