// sacctmgr's command language: verbs, entities, names, where and set, and
// the request a write command sends to stintd.

#include <algorithm>
#include <cctype>
#include <span>

#include <fmt/core.h>

#include "cli/sacctmgr.hpp"

namespace stint::cli {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Slurm's abbreviation rule: at least `min` letters of `full`, any case.
bool abbrev(std::string_view word, std::string_view full, std::size_t min) {
  const std::string w = lower(word);
  return w.size() >= std::min(min, full.size()) && w.size() <= full.size() &&
         lower(full).compare(0, w.size(), w) == 0;
}

struct EntityWord {
  std::string_view word;
  std::size_t min;
  SacctmgrEntity entity;
};

constexpr EntityWord k_list_entities[] = {
    {"accounts", 2, SacctmgrEntity::account},
    {"acct", 4, SacctmgrEntity::account},
    {"associations", 2, SacctmgrEntity::association},
    {"clusters", 2, SacctmgrEntity::cluster},
    {"configuration", 2, SacctmgrEntity::config},
    {"qos", 1, SacctmgrEntity::qos},
    {"stats", 1, SacctmgrEntity::stats},
    {"users", 1, SacctmgrEntity::user},
    {"tres", 4, SacctmgrEntity::tres},
};
constexpr EntityWord k_clear_entities[] = {{"stats", 1, SacctmgrEntity::stats}};
constexpr EntityWord k_write_entities[] = {
    {"accounts", 1, SacctmgrEntity::account}, {"acct", 4, SacctmgrEntity::account},
    {"clusters", 2, SacctmgrEntity::cluster}, {"qos", 1, SacctmgrEntity::qos},
    {"users", 1, SacctmgrEntity::user},
};

constexpr std::string_view k_list_help =
    "No valid entity in list command\n"
    "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
    "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
    "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"";
constexpr std::string_view k_clear_help =
    "No valid entity in list command\n"
    "Input line must include \"Stats\"";
constexpr std::string_view k_add_help =
    "No valid entity in add command\n"
    "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\", "
    "\"QOS\", \"Resource\", or \"User\"";
constexpr std::string_view k_modify_help =
    "No valid entity in modify command\n"
    "Input line must include \"Account\", \"Cluster\", \"Federation\", \"Job\", \"QOS\", "
    "\"Resource\", or \"User\"";
constexpr std::string_view k_delete_help =
    "No valid entity in delete command\n"
    "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\", "
    "\"QOS\", \"Resource\", \"Reservation\", or \"User\"";

std::optional<SacctmgrEntity> entity_of(std::string_view word, std::span<const EntityWord> table) {
  for (const auto& e : table) {
    if (abbrev(word, e.word, e.min)) return e.entity;
  }
  return std::nullopt;
}

// Keys that name the entity itself in where clauses ("where name=alice").
bool names_entity(std::string_view key, SacctmgrEntity entity) {
  const std::string k = lower(key);
  if (k == "name" || k == "names") return true;
  switch (entity) {
    case SacctmgrEntity::user:
      return k == "user" || k == "users";
    case SacctmgrEntity::account:
      return k == "account" || k == "accounts";
    case SacctmgrEntity::qos:
      return k == "qos";
    case SacctmgrEntity::cluster:
      return k == "cluster" || k == "clusters";
    default:
      return false;
  }
}

// Keys that name what an add command adds, with Slurm's abbreviations:
// Names= or Users= for a user (user_functions.c), Names=, Accounts= or Acct=
// for an account (account_functions.c), Name= for a QOS (qos_functions.c).
bool names_added(std::string_view key, SacctmgrEntity entity) {
  if (abbrev(key, "names", 1)) return true;
  switch (entity) {
    case SacctmgrEntity::user:
      return abbrev(key, "users", 1);
    case SacctmgrEntity::account:
      return abbrev(key, "accounts", 1) || abbrev(key, "acct", 4);
    default:
      return false;
  }
}

void add_names(std::vector<std::string>& names, std::string_view text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) names.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// Listing keywords that are not Key=value.
bool show_keyword(SacctmgrCommand& cmd, const std::string& w) {
  if (abbrev(w, "withassoc", 5)) {
    cmd.with_assoc = true;
  } else if (w == "tree") {
    cmd.tree = true;
  } else if (w == "woplimits" || w == "wopinfo" || w == "wolimits") {
    cmd.without_parent_limits = true;
  } else if (abbrev(w, "withdeleted", 5) || abbrev(w, "withcoordinators", 6) ||
             abbrev(w, "withsubaccounts", 6) || w == "onlydefaults" || w == "withrawqoslevel") {
    // Accepted for scripts: stint keeps no deleted records or coordinators.
  } else {
    return false;
  }
  return true;
}

}  // namespace

