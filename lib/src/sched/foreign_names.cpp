#include "sched/foreign_names.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

namespace stint::sched {
namespace {

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = std::min(s.find(',', start), s.size());
    out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void add_once(std::vector<std::string>& list, std::string name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(std::move(name));
}

bool has_gpu_type(const Config& c, std::string_view type) {
  return std::any_of(c.node_pools.begin(), c.node_pools.end(),
                     [&](const NodePool& p) { return p.gpus > 0 && p.gpu_type == type; });
}

void map_partitions(JobSpec& spec, const Config& c, ForeignPolicy policy,
                    std::vector<std::string>& warnings) {
  if (!spec.partition || spec.partition->empty()) return;
  std::vector<std::string> names;
  bool changed = false;
  for (std::string& name : split_commas(*spec.partition)) {
    std::optional<Substitution> s;
    if (!name.empty() && !c.find_partition(name))
      s = substitute(c.aliases.partitions, name, policy);
    if (!s) {
      add_once(names, std::move(name));
      continue;
    }
    const PartitionConfig* fallback = c.default_partition();
    const std::string used = !s->to.empty() ? s->to : fallback ? fallback->id : std::string();
    warnings.push_back(
        foreign_warning(c, "partition", name,
                        s->to.empty() ? fmt::format("the default partition {}", used) : used, *s));
    add_once(names, used);
    changed = true;
  }
  if (changed) spec.partition = fmt::format("{}", fmt::join(names, ","));
}

void map_gpu_type(JobSpec& spec, const Config& c, ForeignPolicy policy,
                  std::vector<std::string>& warnings) {
  if (spec.gpu_type.empty() || has_gpu_type(c, spec.gpu_type)) return;
  const auto s = substitute(c.aliases.gpu_types, spec.gpu_type, policy);
  if (!s) return;
  warnings.push_back(
      foreign_warning(c, "GPU type", spec.gpu_type, s->to.empty() ? "any GPU type" : s->to, *s));
  if (!spec.options().gres.empty())
    spec.options_to_set().gres = replace_gres_type(spec.options().gres, spec.gpu_type, s->to);
  spec.gpu_type = s->to;
}

void map_reservations(JobSpec& spec, const Config& c, ForeignPolicy policy,
                      const std::function<bool(std::string_view)>& exists,
                      std::vector<std::string>& warnings) {
  const std::string& given = spec.options().reservation;
  if (given.empty()) return;
  std::vector<std::string> names;
  bool changed = false;
  for (std::string& name : split_commas(given)) {
    std::optional<Substitution> s;
    if (!name.empty() && !exists(name)) s = substitute(c.aliases.reservations, name, policy);
    if (!s) {
      add_once(names, std::move(name));
      continue;
    }
    if (!s->to.empty() && !exists(s->to))
      throw Error(Errc::reservation_invalid,
                  fmt::format("aliases in {} map reservation {} to {}, which does not exist",
                              alias_source(c), name, s->to));
    warnings.push_back(foreign_warning(c, "reservation", name, s->to.empty() ? "none" : s->to, *s));
    if (!s->to.empty()) add_once(names, s->to);
    changed = true;
  }
  if (changed) spec.options_to_set().reservation = fmt::format("{}", fmt::join(names, ","));
}

}  // namespace

std::string alias_source(const Config& c) {
  const std::string& path = c.source_path;
  const std::size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.empty() ? std::string("stint.yaml") : base;
}

ForeignPolicy foreign_policy(const Config& c) {
  std::string v = c.conf("StintForeignNames").value_or("refuse");
  std::transform(v.begin(), v.end(), v.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return v == "map" ? ForeignPolicy::map : ForeignPolicy::refuse;
}

std::optional<Substitution> substitute(const std::map<std::string, std::string>& aliases,
                                       std::string_view name, ForeignPolicy policy) {
  if (auto it = aliases.find(std::string(name)); it != aliases.end())
    return Substitution{it->second, true};
  if (policy == ForeignPolicy::map) return Substitution{"", false};
  return std::nullopt;
}

std::string foreign_warning(const Config& c, std::string_view what, std::string_view name,
                            std::string_view used, const Substitution& s) {
  return fmt::format("{} {} is not on this machine: using {} ({})", what, name, used,
                     s.by_alias ? fmt::format("aliases in {}", alias_source(c))
                                : std::string("StintForeignNames=map"));
}

// -w and -x name a cluster's nodes: with StintForeignNames=map the names this
// machine lacks are left out (a list left empty asks for nothing), so the
// script runs where it may here.
void map_node_names(JobSpec& spec, const Config& c, ForeignPolicy policy,
                    std::vector<std::string>& warnings) {
  if (policy != ForeignPolicy::map || !spec.more) return;
  const std::vector<NodeDef> nodes = c.nodes();
  auto known = [&](const std::string& name) {
    return std::any_of(nodes.begin(), nodes.end(), [&](const NodeDef& n) { return n.name == name; });
  };
  for (auto [field, option] : {std::pair{&JobOptions::nodelist, "--nodelist"},
                               std::pair{&JobOptions::exclude, "--exclude"}}) {
    const std::string given = spec.options().*field;
    if (given.empty()) continue;
    std::vector<std::string> names;
    try {
      names = parse::expand_hostlist(given);
    } catch (const Error&) {
      continue;  // refused as it is, with Slurm's words
    }
    std::vector<std::string> kept, dropped;
    for (std::string& n : names) (known(n) ? kept : dropped).push_back(std::move(n));
    if (dropped.empty()) continue;
    warnings.push_back(fmt::format("{} {} not on this machine: left out of {} (StintForeignNames=map)",
                                   dropped.size() == 1 ? "node" : "nodes",
                                   parse::compress_hostlist(dropped) +
                                       (dropped.size() == 1 ? " is" : " are"),
                                   option));
    spec.options_to_set().*field = kept.empty() ? std::string() : parse::compress_hostlist(kept);
  }
}

std::vector<std::string> map_foreign_names(
    JobSpec& spec, const Config& c,
    const std::function<bool(std::string_view)>& reservation_exists) {
  const ForeignPolicy policy = foreign_policy(c);
  std::vector<std::string> warnings;
  if (policy == ForeignPolicy::refuse && c.aliases.empty()) return warnings;
  map_partitions(spec, c, policy, warnings);
  map_gpu_type(spec, c, policy, warnings);
  map_reservations(spec, c, policy, reservation_exists, warnings);
  map_node_names(spec, c, policy, warnings);
  return warnings;
}

std::optional<Substitution> foreign_account(const Config& c, const Accounting& data,
                                            std::string_view account, bool enforced) {
  if (account.empty() || data.find_account(account)) return std::nullopt;
  const ForeignPolicy policy = enforced ? foreign_policy(c) : ForeignPolicy::refuse;
  return substitute(c.aliases.accounts, account, policy);
}

std::optional<Substitution> foreign_qos(const Config& c, const Accounting& data,
                                        std::string_view qos) {
  if (qos.empty() || data.find_qos(qos)) return std::nullopt;
  return substitute(c.aliases.qos, qos, foreign_policy(c));
}

std::string replace_gres_type(std::string_view gres, std::string_view from, std::string_view to) {
  std::vector<std::string> out;
  for (std::string& item : split_commas(gres)) {
    // gpu:TYPE or gpu:TYPE:N (a count alone has no type to replace).
    const std::string prefix = fmt::format("gpu:{}", from);
    if (item.rfind(prefix, 0) == 0 &&
        (item.size() == prefix.size() || item[prefix.size()] == ':')) {
      std::string rest = item.substr(prefix.size());
      item = to.empty() ? (rest.empty() ? std::string("gpu") : "gpu" + rest)
                        : fmt::format("gpu:{}{}", to, rest);
    }
    out.push_back(std::move(item));
  }
  return fmt::format("{}", fmt::join(out, ","));
}

}  // namespace stint::sched
