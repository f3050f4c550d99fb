// sinfo: partitions and nodes, from stint.yaml and the active jobs' allocations.

#include <algorithm>
#include <cstdlib>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sinfo";

struct SinfoArgs {
  bool all = false;
  bool exact = false;
  std::string format;
  bool json = false;
  bool long_list = false;
  bool node = false;
  bool no_header = false;
  std::string partitions;
  bool reasons = false;
  bool reservations = false;
  bool summarize = false;
  std::int64_t verbose = 0;
};

int show(const SinfoArgs& a) {
  if (a.reservations) {
    // -T: only the reservations (sinfo's other options but -h do not apply).
    const Paths paths = default_paths();
    const format::Context ctx = cli::read_context(query::read_config(paths));
    fmt::print("{}", format::sinfo_reservations(query::read_reservations(paths), a.no_header, ctx));
    return 0;
  }
  const query::ClusterView view = query::read_cluster(default_paths());
  const format::Context ctx = cli::read_context(view.config);

  format::SinfoOptions o;
  o.format = a.format;
  if (o.format.empty()) {
    if (const char* env = std::getenv("SINFO_FORMAT")) o.format = env;
  }
  o.node_oriented = a.node;
  o.long_list = a.long_list;
  o.summarize = a.summarize;
  o.reasons = a.reasons;
  o.no_header = a.no_header;
  o.partitions = cli::split_list(a.partitions);

  if (a.json) {
    std::vector<query::NodeInfo> nodes = view.nodes;
    if (!o.partitions.empty()) {
      std::erase_if(nodes, [&](const query::NodeInfo& n) {
        return std::none_of(n.partitions.begin(), n.partitions.end(), [&](const std::string& p) {
          return std::find(o.partitions.begin(), o.partitions.end(), p) != o.partitions.end();
        });
      });
    }
    fmt::print("{}", format::sinfo_json(nodes, ctx));
    return 0;
  }
  fmt::print("{}", format::render_sinfo(view.partitions, view.nodes, o, ctx));
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sinfo: view information about nodes and partitions"};
  cli::configure_app(app, k_tool);
  // -h is --noheader, as in Slurm; help is --help only.
  app.set_help_flag("--help", "show this help message");
  SinfoArgs a;
  app.add_flag("-a,--all", a.all, "show all partitions (including hidden ones)");
  app.add_flag("-e,--exact", a.exact, "group nodes only on exact match of configuration");
  app.add_option("-o,--format", a.format, "format specification");
  app.add_flag("-h,--noheader", a.no_header, "no headers on output");
  app.add_flag("--json", a.json, "produce JSON output");
  app.add_flag("-l,--long", a.long_list, "long output - displays more information");
  app.add_flag("-N,--Node", a.node, "Node-centric format");
  app.add_option("-p,--partition", a.partitions, "report on specific partition");
  app.add_flag("-R,--list-reasons", a.reasons, "list reason nodes are down or drained");
  app.add_flag("-s,--summarize", a.summarize, "report state summary only");
  app.add_flag("-T,--reservation", a.reservations, "show only reservation information");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "verbosity level");
  if (const int rc = cli::parse_args(app, k_tool, argc, argv); rc >= 0) return rc;
  return show(a);
}

}  // namespace

int sinfo(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
