#pragma once
// Where a job may run among its partition's nodes, and what it holds besides
// them: -w/--nodelist (and --nodefile), -x/--exclude, -C/--constraint and
// --prefer against the features each node pool declares, --mincpus, --tmp,
// the node shape (-B, --sockets-per-node, --cores-per-socket,
// --threads-per-core) and -L/--licenses against the config's Licenses=.
// Pure: the submit handler checks a job with it, the pass places with it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

namespace stint::sched {

/// The nodes of a partition (in its order) a job may use.
struct NodeChoice {
  /// One mask per choice a matching OR (`[a|b]`) leaves; one mask otherwise.
  /// All of a job's nodes come from one mask.
  std::vector<std::vector<bool>> masks;
  /// --prefer: the nodes it would rather have; empty when it names none.
  std::vector<bool> preferred;
  /// -w/--nodelist: the nodes it must have (all of them); empty when none.
  std::vector<bool> required;
  std::uint32_t required_count = 0;
  bool contiguous = false;  ///< --contiguous: adjacent nodes in config order

  /// Whether any mask allows at least one node.
  bool any() const;
};

/// Whether a spec's options narrow its nodes at all. Most jobs' do not, and
/// the pass then uses the partition's nodes as they are.
bool narrows_nodes(const JobSpec& spec);

/// The nodes of `partition_nodes` the job may use. Assumes the spec passed
/// check_placement.
NodeChoice choose_nodes(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes);

/// Submit-time checks, with Slurm's refusals: a -w/-x name no node has
/// (Errc::invalid_node_name), a feature no node declares or an expression
/// that does not parse (Errc::invalid_feature), licenses the config does not
/// have (Errc::invalid_license), and no node of the partition left
/// (Errc::node_config_unavailable, with what narrowed it as the detail).
void check_placement(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes,
                     const Config& config);

/// A job's request on `partition`, checked as a submission is: make_request
/// with the partition's rules (apply_partition), check_placement, and
/// never_fits on the nodes its options leave. Throws the refusal.
ResourceRequest checked_request(const JobSpec& spec, const PartitionConfig& partition,
                                const Config& config);

/// Licenses by name: the config's Licenses= ("a:2,b" is a:2 and b:1), or a
/// job's -L ("a:1,b"). Throws Errc::invalid_license when it does not parse.
std::map<std::string, std::uint32_t> parse_licenses(std::string_view text);

/// Counts the licenses held by running jobs and those a pass starts.
class LicensePool {
 public:
  explicit LicensePool(const Config& config);
  /// Whether the job's licenses are free now.
  bool available(const Job& job) const;
  void take(const Job& job);
  bool empty() const { return m_total.empty(); }

 private:
  std::map<std::string, std::uint32_t> m_total;
  std::map<std::string, std::uint32_t> m_used;
};

}  // namespace stint::sched
