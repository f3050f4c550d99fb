// stint: the installation's own tool. init writes stint.yaml, config shows or
// checks a configuration, daemon starts, tells about or stops stintd, report draws the
// schedule, export writes a real Slurm cluster's files, version.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <sys/stat.h>

#include <stint/config.hpp>
#include <stint/config_show.hpp>
#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/stint_export.hpp"
#include "cli/stint_report.hpp"
#include "config/slurm_conf.hpp"
#include "config/warnings.hpp"
#include "rpc/client.hpp"
#include "util/fs.hpp"
#include "util/node_view.hpp"
#include "util/proc.hpp"

namespace stint::tools {
namespace {

constexpr auto k_stop_wait = std::chrono::seconds(10);

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string summary(const Config& c) {
  return fmt::format("{}, {}, {}; default partition {}", plural(c.node_pools.size(), "node pool"),
                     plural(c.nodes().size(), "node"), plural(c.partitions.size(), "partition"),
                     c.default_partition() ? c.default_partition()->id : "(none)");
}

// Pools the file's partitions name without defining them, which stint fills
// with this machine's shape: worth saying, since the file does not show them.
void print_autodetected_pools(const Config& c, std::string_view what) {
  for (const NodePool& pool : c.node_pools) {
    if (pool.origin != ConfigOrigin::autodetected) continue;
    fmt::print(
        "note: {} does not define node pool {}: it is one node of this machine's shape "
        "({} CPUs, {} MiB, {} GPUs)\n",
        what, pool.id, pool.cpus, pool.memory_mb, pool.gpus);
  }
}

// Declared nodes are seen by their tasks through namespaces (node_view.hpp);
// where this kernel gives none, the user hears it now, not from a hung
// rendezvous later.
void warn_without_node_view(const Config& c) {
  if (!c.has_virtual_nodes(proc::short_hostname())) return;
  if (const std::string why = node_view::unavailable_reason(); !why.empty())
    fmt::print(stderr, "stint init: warning: {}\n", why);
}

int init(const Paths& paths, bool force, const std::string& from) {
  std::string target = paths.config();
  if (fs::exists(target) && !force)
    throw Error(Errc::invalid_argument,
                fmt::format("{} exists; use --force to replace it", target));
  // Everything is checked before anything is written: a bad file changes nothing.
  Config c = from.empty() ? autodetect_config() : load_config(from);
  // A YAML file goes in as written, comments and all; anything else (the
  // seed's JSON) is converted.
  bool verbatim = ends_with(from, ".yaml") || ends_with(from, ".yml");
  std::string text = verbatim ? fs::read_file(from) : config_to_yaml(c);
  ensure_state_dir(paths);
  fs::write_file_atomic(target, text, 0644);
  fmt::print("Wrote {} ({})\n", target, summary(c));
  warn_without_node_view(c);
  if (from.empty()) {
    const NodePool& pool = c.node_pools.front();
    fmt::print("This machine, {}: {} CPUs, {} MiB of memory, {} GPUs{}\n", c.nodes().front().name,
               pool.cpus, pool.memory_mb, pool.gpus,
               pool.gpu_type.empty() ? "" : fmt::format(" ({})", pool.gpu_type));
  } else {
    print_autodetected_pools(c, from);
  }
  if (rpc::daemon_running(paths))
    fmt::print("stintd is running: `scontrol reconfigure` applies the new configuration\n");
  return 0;
}

// A cluster's slurm.conf (and gres.conf) as this machine's stint.yaml.
struct SlurmConfImport {
  std::string slurm_conf;
  std::string gres_conf;  ///< "": gres.conf beside slurm.conf, if there is one
  bool scale = false;
};

int init_from_slurm_conf(const Paths& paths, bool force, const SlurmConfImport& args) {
  std::string target = paths.config();
  if (fs::exists(target) && !force)
    throw Error(Errc::invalid_argument,
                fmt::format("{} exists; use --force to replace it", target));
  const slurm_conf::ReadFile read = [](const std::string& path) { return fs::read_file(path); };
  const slurm_conf::ConfFile conf =
      slurm_conf::parse_slurm_conf(read(args.slurm_conf), args.slurm_conf, read);
  // Slurm reads gres.conf from slurm.conf's folder; so does this, unless told.
  std::string gres_path = args.gres_conf;
  if (gres_path.empty()) {
    const std::size_t slash = args.slurm_conf.rfind('/');
    const std::string beside =
        (slash == std::string::npos ? std::string() : args.slurm_conf.substr(0, slash + 1)) +
        "gres.conf";
    if (fs::exists(beside)) gres_path = beside;
  }
  std::optional<slurm_conf::ConfFile> gres;
  if (!gres_path.empty()) gres = slurm_conf::parse_gres_conf(read(gres_path), gres_path, read);
  const Machine machine = detect_machine();
  const slurm_conf::Imported imported = slurm_conf::import_cluster(
      conf, gres ? &*gres : nullptr,
      args.scale ? slurm_conf::Shapes::scaled : slurm_conf::Shapes::virtual_nodes, machine);
  const std::string sources =
      gres_path.empty() ? args.slurm_conf : fmt::format("{} and {}", args.slurm_conf, gres_path);
  const std::string text = slurm_conf::imported_yaml(imported, sources, machine);
  // Checked as stintd will read it before anything is written.
  const Config c = parse_config(text, target, machine);
  ensure_state_dir(paths);
  fs::write_file_atomic(target, text, 0644);
  fmt::print("Wrote {} ({})\n", target, summary(c));
  warn_without_node_view(c);
  fmt::print("Node shapes {}\n",
             args.scale ? fmt::format("scaled to this machine ({} CPUs, {} MiB, {} GPUs)",
                                      machine.cpus, machine.memory_mb, machine.gpus)
                        : std::string("as declared (virtual nodes)"));
  // The notes imported_yaml wrote at the end, one "#   " line each.
  std::size_t notes = 0;
  for (std::size_t at = text.find("\n#   "); at != std::string::npos;
       at = text.find("\n#   ", at + 1))
    ++notes;
  if (notes > 0)
    fmt::print("{} of the cluster's settings not used here: listed at the end of {}\n", notes,
               target);
  if (rpc::daemon_running(paths))
    fmt::print("stintd is running: `scontrol reconfigure` applies the new configuration\n");
  return 0;
}

int config_show(const Paths& paths, const std::string& file) {
  Config c = file.empty() ? load_or_init_config(paths.state_dir) : load_config(file);
  fmt::print("{}", stint_config_show_text(c));
  return 0;
}

int config_check(const Paths& paths, const std::string& file) {
  std::string path = file.empty() ? paths.config() : file;
  Config c = load_config(path);
  fmt::print("{}: OK ({})\n", path, summary(c));
  print_autodetected_pools(c, "the file");
  for (const std::string& w : config_warnings(c)) fmt::print(stderr, "stint: warning: {}\n", w);
  return 0;
}

int daemon_status(const Paths& paths) {
  if (!rpc::daemon_running(paths)) {
    fmt::print("stintd is not running for {}\n", paths.state_dir);
    return 1;
  }
  nlohmann::json reply = rpc::call(paths, {{"op", "ping"}}, rpc::AutoStart::no);
  fmt::print("stintd is running for {} (pid {}, version {})\n", paths.state_dir,
             reply.value("pid", 0), reply.value("version", std::string("?")));
  return 0;
}

// As a tool starts it when it needs an answer (rpc::call): detached, and
// waited for until it answers. A system stintd's state directory is root's,
// and rpc::call refuses to start one there, naming systemctl.
int daemon_start(const Paths& paths) {
  if (rpc::daemon_running(paths)) {
    fmt::print("stintd is already running for {}\n", paths.state_dir);
    return 0;
  }
  nlohmann::json reply = rpc::call(paths, {{"op", "ping"}}, rpc::AutoStart::yes);
  fmt::print("stintd started for {} (pid {})\n", paths.state_dir, reply.value("pid", 0));
  return 0;
}

int daemon_stop(const Paths& paths) {
  if (!rpc::daemon_running(paths)) {
    fmt::print("stintd is not running for {}\n", paths.state_dir);
    return 0;
  }
  rpc::call(paths, {{"op", "shutdown"}}, rpc::AutoStart::no);
  // The reply comes before stintd has closed its socket; wait so that a script
  // running `stint daemon stop` next can rely on it being gone.
  auto deadline = std::chrono::steady_clock::now() + k_stop_wait;
  while (rpc::daemon_running(paths) || rpc::daemon_holds_lock(paths)) {
    if (std::chrono::steady_clock::now() > deadline)
      throw Error(Errc::daemon_unavailable, fmt::format("stintd for {} did not stop within {} s",
                                                        paths.state_dir, k_stop_wait.count()));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  fmt::print("stintd stopped\n");
  return 0;
}

// The bytes a database holds on disk, its WAL included.
std::uint64_t database_bytes(const std::string& path) {
  std::uint64_t total = 0;
  for (const std::string& file : {path, path + "-wal"}) {
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0) total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

// stintd compacts (it is the only writer); the tool says what it gained.
int db_compact(const Paths& paths) {
  const std::string scripts = paths.scripts_db();
  const std::uint64_t before = database_bytes(paths.db()) + database_bytes(scripts);
  rpc::call(paths, {{"op", "db_compact"}});
  const std::uint64_t after = database_bytes(paths.db()) + database_bytes(scripts);
  fmt::print("stint.db and scripts.db: {:.1f} MiB before, {:.1f} MiB after\n",
             static_cast<double>(before) / (1024.0 * 1024.0),
             static_cast<double>(after) / (1024.0 * 1024.0));
  return 0;
}

}  // namespace

int stint(int argc, char** argv) {
  return cli::run_tool("stint", [&]() -> int {
    CLI::App app{"stint: set up and look after a stint installation"};
    cli::configure_app(app, "stint");
    std::string state_dir;
    app.add_option("--state-dir", state_dir,
                   "State directory (default: $STINT_STATE_DIR, $XDG_STATE_HOME/stint, "
                   "~/.local/state/stint)");
    // At most one verb; "none" is reported after parsing so that an unknown
    // option is named as such rather than as a missing verb.
    app.require_subcommand(0, 1);

    bool force = false;
    std::string from;
    SlurmConfImport import;
    bool virtual_shapes = false;
    CLI::App* init_cmd = app.add_subcommand(
        "init", "Write stint.yaml in the state directory, autodetected or from a file");
    init_cmd->add_flag("-f,--force", force, "Replace an existing stint.yaml");
    init_cmd
        ->add_option("--from", from,
                     "Take the configuration from FILE (stint.yaml, or the JSON cluster "
                     "spec); it is checked first")
        ->type_name("FILE");
    CLI::Option* from_slurm =
        init_cmd
            ->add_option("--from-slurm-conf", import.slurm_conf,
                         "Declare a real cluster from its slurm.conf: partitions, node shapes "
                         "and the settings stint knows (the rest listed as comments)")
            ->type_name("FILE");
    from_slurm->excludes(init_cmd->get_option("--from"));
    init_cmd
        ->add_option("--gres-conf", import.gres_conf,
                     "The cluster's gres.conf, for GPU types (default: gres.conf beside "
                     "slurm.conf, if there is one)")
        ->type_name("FILE")
        ->needs(from_slurm);
    CLI::Option* scale =
        init_cmd
            ->add_flag("--scale", import.scale,
                       "Scale the node shapes to fit this machine: CPUs and memory in "
                       "proportion, GPUs capped at this machine's; node counts kept")
            ->needs(from_slurm);
    init_cmd
        ->add_flag("--virtual", virtual_shapes,
                   "Keep the node shapes as declared, as virtual nodes (the default)")
        ->needs(from_slurm)
        ->excludes(scale);

    CLI::App* config_cmd = app.add_subcommand("config", "Show or check the configuration");
    config_cmd->require_subcommand(1, 1);
    std::string show_file;
    CLI::App* show_cmd = config_cmd->add_subcommand(
        "show", "Print every setting (stint's own keys too) and where it came from");
    show_cmd->add_option("--file", show_file, "Show FILE instead of the state directory's")
        ->type_name("FILE");
    std::string check_file;
    CLI::App* check_cmd = config_cmd->add_subcommand(
        "check", "Check a configuration file (default: the state directory's stint.yaml)");
    check_cmd->add_option("file", check_file, "The file to check")->type_name("FILE");

    CLI::App* daemon_cmd = app.add_subcommand("daemon", "Start, tell about or stop stintd");
    daemon_cmd->require_subcommand(1, 1);
    CLI::App* status_cmd =
        daemon_cmd->add_subcommand("status", "Whether stintd runs (exit 0) or not (exit 1)");
    CLI::App* start_cmd = daemon_cmd->add_subcommand(
        "start", "Start stintd unless it runs, and wait until it answers");
    CLI::App* stop_cmd = daemon_cmd->add_subcommand("stop", "Stop stintd");

    CLI::App* db_cmd = app.add_subcommand("db", "Look after the state directory's databases");
    db_cmd->require_subcommand(1, 1);
    CLI::App* compact_cmd = db_cmd->add_subcommand(
        "compact", "Rewrite stint.db and scripts.db into their fewest pages (while serving)");

    cli::ReportArgs report_args;
    CLI::App* report_cmd = app.add_subcommand(
        "report", "Draw the jobs of a time window (SVG and HTML): lanes per node and GPU");
    report_cmd
        ->add_option("-S,--start", report_args.start,
                     "Start of the window, as sacct -S takes it (default: the jobs' first submit)")
        ->type_name("TIME");
    report_cmd
        ->add_option("-E,--end", report_args.end,
                     "End of the window (default: the last end, or now while jobs run)")
        ->type_name("TIME");
    report_cmd
        ->add_option("-o,--output", report_args.output,
                     "Write the SVG to FILE and the HTML page beside it (default "
                     "stint-report.svg; '-': the SVG on standard output)")
        ->type_name("FILE");
    report_cmd->add_option("--title", report_args.title, "The picture's title")->type_name("TEXT");

    cli::ExportArgs export_args;
    CLI::App* export_cmd = app.add_subcommand(
        "export", "Write the files a real Slurm cluster needs to take over from this one");
    export_cmd->require_subcommand(1, 1);
    CLI::App* export_slurm_cmd = export_cmd->add_subcommand(
        "slurm",
        "slurm.conf, gres.conf, cgroup.conf, the prolog and epilog, and the accounts "
        "(accounts.cfg for sacctmgr load, accounts.sh)");
    export_slurm_cmd
        ->add_option("-o,--output", export_args.output,
                     "The folder to write them in (made if missing; default slurm-export)")
        ->type_name("DIR");
    export_slurm_cmd
        ->add_option("--nodes", export_args.nodes,
                     "The new machines' names, one per declared node in order, as a hostlist "
                     "(node[01-04]); default: the declared names")
        ->type_name("HOSTLIST");
    export_slurm_cmd
        ->add_option("--controller", export_args.controller,
                     "SlurmctldHost (default: the first node)")
        ->type_name("HOST");
    export_slurm_cmd
        ->add_option("--conf-dir", export_args.conf_dir,
                     "Where the files will be on the cluster, for Prolog= and Epilog= "
                     "(default /etc/slurm)")
        ->type_name("DIR");
    export_slurm_cmd->add_flag("-f,--force", export_args.force,
                               "Replace files of the same names in the folder");

    CLI::App* version_cmd = app.add_subcommand("version", "Print the version");

    if (int rc = cli::parse_args(app, "stint", argc, argv); rc >= 0) return rc;
    if (app.get_subcommands().empty()) {
      fmt::print(stderr,
                 "stint: a command is required: init, config, daemon, db, report, export or "
                 "version\n"
                 "Try \"stint --help\" for more information\n");
      return 255;
    }
    Paths paths = state_dir.empty() ? default_paths() : Paths{state_dir};

    if (*init_cmd && !import.slurm_conf.empty()) return init_from_slurm_conf(paths, force, import);
    if (*init_cmd) return init(paths, force, from);
    if (*show_cmd) return config_show(paths, show_file);
    if (*check_cmd) return config_check(paths, check_file);
    if (*status_cmd) return daemon_status(paths);
    if (*start_cmd) return daemon_start(paths);
    if (*stop_cmd) return daemon_stop(paths);
    if (*compact_cmd) return db_compact(paths);
    if (*report_cmd) return cli::stint_report(paths, report_args);
    if (*export_slurm_cmd) return cli::stint_export_slurm(paths, export_args);
    if (*version_cmd) {
      fmt::print("{}\n", stint::version_line());
      return 0;
    }
    throw Error(Errc::internal, "no subcommand ran");
  });
}

}  // namespace stint::tools
