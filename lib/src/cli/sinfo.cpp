// sinfo: partitions and nodes, from stint.yaml and the active jobs' allocations.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <utility>

#include <fmt/core.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/option_dump.hpp"
#include "cli/read_common.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sinfo";

struct SinfoArgs {
  bool all = false;
  std::string clusters;
  bool dead = false;
  bool exact = false;
  bool federation = false;
  std::string format;
  std::string format_long;
  std::string iterate;
  bool json = false;
  bool local = false;
  bool long_list = false;
  bool node = false;
  std::string nodes;
  bool no_convert = false;
  bool no_header = false;
  std::string partitions;
  bool reasons = false;
  bool reservations = false;
  bool responding = false;
  std::string sort;
  std::string states;
  bool summarize = false;
  std::int64_t verbose = 0;
  bool yaml = false;
};

void error_line(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, message);
}

// -t: whether a node is in one of the states named (a prefix of a state's
// name, any case, as Slurm matches them). Throws for a name that is none.
bool state_named(std::string_view word, const query::NodeInfo& n) {
  using query::NodeState;
  auto is = [word](std::string_view name) {
    if (word.empty() || word.size() > name.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(word[i])) != name[i]) return false;
    return true;
  };
  // DRAIN is a flag over a base state in Slurm: a drained node is idle, a
  // draining one allocated or mixed, and -t matches the base state too.
  const NodeState base = n.admin == NodeAdminState::down_drain ? NodeState::down
                         : n.state == NodeState::drained || n.state == NodeState::draining
                             ? n.alloc_state
                             : n.state;
  if (is("idle")) return base == NodeState::idle;
  if (is("down")) return base == NodeState::down;
  if (is("allocated") || is("alloc")) return base == NodeState::allocated;
  if (is("mixed") || is("mix")) return base == NodeState::mixed;
  if (is("completing") || is("comp")) return base == NodeState::completing;
  if (is("drain")) return n.state == NodeState::drained || n.state == NodeState::draining;
  if (is("drained")) return n.state == NodeState::drained;
  if (is("draining") || is("drng")) return n.state == NodeState::draining;
  if (is("reserved") || is("resv")) return n.reserved;
  if (is("maint")) return n.maint;
  // States of facilities this machine has none of: no node is in them.
  for (std::string_view none :
       {"unknown", "error", "future", "planned", "plnd", "perfctrs", "npc", "no_respond",
        "powering_down", "powered_down", "power_down", "powering_up", "fail", "reboot_requested",
        "reboot_issued", "cloud"}) {
    if (is(none)) return false;
  }
  throw Error(Errc::invalid_argument, fmt::format("Bad state string: \"{}\"", word));
}

constexpr std::string_view k_valid_states =
    "unknown,down,idle,allocated,error,mixed,future,drain,drained,draining,no_respond,reserved,"
    "perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint,"
    "reboot_requested,reboot_issued,planned";

// -O's field names and the -o letter each is.
constexpr std::pair<std::string_view, char> k_long_fields[] = {
    {"available", 'a'},
    {"cluster", 'V'},
    {"cpus", 'c'},
    {"cpusload", 'O'},
    {"freemem", 'e'},
    {"cpusstate", 'C'},
    {"cores", 'Y'},
    {"defaulttime", 'L'},
    {"disk", 'd'},
    {"features", 'f'},
    {"features_act", 'b'},
    {"groups", 'g'},
    {"gres", 'G'},
    {"memory", 'm'},
    {"nodes", 'D'},
    {"nodeaddr", 'o'},
    {"nodeai", 'A'},
    {"nodeaiot", 'F'},
    {"nodehost", 'n'},
    {"nodelist", 'N'},
    {"partition", 'P'},
    {"partitionname", 'R'},
    {"prioritytier", 'p'},
    {"reason", 'E'},
    {"root", 'r'},
    {"oversubscribe", 'h'},
    {"share", 'h'},
    {"size", 's'},
    {"statecompact", 't'},
    {"statelong", 'T'},
    {"sockets", 'X'},
    {"socketcorethread", 'z'},
    {"time", 'l'},
    {"timestamp", 'H'},
    {"threads", 'Z'},
    {"user", 'u'},
    {"userlong", 'U'},
    {"weight", 'w'},
    // No -o letter in Slurm: format/sinfo.cpp's own codes.
    {"allocmem", '~'},
    {"allocnodes", '!'},
    {"comment", '$'},
    {"extra", '&'},
    {"gresused", '+'},
    {"maxcpuspernode", '^'},
    {"priorityjobfactor", '='},
    {"version", '@'},
    {"preemptmode", '*'},
    {"statecomplete", '#'},
};

