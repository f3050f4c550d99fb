// What sacctmgr prints for add, modify and delete, from stintd's reply, in
// Slurm's words and column widths (sacctmgr's account_functions.c,
// user_functions.c, qos_functions.c).

#include <fmt/core.h>

#include "cli/sacctmgr.hpp"

namespace stint::cli {
namespace {

using Json = nlohmann::json;

std::string str(const Json& j, const char* key) { return j.value(key, std::string()); }

bool has_setting(const SacctmgrCommand& cmd, std::string_view key) {
  for (const auto& s : cmd.settings) {
    std::string k = s.key;
    for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k == key) return true;
  }
  return false;
}

std::string setting_value(const SacctmgrCommand& cmd, std::string_view key) {
  for (const auto& s : cmd.settings) {
    std::string k = s.key;
    for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k == key) return s.value;
  }
  return {};
}

void lines_of(std::string& out, const Json& reply) {
  if (auto it = reply.find("lines"); it != reply.end()) {
    for (const auto& l : *it) out += l.get<std::string>() + "\n";
  }
}

// "  C = oracle     A = lab                  U = alice     P = cpu"
std::string modified_assoc_line(const Json& a, const std::string& cluster) {
  std::string line = fmt::format("  C = {:<10.10} A = {:<20.20} U = {:<9.9}", cluster,
                                 str(a, "account"), str(a, "user"));
  if (!str(a, "partition").empty()) line += " P = " + str(a, "partition");
  return line + "\n";
}

std::string add_summary(const SacctmgrCommand& cmd, const Json& reply, const std::string& cluster,
                        bool& nothing) {
  std::string out;
  const Json assocs = reply.value("associations", Json::array());
  switch (cmd.entity) {
    case SacctmgrEntity::account: {
      const Json& accounts = reply.at("accounts");
      nothing = accounts.empty();
      if (nothing) return " Nothing new added.\n";
      out += " Adding Account(s)\n";
      for (const auto& a : accounts) out += "  " + str(a, "name") + "\n";
      out += " Settings\n";
      out += fmt::format(
          "  {:<16}= {}\n", "Description",
          has_setting(cmd, "description") ? setting_value(cmd, "description") : "Account Name");
      out += fmt::format("  {:<16}= {}\n", "Organization",
                         has_setting(cmd, "organization") ? setting_value(cmd, "organization")
                                                          : "Parent/Account Name");
      out += " Associations\n";
      for (const auto& a : assocs)
        out += fmt::format("  A = {:<10.10} C = {:<10.10}\n", str(a, "account"), cluster);
      if (!reply.at("lines").empty()) {
        out += " Settings\n";
        lines_of(out, reply);
      }
      return out;
    }
    case SacctmgrEntity::user: {
      const Json& users = reply.at("users");
      nothing = users.empty() && assocs.empty();
      if (nothing) return " Nothing new added.\n";
      if (!users.empty()) {
        out += " Adding User(s)\n";
        for (const auto& u : users) out += "  " + u.get<std::string>() + "\n";
      }
      out += " Associations =\n";
      for (const auto& a : assocs) {
        std::string line = fmt::format("  U = {:<9.9} A = {:<10.10} C = {:<10.10}", str(a, "user"),
                                       str(a, "account"), cluster);
        if (!str(a, "partition").empty())
          line += fmt::format(" P = {:<10.10}", str(a, "partition"));
        out += line + "\n";
      }
      out += " Non Default Settings\n";
      lines_of(out, reply);
      return out;
    }
    default: {
      const Json& qos = reply.at("qos");
      nothing = qos.empty();
      if (nothing) return " Nothing new added.\n";
      out += " Adding QOS(s)\n";
      for (const auto& q : qos) out += "  " + str(q, "name") + "\n";
      out += " Settings\n";
      out += fmt::format("  Description    = {}\n", str(qos.front(), "description"));
      lines_of(out, reply);
      return out;
    }
  }
}

std::string modify_summary(const SacctmgrCommand& cmd, const Json& reply,
                           const std::string& cluster, bool& nothing) {
  std::string out;
  auto names = [&](const char* key, std::string_view title) {
    auto it = reply.find(key);
    if (it == reply.end() || it->empty()) return;
    out += fmt::format(" {}\n", title);
    for (const auto& n : *it) out += "  " + n.get<std::string>() + "\n";
  };
  const Json assocs = reply.value("associations", Json::array());
  if (cmd.entity == SacctmgrEntity::qos) {
    names("qos", "Modified qos...");
  } else if (cmd.entity == SacctmgrEntity::user) {
    names("users", "Modified users...");
    if (!assocs.empty()) {
      out += " Modified user associations...\n";
      for (const auto& a : assocs) out += modified_assoc_line(a, cluster);
    }
  } else {
    names("accounts", "Modified accounts...");
    if (!assocs.empty()) {
      out += fmt::format(" Modified {} associations...\n",
                         cmd.entity == SacctmgrEntity::cluster ? "cluster" : "account");
      for (const auto& a : assocs) {
        if (!str(a, "user").empty()) {
          out += modified_assoc_line(a, cluster);
          continue;
        }
        out += fmt::format("  C = {:<10.10} A = {}", cluster, str(a, "account"));
        if (!str(a, "parent").empty()) out += " of " + str(a, "parent");
        out += "\n";
      }
    }
  }
  nothing = out.empty();
  return nothing ? " Nothing modified\n" : out;
}

std::string delete_summary(const SacctmgrCommand& cmd, const Json& reply,
                           const std::string& cluster, bool& nothing) {
  std::string out;
  auto names = [&](const char* key, std::string_view title) {
    auto it = reply.find(key);
    if (it == reply.end() || it->empty()) return;
    out += fmt::format(" {}\n", title);
    for (const auto& n : *it) out += "  " + n.get<std::string>() + "\n";
  };
  if (cmd.entity == SacctmgrEntity::qos) {
    names("qos", "Deleting QOS(s)...");
  } else if (cmd.entity == SacctmgrEntity::account) {
    names("accounts", "Deleting accounts...");
  } else {
    names("users", "Deleting users...");
    auto it = reply.find("associations");
    if (it != reply.end() && !it->empty()) {
      out += " Deleting user associations...\n";
      for (const auto& a : *it) out += modified_assoc_line(a, cluster);
    }
  }
  nothing = out.empty();
  return nothing ? " Nothing deleted\n" : out;
}

}  // namespace

std::string sacctmgr_summary(const SacctmgrCommand& cmd, const nlohmann::json& reply,
                             const std::string& cluster, bool& nothing) {
  switch (cmd.verb) {
    case SacctmgrVerb::add:
      return add_summary(cmd, reply, cluster, nothing);
    case SacctmgrVerb::modify:
      return modify_summary(cmd, reply, cluster, nothing);
    case SacctmgrVerb::remove:
      return delete_summary(cmd, reply, cluster, nothing);
    case SacctmgrVerb::show:
    case SacctmgrVerb::clear:
      break;
  }
  nothing = true;
  return {};
}

}  // namespace stint::cli
