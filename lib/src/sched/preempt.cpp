#include "sched/preempt.hpp"

#include <algorithm>
#include <cctype>

#include <stint/parse.hpp>

namespace stint::sched {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Seconds conf_time(const Config& config, const char* key) {
  auto text = config.conf(key);
  if (!text || text->empty()) return 0;
  try {
    Seconds t = parse::duration(*text);
    return t == k_infinite ? 0 : t;
  } catch (const Error&) {
    return 0;
  }
}

}  // namespace

std::optional<PreemptMode> preempt_mode_from_text(std::string_view text) {
  std::string s = upper(text);
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    std::string word = s.substr(start, end - start);
    if (word == "OFF") return PreemptMode::off;
    if (word == "CANCEL") return PreemptMode::cancel;
    if (word == "REQUEUE") return PreemptMode::requeue;
    if (word == "SUSPEND") return PreemptMode::suspend;
    start = end + 1;
  }
  return std::nullopt;
}

std::string_view preempt_mode_name(PreemptMode mode) {
  switch (mode) {
    case PreemptMode::off:
      return "OFF";
    case PreemptMode::cancel:
      return "CANCEL";
    case PreemptMode::requeue:
      return "REQUEUE";
    case PreemptMode::suspend:
      return "SUSPEND";
  }
  return "OFF";
}

PreemptRules preempt_rules(const Config& config, const Accounting& accounting) {
  PreemptRules r;
  const std::string type = upper(config.conf("PreemptType").value_or("preempt/none"));
  if (type == "PREEMPT/PARTITION_PRIO") r.type = PreemptType::partition_prio;
  if (type == "PREEMPT/QOS") r.type = PreemptType::qos;
  r.cluster_mode =
      preempt_mode_from_text(config.conf("PreemptMode").value_or("OFF")).value_or(PreemptMode::off);
  r.cluster_exempt_time = conf_time(config, "PreemptExemptTime");
  for (const PartitionConfig& p : config.partitions) {
    r.partition_tier[p.id] = p.priority_tier;
    PreemptTerms t;
    if (!p.preempt_mode.empty()) t.mode = preempt_mode_from_text(p.preempt_mode);
    t.grace_time = p.grace_time;
    r.partition_terms[p.id] = t;
  }
  for (const Qos& q : accounting.qos) {
    PreemptTerms t;
    t.mode = preempt_mode_from_text(q.preempt_mode);
    t.grace_time = q.grace_time;
    t.exempt_time = q.preempt_exempt_time;
    r.qos_terms[q.name] = t;
    r.qos_preempts[q.name] = q.preempt;
  }
  return r;
}

std::optional<Preemption> preemption_of(const PreemptRules& rules, const Job& preemptor,
                                        const Job& victim) {
  if (preemptor.id == victim.id) return std::nullopt;
  Preemption p;
  p.victim = victim.id;
  p.preemptor = preemptor.id;
  const PreemptTerms* terms = nullptr;
  if (rules.type == PreemptType::partition_prio) {
    auto high = rules.partition_tier.find(preemptor.partition);
    auto low = rules.partition_tier.find(victim.partition);
    if (high == rules.partition_tier.end() || low == rules.partition_tier.end() ||
        high->second <= low->second)
      return std::nullopt;
    auto it = rules.partition_terms.find(victim.partition);
    if (it != rules.partition_terms.end()) terms = &it->second;
  } else if (rules.type == PreemptType::qos) {
    auto list = rules.qos_preempts.find(preemptor.qos);
    if (list == rules.qos_preempts.end() ||
        std::find(list->second.begin(), list->second.end(), victim.qos) == list->second.end())
      return std::nullopt;
    auto it = rules.qos_terms.find(victim.qos);
    if (it != rules.qos_terms.end()) terms = &it->second;
  } else {
    return std::nullopt;
  }
  p.mode = terms && terms->mode ? *terms->mode : rules.cluster_mode;
  p.grace_time = terms ? terms->grace_time : 0;
  if (p.mode == PreemptMode::off) return std::nullopt;
  if (p.mode == PreemptMode::requeue && !victim.requeue) p.mode = PreemptMode::cancel;
  return p;
}

Seconds preemptable_from(const PreemptRules& rules, const Job& victim) {
  Seconds exempt = rules.cluster_exempt_time;
  if (auto it = rules.qos_terms.find(victim.qos);
      it != rules.qos_terms.end() && it->second.exempt_time)
    exempt = *it->second.exempt_time;
  return victim.start_time + exempt;
}

std::optional<std::vector<const Job*>> choose_victims(const ResourceRequest& req,
                                                      const std::vector<std::string>& allowed,
                                                      const Cluster& cluster,
                                                      std::vector<const Job*> candidates) {
  std::stable_sort(candidates.begin(), candidates.end(), [](const Job* a, const Job* b) {
    if (a->priority != b->priority) return a->priority < b->priority;
    if (a->start_time != b->start_time) return a->start_time > b->start_time;
    return a->id > b->id;
  });
  Cluster trial = cluster;
  std::vector<const Job*> taken;
  bool fits = false;
  for (const Job* v : candidates) {
    trial.give_back(v->alloc);
    taken.push_back(v);
    if (fit(req, trial, allowed)) {
      fits = true;
      break;
    }
  }
  if (!fits) return std::nullopt;
  // Put back what is not needed, the most valuable first.
  for (auto it = taken.rbegin(); it != taken.rend();) {
    Cluster without = trial;
    for (const auto& a : (*it)->alloc) {
      if (NodeUsage* n = without.find(a.node)) n->take(a);
    }
    if (fit(req, without, allowed)) {
      trial = std::move(without);
      it = decltype(it)(taken.erase(std::next(it).base()));
    } else {
      ++it;
    }
  }
  return taken;
}

}  // namespace stint::sched