// -O "type[:[.][size][suffix]],...": the same fields as -o, 20 wide unless
// a size is given.
std::string format_from_long(const std::string& text) {
  std::string out;
  for (const std::string& token : cli::split_list(text)) {
    const std::size_t colon = token.find(':');
    std::string name = token.substr(0, colon);
    std::string spec = colon == std::string::npos ? "" : token.substr(colon + 1);
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto* it = std::find_if(std::begin(k_long_fields), std::end(k_long_fields),
                                  [&](const auto& f) { return f.first == lower; });
    if (it == std::end(k_long_fields)) {
      std::string names;
      for (const auto& f : k_long_fields)
        names += (names.empty() ? "" : ",") + std::string(f.first);
      throw Error(Errc::invalid_argument,
                  fmt::format("Invalid node format specification: {} (the fields this machine "
                              "has are: {})",
                              name, names));
    }
    std::string align;
    if (!spec.empty() && spec.front() == '.') {
      align = ".";
      spec.erase(0, 1);
    }
    std::size_t digits = 0;
    while (digits < spec.size() && std::isdigit(static_cast<unsigned char>(spec[digits]))) ++digits;
    const std::string size = digits == 0 ? "20" : spec.substr(0, digits);
    out += fmt::format("%{}{}{}{}", align, size, it->second, spec.substr(digits));
  }
  return out;
}

int show(const SinfoArgs& a, const Paths& paths, const Config& config) {
  if (a.reservations) {
    // -T: only the reservations (sinfo's other options but -h do not apply).
    const format::Context ctx = cli::read_context(config);
    fmt::print("{}", format::sinfo_reservations(query::read_reservations(paths), a.no_header, ctx));
    return 0;
  }
  const query::ClusterView view = query::read_cluster(paths);
  format::Context ctx = cli::read_context(view.config);
  ctx.no_convert = a.no_convert;

  format::SinfoOptions o;
  o.format = a.format_long.empty() ? a.format : format_from_long(a.format_long);
  if (o.format.empty()) {
    if (const char* env = std::getenv("SINFO_FORMAT")) o.format = env;
  }
  o.node_oriented = a.node;
  o.long_list = a.long_list;
  o.summarize = a.summarize;
  o.reasons = a.reasons;
  o.no_header = a.no_header;
  o.partitions = cli::split_list(a.partitions);
  o.sort = a.sort;
  o.exact = a.exact;
  if (o.sort.empty()) {
    if (const char* env = std::getenv("SINFO_SORT")) o.sort = env;
  }

  std::vector<query::NodeInfo> nodes = view.nodes;
  // Every node here answers (they are this machine's), so -d finds none
  // and -r keeps them all.
  if (a.dead) nodes.clear();
  if (!a.nodes.empty()) {
    std::vector<std::string> names;
    try {
      names = parse::expand_hostlist(a.nodes);
    } catch (const Error&) {
      error_line(fmt::format("'{}' invalid entry for --nodes", a.nodes));
      return 1;
    }
    std::erase_if(nodes, [&](const query::NodeInfo& n) {
      return std::find(names.begin(), names.end(), n.name) == names.end();
    });
  }
  if (!a.states.empty() && a.states != "all" && a.states != "ALL") {
    // "a&b": every one of the states; "a,b": any of them.
    const bool every = a.states.find('&') != std::string::npos;
    std::vector<std::string> split;
    std::string word;
    for (const char c : a.states + ",") {
      if (c != ',' && c != '&') {
        word += c;
      } else if (!word.empty()) {
        split.push_back(std::exchange(word, {}));
      }
    }
    for (const std::string& w : split) {
      try {
        state_named(w, query::NodeInfo{});
      } catch (const Error& e) {
        error_line(e.what());
        error_line(fmt::format("valid states: {}", k_valid_states));
        return 1;
      }
    }
    std::erase_if(nodes, [&](const query::NodeInfo& n) {
      auto named = [&](const std::string& w) { return state_named(w, n); };
      return every ? !std::all_of(split.begin(), split.end(), named)
                   : std::none_of(split.begin(), split.end(), named);
    });
  }
  o.hide_empty = a.dead || !a.nodes.empty() || !a.states.empty();

  if (a.json || a.yaml) {
    if (!o.partitions.empty()) {
      std::erase_if(nodes, [&](const query::NodeInfo& n) {
        return std::none_of(n.partitions.begin(), n.partitions.end(), [&](const std::string& p) {
          return std::find(o.partitions.begin(), o.partitions.end(), p) != o.partitions.end();
        });
      });
    }
    const std::string json = format::sinfo_json(nodes, ctx);
    fmt::print("{}", a.yaml ? format::yaml_from_json(json) : json);
    return 0;
  }
  fmt::print("{}", format::render_sinfo(view.partitions, nodes, o, ctx));
  return 0;
}

