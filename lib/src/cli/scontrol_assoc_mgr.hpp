#pragma once
// scontrol show assoc_mgr (cli/scontrol_assoc_mgr.cpp): the users,
// associations and QOS the controller enforces limits with, and what the
// live jobs use of each limit, in the layout of Slurm's info_assoc_mgr.c.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/model.hpp>

#include "sched/fairshare.hpp"

namespace stint::tools::scontrol_assoc_mgr {

/// What to show: Slurm's request (users=, accounts=, qos=, flags=).
struct Request {
  std::vector<std::string> users;
  std::vector<std::string> accounts;
  std::vector<std::string> qos;
  bool show_users = true;
  bool show_assocs = true;
  bool show_qos = true;
};

/// Reads the words after "show assoc_mgr" as scontrol does (each Key=value,
/// keys by their first letter or more); throws Errc::usage with scontrol's
/// message on a word it does not take.
Request parse_request(const std::vector<std::string>& words);

/// What the printer needs beyond the records; kept apart so that a test can
/// give fixed values.
struct State {
  std::string cluster;
  Accounting data;
  std::vector<Job> live_jobs;  ///< pending, running and suspended jobs
  sched::FairShare fair_share;
  std::vector<std::string>
      tres_names;                 ///< Slurm's TRES order: cpu, mem, energy, node, billing, ...
  std::uint64_t node_mem_mb = 0;  ///< what a whole-node job's memory stands for
  Seconds now = 0;
  std::function<std::uint32_t(const std::string&)> uid_of;  ///< a user's uid
};

/// The text scontrol prints, `one_liner` for -o.
std::string format(const State& s, const Request& r, bool one_liner);

/// `scontrol show assoc_mgr ...`: reads the state directory and prints;
/// returns scontrol's exit status.
int show(const std::vector<std::string>& words, bool one_liner);

}  // namespace stint::tools::scontrol_assoc_mgr
