#include "cli/option_dump.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>

#include <fmt/core.h>

namespace stint::tools::option_dump {
namespace {

std::string_view yes_no(bool b) { return b ? "true" : "false"; }
/// glibc prints a null string as "(null)"; Slurm's unset options show so.
std::string or_null(const std::string& s) { return s.empty() ? std::string("(null)") : s; }

// sinfo's match flags, set by the fields of its format: -o letters and -O
// names, as _parse_format and _parse_long_format set them.
const std::map<char, std::string_view>& letter_flags() {
  static const std::map<char, std::string_view> flags = {
      {'a', "avail"},
      {'b', "features_act"},
      {'c', "cpus"},
      {'C', "cpus"},
      {'d', "disk"},
      {'E', "reason"},
      {'f', "features"},
      {'g', "groups"},
      {'G', "gres"},
      {'h', "oversubscribe"},
      {'H', "reason_timestamp"},
      {'I', "priority_job_factor"},
      {'l', "max_time"},
      {'L', "default_time"},
      {'m', "memory"},
      {'p', "priority_tier"},
      {'P', "partition"},
      {'r', "root"},
      {'R', "partition"},
      {'s', "job_size"},
      {'t', "state"},
      {'T', "state"},
      {'u', "reason_user"},
      {'U', "reason_user"},
      {'w', "weight"},
  };
  return flags;
}

const std::map<std::string, std::string_view>& name_flags() {
  static const std::map<std::string, std::string_view> flags = {
      {"allocmem", "alloc_mem"},
      {"available", "avail"},
      {"comment", "comment"},
      {"cpus", "cpus"},
      {"cpusstate", "cpus"},
      {"defaulttime", "default_time"},
      {"disk", "disk"},
      {"extra", "extra"},
      {"features", "features"},
      {"features_act", "features_act"},
      {"groups", "groups"},
      {"gres", "gres"},
      {"gresused", "gres_used"},
      {"memory", "memory"},
      {"oversubscribe", "oversubscribe"},
      {"partition", "partition"},
      {"partitionname", "partition"},
      {"port", "port"},
      {"priorityjobfactor", "priority_job_factor"},
      {"prioritytier", "priority_tier"},
      {"reason", "reason"},
      {"root", "root"},
      {"size", "job_size"},
      {"statecompact", "state"},
      {"statecomplete", "statecomplete"},
      {"statelong", "state"},
      {"time", "max_time"},
      {"timestamp", "reason_timestamp"},
      {"user", "reason_user"},
      {"userlong", "reason_user"},
      {"weight", "weight"},
  };
  return flags;
}

std::set<std::string_view> flags_of_letters(const std::string& format) {
  std::set<std::string_view> out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    std::size_t j = i + 1;
    while (j < format.size() && (format[j] == '.' || format[j] == '#' ||
                                 std::isdigit(static_cast<unsigned char>(format[j]))))
      ++j;
    if (j >= format.size()) break;
    if (auto it = letter_flags().find(format[j]); it != letter_flags().end())
      out.insert(it->second);
    i = j;
  }
  return out;
}

std::set<std::string_view> flags_of_names(const std::string& format) {
  std::set<std::string_view> out;
  std::size_t start = 0;
  while (start < format.size()) {
    std::size_t end = format.find(',', start);
    if (end == std::string::npos) end = format.size();
    std::string name = format.substr(start, end - start);
    name = name.substr(0, name.find(':'));
    std::erase_if(name, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (auto it = name_flags().find(name); it != name_flags().end()) out.insert(it->second);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string sinfo(const SinfoOptions& o) {
  // The format Slurm settles on (opts.c): -o as given, else -O or a default
  // in its long form.
  std::string format = !o.format.empty() ? o.format : o.long_format;
  bool long_form = format.empty() || !o.long_format.empty();
  bool def_format = format.empty();
  bool part_field = false;
  bool node_field = false;
  if (def_format) {
    const char* env = std::getenv("SINFO_FORMAT");
    if (o.summarize) {
      part_field = true;
      format = "partition:9 ,available:.5 ,time:.10 ,nodeaiot:.16 ,nodelist:0";
    } else if (o.node_flag) {
      part_field = node_field = true;
      format = o.long_output ? "nodelist:0 ,nodes:.6 ,partition:.9 ,statelong:.11 ,cpus:4 "
                               ",socketcorethread:.8 ,memory:.6 ,disk:.8 ,weight:.6 "
                               ",features:.8 ,reason:20"
                             : "nodelist:0 ,nodes:.6 ,partition:.9 ,statecompact:6";
    } else if (o.list_reasons) {
      format = o.long_output ? "reason:20 ,userlong:12 ,timestamp:19 ,statecompact:6 ,nodelist:0"
                             : "reason:20 ,user:9 ,timestamp:19 ,nodelist:0";
    } else if (env != nullptr && *env != '\0') {
      format = env;
      long_form = false;
    } else {
      part_field = true;
      format = o.long_output ? "partition:9 ,available:.5 ,time:.10 ,size:.10 ,root:.4 "
                               ",oversubscribe:.8 ,groups:.10 ,nodes:.6 ,statelong:.11 "
                               ",nodelist:0"
                             : "partition:9 ,available:.5 ,time:.10 ,nodes:.6 ,statecompact:.6 "
                               ",nodelist:0";
    }
  }
  const std::set<std::string_view> flags =
      long_form ? flags_of_names(format) : flags_of_letters(format);
  auto flag = [&flags](std::string_view name) { return yes_no(flags.count(name) > 0); };
  const bool filtering = o.dead || !o.nodes.empty() || !o.partition.empty() || o.responding ||
                         !o.states.empty() || o.list_reasons;
  std::string states = o.states;
  if (o.list_reasons && states.empty()) states = "down,fail,drain";

  std::string out = "-----------------------------\n";
  out += fmt::format("dead        = {}\n", yes_no(o.dead));
  out += fmt::format("exact       = {}\n", o.exact ? 1 : 0);
  out += fmt::format("filtering   = {}\n", yes_no(filtering));
  out += fmt::format("format      = {}\n", format);
  out += fmt::format("iterate     = {}\n", o.iterate);
  out += fmt::format("long        = {}\n", yes_no(o.long_output));
  out += fmt::format("no_header   = {}\n", yes_no(o.no_header));
  out += fmt::format("node_field  = {}\n", yes_no(node_field));
  out += fmt::format("node_format = {}\n", yes_no(o.node_flag));
  out += fmt::format("nodes       = {}\n", o.nodes.empty() ? "n/a" : o.nodes);
  out += fmt::format("part_field  = {}\n", yes_no(part_field));
  out += fmt::format("partition   = {}\n", o.partition.empty() ? "n/a" : o.partition);
  out += fmt::format("responding  = {}\n", yes_no(o.responding));
  out += fmt::format("states      = {}\n", or_null(states));
  out += fmt::format("sort        = {}\n", or_null(o.sort));
  out += fmt::format("summarize   = {}\n", yes_no(o.summarize));
  out += fmt::format("verbose     = {}\n", o.verbose);
  out += "-----------------------------\n";
  out += fmt::format("all_flag        = {}\n", yes_no(o.all));
  out += fmt::format("alloc_mem_flag  = {}\n", flag("alloc_mem"));
  out += fmt::format("avail_flag      = {}\n", flag("avail"));
  out += fmt::format("comment_flag    = {}\n", flag("comment"));
  out += fmt::format("cpus_flag       = {}\n", flag("cpus"));
  out += fmt::format("default_time_flag ={}\n", flag("default_time"));
  out += fmt::format("disk_flag       = {}\n", flag("disk"));
  out += fmt::format("extra_flag      = {}\n", flag("extra"));
  out += fmt::format("features_flag   = {}\n", flag("features"));
  out += fmt::format("features_flag_act = {}\n", flag("features_act"));
  out += fmt::format("groups_flag     = {}\n", flag("groups"));
  out += fmt::format("gres_flag       = {}\n", flag("gres"));
  out += fmt::format("gres_used_flag  = {}\n", flag("gres_used"));
  out += fmt::format("job_size_flag   = {}\n", flag("job_size"));
  out += fmt::format("max_time_flag   = {}\n", flag("max_time"));
  out += fmt::format("memory_flag     = {}\n", flag("memory"));
  out += fmt::format("partition_flag  = {}\n", flag("partition"));
  out += fmt::format("port_flag       = {}\n", flag("port"));
  out += fmt::format("priority_job_factor_flag   = {}\n", flag("priority_job_factor"));
  out += fmt::format("priority_tier_flag   = {}\n", flag("priority_tier"));
  out += fmt::format("reason_flag     = {}\n", flag("reason"));
  out += fmt::format("reason_timestamp_flag = {}\n", flag("reason_timestamp"));
  out += fmt::format("reason_user_flag = {}\n", flag("reason_user"));
  out += fmt::format("reservation_flag = {}\n", yes_no(o.reservation));
  out += fmt::format("root_flag       = {}\n", flag("root"));
  out += fmt::format("oversubscribe_flag      = {}\n", flag("oversubscribe"));
  out += fmt::format("state_flag      = {}\n", flag("state"));
  out += fmt::format("statecomplete_flag = {}\n", flag("statecomplete"));
  out += fmt::format("weight_flag     = {}\n", flag("weight"));
  out += "-----------------------------\n\n";
  return out;
}

std::string squeue(const SqueueOptions& o) {
  std::string out = "-----------------------------\n";
  out += fmt::format("all         = {}\n", yes_no(o.all));
  out += fmt::format("array       = {}\n", yes_no(o.array));
  out += fmt::format("federation  = {}\n", yes_no(o.federation));
  out += fmt::format("format      = {}\n", or_null(o.format));
  out += fmt::format("iterate     = {}\n", o.iterate);
  out += fmt::format("job_flag    = {}\n", o.job_flag ? 1 : 0);
  out += fmt::format("jobs        = {}\n", or_null(o.jobs));
  out += fmt::format("licenses    = {}\n", or_null(o.licenses));
  out += fmt::format("local       = {}\n", yes_no(o.local));
  out += fmt::format("names       = {}\n", or_null(o.names));
  out += fmt::format("nodes       = {}\n", o.nodes);
  out += fmt::format("partitions  = {}\n", or_null(o.partitions));
  out += fmt::format("priority    = {}\n", yes_no(o.priority));
  out += fmt::format("reservation = {}\n", or_null(o.reservation));
  out += fmt::format("sibling      = {}\n", yes_no(o.sibling));
  out += fmt::format("sort        = {}\n", or_null(o.sort));
  out += fmt::format("start_flag  = {}\n", o.start ? 1 : 0);
  out += fmt::format("states      = {}\n", or_null(o.states));
  out += fmt::format("step_flag   = {}\n", o.steps_flag ? 1 : 0);
  out += fmt::format("steps       = {}\n", or_null(o.steps));
  out += fmt::format("users       = {}\n", or_null(o.users));
  out += fmt::format("verbose     = {}\n", o.verbose);
  out += "-----------------------------\n\n\n";
  return out;
}

}  // namespace stint::tools::option_dump
