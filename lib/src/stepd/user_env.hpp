#pragma once
// sbatch --get-user-env (and --export other than ALL, which asks for it in
// Slurm too): the task starts with the user's login environment, the
// submitted variables over it, as slurmd's env_array_user_default builds it.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stepd/launch.hpp"
#include "stepd/stepd.hpp"

namespace stint::stepd {

using Environment = std::vector<std::pair<std::string, std::string>>;

/// The command the login shell runs: markers around `env -0`'s output, so
/// that what the user's profile prints is not taken for variables.
std::string user_env_command(const std::string& env_program);

/// The variables between the markers of user_env_command's output, less
/// those Slurm discards (DISPLAY, ENVIRONMENT, HOSTNAME); nullopt when the
/// markers are not both there (the shell failed or was cut short).
std::optional<Environment> parse_user_env_output(std::string_view output);

/// `loaded` with `submitted` over it: a submitted variable replaces the
/// loaded one of that name in place, a new one is added at the end.
Environment merge_user_env(Environment loaded, const Environment& submitted);

/// Runs the user's login shell as slurmd does (as root: `su [-] <user> -c`;
/// as the job's own user, the login shell itself, `-l` for mode L) and
/// returns `launch` with the merged environment. When it cannot (not root for
/// another user, no su, a timeout, no markers) the launch comes back as it
/// was and `log` says why, as slurmd runs the job with the passed environment.
TaskLaunch with_user_environment(const TaskLaunch& launch, const LogFn& log);

}  // namespace stint::stepd
