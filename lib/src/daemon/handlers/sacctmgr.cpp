// sacctmgr's requests (acct_add, acct_modify, acct_delete): the parts shared
// by every entity, authorisation, and the controller's copy of the records.

#include "daemon/handlers/sacctmgr.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/log.hpp"
#include "util/proc.hpp"

namespace stint::daemon {

const Accounting& Controller::accounting() {
  if (!m_accounting) m_accounting = m_store->accounting();
  return *m_accounting;
}

namespace {

// Writes what differs between `before` and `after`, one record kind at a time.
template <typename T, typename Key, typename Put, typename Del>
void write_diff(const std::vector<T>& before, const std::vector<T>& after, Key key, Put put,
                Del del) {
  for (const T& b : before) {
    if (std::none_of(after.begin(), after.end(), [&](const T& a) { return key(a) == key(b); }))
      del(b);
  }
  for (const T& a : after) {
    auto it =
        std::find_if(before.begin(), before.end(), [&](const T& b) { return key(a) == key(b); });
    if (it == before.end() || !(*it == a)) put(a);
  }
}

}  // namespace

void Controller::save_accounting(const Accounting& next) {
  const Accounting& before = accounting();
  Store::Transaction tx(*m_store);
  write_diff(
      before.associations, next.associations, [](const Association& a) { return a.id; },
      [&](const Association& a) { m_store->put_association(a); },
      [&](const Association& a) { m_store->delete_association(a.id); });
  write_diff(
      before.accounts, next.accounts, [](const Account& a) { return a.name; },
      [&](const Account& a) { m_store->put_account(a); },
      [&](const Account& a) { m_store->delete_account(a.name); });
  write_diff(
      before.users, next.users, [](const User& u) { return u.name; },
      [&](const User& u) { m_store->put_user(u); },
      [&](const User& u) { m_store->delete_user(u.name); });
  write_diff(
      before.qos, next.qos, [](const Qos& q) { return q.id; },
      [&](const Qos& q) { m_store->put_qos(q); }, [&](const Qos& q) { m_store->delete_qos(q.id); });
  tx.commit();
  // New records got their ids in the store: read them back rather than guess.
  m_accounting = m_store->accounting();
  m_dirty = true;  // a changed limit may let a pending job start
}

namespace acct {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

bool key_is(std::string_view key, std::initializer_list<std::string_view> keys) {
  const std::string k = lower(key);
  return std::any_of(keys.begin(), keys.end(), [&](std::string_view x) { return k == x; });
}

std::vector<std::string> condition_values(const std::vector<sched::Setting>& where,
                                          std::initializer_list<std::string_view> keys,
                                          bool keep_case) {
  std::vector<std::string> out;
  for (const auto& s : where) {
    if (!key_is(s.key, keys)) continue;
    std::size_t start = 0;
    while (start <= s.value.size()) {
      std::size_t end = s.value.find(',', start);
      if (end == std::string::npos) end = s.value.size();
      std::string v = s.value.substr(start, end - start);
      if (!keep_case) v = lower(v);
      if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
      start = end + 1;
    }
  }
  return out;
}

Error refusal(const std::string& text) { return Error(Errc::invalid_argument, text); }

Request read_request(const Json& req) {
  Request r;
  r.entity = lower(req.at("entity").get<std::string>());
  if (auto it = req.find("names"); it != req.end()) r.names = it->get<std::vector<std::string>>();
  auto settings = [&](const char* field) {
    std::vector<sched::Setting> out;
    auto it = req.find(field);
    if (it == req.end()) return out;
    if (!it->is_array()) throw Error(Errc::protocol, fmt::format("{} must be an array", field));
    for (const auto& s : *it) {
      sched::Setting one{s.at("key").get<std::string>(), s.value("op", std::string("=")),
                         s.at("value").get<std::string>()};
      if (one.op != "=" && one.op != "+=" && one.op != "-=")
        throw Error(Errc::protocol, fmt::format("bad op '{}'", one.op));
      out.push_back(std::move(one));
    }
    return out;
  };
  r.where = settings("where");
  r.settings = settings("settings");
  return r;
}

AdminLevel caller_level(Controller& c, const Caller& caller) { return c.admin_level(caller); }

void require_operator(Controller& c, const Caller& caller) {
  if (caller_level(c, caller) == AdminLevel::none)
    throw Error(Errc::access_denied, "Your user doesn't have privilege to perform this action");
}

Json assoc_json(const Accounting& data, const Association& a) {
  const Association* parent = sched::parent_association(data, a);
  return {{"account", a.account},
          {"user", a.user},
          {"partition", a.partition},
          {"parent", parent ? parent->account : std::string()}};
}

void refuse_if_jobs(Controller& c, const Accounting& data,
                    const std::vector<std::int64_t>& assoc_ids, const std::string& qos) {
  std::string lines;
  for (const auto& [id, job] : c.live()) {
    const Association* a = sched::job_association(data, job.account, job.user_name, job.partition);
    const bool by_assoc =
        a && std::find(assoc_ids.begin(), assoc_ids.end(), a->id) != assoc_ids.end();
    if (!by_assoc && (qos.empty() || job.qos != qos)) continue;
    lines += fmt::format("  JobID = {:<10} C = {:<10} A = {:<10} U = {:<9}\n", job.display_id(),
                         c.config().cluster_name, job.account, job.user_name);
  }
  if (!lines.empty())
    throw refusal(" Error with request: Job(s) active, cancel job(s) before remove\n" + lines);
}

}  // namespace acct

namespace {

using Verb = Json (*)(Controller&, Accounting&, const acct::Request&, const Caller&);

Json run(Controller& c, const Json& req, const Caller& caller, Verb verb) {
  acct::require_operator(c, caller);
  acct::Request r = acct::read_request(req);
  Accounting next = c.accounting();
  Json reply = verb(c, next, r, caller);
  const bool commit = req.value("commit", false);
  if (commit && !(next == c.accounting())) {
    c.save_accounting(next);
    log_info("sacctmgr {} {} by uid {}", req.at("op").get<std::string>(), r.entity, caller.uid);
  }
  reply["committed"] = commit;
  return reply;
}

[[noreturn]] void unknown_entity(const acct::Request& r) {
  throw Error(Errc::invalid_argument, fmt::format("unknown entity '{}'", r.entity));
}

}  // namespace

Json handle_acct_add(Controller& c, const Json& req, const Caller& caller) {
  return run(c, req, caller,
             [](Controller& ctl, Accounting& next, const acct::Request& r, const Caller& who) {
               if (r.entity == "account") return acct::add_account(ctl, next, r);
               if (r.entity == "user") return acct::add_user(ctl, next, r, who);
               if (r.entity == "qos") return acct::add_qos(ctl, next, r);
               unknown_entity(r);
             });
}

Json handle_acct_modify(Controller& c, const Json& req, const Caller& caller) {
  return run(c, req, caller,
             [](Controller& ctl, Accounting& next, const acct::Request& r, const Caller& who) {
               if (r.entity == "account") return acct::modify_account(ctl, next, r);
               if (r.entity == "user") return acct::modify_user(ctl, next, r, who);
               if (r.entity == "qos") return acct::modify_qos(ctl, next, r);
               unknown_entity(r);
             });
}

Json handle_acct_delete(Controller& c, const Json& req, const Caller& caller) {
  return run(c, req, caller,
             [](Controller& ctl, Accounting& next, const acct::Request& r, const Caller&) {
               if (r.entity == "account") return acct::delete_account(ctl, next, r);
               if (r.entity == "user") return acct::delete_user(ctl, next, r);
               if (r.entity == "qos") return acct::delete_qos(ctl, next, r);
               unknown_entity(r);
             });
}

}  // namespace stint::daemon
