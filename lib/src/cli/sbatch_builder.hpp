#pragma once
// The building of an SbatchRequest from sbatch's options, layer over layer
// (sbatch_options.cpp runs it; sbatch_apply.cpp holds what each option does).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/sbatch_options.hpp"

namespace stint::cli {

/// Where an option came from; a later layer overrides an earlier one.
enum class Layer : std::uint8_t { directive, environment, command_line };
inline constexpr std::size_t k_layers = 3;

/// The options as they accumulate, layer over layer.
struct SbatchBuilder {
  SbatchRequest request;
  const SubmitContext* context = nullptr;
  bool name_set = false;
  std::optional<std::string> chdir;
  std::optional<std::string> output;
  std::optional<std::string> error;
  std::optional<std::string> input;
  std::optional<std::string> export_spec;
  std::optional<std::string> export_file;  ///< --export-file's text, read when given
  std::optional<std::string> burst_buffer_file;
  bool ntasks_set = false;
  // Which of --mem / --mem-per-cpu / --mem-per-gpu each layer set: the
  // highest layer that set any decides, and may not set two.
  std::array<bool, k_layers> set_mem{};
  std::array<bool, k_layers> set_mem_per_cpu{};
  std::array<bool, k_layers> set_mem_per_gpu{};
  /// Each option set, with the value it was last given and by which layer
  /// (sbatch -v lists them; --hint gives way by where options came from).
  std::map<SbatchOpt, std::pair<std::string, Layer>> given;

  /// Applies one option; throws stint::Error with Slurm's message for a bad
  /// value.
  void apply(const FoundOption& o, Layer layer);
  /// After every layer: the checks and defaults of Slurm's _opt_verify that
  /// depend on several options.
  void finish();

 private:
  void apply_core(SbatchOpt id, const FoundOption& o, Layer layer);
  void apply_more(SbatchOpt id, const FoundOption& o, Layer layer);
  void finish_memory();
  void finish_nodes();
  std::string read_named_file(const std::string& path, std::string_view refusal) const;
  std::string node_file(const std::string& path, std::string_view refusal) const;
};

/// sbatch -v's lines (without "sbatch: "): the options set, as Slurm's
/// slurm_print_set_options lists them.
std::vector<std::string> defined_options(const SbatchBuilder& b);

}  // namespace stint::cli
