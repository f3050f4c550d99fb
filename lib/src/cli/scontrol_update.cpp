#include "cli/scontrol_update.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>

#include "cli/read_common.hpp"
#include "cli/scontrol_common.hpp"
#include "cli/scontrol_partition.hpp"
#include "cli/scontrol_resv.hpp"
#include "cli/scontrol_step.hpp"
#include "cli/words.hpp"
#include "rpc/client.hpp"
#include "util/clock.hpp"

namespace stint::tools::scontrol_update {
namespace {

using scontrol_common::fail;
using scontrol_common::is;
using scontrol_common::lower;
using scontrol_common::not_supported;
using scontrol_common::ref_json;
using scontrol_common::send_admin;

/// scontrol's update keys that stintd takes, in its spelling.
std::optional<std::string> update_key(std::string_view key) {
  const std::string k = lower(key);
  if (k == "timelimit") return "TimeLimit";
  if (k == "nice") return "Nice";
  if (k == "jobname" || k == "name") return "JobName";
  if (k == "partition") return "Partition";
  if (k == "comment") return "Comment";
  if (k == "priority") return "Priority";
  if (k == "dependency") return "Dependency";
  if (k == "numcpus") return "NumCPUs";
  if (k == "minmemorynode") return "MinMemoryNode";
  if (k == "minmemorycpu") return "MinMemoryCPU";
  if (k == "sitefactor") return "SiteFactor";
  if (k == "arraytaskthrottle") return "ArrayTaskThrottle";
  if (k == "reservation" || k == "reservationname") return "Reservation";
  if (k == "starttime" || k == "eligibletime") return "StartTime";
  return std::nullopt;
}

/// scontrol update StepId=JOB[.STEP] TimeLimit=[+|-]TIME: the step's own
/// time limit (every running step of the job's without STEP), as
/// update_step.c reads it; +/- change a step's limit by that much.
int update_step(const std::vector<std::string>& w) {
  nlohmann::json request = {{"op", "step_update"}};
  std::optional<std::string> limit_text;
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::size_t eq = w[i].find('=');
    const std::string key = w[i].substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : w[i].substr(eq + 1);
    if (is(key, "StepId", 4)) {
      const auto ref = scontrol_step::parse_ref(value);
      std::uint32_t step = 0;
      bool bad = !ref;
      if (ref && ref->step) {
        const std::string& text = *ref->step;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), step);
        bad = text.empty() || ec != std::errc() || end != text.data() + text.size();
        request["step_id"] = step;
      }
      // update_step.c's words, the whole word quoted.
      if (bad) return fail(fmt::format("Invalid StepID parameter: {}\nRequest aborted", w[i]));
      request["job_id"] = ref->job;
    } else if (is(key, "TimeLimit", 2) && eq != std::string::npos) {
      limit_text = value;
    } else {
      return not_supported(w[i]);
    }
  }
  if (!request.contains("job_id")) return fail("No StepId specified\nRequest aborted");
  if (!limit_text) return fail("No changes specified");
  const bool incr = !limit_text->empty() && limit_text->front() == '+';
  const bool decr = !limit_text->empty() && limit_text->front() == '-';
  Seconds limit = 0;
  try {
    limit = parse::time_limit(incr || decr ? limit_text->substr(1) : *limit_text);
  } catch (const Error&) {
    return fail("Invalid TimeLimit value");
  }
  if (incr || decr) {
    // Relative to the step's limit now, which must be one of its own.
    if (!request.contains("step_id") || limit == k_infinite) return fail("Invalid TimeLimit value");
    const Paths paths = default_paths();
    const std::vector<Job> jobs =
        query::read_jobs(paths, JobFilter{}, {query::JobRef{request["job_id"].get<JobId>()}});
    std::optional<JobStep> step;
    for (const JobStep& s : query::job_steps(paths, jobs)) {
      if (s.step_id == request["step_id"].get<std::uint32_t>() && s.state == JobState::running)
        step = s;
    }
    if (!step || step->time_limit == k_infinite)
      return fail(fmt::format("slurm_update error: {}", errc_slurm_message(Errc::invalid_job_id)));
    if (decr && limit > step->time_limit)
      return fail(fmt::format("TimeLimit decrement larger than current time limit ({} > {})",
                              limit / 60, step->time_limit / 60));
    limit = incr ? step->time_limit + limit : step->time_limit - limit;
  }
  request["time_limit"] = limit;
  return send_admin(request, "slurm_update");
}

