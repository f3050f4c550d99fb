// sacctmgr show|list: the columns format= picks from the tables of
// sacctmgr_columns.cpp, and the rows each entity lists, in Slurm's order.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sacctmgr.hpp"
#include "cli/sacctmgr_columns.hpp"

namespace stint::cli {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A column as format= names it, with an optional "%width" (negative: left).
struct Chosen {
  const Column* column;
  int width;  ///< > 0 right-aligned, < 0 left-aligned
};

std::vector<Chosen> choose(const std::vector<std::string>& fields,
                           const std::vector<const std::vector<Column>*>& tables) {
  std::vector<Chosen> out;
  for (const auto& field : fields) {
    std::string name = field;
    std::optional<int> width;
    if (auto pct = name.find('%'); pct != std::string::npos) {
      int w = 0;
      const std::string digits = name.substr(pct + 1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), w);
      if (ec != std::errc() || end != digits.data() + digits.size() || w == 0)
        throw SacctmgrError(fmt::format("Unknown field '{}'", field));
      width = w;
      name = name.substr(0, pct);
    }
    const std::string key = lower(name);
    const Column* found = nullptr;
    for (const auto* table : tables) {
      for (const auto& col : *table) {
        if (col.key == key) found = &col;
        if (!found) {
          std::string_view rest = col.aliases;
          while (!rest.empty() && !found) {
            const std::size_t comma = rest.find(',');
            if (rest.substr(0, comma) == key) found = &col;
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
          }
        }
        if (found) break;
      }
      if (found) break;
    }
    if (!found) throw SacctmgrError(fmt::format("Unknown field '{}'", field));
    out.push_back({found, width.value_or(found->width)});
  }
  return out;
}

std::string render(const std::vector<Chosen>& cols, const std::vector<Row>& rows, const Ctx& ctx,
                   const SacctmgrTable& t, bool tree) {
  std::string out;
  const bool parsable = t.parsable || t.parsable2;
  auto cell = [&](std::string value, const Chosen& c, bool last) {
    if (parsable) {
      out += value;
      if (!(t.parsable2 && last)) out += '|';
      return;
    }
    const int w = std::abs(c.width);
    if (static_cast<int>(value.size()) > w) {
      value.resize(static_cast<std::size_t>(w));
      value.back() = '+';
    }
    out += c.width < 0 ? fmt::format("{:<{}} ", value, w) : fmt::format("{:>{}} ", value, w);
  };
  if (!t.no_header) {
    for (std::size_t i = 0; i < cols.size(); ++i)
      cell(std::string(cols[i].column->header), cols[i], i + 1 == cols.size());
    out += '\n';
    if (!parsable) {
      for (const auto& c : cols)
        out += std::string(static_cast<std::size_t>(std::abs(c.width)), '-') + ' ';
      out += '\n';
    }
  }
  for (const Row& r : rows) {
    for (std::size_t i = 0; i < cols.size(); ++i) {
      std::string v = cols[i].column->get(ctx, r);
      if (tree && cols[i].column->key == "account" && !parsable)
        v = std::string(static_cast<std::size_t>(r.depth), ' ') + v;
      cell(std::move(v), cols[i], i + 1 == cols.size());
    }
    out += '\n';
  }
  return out;
}

bool wanted(const std::vector<std::string>& filter, const std::string& value,
            bool keep_case = false) {
  if (filter.empty()) return true;
  const std::string v = keep_case ? value : lower(value);
  return std::find(filter.begin(), filter.end(), v) != filter.end();
}

std::vector<std::string> values(const SacctmgrCommand& cmd,
                                std::initializer_list<std::string_view> keys,
                                bool keep_case = false) {
  std::vector<std::string> out;
  for (const auto& s : cmd.where) {
    const std::string k = lower(s.key);
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) continue;
    std::size_t start = 0;
    while (start <= s.value.size()) {
      std::size_t end = s.value.find(',', start);
      if (end == std::string::npos) end = s.value.size();
      std::string v = s.value.substr(start, end - start);
      if (!v.empty()) out.push_back(keep_case ? v : lower(v));
      start = end + 1;
    }
  }
  return out;
}

