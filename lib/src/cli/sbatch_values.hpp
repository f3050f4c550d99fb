#pragma once
// The values of sbatch's rarer options, checked as Slurm's client checks
// them (src/common/slurm_opt.c, proc_args.c) and with its messages. Pure
// functions: each returns the value as stint keeps it, or throws
// stint::Error: Errc::usage (exit 255) where Slurm's option setter fails,
// Errc::invalid_argument (exit 1) where Slurm's parse_int exits.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stint/model.hpp>

namespace stint::cli::values {

/// A count parse_int accepts: digits only; positive unless `zero_ok`.
/// "Invalid numeric value \"x\" for --opt." (exit 1).
std::uint32_t count(std::string_view text, std::string_view option, bool zero_ok = false);

/// --mail-type: the types named in `text` added to `previous` (Slurm ORs
/// repeated options together), in Slurm's print order ("BEGIN,END,FAIL");
/// "NONE" clears them. Words that are no mail type are skipped as Slurm skips
/// them, and returned in `ignored` so the tool can say so; a value with no
/// type at all is "Invalid --mail-type specification".
struct MailTypes {
  std::string types;
  std::vector<std::string> ignored;
};
MailTypes mail_type(std::string_view text, std::string_view previous);

/// --hint: compute_bound, memory_bound, multithread, nomultithread (comma
/// separated). "help" is the caller's to act on.
void hint(std::string_view text);
/// What --hint=help prints.
std::string_view hint_help();

/// -m/--distribution: block|cyclic|arbitrary|plane=N, with up to two more
/// levels after ':' (block, cyclic, fcyclic, '*') and ",Pack"/",NoPack".
/// Returns the text as given.
std::string distribution(std::string_view text);

/// --acctg-freq: N, or datatype=N pairs (task, energy, network, filesystem).
void acctg_freq(std::string_view text);
/// --cpu-freq: low, medium, high, highm1, a frequency in kHz, min-max, each
/// with an optional :governor.
void cpu_freq(std::string_view text);
/// --gpu-freq: [verbose,]low|medium|high|highm1|N, or memory=... pairs.
void gpu_freq(std::string_view text);
/// --gpu-bind: [verbose,]closest|map_gpu:L|mask_gpu:L|none|per_task:N|single:N.
void gpu_bind(std::string_view text);
/// --mem-bind: [quiet|verbose,]none|local|rank|prefer|sort|map_mem:L|mask_mem:L.
void mem_bind(std::string_view text);
/// What --mem-bind=help prints.
std::string_view mem_bind_help();

/// -B/--extra-node-info S[:C[:T]]: each a count, a min-max range or '*'
/// (any); the minimum of each, nullopt for '*'.
struct NodeShape {
  std::optional<std::uint32_t> sockets;
  std::optional<std::uint32_t> cores;
  std::optional<std::uint32_t> threads;
};
NodeShape extra_node_info(std::string_view text);

/// --get-user-env[=timeout][S|L]: the value as given, checked.
std::string get_user_env(std::string_view text);
/// -k/--no-kill[=set|off|no]: whether the job is kept when a node fails.
bool no_kill(const std::optional<std::string>& text);
/// --gres-flags: disable-binding or enforce-binding.
std::string gres_flags(std::string_view text);
/// --profile: all, none, or energy, lustre, network, task joined by ','.
std::string profile(std::string_view text);
/// --switches: count[@max-time]. Returns the text.
std::string switches(std::string_view text);
/// --propagate[=rlimits]: ALL, NONE, or names of rlimits (AS, CORE, CPU,
/// DATA, FSIZE, MEMLOCK, NOFILE, NPROC, RSS, STACK), each maybe prefixed
/// "RLIMIT_". Returns the normalised list ("ALL" for no value).
std::string propagate(const std::optional<std::string>& text);
/// --wait-all-nodes: 0 or 1.
bool wait_all_nodes(std::string_view text);
/// --export-file: NAME=value entries separated by NULs, else by newlines
/// (Slurm's env_array_from_file); lines without '=' are skipped.
std::vector<std::pair<std::string, std::string>> export_file(std::string_view text);

}  // namespace stint::cli::values
