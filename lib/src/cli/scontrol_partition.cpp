// scontrol's partition commands: the keys of Slurm's
// scontrol_parse_part_options (src/scontrol/update_part.c), matched in its
// order with its shortest abbreviations, and its messages. stintd keeps the
// changes as overrides of stint.yaml's partitions (config/overrides.cpp).

#include "cli/scontrol_partition.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string_view>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>

#include "cli/scontrol_common.hpp"
#include "rpc/client.hpp"

namespace stint::tools::scontrol_partition {
namespace {

/// A key of Slurm's table: its name, the fewest letters that name it, and
/// whether stint acts on it.
struct PartitionKey {
  std::string_view name;
  std::size_t min_len;
  bool honoured;
};

// Slurm's order: the first key the word abbreviates wins ("Pri" is Priority).
constexpr std::array k_keys{
    PartitionKey{"PartitionName", 2, true},
    PartitionKey{"MaxTime", 4, true},
    PartitionKey{"CpuBind", 7, false},
    PartitionKey{"DefaultTime", 8, true},
    PartitionKey{"MaxCPUsPerNode", 4, false},
    PartitionKey{"MaxNodes", 4, false},
    PartitionKey{"MinNodes", 2, false},
    PartitionKey{"Default", 7, false},
    PartitionKey{"DisableRootJobs", 1, false},
    PartitionKey{"ExclusiveUser", 1, false},
    PartitionKey{"Hidden", 1, false},
    PartitionKey{"LLN", 1, false},
    PartitionKey{"RootOnly", 3, false},
    PartitionKey{"ReqResv", 3, false},
    PartitionKey{"OverSubscribe", 5, false},
    PartitionKey{"Shared", 2, false},
    PartitionKey{"OverTimeLimit", 5, false},
    PartitionKey{"PreemptMode", 3, false},
    PartitionKey{"Priority", 3, true},
    PartitionKey{"PriorityJobFactor", 3, true},
    PartitionKey{"PriorityTier", 3, true},
    PartitionKey{"State", 2, true},
    PartitionKey{"Nodes", 1, true},
    PartitionKey{"AllowGroups", 6, false},
    PartitionKey{"AllowAccounts", 6, true},
    PartitionKey{"AllowQos", 6, true},
    PartitionKey{"DenyAccounts", 5, true},
    PartitionKey{"DenyQos", 5, true},
    PartitionKey{"AllocNodes", 6, false},
    PartitionKey{"Alternate", 3, false},
    PartitionKey{"GraceTime", 5, false},
    PartitionKey{"DefMemPerCPU", 10, false},
    PartitionKey{"DefMemPerNode", 10, false},
    PartitionKey{"MaxMemPerCPU", 10, false},
    PartitionKey{"MaxMemPerNode", 10, false},
    PartitionKey{"QoS", 3, false},
    PartitionKey{"JobDefaults", 4, false},
    PartitionKey{"TRESBillingWeights", 5, false},
};

bool abbreviates(std::string_view tag, std::string_view name, std::size_t min_len) {
  return tag.size() >= min_len && tag.size() <= name.size() &&
         std::equal(tag.begin(), tag.end(), name.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

const PartitionKey* find_key(std::string_view tag) {
  for (const PartitionKey& k : k_keys) {
    if (abbreviates(tag, k.name, k.min_len)) return &k;
  }
  return nullptr;
}

/// scontrol's error(): "scontrol: error: <message>".
int error_line(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "scontrol: error: {}\n", message);
  return 1;
}

std::string honoured_keys() {
  std::string out;
  for (const PartitionKey& k : k_keys) {
    if (!k.honoured || k.name == "PartitionName") continue;
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

/// Whether the cluster bills by TRESBillingWeights (stint.yaml's, for every
/// partition) rather than by CPUs.
bool cluster_billing_weights() {
  return !query::read_config(default_paths()).conf("TRESBillingWeights").value_or("").empty();
}

/// The words read into a request: the partition's name and Slurm's key
/// names with their values. nullopt after printing what was wrong.
struct Request {
  std::string name;
  bool named = false;
  bool unchanged = false;  ///< a key asked for what already holds
  nlohmann::json fields = nlohmann::json::object();
};

std::optional<Request> read_words(const std::vector<std::string>& args) {
  Request r;
  for (const std::string& word : args) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) {
      error_line(fmt::format("Invalid input: {}  Request aborted", word));
      return std::nullopt;
    }
    const std::string tag = word.substr(0, eq);
    const std::string value = word.substr(eq + 1);
    const PartitionKey* key = find_key(tag);
    if (!key) {
      // update_part.c's error() ends its message with a newline of its own.
      error_line(fmt::format("Update of this parameter is not supported: {}\n", word));
      error_line("Request aborted");
      return std::nullopt;
    }
    if (key->name == "TRESBillingWeights" && value.empty() && !cluster_billing_weights()) {
      // Clearing weights the partition does not have: it bills by CPUs,
      // which is what it does already.
      r.unchanged = true;
      continue;
    }
    if (key->name == "TRESBillingWeights") {
      error_line(
          "TRESBillingWeights is not supported here for one partition: billing follows the "
          "cluster's TRESBillingWeights for every partition; set it in stint.yaml and run "
          "scontrol reconfigure");
      return std::nullopt;
    }
    if (!key->honoured) {
      error_line(fmt::format(
          "{} is not supported here: a partition takes {}; declare the rest in stint.yaml",
          key->name, honoured_keys()));
      return std::nullopt;
    }
    if (key->name == "PartitionName") {
      r.name = value;
      r.named = true;
      continue;
    }
    if (key->name == "MaxTime" || key->name == "DefaultTime") {
      // time_str2mins: what -t takes, -1, UNLIMITED and INFINITE.
      try {
        parse::time_limit(value);
      } catch (const Error&) {
        error_line(fmt::format("Invalid input {}", word));
        return std::nullopt;
      }
    }
    r.fields[std::string(key->name)] = value;
  }
  return r;
}

}  // namespace

int update(const std::vector<std::string>& args) {
  std::optional<Request> r = read_words(args);
  // _update_it reports the failed parse as a failed update, errno unset.
  if (!r) return scontrol_common::fail("slurm_update error: No error");
  if (r->fields.empty() && r->unchanged) return 0;
  if (r->fields.empty()) return error_line("No changes specified");
  try {
    rpc::call(default_paths(),
              {{"op", "update_partition"}, {"partition", r->name}, {"fields", r->fields}});
  } catch (const Error& e) {
    if (!scontrol_common::refused_by_stintd(e)) throw;
    return scontrol_common::fail(fmt::format("slurm_update error: {}", e.what()));
  }
  return 0;
}

int create(const std::vector<std::string>& args) {
  std::optional<Request> r = read_words(args);
  if (!r) return 1;
  if (!r->named) return error_line("PartitionName must be given.");
  std::string lowered = r->name;
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (lowered == "default") return error_line("PartitionName cannot be \"DEFAULT\".");
  try {
    rpc::call(default_paths(),
              {{"op", "create_partition"}, {"partition", r->name}, {"fields", r->fields}});
  } catch (const Error& e) {
    if (!scontrol_common::refused_by_stintd(e)) throw;
    return scontrol_common::fail(fmt::format("Error creating the partition: {}", e.what()));
  }
  return 0;
}

int remove(const std::string& word, const std::string& value) {
  try {
    rpc::call(default_paths(), {{"op", "delete_partition"}, {"partition", value}});
  } catch (const Error& e) {
    if (!scontrol_common::refused_by_stintd(e)) throw;
    return scontrol_common::fail(fmt::format("delete_partition {}: {}", word, e.what()));
  }
  return 0;
}

}  // namespace stint::tools::scontrol_partition