SacctmgrCommand parse_sacctmgr(const std::vector<std::string>& words) {
  if (words.empty()) throw SacctmgrError("No command given (try sacctmgr --help)");
  SacctmgrCommand cmd;
  const std::string& verb = words[0];
  std::string_view help;
  if (abbrev(verb, "add", 3) || abbrev(verb, "create", 3)) {
    cmd.verb = SacctmgrVerb::add;
    help = k_add_help;
  } else if (abbrev(verb, "delete", 3) || abbrev(verb, "remove", 3)) {
    cmd.verb = SacctmgrVerb::remove;
    help = k_delete_help;
  } else if (abbrev(verb, "list", 3) || abbrev(verb, "show", 3)) {
    cmd.verb = SacctmgrVerb::show;
    help = k_list_help;
  } else if (abbrev(verb, "modify", 1) || abbrev(verb, "update", 1)) {
    cmd.verb = SacctmgrVerb::modify;
    help = k_modify_help;
  } else if (abbrev(verb, "clear", 3)) {
    cmd.verb = SacctmgrVerb::clear;
    help = k_clear_help;
  } else {
    throw SacctmgrError(fmt::format("invalid keyword: {}", verb));
  }
  if (words.size() < 2) throw SacctmgrError(std::string(help));
  auto entity = cmd.verb == SacctmgrVerb::show    ? entity_of(words[1], k_list_entities)
                : cmd.verb == SacctmgrVerb::clear ? entity_of(words[1], k_clear_entities)
                                                  : entity_of(words[1], k_write_entities);
  if (!entity) throw SacctmgrError(std::string(help));
  cmd.entity = *entity;
  if (cmd.entity == SacctmgrEntity::config || cmd.entity == SacctmgrEntity::stats) {
    // "show stats ave_time|total_time" picks the order; nothing else follows
    // these (Slurm would ignore it).
    for (std::size_t i = 2; i < words.size(); ++i) {
      const bool order = cmd.entity == SacctmgrEntity::stats && cmd.verb == SacctmgrVerb::show &&
                         i == 2 &&
                         (abbrev(words[i], "ave_time", 2) || abbrev(words[i], "total_time", 2));
      if (!order)
        throw SacctmgrError(
            fmt::format(" Unknown option: {}{}", words[i],
                        cmd.entity == SacctmgrEntity::stats && cmd.verb == SacctmgrVerb::show
                            ? " (show stats takes ave_time or total_time)"
                            : ""));
      cmd.names.push_back(lower(words[i]));
    }
    return cmd;
  }

  enum class Part { conditions, where, set } part = Part::conditions;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string& w = words[i];
    const std::string lw = lower(w);
    if (lw == "where" && cmd.verb != SacctmgrVerb::add) {
      part = Part::where;
      continue;
    }
    if (lw == "set" && cmd.verb == SacctmgrVerb::modify) {
      part = Part::set;
      continue;
    }
    if (cmd.verb == SacctmgrVerb::show && show_keyword(cmd, lw)) continue;
    std::optional<sched::Setting> s = sched::split_setting(w);
    if (!s) {
      if (part == Part::set || w.find('=') != std::string::npos)
        throw SacctmgrError(fmt::format(" Unknown option: {}", w));
      add_names(cmd.names, w);
      continue;
    }
    if (cmd.verb == SacctmgrVerb::show && lower(s->key) == "format") {
      add_names(cmd.format, s->value);
      continue;
    }
    if (cmd.verb == SacctmgrVerb::add) {
      if (names_added(s->key, cmd.entity) && s->op == "=") {
        add_names(cmd.names, s->value);
      } else {
        cmd.settings.push_back(std::move(*s));
      }
    } else if (part == Part::set) {
      cmd.settings.push_back(std::move(*s));
    } else if (names_entity(s->key, cmd.entity) && s->op == "=") {
      add_names(cmd.names, s->value);
    } else {
      if (s->op != "=") throw SacctmgrError(fmt::format(" Unknown option: {}", w));
      cmd.where.push_back(std::move(*s));
    }
  }
  if (cmd.verb == SacctmgrVerb::modify && cmd.settings.empty())
    throw SacctmgrError(" You didn't give me anything to set");
  if (cmd.verb == SacctmgrVerb::add && cmd.names.empty() && cmd.entity != SacctmgrEntity::cluster)
    throw SacctmgrError(
        fmt::format(" Need name of {} to add.", cmd.entity == SacctmgrEntity::user      ? "user"
                                                : cmd.entity == SacctmgrEntity::account ? "account"
                                                                                        : "QOS"));
  return cmd;
}

nlohmann::json sacctmgr_request(const SacctmgrCommand& cmd, bool commit) {
  using Json = nlohmann::json;
  auto settings = [](const std::vector<sched::Setting>& v) {
    Json out = Json::array();
    for (const auto& s : v) out.push_back({{"key", s.key}, {"op", s.op}, {"value", s.value}});
    return out;
  };
  Json req;
  req["op"] = cmd.verb == SacctmgrVerb::add      ? "acct_add"
              : cmd.verb == SacctmgrVerb::modify ? "acct_modify"
                                                 : "acct_delete";
  switch (cmd.entity) {
    case SacctmgrEntity::user:
      req["entity"] = "user";
      break;
    case SacctmgrEntity::qos:
      req["entity"] = "qos";
      break;
    default:
      req["entity"] = "account";
      break;
  }
  if (cmd.entity == SacctmgrEntity::cluster) {
    // The cluster's own limits and shares are its root association's.
    req["names"] = Json::array({"root"});
    req["where"] = Json::array();
  } else {
    req["names"] = cmd.names;
    req["where"] = settings(cmd.where);
  }
  req["settings"] = settings(cmd.settings);
  req["commit"] = commit;
  return req;
}

Accounting default_accounting() {
  Accounting d;
  d.accounts = {{"root", "default root account", "root", ""}};
  d.users = {{"root", "root", AdminLevel::admin}};
  Association root;
  root.id = 1;
  root.account = "root";
  root.qos = {"normal"};
  Association root_user;
  root_user.id = 2;
  root_user.account = "root";
  root_user.user = "root";
  d.associations = {root, root_user};
  Qos normal;
  normal.id = 1;
  normal.name = "normal";
  normal.description = "Normal QOS default";
  d.qos = {normal};
  return d;
}

}  // namespace stint::cli
