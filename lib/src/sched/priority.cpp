// Multifactor priority. Slurm: src/plugins/priority/multifactor/
// priority_multifactor.c (set_priority_factors, _get_priority_internal),
// https://slurm.schedmd.com/priority_multifactor.html.

#include "sched/priority.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace stint::sched {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view w = trim(text.substr(start, end - start));
    if (!w.empty()) out.push_back(lower(w));
    start = end + 1;
  }
  return out;
}

std::uint32_t weight(const Config& config, std::string_view key) {
  return static_cast<std::uint32_t>(
      std::clamp<std::int64_t>(config.conf_int(key), 0, std::numeric_limits<std::uint32_t>::max()));
}

double tres_value(const TresCounts& c, std::string_view name, const PriorityParams& params) {
  if (name == "cpu") return c.cpu;
  if (name == "mem") return c.mem_mb;
  if (name == "node") return c.node;
  if (name == "gres/gpu") return c.gpu;
  if (name == "billing") return billing(c, params);
  return 0;
}

// Slurm keeps time limits in minutes.
double limit_minutes(Seconds limit) {
  if (limit == k_infinite) return 4294967295.0;  // INFINITE
  return std::max<double>(1.0, std::ceil(static_cast<double>(limit) / 60.0));
}

double job_size_factor(const Job& job, const TresCounts& counts, const PriorityContext& ctx) {
  const PriorityParams& p = ctx.params;
  const double nodes = std::max<double>(ctx.node_count, 1);
  const double cpus = std::max<double>(ctx.cluster_cpus, 1);
  const double min_nodes = std::max(counts.node, 1.0);
  double js = 0;
  if (p.flags.small_relative_to_time) {
    // Job size in CPUs (by the average CPUs of a node), per minute of its limit.
    js = std::max(min_nodes * cpus / nodes, counts.cpu);
    Seconds limit = job.time_limit;
    if (limit == k_infinite) {
      auto it = ctx.partition_max_time.find(job.partition);
      if (it != ctx.partition_max_time.end()) limit = it->second;
    }
    js /= limit_minutes(limit);
    js /= cpus;
    if (p.favor_small) js = 1.0 - js;
  } else if (p.favor_small) {
    js = std::max(0.0, nodes - min_nodes) / nodes;
    if (counts.cpu > 0) js = (js + std::max(0.0, cpus - counts.cpu) / cpus) / 2;
  } else {
    js = min_nodes / nodes;
    if (counts.cpu > 0) js = (js + counts.cpu / cpus) / 2;
  }
  return std::clamp(js, 0.0, 1.0);
}

double normalised(double value, double max, bool raw) {
  if (raw) return value;
  return max > 0 ? value / max : 0;
}

}  // namespace

std::vector<TresWeight> parse_tres_weights(std::string_view text) {
  std::vector<TresWeight> out;
  for (const std::string& item : words(text)) {
    std::size_t eq = item.find('=');
    if (eq == std::string::npos) continue;
    std::string name(trim(std::string_view(item).substr(0, eq)));
    std::string value(trim(std::string_view(item).substr(eq + 1)));
    if (name.empty() || value.empty()) continue;
    // A memory weight may name its unit: "mem=0.25g" is per GiB.
    double unit = 1;
    if (std::size_t u = std::string_view("kmgt").find(value.back()); u != std::string::npos) {
      unit = std::pow(1024.0, static_cast<double>(u) - 1);
      value.pop_back();
    }
    double w = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), w);
    if (ec != std::errc() || end != value.data() + value.size()) continue;
    out.push_back({name, name == "mem" ? w / unit : w});
  }
  return out;
}