std::vector<std::string> names_lower(const SacctmgrCommand& cmd) {
  std::vector<std::string> out;
  for (const auto& n : cmd.names) out.push_back(lower(n));
  return out;
}

// The associations a listing shows, in tree order, filtered by where.
std::vector<Row> assoc_rows(const SacctmgrCommand& cmd, const Accounting& data,
                            const std::vector<std::string>& users,
                            const std::vector<std::string>& accounts) {
  const auto partitions = values(cmd, {"partition", "partitions"}, true);
  const auto ids = values(cmd, {"id", "ids", "associd"});
  std::vector<Row> rows;
  for (const auto& [a, depth] : sched::association_tree(data)) {
    if (!users.empty() && !wanted(users, a->user, true)) continue;
    if (!wanted(accounts, a->account)) continue;
    if (!wanted(partitions, a->partition, true)) continue;
    if (!wanted(ids, std::to_string(a->id))) continue;
    Row r;
    r.assoc = a;
    r.depth = depth;
    r.user = data.find_user(a->user);
    r.account = data.find_account(a->account);
    rows.push_back(r);
  }
  return rows;
}

const std::vector<std::string> k_assoc_format = {
    "cluster",     "account",     "user",    "partition",      "share",
    "priority",    "grpjobs",     "grptres", "grpsubmit",      "grpwall",
    "grptresmins", "maxjobs",     "maxtres", "maxtrespernode", "maxsubmit",
    "maxwall",     "maxtresmins", "qos",     "defaultqos",     "grptresrunmins"};

}  // namespace

