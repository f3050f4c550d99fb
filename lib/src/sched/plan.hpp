#pragma once
// The backfill plan: for each node, what is used over time (running jobs
// until their time limits, jobs started or reserved by this pass), in counts
// of CPUs, GPUs and memory. A job's place in it is the earliest time from
// which enough nodes have room for it for its whole time limit.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sched/sched.hpp"

namespace stint::sched {

/// A time later than any plan looks at: a job without a time limit ends then.
inline constexpr Seconds k_plan_forever = Seconds{1} << 50;

/// A job's least time limit for the plan: its --time-min when that is
/// shorter than `duration` (its limit, or k_plan_forever), else `duration`.
Seconds least_duration(const Job& job, Seconds duration);
/// The limit a job with --time-min starts with: its own (`duration`) cut to
/// the whole minutes of `room` it has, never below `least`.
Seconds time_min_limit(Seconds room, Seconds least, Seconds duration);

/// What a job asks of its set of nodes beyond each node's room.
struct NodeSetRules {
  /// Nodes (a mask in the cluster's order) that must all be in the set.
  const std::vector<bool>* required = nullptr;
  bool contiguous = false;  ///< adjacent in the cluster's order
};

class Plan {
 public:
  /// The nodes and running jobs of `cluster` at `now`; times are rounded up
  /// to `resolution` seconds (bf_resolution).
  Plan(const Cluster& cluster, Seconds now, Seconds resolution);

  struct Place {
    Seconds start = 0;
    std::vector<std::string> nodes;
  };
  /// The earliest start no later than `latest` at which `req` has room on
  /// `req.nodes` of the `allowed` nodes for `duration` seconds.
  std::optional<Place> earliest(const ResourceRequest& req, const std::vector<std::string>& allowed,
                                Seconds duration, Seconds latest) const;
  /// The same, with the allowed nodes as a mask over the cluster's nodes in
  /// order (allowed_mask(names)): the pass asks this for every job.
  std::optional<Place> earliest(const ResourceRequest& req, const std::vector<bool>& allowed,
                                Seconds duration, Seconds latest, const NodeSetRules& rules = {}) const;
  std::vector<bool> allowed_mask(const std::vector<std::string>& names) const;
  /// How long from `start` `req` has room on every one of `nodes`, at most
  /// `longest` (sched/time_min.cpp).
  Seconds room(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
               Seconds longest) const;
  /// Holds room for `req` on `nodes` from `start` for `duration`.
  void add(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
           Seconds duration);
  /// Gives back room add() held: a reservation's hold on its nodes, lifted
  /// while a job of that reservation is placed (sched/reservation.cpp).
  void remove(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
              Seconds duration);

 private:
  /// What a node has in use from `time` until the next step's time (the last
  /// step lasts for ever).
  struct Step {
    Seconds time = 0;
    std::uint64_t cpus = 0;
    std::uint64_t gpus = 0;
    std::uint64_t mem_mb = 0;
  };
  struct Node {
    const NodeUsage* usage = nullptr;
    std::vector<Step> steps;  ///< sorted by time; the first is at the plan's now
  };
  bool eligible(const Node& n, const ResourceRequest& req) const;
  /// Whether `req` has room on `n` while step `s` is in force.
  static bool fits(const Node& n, const Step& s, const ResourceRequest& req);
  /// The earliest start at or after `from` at which `n` has room for
  /// [start, start + duration), no later than `latest`.
  std::optional<Seconds> node_earliest(const Node& n, const ResourceRequest& req, Seconds duration,
                                       Seconds latest) const;
  /// Makes `t` a step of `n` and returns its index.
  std::size_t split(Node& n, Seconds t);
  Seconds round_up(Seconds t) const;
  Node* node(const std::string& name);

  Seconds m_now;
  Seconds m_resolution;
  std::vector<Node> m_nodes;
};

}  // namespace stint::sched
