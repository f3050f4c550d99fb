// Signals by name or number (scancel -s, sbatch --signal), and --signal's spec.

#include <array>
#include <optional>
#include <string_view>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

struct SignalName {
  std::string_view name;
  int number;
};

// Slurm's sig_name_num table (src/common/proc_args.c), with Linux numbers.
// The one table of signal names in stint: scancel and sbatch both read it.
constexpr std::array k_signals = {
    SignalName{"HUP", 1},   SignalName{"INT", 2},   SignalName{"QUIT", 3},  SignalName{"ABRT", 6},
    SignalName{"KILL", 9},  SignalName{"ALRM", 14}, SignalName{"TERM", 15}, SignalName{"USR1", 10},
    SignalName{"USR2", 12}, SignalName{"URG", 23},  SignalName{"CONT", 18}, SignalName{"STOP", 19},
    SignalName{"TSTP", 20}, SignalName{"TTIN", 21}, SignalName{"TTOU", 22}, SignalName{"XCPU", 24},
};
// SIGRTMAX on Linux. Slurm takes numbers up to 65535 and leaves kill(2) to
// refuse them when the time comes; stint refuses them when they are given.
constexpr int k_max_signal = 64;
// --signal's time is a uint16_t in Slurm.
constexpr Seconds k_max_signal_time = 65535;
constexpr Seconds k_default_signal_time = 60;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

[[noreturn]] void invalid_signal_spec() {
  throw Error(Errc::invalid_argument, "Invalid --signal specification");
}

}  // namespace

std::optional<int> signal_number(std::string_view text) {
  // Like Slurm's sig_name2num, blanks around the name or number do not count.
  const std::string_view s = trim(text);
  if (s.empty()) return std::nullopt;
  if (detail::is_digit(s.front())) {
    const auto n = detail::parse_digits(s, k_max_signal);
    if (!n || *n == 0) return std::nullopt;
    return static_cast<int>(*n);
  }
  std::string_view name = s;
  if (name.size() > 3 && detail::istarts_with(name, "SIG")) name.remove_prefix(3);
  for (const auto& sig : k_signals) {
    if (detail::iequals(name, sig.name)) return sig.number;
  }
  return std::nullopt;
}

SignalSpec signal_spec(std::string_view text) {
  SignalSpec spec;
  std::string_view rest = text;
  // Slurm's get_signal_opts: "R:", "B:", and both in either order. R (send
  // the signal before a reservation ends too) has no meaning without
  // reservations and is accepted and ignored.
  if (detail::istarts_with(rest, "RB:") || detail::istarts_with(rest, "BR:")) {
    spec.batch_only = true;
    rest.remove_prefix(3);
  } else if (detail::istarts_with(rest, "B:")) {
    spec.batch_only = true;
    rest.remove_prefix(2);
  } else if (detail::istarts_with(rest, "R:")) {
    rest.remove_prefix(2);
  }

  const std::size_t at = rest.find('@');
  const std::optional<int> number = signal_number(rest.substr(0, at));
  if (!number) invalid_signal_spec();
  spec.signal = *number;
  spec.before = k_default_signal_time;
  if (at != std::string_view::npos) {
    const auto seconds = detail::parse_digits(rest.substr(at + 1), k_max_signal_time);
    if (!seconds) invalid_signal_spec();
    spec.before = static_cast<Seconds>(*seconds);
  }
  return spec;
}

}  // namespace stint::parse
