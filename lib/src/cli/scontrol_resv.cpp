// scontrol's reservation commands: create, update and delete (through
// stintd, operators only) and show (read from the database), with Slurm's
// words and messages (src/scontrol/create_res.c, info_res.c, scontrol.c).

#include "cli/scontrol_resv.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/core.h>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/reservation.hpp>

#include "cli/read_common.hpp"
#include "cli/scontrol_common.hpp"
#include "cli/scontrol_partition.hpp"
#include "model/reservation_json.hpp"
#include "rpc/client.hpp"
#include "util/clock.hpp"

namespace stint::tools::scontrol_resv {
namespace {

/// scontrol's error(): "scontrol: error: <message>".
int error_line(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "scontrol: error: {}\n", message);
  return 1;
}

/// The tag of a "Key=value" word (all of it without '=').
std::string_view tag_of(std::string_view word) { return word.substr(0, word.find('=')); }

/// Slurm's entity test: xstrncasecmp(tag, name, MAX(taglen, min)) == 0.
bool names(std::string_view tag, std::string_view name, std::size_t min) {
  return tag.size() >= min && tag.size() <= name.size() &&
         std::equal(tag.begin(), tag.end(), name.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

}  // namespace

bool is_reservation_update(const std::vector<std::string>& args) {
  bool job = false;
  bool reservation = false;
  for (const std::string& w : args) {
    const std::string_view tag = tag_of(w);
    job = job || names(tag, "JobId", 3) || names(tag, "JobNAME", 3);
    reservation = reservation || names(tag, "ReservationName", 3);
  }
  // A job's update may name a reservation too: the job comes first.
  return reservation && !job;
}

int create(const std::vector<std::string>& args) {
  // The first word naming an entity decides, as scontrol's _create_it (a
  // reservation has a PartitionName= of its own).
  for (const std::string& w : args) {
    const std::string_view tag = tag_of(w);
    if (names(tag, "NodeName", 3)) {
      return error_line(
          "Creating nodes is not supported here: declare them in stint.yaml and run scontrol "
          "reconfigure");
    }
    if (names(tag, "PartitionName", 3)) return scontrol_partition::create(args);
    if (!names(tag, "ReservationName", 3)) continue;
    ReservationRequest request;
    try {
      request = parse_reservation_words(args, ResvCommand::create, wall_now());
    } catch (const Error& e) {
      return error_line(e.what());
    }
    try {
      const nlohmann::json reply =
          rpc::call(default_paths(), {{"op", "resv_create"}, {"reservation", to_json(request)}});
      fmt::print("Reservation created: {}\n", reply.at("name").get<std::string>());
      return 0;
    } catch (const Error& e) {
      if (!scontrol_common::refused_by_stintd(e)) throw;
      scontrol_common::fail(fmt::format("Error creating the reservation: {}", e.what()));
      if (e.code() == Errc::nodes_busy || e.code() == Errc::node_config_unavailable) {
        fmt::print(
            "Note, unless nodes are directly requested a reservation must exist in a single "
            "partition.\nIf no partition is requested the default partition is assumed.\n");
      }
      return 1;
    }
  }
  return error_line(fmt::format("Invalid creation entity: {}", args.front()));
}

int update(const std::vector<std::string>& args) {
  ReservationRequest request;
  try {
    request = parse_reservation_words(args, ResvCommand::update, wall_now());
  } catch (const Error& e) {
    return error_line(e.what());
  }
  try {
    rpc::call(default_paths(), {{"op", "resv_update"}, {"reservation", to_json(request)}});
  } catch (const Error& e) {
    if (!scontrol_common::refused_by_stintd(e)) throw;
    // scontrol_update_res's perror, then _update_it's for the failed call.
    scontrol_common::fail(fmt::format("Error updating the reservation: {}", e.what()));
    return scontrol_common::fail(fmt::format("slurm_update error: {}", e.what()));
  }
  fmt::print("Reservation updated.\n");
  return 0;
}

int remove(const std::vector<std::string>& args) {
  std::string tag;
  std::string value;
  if (args.size() == 1 && args.front().find('=') != std::string::npos) {
    tag = args.front().substr(0, args.front().find('='));
    value = args.front().substr(args.front().find('=') + 1);
  } else if (args.size() == 2) {
    tag = args[0];
    value = args[1];
  } else {
    return error_line("Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'");
  }
  if (names(tag, "NodeName", 3)) {
    return error_line(
        "Deleting nodes is not supported here: remove them from stint.yaml and run scontrol "
        "reconfigure");
  }
  if (names(tag, "PartitionName", 3)) return scontrol_partition::remove(args.front(), value);
  if (!names(tag, "ReservationName", 3))
    return scontrol_common::fail(fmt::format("Invalid deletion entity: {}", args.front()));
  try {
    rpc::call(default_paths(), {{"op", "resv_delete"}, {"name", value}});
  } catch (const Error& e) {
    if (!scontrol_common::refused_by_stintd(e)) throw;
    return scontrol_common::fail(fmt::format("delete_reservation {}: {}", args.front(), e.what()));
  }
  return 0;
}

int show(const std::vector<std::string>& names_given, bool one_liner) {
  const Paths paths = default_paths();
  const Config config = query::read_config(paths);
  const format::Context ctx = cli::read_context(config);
  const std::vector<NodeDef> nodes = config.nodes();
  std::string out;
  for (const Reservation& r : query::read_reservations(paths)) {
    if (!names_given.empty() && r.name != names_given.front()) continue;
    std::uint32_t cpus = 0;
    for (const NodeDef& n : nodes) {
      if (std::find(r.nodes.begin(), r.nodes.end(), n.name) != r.nodes.end()) cpus += n.cpus;
    }
    out += format::scontrol_reservation(r, cpus, ctx, one_liner);
    if (!names_given.empty()) break;
  }
  if (out.empty()) {
    if (!names_given.empty()) {
      fmt::print("Reservation {} not found\n", names_given.front());
      return 1;
    }
    fmt::print("No reservations in the system\n");
    return 0;
  }
  fmt::print("{}", out);
  return 0;
}

}  // namespace stint::tools::scontrol_resv