PriorityParams priority_params(const Config& config) {
  PriorityParams p;
  p.multifactor = lower(config.conf("PriorityType").value_or("")) != "priority/basic";
  p.weight_age = weight(config, "PriorityWeightAge");
  p.weight_assoc = weight(config, "PriorityWeightAssoc");
  p.weight_fairshare = weight(config, "PriorityWeightFairshare");
  p.weight_job_size = weight(config, "PriorityWeightJobSize");
  p.weight_partition = weight(config, "PriorityWeightPartition");
  p.weight_qos = weight(config, "PriorityWeightQOS");
  p.weight_tres_text = config.conf("PriorityWeightTRES").value_or("");
  p.weight_tres = parse_tres_weights(p.weight_tres_text);
  p.max_age = config.conf_time("PriorityMaxAge");
  p.favor_small = lower(config.conf("PriorityFavorSmall").value_or("NO")) == "yes";
  for (const std::string& flag : words(config.conf("PriorityFlags").value_or(""))) {
    if (flag == "accrue_always") p.flags.accrue_always = true;
    if (flag == "calculate_running") p.flags.calculate_running = true;
    if (flag == "no_fair_tree" || flag == "depth_oblivious") p.flags.no_fair_tree = true;
    if (flag == "incr_only") p.flags.incr_only = true;
    if (flag == "max_tres") p.flags.max_tres = true;
    if (flag == "no_normal_assoc" || flag == "no_normal_all") p.flags.no_normal_assoc = true;
    if (flag == "no_normal_part" || flag == "no_normal_all") p.flags.no_normal_part = true;
    if (flag == "no_normal_qos" || flag == "no_normal_all") p.flags.no_normal_qos = true;
    if (flag == "no_normal_tres" || flag == "no_normal_all") p.flags.no_normal_tres = true;
    if (flag == "small_relative_to_time") p.flags.small_relative_to_time = true;
  }
  p.decay_half_life = std::max<Seconds>(0, config.conf_time("PriorityDecayHalfLife"));
  p.calc_period = config.conf_time("PriorityCalcPeriod");
  p.usage_reset_period = config.conf("PriorityUsageResetPeriod").value_or("NONE");
  p.damping = static_cast<std::uint32_t>(config.conf_int("FairShareDampeningFactor"));
  p.billing_weights = parse_tres_weights(config.conf("TRESBillingWeights").value_or(""));
  return p;
}

std::uint32_t partition_job_factor(const PartitionConfig& p) {
  return p.priority_job_factor.value_or(p.priority_tier);
}

TresCounts job_tres_counts(const Job& job) {
  TresCounts c;
  if (!job.alloc.empty()) {
    c.node = static_cast<double>(job.alloc.size());
    for (const auto& a : job.alloc) {
      c.cpu += a.cpus;
      c.mem_mb += static_cast<double>(a.mem_mb);
      c.gpu += static_cast<double>(a.gpu_ids.size());
    }
    return c;
  }
  const ResourceRequest& r = job.req;
  c.node = std::max<std::uint32_t>(r.nodes, 1);
  c.cpu = std::max({r.tasks * r.cpus_per_task, r.cpus_per_node * r.nodes, 1U});
  c.mem_mb = static_cast<double>(r.mem_per_node_mb) * c.node;
  c.gpu = static_cast<double>(r.gpus_per_node) * c.node;
  return c;
}

double billing(const TresCounts& counts, const PriorityParams& params) {
  if (params.billing_weights.empty()) return counts.cpu;
  double sum = 0;
  double max = 0;
  for (const TresWeight& w : params.billing_weights) {
    if (w.name == "billing") continue;
    double v = tres_value(counts, w.name, params) * w.weight;
    sum += v;
    max = std::max(max, v);
  }
  return params.flags.max_tres ? max : sum;
}

PriorityContext make_priority_context(const Config& config, FairShare fair_share,
                                      std::map<std::string, std::uint32_t> qos_priority) {
  PriorityContext ctx;
  ctx.params = priority_params(config);
  for (const NodeDef& n : config.nodes()) {
    ++ctx.node_count;
    ctx.cluster_cpus += n.cpus;
  }
  for (const PartitionConfig& p : config.partitions) {
    TresCounts t;
    for (const NodeDef& n : config.partition_nodes(p)) {
      t.node += 1;
      t.cpu += n.cpus;
      t.mem_mb += static_cast<double>(n.memory_mb);
      t.gpu += n.gpus;
    }
    ctx.partition_tres[p.id] = t;
    ctx.partition_max_time[p.id] = p.max_time;
    ctx.partition_factor[p.id] = partition_job_factor(p);
    ctx.max_partition_factor = std::max(ctx.max_partition_factor, partition_job_factor(p));
  }
  for (const auto& [name, prio] : qos_priority)
    ctx.max_qos_priority = std::max(ctx.max_qos_priority, prio);
  ctx.qos_priority = std::move(qos_priority);
  ctx.fair_share = std::move(fair_share);
  return ctx;
}

