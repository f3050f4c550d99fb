#include "cli/refusal.hpp"

#include <fmt/core.h>

#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>

#include "cli/read_common.hpp"
#include "cli/sbatch_options.hpp"

namespace stint::cli {
namespace {

bool same_shape(const NodeDef& a, const NodeDef& b) {
  return a.cpus == b.cpus && a.memory_mb == b.memory_mb && a.gpus == b.gpus &&
         a.gpu_type == b.gpu_type;
}

std::string one_shape(std::size_t count, const NodeDef& n) {
  std::string text = fmt::format("{} node{} of {} CPU{}, {}", count, count == 1 ? "" : "s", n.cpus,
                                 n.cpus == 1 ? "" : "s", parse::format_memory_mb(n.memory_mb));
  if (n.gpus == 0) return text + ", no GPUs";
  text += fmt::format(", {} GPU{}", n.gpus, n.gpus == 1 ? "" : "s");
  if (!n.gpu_type.empty()) text += fmt::format(" ({})", n.gpu_type);
  return text;
}

// The partitions a job asked for: its list, else the default one.
std::vector<const PartitionConfig*> asked_partitions(const Config& config,
                                                     std::string_view partitions) {
  std::vector<const PartitionConfig*> out;
  if (partitions.empty()) {
    if (const PartitionConfig* p = config.default_partition()) out.push_back(p);
    return out;
  }
  for (const std::string& name : split_list(partitions)) {
    if (const PartitionConfig* p = config.find_partition(name)) out.push_back(p);
  }
  return out;
}

}  // namespace

std::string nodes_shape(const std::vector<NodeDef>& nodes) {
  if (nodes.empty()) return "no nodes";
  std::string text;
  std::size_t first = 0;
  for (std::size_t i = 1; i <= nodes.size(); ++i) {
    if (i < nodes.size() && same_shape(nodes[i], nodes[first])) continue;
    if (!text.empty()) text += "; ";
    text += one_shape(i - first, nodes[first]);
    first = i;
  }
  return text;
}

std::vector<std::string> refusal_hints(const Config& config, Errc code, std::string_view partitions,
                                       std::string_view array_spec,
                                       std::string_view partition_word) {
  std::vector<std::string> hints;
  switch (code) {
    case Errc::invalid_partition: {
      std::string names;
      for (const PartitionConfig& p : config.partitions)
        names += (names.empty() ? "" : ", ") + p.id;
      if (!names.empty()) hints.push_back(fmt::format("{}s: {}", partition_word, names));
      break;
    }
    case Errc::node_config_unavailable:
    case Errc::invalid_node_count:
    case Errc::invalid_gres:
      for (const PartitionConfig* p : asked_partitions(config, partitions))
        hints.push_back(fmt::format("{} {}: {}", partition_word, p->id,
                                    nodes_shape(config.partition_nodes(*p))));
      break;
    case Errc::invalid_array:
      // Only when the cluster's limit is what refused it (the text itself is
      // good up to Slurm's ceiling).
      if (!array_spec.empty()) {
        const std::uint32_t limit = config.max_array_size();
        const auto parses = [&](std::uint32_t max) {
          try {
            (void)parse::array_spec(array_spec, max);
            return true;
          } catch (const Error&) {
            return false;
          }
        };
        if (!parses(limit) && parses(k_sbatch_max_array_size))
          hints.push_back(
              fmt::format("MaxArraySize is {}: task ids go from 0 to {} (stint.yaml's "
                          "config: MaxArraySize)",
                          limit, limit == 0 ? 0 : limit - 1));
      }
      break;
    default:
      break;
  }
  return hints;
}

std::vector<std::string> refusal_hints(Errc code, std::string_view partitions,
                                       std::string_view array_spec,
                                       std::string_view partition_word) {
  try {
    return refusal_hints(query::read_config(default_paths()), code, partitions, array_spec,
                         partition_word);
  } catch (const Error&) {
    return {};  // the refusal stands on its own
  }
}

void throw_with_hints(const Error& error, std::string_view partitions, std::string_view array_spec,
                      std::string_view partition_word) {
  std::vector<std::string> hints =
      refusal_hints(error.code(), partitions, array_spec, partition_word);
  if (hints.empty()) throw error;
  throw HintedError(error, std::move(hints));
}

}  // namespace stint::cli
