#pragma once
// Slurm 22.05's --help and --usage texts for the tools built on CLI11
// (cli/slurm_help.cpp); cli::parse_args prints them.

#include <optional>
#include <string_view>

namespace stint::cli {

/// What `tool --help` prints in Slurm 22.05; nullopt for a tool of stint's own.
std::optional<std::string_view> slurm_help_text(std::string_view tool);
/// What `tool --usage` prints in Slurm 22.05, where that is a short usage.
std::optional<std::string_view> slurm_usage_text(std::string_view tool);

}  // namespace stint::cli