PriorityContext priority_snapshot(const Config& config, const Accounting& accounting,
                                  const std::vector<AssocKey>& job_assocs,
                                  std::vector<UsageRecord> records, Seconds now,
                                  Seconds reset_now) {
  const PriorityParams params = priority_params(config);
  std::map<std::string, std::uint32_t> qos_priority;
  std::map<std::string, double> usage_factor;
  for (const Qos& q : accounting.qos) {
    qos_priority[q.name] = q.priority;
    usage_factor[q.name] = q.usage_factor;
  }
  for (UsageRecord& r : records) {
    auto it = usage_factor.find(r.qos);
    r.billing = billing(r.tres, params) * (it == usage_factor.end() ? 1.0 : it->second);
  }
  const Seconds since = usage_reset_since(params.usage_reset_period, now, reset_now);
  auto usage = association_usage(std::move(records), now, params.decay_half_life, since);
  FairShare fs = compute_fair_share(
      tree_from_accounting(accounting, job_assocs), usage,
      params.flags.no_fair_tree ? FairShareAlgorithm::classic : FairShareAlgorithm::fair_tree,
      params.damping);
  return make_priority_context(config, std::move(fs), std::move(qos_priority));
}

PriorityFactors priority_factors(const Job& job, const PriorityContext& ctx, Seconds now,
                                 Accruing accruing) {
  const PriorityParams& p = ctx.params;
  PriorityFactors f;
  f.nice = job.spec.nice;
  f.site = job.spec.site_factor;
  if (!p.multifactor) {
    // priority/basic: first come, first served, lowered by nice.
    f.total = std::max(1.0, 10000.0 - static_cast<double>(f.nice));
    f.priority = static_cast<std::uint32_t>(f.total);
    return f;
  }
  const AssocKey assoc{job.user_name, job.account};
  const TresCounts counts = job_tres_counts(job);

  // As Slurm, a factor whose weight is 0 is not computed (sprio shows 0).
  if (p.weight_age > 0) {
    Seconds accrue = p.flags.accrue_always ? job.submit_time : job.eligible_time;
    if ((accruing == Accruing::yes || p.flags.accrue_always) && accrue != k_no_time) {
      const Seconds waited = now > accrue ? now - accrue : 0;
      if (p.max_age == k_infinite)
        f.age = 0;
      else if (p.max_age <= 0 || waited >= p.max_age)
        f.age = 1;
      else
        f.age = static_cast<double>(waited) / static_cast<double>(p.max_age);
    }
  }
  if (p.weight_assoc > 0) {
    auto it = ctx.fair_share.assoc_priority.find(assoc);
    double prio = it == ctx.fair_share.assoc_priority.end() ? 0 : it->second;
    f.assoc = normalised(prio, ctx.fair_share.max_assoc_priority, p.flags.no_normal_assoc);
  }
  if (p.weight_fairshare > 0) {
    auto it = ctx.fair_share.factor.find(assoc);
    f.fairshare = it == ctx.fair_share.factor.end() ? 0 : it->second;
  }
  if (p.weight_job_size > 0) f.job_size = job_size_factor(job, counts, ctx);
  if (p.weight_partition > 0) {
    auto it = ctx.partition_factor.find(job.partition);
    double factor = it == ctx.partition_factor.end() ? 0 : it->second;
    f.partition = normalised(factor, ctx.max_partition_factor, p.flags.no_normal_part);
  }
  if (p.weight_qos > 0) {
    auto it = ctx.qos_priority.find(job.qos);
    double prio = it == ctx.qos_priority.end() ? 0 : it->second;
    f.qos = normalised(prio, ctx.max_qos_priority, p.flags.no_normal_qos);
  }
  double tres_sum = 0;
  if (!p.weight_tres.empty()) {
    auto part = ctx.partition_tres.find(job.partition);
    for (const TresWeight& w : p.weight_tres) {
      double value = tres_value(counts, w.name, p);
      double total = part == ctx.partition_tres.end() ? 0 : tres_value(part->second, w.name, p);
      double factor = p.flags.no_normal_tres ? value : (total > 0 ? value / total : 0);
      f.tres.emplace_back(w.name, factor);
      tres_sum += factor * w.weight;
    }
  }

  f.total = static_cast<double>(f.site) + weighted(f.age, p.weight_age) +
            weighted(f.assoc, p.weight_assoc) + weighted(f.fairshare, p.weight_fairshare) +
            weighted(f.job_size, p.weight_job_size) + weighted(f.partition, p.weight_partition) +
            weighted(f.qos, p.weight_qos) + tres_sum - static_cast<double>(f.nice);
  // Priority 0 is a held job's; the sum is at least 1 and fits 32 bits.
  if (f.total < 1) f.total = 1;
  if (f.total > 4294967295.0) f.total = 4294967295.0;
  f.priority = static_cast<std::uint32_t>(f.total);
  return f;
}

}  // namespace stint::sched