int report(const SinfoArgs& a) {
  if (a.long_list && !a.format.empty()) {
    std::fflush(stdout);
    fmt::print(stderr,
               "{}: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please "
               "remove one and retry.\n",
               k_tool);
    return 1;
  }
  int iterate = 0;
  if (!a.iterate.empty()) {
    iterate = std::atoi(a.iterate.c_str());
    if (iterate <= 0) {
      error_line(fmt::format("Error: invalid entry for --iterate={}", a.iterate));
      return 1;
    }
  }
  const Paths paths = default_paths();
  cli::warn_if_stale("sinfo", paths);
  const Config config = query::read_config(paths);
  std::string clusters = a.clusters;
  bool from_env = false;
  if (clusters.empty()) {
    if (const char* env = std::getenv("SLURM_CLUSTERS")) clusters = env;
    from_env = !clusters.empty();
  }
  if (const auto unknown = cli::unknown_clusters(clusters, config.cluster_name, from_env)) {
    error_line(*unknown);
    return 1;
  }
  if (a.verbose > 0) {
    option_dump::SinfoOptions o;
    o.all = a.all;
    o.dead = a.dead;
    o.exact = a.exact;
    o.format = a.format;
    o.long_format = a.format_long;
    o.iterate = iterate;
    o.long_output = a.long_list;
    o.no_header = a.no_header;
    o.node_flag = a.node;
    o.nodes = a.nodes;
    o.partition = a.partitions;
    o.responding = a.responding;
    o.list_reasons = a.reasons;
    o.reservation = a.reservations;
    o.states = a.states;
    o.sort = a.sort;
    o.summarize = a.summarize;
    o.verbose = a.verbose;
    fmt::print("{}", option_dump::sinfo(o));
  }
  for (;;) {
    // -l prints its own date line; -i and -v print one too.
    if (!a.no_header && !a.long_list && !a.json && !a.yaml && (iterate > 0 || a.verbose > 0))
      fmt::print("{}\n", format::date_line(static_cast<Seconds>(std::time(nullptr))));
    if (!clusters.empty() && !a.no_header && !a.json && !a.yaml)
      fmt::print("CLUSTER: {}\n", config.cluster_name);
    if (const int rc = show(a, paths, config); rc != 0 || iterate == 0) return rc;
    fmt::print("\n");
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(iterate));
  }
}