std::string sacctmgr_show(const SacctmgrCommand& cmd, const Accounting& data,
                          const std::string& cluster, const SacctmgrTable& table) {
  Ctx ctx{data, cluster, !cmd.without_parent_limits};
  std::vector<Row> rows;
  std::vector<std::string> format = cmd.format;
  std::vector<const std::vector<Column>*> tables;
  bool tree = false;

  switch (cmd.entity) {
    case SacctmgrEntity::association: {
      auto users = values(cmd, {"user", "users"}, true);
      for (const auto& n : cmd.names) users.push_back(n);
      rows = assoc_rows(cmd, data, users, values(cmd, {"account", "accounts", "acct"}));
      if (format.empty()) format = k_assoc_format;
      tables = {&assoc_columns()};
      tree = cmd.tree;
      break;
    }
    case SacctmgrEntity::user: {
      std::vector<std::string> names = cmd.names;
      for (const auto& n : values(cmd, {"user", "users"}, true)) names.push_back(n);
      const auto def = values(cmd, {"defaultaccount", "defacct"});
      const auto level = values(cmd, {"adminlevel", "admin"});
      if (cmd.with_assoc) {
        for (const auto& u : data.users) {
          if (!wanted(names, u.name, true) || !wanted(def, u.default_account)) continue;
          if (!level.empty() && !wanted(level, lower(sched::admin_level_name(u.admin_level))))
            continue;
          for (Row r : assoc_rows(cmd, data, {u.name}, values(cmd, {"account", "accounts"}))) {
            r.user = &u;
            rows.push_back(r);
          }
        }
        if (format.empty())
          format = {"user",    "defaultaccount", "adminlevel", "cluster",   "account", "partition",
                    "share",   "priority",       "maxjobs",    "maxnodes",  "maxcpus", "maxsubmit",
                    "maxwall", "maxcpumins",     "qos",        "defaultqos"};
      } else {
        for (const auto& u : data.users) {
          if (!wanted(names, u.name, true) || !wanted(def, u.default_account)) continue;
          if (!level.empty() && !wanted(level, lower(sched::admin_level_name(u.admin_level))))
            continue;
          Row r;
          r.user = &u;
          rows.push_back(r);
        }
        if (format.empty()) format = {"user", "defaultaccount", "adminlevel"};
      }
      tables = {&user_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::account: {
      std::vector<std::string> names = names_lower(cmd);
      for (const auto& n : values(cmd, {"account", "accounts"})) names.push_back(n);
      const auto parents = values(cmd, {"parent", "parentname"});
      const auto descr = values(cmd, {"description", "descr"});
      const auto org = values(cmd, {"organization", "org"});
      for (const auto& a : data.accounts) {
        if (!wanted(names, a.name) || !wanted(parents, a.parent) || !wanted(descr, a.description) ||
            !wanted(org, a.organization))
          continue;
        if (cmd.with_assoc) {
          const auto users = values(cmd, {"user", "users"}, true);
          for (Row r : assoc_rows(cmd, data, users, {a.name})) {
            r.account = &a;
            rows.push_back(r);
          }
        } else {
          Row r;
          r.account = &a;
          rows.push_back(r);
        }
      }
      if (format.empty()) {
        format = {"account", "description", "organization"};
        if (cmd.with_assoc)
          format.insert(format.end(),
                        {"cluster",   "parentname", "user",       "share",    "priority",
                         "grpjobs",   "grpnodes",   "grpcpus",    "grpmem",   "grpsubmit",
                         "grpwall",   "grpcpumins", "maxjobs",    "maxnodes", "maxcpus",
                         "maxsubmit", "maxwall",    "maxcpumins", "qos",      "defaultqos"});
      }
      tables = {&account_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::qos: {
      std::vector<std::string> names = names_lower(cmd);
      for (const auto& n : values(cmd, {"name", "names", "qos"})) names.push_back(n);
      const auto ids = values(cmd, {"id", "ids"});
      for (const auto& q : data.qos) {
        if (wanted(names, q.name) && wanted(ids, std::to_string(q.id))) {
          Row r;
          r.qos = &q;
          rows.push_back(r);
        }
      }
      if (format.empty())
        format = {
            "name",        "priority",       "gracetime",      "preempt",     "preemptexempttime",
            "preemptmode", "flags",          "usagethreshold", "usagefactor", "grptres",
            "grptresmins", "grptresrunmins", "grpjobs",        "grpsubmit",   "grpwall",
            "maxtres",     "maxtrespernode", "maxtresmins",    "maxwall",     "maxtrespu",
            "maxjobspu",   "maxsubmitpu",    "maxtrespa",      "maxjobspa",   "maxsubmitpa",
            "mintres"};
      tables = {&qos_columns()};
      break;
    }
    case SacctmgrEntity::cluster: {
      std::vector<std::string> names = names_lower(cmd);
      if (wanted(names, lower(cluster))) {
        Row r;
        r.assoc = data.find_association("root", "", "");
        rows.push_back(r);
      }
      if (format.empty())
        format = {"cluster",   "controlhost", "controlport", "rpc",       "share",
                  "grpjobs",   "grptres",     "grpsubmit",   "maxjobs",   "maxtres",
                  "maxsubmit", "maxwall",     "qos",         "defaultqos"};
      tables = {&cluster_columns(), &assoc_columns()};
      break;
    }
    case SacctmgrEntity::tres: {
      const std::pair<const char*, const char*> k_tres[] = {
          {"cpu", ""},    {"mem", ""},  {"energy", ""}, {"node", ""},   {"billing", ""},
          {"fs", "disk"}, {"vmem", ""}, {"pages", ""},  {"gres", "gpu"}};
      int id = 1;
      for (const auto& [type, name] : k_tres) {
        if (std::string_view(type) == "gres" && !table.gres_gpu) continue;
        Row r;
        r.tres_type = type;
        r.tres_name = name;
        r.tres_id = std::string_view(type) == "gres" ? 1001 : id++;
        rows.push_back(r);
      }
      if (format.empty()) format = {"type", "name", "id"};
      tables = {&tres_columns()};
      break;
    }
    case SacctmgrEntity::config:
    case SacctmgrEntity::stats:
      // Printed by sacctmgr_config_text and sacctmgr_stats_text.
      return {};
  }
  std::vector<Chosen> cols = choose(format, tables);
  if (tree) {
    // Slurm's tree listing: the account column left-aligned, 20 wide, indented.
    for (auto& c : cols) {
      if (c.column->key == "account" && c.width == c.column->width) c.width = -20;
    }
  }
  return render(cols, rows, ctx, table, tree);
}

}  // namespace stint::cli
