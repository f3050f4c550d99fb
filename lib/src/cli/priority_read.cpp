#include "cli/priority_read.hpp"

#include <charconv>

#include <stint/query.hpp>
#include <stint/store.hpp>

namespace stint::cli {
namespace {

Seconds meta_time(Store& store, const std::string& key, Seconds fallback) {
  auto text = store.meta(key);
  if (!text) return fallback;
  Seconds t = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), t);
  return ec == std::errc() && end == text->data() + text->size() ? t : fallback;
}

}  // namespace

PriorityView read_priority_view(const Paths& paths, Seconds now) {
  PriorityView v;
  v.config = query::read_config(paths);
  v.calc_time = now;
  if (!Store::exists(paths.db())) {
    v.ctx = sched::priority_snapshot(v.config, Accounting{}, {}, {}, now, k_no_time);
    return v;
  }
  auto store = Store::reader(paths.db());
  v.calc_time = meta_time(*store, "priority_calc_time", now);
  const Seconds reset_now = meta_time(*store, "priority_usage_reset", k_no_time);
  std::vector<sched::AssocKey> assocs;
  for (auto& [user, account] : store->job_associations()) assocs.push_back({user, account});
  std::vector<sched::UsageRecord> records = sched::usage_records(store->job_runs(0));
  v.ctx = sched::priority_snapshot(v.config, store->accounting(), assocs, std::move(records),
                                   v.calc_time, reset_now);
  return v;
}

}  // namespace stint::cli
