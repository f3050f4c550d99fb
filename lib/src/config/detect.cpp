// Machine autodetection: host name, CPUs, memory, and GPUs through nvidia-smi.
// The parsing halves take text so tests can feed them /proc/meminfo and
// nvidia-smi output.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <utility>

#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "process/run.hpp"
#include "util/fs.hpp"
#include "util/path_search.hpp"
#include "util/text.hpp"

namespace stint {
namespace {

using text::trim;

std::string short_hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "localhost";
  std::string name(buf);
  return name.substr(0, name.find('.'));
}

std::uint32_t usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<std::uint32_t>(n);
  }
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<std::uint32_t>(n) : 1;
}

// Runs nvidia-smi and returns its stdout, or nullopt when it is absent, fails,
// or hangs (a wedged driver can make it hang; detection must not).
std::optional<std::string> run_nvidia_smi() {
  std::string exe = proc::find_on_path("nvidia-smi");
  if (exe.empty()) return std::nullopt;
  process::Spec spec;
  spec.argv = {exe, "--query-gpu=name", "--format=csv,noheader"};
  spec.stderr_to = process::Output::discarded;
  spec.timeout = std::chrono::seconds(15);
  try {
    process::Result r = process::run(spec);
    if (r.timed_out || r.exit_code != 0) return std::nullopt;
    return std::move(r.out);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

std::uint64_t meminfo_total_mb(std::string_view meminfo) {
  std::size_t pos = 0;
  while (pos < meminfo.size()) {
    std::size_t end = meminfo.find('\n', pos);
    std::string_view line =
        meminfo.substr(pos, end == std::string_view::npos ? meminfo.npos : end - pos);
    pos = end == std::string_view::npos ? meminfo.size() : end + 1;
    if (line.substr(0, 9) != "MemTotal:") continue;
    std::string_view rest = trim(line.substr(9));
    std::uint64_t kib = 0;
    auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
    std::string_view unit = trim(rest.substr(static_cast<std::size_t>(ptr - rest.data())));
    if (ec != std::errc() || (!unit.empty() && unit != "kB"))
      throw Error(Errc::io, fmt::format("/proc/meminfo: cannot read MemTotal \"{}\"", rest));
    return kib / 1024;
  }
  throw Error(Errc::io, "/proc/meminfo: no MemTotal");
}

std::string gpu_type_from_name(std::string_view name) {
  // Brand words carry no model; the model is the words up to the first one
  // with a digit ("RTX 4090" -> "rtx4090"), each cut at '-' ("A100-SXM4-80GB").
  static constexpr std::string_view k_brands[] = {"nvidia", "tesla", "geforce", "quadro"};
  std::string out;
  std::string first;
  std::size_t pos = 0;
  while (pos < name.size()) {
    while (pos < name.size() && std::isspace(static_cast<unsigned char>(name[pos]))) ++pos;
    std::size_t end = pos;
    while (end < name.size() && !std::isspace(static_cast<unsigned char>(name[end]))) ++end;
    std::string word;
    for (char c : name.substr(pos, end - pos)) {
      if (c == '-') break;
      if (std::isalnum(static_cast<unsigned char>(c)))
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    pos = end;
    if (word.empty() ||
        std::find(std::begin(k_brands), std::end(k_brands), word) != std::end(k_brands))
      continue;
    if (first.empty()) first = word;
    out += word;
    if (std::any_of(word.begin(), word.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return out;
  }
  return first;
}

std::pair<std::uint32_t, std::string> gpus_from_nvidia_smi(std::string_view output) {
  std::uint32_t count = 0;
  std::string type;
  bool mixed = false;
  std::size_t pos = 0;
  while (pos < output.size()) {
    std::size_t end = output.find('\n', pos);
    std::string_view line =
        trim(output.substr(pos, end == std::string_view::npos ? output.npos : end - pos));
    pos = end == std::string_view::npos ? output.size() : end + 1;
    if (line.empty()) continue;
    // With no driver or no devices nvidia-smi prints a sentence, not a name.
    if (line.find("No devices") != std::string_view::npos ||
        line.find("NVIDIA-SMI has failed") != std::string_view::npos)
      return {0, {}};
    std::string t = gpu_type_from_name(line);
    if (count == 0) {
      type = t;
    } else if (t != type) {
      mixed = true;
    }
    ++count;
  }
  return {count, mixed ? std::string() : type};
}

Machine detect_machine() {
  Machine m;
  m.hostname = short_hostname();
  m.cpus = usable_cpus();
  try {
    m.memory_mb = meminfo_total_mb(fs::read_file("/proc/meminfo"));
  } catch (const Error&) {
    long pages = ::sysconf(_SC_PHYS_PAGES);
    long page_size = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0)
      m.memory_mb = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) /
                    (1024UL * 1024);
  }
  if (auto out = run_nvidia_smi()) {
    auto [count, type] = gpus_from_nvidia_smi(*out);
    m.gpus = count;
    m.gpu_type = type;
  }
  return m;
}

}  // namespace stint
