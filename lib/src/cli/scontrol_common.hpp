#pragma once
// What scontrol's commands share (cli/scontrol_common.cpp): its plain error
// lines, its keyword abbreviations, how a job is named to stintd and how an
// administrative request is sent.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <stint/error.hpp>
#include <stint/query.hpp>

#include "rpc/client.hpp"

namespace stint::tools::scontrol_common {

/// Prints a message the way scontrol prints its plain errors (no prefix);
/// returns 1, scontrol's exit status for it.
int fail(std::string_view message);
/// scontrol update's answer to a key it does not take: the update is not sent.
int not_supported(std::string_view word);
/// Whether `word` is `name` or an abbreviation of it of at least `min_len`
/// letters, in any case: Slurm takes "sh j" for "show job".
bool is(std::string_view word, std::string_view name, std::size_t min_len);
std::string lower(std::string_view s);
/// A job as stintd's requests name it: a number for a job or a whole array,
/// "12_3" for one task (docs/protocol.md).
nlohmann::json ref_json(const query::JobRef& ref);
/// Whether stintd answered with a refusal (printed in Slurm's words by the
/// caller), rather than not being reached or failing (the boundary's to print).
bool refused_by_stintd(const Error& e);
/// Sends a node, partition, reconfigure or shutdown request; stintd's refusal is
/// printed as Slurm's "<call> error: <message>".
int send_admin(const nlohmann::json& request, std::string_view call,
               rpc::AutoStart autostart = rpc::AutoStart::yes);

}  // namespace stint::tools::scontrol_common
