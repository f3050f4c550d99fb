#pragma once
// What sinfo -v and squeue -v print before their output: Slurm's dump of the
// options as the tool read them (src/sinfo/opts.c and src/squeue/opts.c,
// _print_options), field for field, so that a script or Slurm's own test
// suite reading it finds what it looks for.

#include <cstdint>
#include <string>

namespace stint::tools::option_dump {

/// sinfo's options, as its _print_options names them.
struct SinfoOptions {
  bool all = false;
  bool dead = false;
  bool exact = false;
  std::string format;       ///< as given with -o (or SINFO_FORMAT); empty: the default
  std::string long_format;  ///< as given with -O
  std::int64_t iterate = 0;
  bool long_output = false;
  bool no_header = false;
  bool node_flag = false;  ///< -N
  std::string nodes;       ///< -n
  std::string partition;   ///< -p
  bool responding = false;
  bool list_reasons = false;
  bool reservation = false;  ///< -T
  std::string states;
  std::string sort;
  bool summarize = false;
  std::int64_t verbose = 0;
};

/// The dump, ending in its separator line and a blank line.
std::string sinfo(const SinfoOptions& o);

/// squeue's options, as its _print_options names them.
struct SqueueOptions {
  bool all = false;
  bool array = false;
  bool federation = false;
  std::string format;  ///< empty: "(null)", as Slurm prints an unset one
  std::int64_t iterate = 0;
  bool job_flag = false;
  std::string jobs;
  std::string licenses;
  bool local = false;
  std::string names;
  std::string nodes;
  std::string partitions;
  bool priority = false;
  std::string reservation;
  bool sibling = false;
  std::string sort;
  bool start = false;
  std::string states;
  bool steps_flag = false;
  std::string steps;
  std::string users;
  std::int64_t verbose = 0;
};

std::string squeue(const SqueueOptions& o);

}  // namespace stint::tools::option_dump
