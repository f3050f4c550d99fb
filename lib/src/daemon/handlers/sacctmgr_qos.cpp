// sacctmgr add|modify|delete qos.

#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/handlers/sacctmgr.hpp"

namespace stint::daemon::acct {
namespace {

std::vector<std::string> qos_names(const Request& r) {
  std::vector<std::string> names;
  for (const auto& n : r.names) names.push_back(lower(n));
  for (const auto& n : condition_values(r.where, {"name", "names", "qos"})) names.push_back(n);
  return names;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

Json add_qos(Controller&, Accounting& next, const Request& r) {
  if (r.names.empty()) throw refusal(" Need name of QOS to add.");
  Qos proto;
  for (const auto& s : r.settings) {
    if (!sched::apply_qos_setting(proto, s, next))
      throw refusal(fmt::format(" Unknown option: {}{}{}", s.key, s.op, s.value));
  }
  const bool described = std::any_of(r.settings.begin(), r.settings.end(),
                                     [](const auto& s) { return key_is(s.key, {"description"}); });
  Json added = Json::array();
  for (const auto& given : r.names) {
    const std::string name = lower(given);
    if (name.empty() || name.find_first_of(" ,=|'\"") != std::string::npos)
      throw refusal(fmt::format(" Bad QOS name '{}'", given));
    if (next.find_qos(name)) continue;
    Qos q = proto;
    q.name = name;
    if (!described) q.description = name;
    next.qos.push_back(q);
    added.push_back({{"name", q.name}, {"description", q.description}});
  }
  std::vector<sched::Setting> shown;
  for (const auto& s : r.settings) {
    if (!key_is(s.key, {"description"})) shown.push_back(s);
  }
  return {{"qos", added}, {"lines", sched::qos_limit_lines(proto, shown)}};
}

Json modify_qos(Controller&, Accounting& next, const Request& r) {
  for (const auto& s : r.where) {
    if (!key_is(s.key, {"name", "names", "qos", "cluster", "clusters"}))
      throw refusal(fmt::format(" Unknown condition: {}{}{}", s.key, s.op, s.value));
  }
  const std::vector<std::string> names = qos_names(r);
  std::vector<std::string> changed;
  for (auto& q : next.qos) {
    if (!names.empty() && !contains(names, q.name)) continue;
    for (const auto& s : r.settings) {
      if (!sched::apply_qos_setting(q, s, next))
        throw refusal(
            fmt::format(" Unknown option: {}{}{}\n Use keyword 'where' to modify "
                        "condition",
                        s.key, s.op, s.value));
    }
    if (!r.settings.empty()) changed.push_back(q.name);
  }
  return {{"qos", changed}};
}

Json delete_qos(Controller& c, Accounting& next, const Request& r) {
  const std::vector<std::string> names = qos_names(r);
  if (names.empty()) throw refusal(" No conditions given to delete.");
  std::vector<std::string> doomed;
  for (const auto& q : next.qos) {
    if (contains(names, q.name)) doomed.push_back(q.name);
  }
  for (const auto& q : doomed) refuse_if_jobs(c, next, {}, q);
  std::erase_if(next.qos, [&](const Qos& q) { return contains(doomed, q.name); });
  // Nothing may go on naming a QOS that is gone.
  for (auto& a : next.associations) {
    std::erase_if(a.qos, [&](const std::string& q) { return contains(doomed, q); });
    if (contains(doomed, a.default_qos)) a.default_qos.clear();
  }
  for (auto& q : next.qos) {
    std::erase_if(q.preempt, [&](const std::string& p) { return contains(doomed, p); });
  }
  return {{"qos", doomed}};
}

}  // namespace stint::daemon::acct
