#include <algorithm>

#include "sched/sched.hpp"

namespace stint::sched {
namespace {

bool completed_ok(const DependencyView& v) { return v.state == JobState::completed; }
bool ended(const DependencyView& v) { return is_terminal(v.state); }
bool started(const DependencyView& v) {
  return v.start_time != k_no_time && v.state != JobState::pending;
}

DependencyStatus evaluate_term(const Job& job, const DependencyTerm& term,
                               const DependencyLookup& lookup, bool singleton_blocked,
                               Seconds now) {
  using S = DependencyStatus;
  if (term.type == DependencyType::singleton) return singleton_blocked ? S::waiting : S::satisfied;

  std::vector<DependencyView> views = lookup(term.job_id);
  // A term may name one task of an array; aftercorr pairs task N with task N.
  std::uint32_t task = term.array_task;
  if (term.type == DependencyType::aftercorr && job.is_array_task() &&
      job.array_task_id != k_no_array_task)
    task = job.array_task_id;
  if (task != k_no_array_task) {
    const auto other = [&](const DependencyView& v) {
      return v.array_task_id != task && !(v.record_tasks && v.record_tasks->contains(task));
    };
    views.erase(std::remove_if(views.begin(), views.end(), other), views.end());
  }
  if (views.empty()) return S::never;

  switch (term.type) {
    case DependencyType::after: {
      for (const auto& v : views) {
        if (v.state == JobState::cancelled && !started(v)) continue;
        if (!started(v) || now < v.start_time + term.delay) return S::waiting;
      }
      return S::satisfied;
    }
    case DependencyType::afterany:
      return std::all_of(views.begin(), views.end(), ended) ? S::satisfied : S::waiting;
    case DependencyType::afterok:
    case DependencyType::aftercorr: {
      for (const auto& v : views) {
        if (ended(v) && !completed_ok(v)) return S::never;
      }
      return std::all_of(views.begin(), views.end(), completed_ok) ? S::satisfied : S::waiting;
    }
    case DependencyType::afternotok: {
      if (!std::all_of(views.begin(), views.end(), ended)) return S::waiting;
      return std::all_of(views.begin(), views.end(), completed_ok) ? S::never : S::satisfied;
    }
    case DependencyType::singleton:
      break;
  }
  return S::waiting;
}

}  // namespace

bool has_aftercorr(const Dependency& dependency) {
  return std::any_of(dependency.terms.begin(), dependency.terms.end(),
                     [](const DependencyTerm& t) { return t.type == DependencyType::aftercorr; });
}

DependencyStatus evaluate_dependency(const Job& job, const DependencyLookup& lookup,
                                     bool singleton_blocked, Seconds now) {
  using S = DependencyStatus;
  const Dependency& d = job.dependency;
  if (d.empty()) return S::satisfied;
  bool all_satisfied = true;
  bool all_never = true;
  for (const auto& term : d.terms) {
    S s = evaluate_term(job, term, lookup, singleton_blocked, now);
    if (d.any && s == S::satisfied) return S::satisfied;
    if (!d.any && s == S::never) return S::never;
    all_satisfied = all_satisfied && s == S::satisfied;
    all_never = all_never && s == S::never;
  }
  if (d.any) return all_never ? S::never : S::waiting;
  return all_satisfied ? S::satisfied : S::waiting;
}

Dependency prune_satisfied(const Job& job, const DependencyLookup& lookup, bool singleton_blocked,
                           Seconds now) {
  Dependency left;
  left.any = job.dependency.any;
  for (const auto& term : job.dependency.terms) {
    bool met =
        evaluate_term(job, term, lookup, singleton_blocked, now) == DependencyStatus::satisfied;
    if (met && job.dependency.any) return Dependency{};
    if (!met) left.terms.push_back(term);
  }
  return left;
}

}  // namespace stint::sched
