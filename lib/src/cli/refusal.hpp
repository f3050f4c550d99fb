#pragma once
// What follows Slurm's words when a submission is refused: Slurm says what
// failed ("Requested node configuration is not available"), and a line of
// stint's says what exists (the partition's nodes, the array limit), so the
// user sees what would fit without reading stint.yaml.

#include <string>
#include <string_view>
#include <vector>

#include <stint/config.hpp>
#include <stint/error.hpp>

namespace stint::cli {

/// A refusal printed as "<tool>: error: <message>", then "<tool>: <hint>"
/// for each hint (cli::run_tool prints both).
class HintedError : public Error {
 public:
  HintedError(const Error& error, std::vector<std::string> hints)
      : Error(error.code(), error.what()), m_hints(std::move(hints)) {}
  const std::vector<std::string>& hints() const { return m_hints; }

 private:
  std::vector<std::string> m_hints;
};

/// "2 nodes of 4 CPUs, 8G, 2 GPUs (a100)": the nodes grouped by their shape,
/// in their order ("; " between groups); "no nodes" when empty.
std::string nodes_shape(const std::vector<NodeDef>& nodes);

/// The hints for a refusal with `code` of a job asking for `partitions` ("" the
/// default partition, or "a,b") and `array_spec` ("" none), from `config`: the
/// shape of each partition asked for, the partitions there are, MaxArraySize.
/// `partition_word` names a partition to the user (run-create's "server type").
std::vector<std::string> refusal_hints(const Config& config, Errc code, std::string_view partitions,
                                       std::string_view array_spec,
                                       std::string_view partition_word = "partition");

/// The same from the configuration this tool reads (none when it cannot be read).
std::vector<std::string> refusal_hints(Errc code, std::string_view partitions,
                                       std::string_view array_spec,
                                       std::string_view partition_word = "partition");

/// `error` with the hints of its refusal: a HintedError when there are any.
[[noreturn]] void throw_with_hints(const Error& error, std::string_view partitions,
                                   std::string_view array_spec,
                                   std::string_view partition_word = "partition");

}  // namespace stint::cli