/// scontrol update NodeName=<hostlist> State=DRAIN|DOWN|RESUME|UNDRAIN Reason=...
int update_node(const std::vector<std::string>& w) {
  std::string nodes;
  std::optional<std::string> state;
  std::string reason;
  std::optional<std::string> available;  // AvailableFeatures= (Features=)
  std::optional<std::string> active;     // ActiveFeatures=
  for (std::size_t i = 1; i < w.size(); ++i) {
    const std::string& word = w[i];
    const auto eq = word.find('=');
    if (eq == std::string::npos)
      throw Error(Errc::invalid_argument, fmt::format("Invalid input: {}", word));
    const std::string key = lower(word.substr(0, eq));
    const std::string value = word.substr(eq + 1);
    if (is(key, "NodeName", 3)) {
      nodes = value;
    } else if (key == "features" || key == "availablefeatures") {
      available = value;
    } else if (key == "activefeatures") {
      active = value;
    } else if (key == "state") {
      const std::string s = lower(value);
      if (s != "drain" && s != "down" && s != "resume" && s != "undrain" && s != "idle") {
        std::fflush(stdout);
        fmt::print(stderr,
                   "Invalid input: {}\nRequest aborted\nValid states are: NoResp DRAIN FAIL FUTURE "
                   "RESUME POWER_DOWN POWER_UP UNDRAIN\nNot all states are valid given a node's "
                   "prior state\n",
                   word);
        return 1;
      }
      state = value;
    } else if (key == "reason") {
      reason = value;
    } else {
      return not_supported(word);
    }
  }
  nlohmann::json features;
  if (available || active) {
    // Without a node features plugin a node's active features are its
    // available ones (node_mgr.c makes them match): one list here.
    if (active && available && *active != *available)
      return fail(fmt::format(
          "slurm_update error: Active features not subset of available features (here they are "
          "the same list: give ActiveFeatures={} or leave it out)",
          *available));
    features = cli::split_list(available ? *available : *active);
  }
  if (!state && reason.empty() && features.is_null())
    throw Error(Errc::usage, "No changes specified");
  // Reason= alone rewords the reason of nodes that are down or drained.
  if (!state) state = "";
  const std::string s = lower(*state);
  if ((s == "drain" || s == "down") && reason.empty())
    return fail("You must specify a reason when DOWNING or DRAINING a node. Request denied");
  nlohmann::json request = {
      {"op", "update_node"}, {"nodes", nodes}, {"state", *state}, {"reason", reason}};
  if (!features.is_null()) request["features"] = features;
  return send_admin(request, "slurm_update");
}

}  // namespace

int update(const std::vector<std::string>& w) {
  if (scontrol_resv::is_reservation_update({w.begin() + 1, w.end()}))
    return scontrol_resv::update({w.begin() + 1, w.end()});
  // The first key names the entity, as in Slurm.
  if (w.size() > 1) {
    const std::string first = w[1].substr(0, w[1].find('='));
    if (is(first, "NodeName", 3)) return update_node(w);
    if (is(first, "StepId", 4)) return update_step(w);
    if (is(first, "PartitionName", 3)) return scontrol_partition::update({w.begin() + 1, w.end()});
  }
  std::optional<std::string> job_text;
  nlohmann::json fields = nlohmann::json::object();
  for (std::size_t i = 1; i < w.size(); ++i) {
    std::string word = w[i];
    auto eq = word.find('=');
    if (eq == std::string::npos) {
      // As update_job.c reads them: Nice alone is Nice=100; any other key
      // without '=' takes the next word as its value ("job 22",
      // "ArrayTaskThrottle 2").
      if (is(word, "Nice", 2)) {
        word = "Nice=100";
      } else if (i + 1 < w.size()) {
        word += "=" + w[++i];
      } else {
        return fail(fmt::format("Invalid input: {}\nRequest aborted", word));
      }
      eq = word.find('=');
    }
    const std::string key = lower(word.substr(0, eq));
    const std::string value = word.substr(eq + 1);
    if (key == "jobid" || key == "job") {
      job_text = value;
      continue;
    }
    auto canonical = update_key(key);
    if (!canonical) return not_supported(word);
    if (*canonical == "TimeLimit") {
      // Checked here, as scontrol does before it sends anything.
      if (!value.empty() && (value.front() == '+' || value.front() == '-'))
        throw Error(Errc::invalid_argument,
                    "TimeLimit=+<time> and TimeLimit=-<time> (change by an amount) are not "
                    "supported here; give the new time limit, e.g. TimeLimit=" +
                        value.substr(1));
      try {
        parse::time_limit(value);
      } catch (const Error&) {
        throw Error(Errc::invalid_argument, "Invalid TimeLimit value");
      }
    }
    if (*canonical == "SiteFactor") {
      // Checked here, as update_job.c does before it sends anything: the
      // factor is kept as NICE_OFFSET + value, within +/- (NICE_OFFSET - 3).
      constexpr long long k_max_site_factor = 2147483645;
      const long long n = std::strtoll(value.c_str(), nullptr, 10);
      if (n > k_max_site_factor || n < -k_max_site_factor)
        throw Error(Errc::invalid_argument,
                    fmt::format("SiteFactor value out of range (+/- {}). Value ignored",
                                k_max_site_factor));
    }
    if (*canonical == "StartTime") {
      // Resolved here, as Slurm's scontrol does: "now+60" counts from when it
      // was typed, not from when stintd reads it.
      try {
        fields[*canonical] = parse::date_time(value, wall_now(), parse::Resolve::future);
      } catch (const Error&) {
        throw Error(Errc::invalid_argument,
                    fmt::format("Invalid {} specification", word.substr(0, eq)));
      }
      continue;
    }
    fields[*canonical] = value;
  }
  if (!job_text) throw Error(Errc::usage, "No valid entity in update command");
  std::vector<query::JobRef> refs;
  for (const std::string& one : cli::split_job_list(*job_text)) {
    auto these = cli::job_refs_from_text(one);
    if (!these)
      return fail(fmt::format("{} for job {}", errc_slurm_message(Errc::invalid_job_id), one));
    refs.insert(refs.end(), these->begin(), these->end());
  }
  if (refs.empty())
    return fail(fmt::format("{} for job {}", errc_slurm_message(Errc::invalid_job_id), *job_text));
  if (fields.empty()) throw Error(Errc::usage, "No changes specified");
  int rc = 0;
  for (const query::JobRef& ref : refs) {
    try {
      rpc::call(default_paths(),
                {{"op", "update_job"}, {"job_id", ref_json(ref)}, {"fields", fields}});
    } catch (const Error& e) {
      if (!scontrol_common::refused_by_stintd(e)) throw;
      rc = fail(fmt::format("{} for job {}", e.what(), query::job_ref_text(ref)));
    }
  }
  return rc;
}

}  // namespace stint::tools::scontrol_update
