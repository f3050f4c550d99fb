#pragma once
// Names a cluster's scripts carry that this machine lacks (a partition, QOS,
// account, reservation or GPU type): stint.yaml's `aliases` map them to this
// machine's, and StintForeignNames=map sends the rest to the default. Pure:
// what exists comes in as the config, the accounting snapshot and a predicate.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/config.hpp>
#include <stint/model.hpp>

namespace stint::sched {

/// StintForeignNames: refuse (Slurm's default) or map.
enum class ForeignPolicy : std::uint8_t { refuse, map };
ForeignPolicy foreign_policy(const Config& c);

/// The file the aliases come from, as the user knows it ("stint.yaml").
std::string alias_source(const Config& c);

/// What replaces a name this machine lacks.
struct Substitution {
  std::string to;         ///< the name to use; "": drop the request (the default applies)
  bool by_alias = false;  ///< from `aliases`; false: StintForeignNames=map
};

/// The substitution for a missing `name` from `aliases`, else under map the
/// default (""); nullopt keeps the name (Slurm's refusal follows).
std::optional<Substitution> substitute(const std::map<std::string, std::string>& aliases,
                                       std::string_view name, ForeignPolicy policy);

/// The warning sbatch prints for a substitution ("partition gpu-long is not
/// on this machine: using gpu (aliases in stint.yaml)"); `used` says what the
/// job got instead.
std::string foreign_warning(const Config& c, std::string_view what, std::string_view name,
                            std::string_view used, const Substitution& s);

/// Rewrites the partitions, GPU type (with --gres as given) and reservations
/// of `spec` that this machine lacks, as if the user had typed this machine's
/// names; returns one warning per substitution. `reservation_exists` says
/// whether a reservation of that name exists here. Throws Errc::invalid_argument
/// for an alias to a reservation that does not exist.
std::vector<std::string> map_foreign_names(
    JobSpec& spec, const Config& c,
    const std::function<bool(std::string_view)>& reservation_exists);

/// The substitution for an account (lower-cased) that has no record here:
/// its alias, else under map the user's default ("") where `enforced`
/// (AccountingStorageEnforce=associations, which would refuse it; without it
/// Slurm takes any account name). nullopt keeps it.
std::optional<Substitution> foreign_account(const Config& c, const Accounting& data,
                                            std::string_view account, bool enforced);
/// The substitution for a QOS (lower-cased) that does not exist: its alias,
/// else under map the association's default (""). nullopt keeps it.
std::optional<Substitution> foreign_qos(const Config& c, const Accounting& data,
                                        std::string_view qos);

/// `gres` as sbatch --gres took it with GPU type `from` replaced by `to` ("":
/// any type): "gpu:v100:2" -> "gpu:a100:2" or "gpu:2".
std::string replace_gres_type(std::string_view gres, std::string_view from, std::string_view to);

}  // namespace stint::sched