int run(int argc, char** argv) {
  CLI::App app{"sinfo: view information about nodes and partitions"};
  cli::configure_app(app, k_tool);
  // -h is --noheader, as in Slurm; help is --help only.
  app.set_help_flag("--help", "show this help message");
  SinfoArgs a;
  a.all = std::getenv("SINFO_ALL") != nullptr;
  a.federation = std::getenv("SINFO_FEDERATION") != nullptr;
  a.local = std::getenv("SINFO_LOCAL") != nullptr;
  app.add_flag("-a,--all", a.all, "show all partitions (including hidden ones)");
  app.add_flag("-d,--dead", a.dead, "show only non-responding nodes (none here)");
  app.add_flag("-e,--exact", a.exact, "group nodes only on exact match of configuration");
  app.add_flag("--federation", a.federation,
               "report federated information if a member of one (none here)");
  app.add_option("-o,--format", a.format, "format specification");
  app.add_option("-O,--Format", a.format_long, "long format specification");
  app.add_flag("-h,--noheader", a.no_header, "no headers on output");
  app.add_flag_callback(
      "--hide", [&a] { a.all = false; }, "do not show hidden or non-accessible partitions");
  app.add_option("-i,--iterate", a.iterate, "specify an iteration period");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_flag("--local", a.local, "show only local cluster in a federation (the only one here)");
  app.add_flag("-l,--long", a.long_list, "long output - displays more information");
  app.add_option("-M,--clusters", a.clusters,
                 "cluster to issue commands to (this cluster's name, or all)");
  app.add_option("-n,--nodes", a.nodes, "report on specific node(s)");
  app.add_flag("--noconvert", a.no_convert,
               "don't convert units from their original type (e.g. 2048M won't be converted to "
               "2G)");
  app.add_flag("-N,--Node", a.node, "Node-centric format");
  app.add_option("-p,--partition", a.partitions, "report on specific partition");
  app.add_flag("-r,--responding", a.responding, "report only responding nodes (all here)");
  app.add_flag("-R,--list-reasons", a.reasons, "list reason nodes are down or drained");
  app.add_flag("-s,--summarize", a.summarize, "report state summary only");
  app.add_option("-S,--sort", a.sort, "comma separated list of fields to sort on");
  app.add_option("-t,--states", a.states, "specify the what states of nodes to view");
  app.add_flag("-T,--reservation", a.reservations, "show only reservation information");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  app.add_flag("--yaml", a.yaml, "produce YAML output");

  // Slurm's own getopt table: its long names, in its order.
  static const cli::GetoptRules rules{{{"all", "--all"},
                                       {"dead", "--dead"},
                                       {"exact", "--exact"},
                                       {"federation", "--federation"},
                                       {"help", "--help"},
                                       {"hide", "--hide"},
                                       {"iterate", "--iterate"},
                                       {"local", "--local"},
                                       {"long", "--long"},
                                       {"cluster", "--clusters"},
                                       {"clusters", "--clusters"},
                                       {"nodes", "--nodes"},
                                       {"noconvert", "--noconvert"},
                                       {"noheader", "--noheader"},
                                       {"Node", "--Node"},
                                       {"format", "--format"},
                                       {"Format", "--Format"},
                                       {"partition", "--partition"},
                                       {"responding", "--responding"},
                                       {"list-reasons", "--list-reasons"},
                                       {"summarize", "--summarize"},
                                       {"sort", "--sort"},
                                       {"states", "--states"},
                                       {"reservation", "--reservation"},
                                       {"usage", "--usage"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"},
                                       {"json", "--json"},
                                       {"yaml", "--yaml"}},
                                      {},
                                      1};
  std::vector<std::string> operands;
  if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, operands); rc >= 0)
    return rc;
  if (!operands.empty()) {
    error_line(fmt::format("Unrecognized option: {}", operands.front()));
    return 1;
  }
  // Every partition, or some: Slurm refuses both at once, from either source.
  const char* env_partition = std::getenv("SINFO_PARTITION");
  if (std::getenv("SINFO_ALL") != nullptr && env_partition != nullptr) {
    error_line(
        "Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one "
        "or the other.");
    return 1;
  }
  if (app.count("--all") > 0 && app.count("--partition") > 0) {
    error_line("Conflicting options, -a and -p, specified. Please choose one or the other.");
    return 1;
  }
  if (a.partitions.empty() && env_partition != nullptr) a.partitions = env_partition;
  return report(a);
}

}  // namespace

int sinfo(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
