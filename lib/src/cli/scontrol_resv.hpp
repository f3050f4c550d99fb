#pragma once
// scontrol's reservation commands (cli/scontrol_resv.cpp). Each takes the
// words after its verb and returns scontrol's exit status.

#include <string>
#include <vector>

namespace stint::tools::scontrol_resv {

/// `scontrol create reservation ...` (or another entity, which is refused).
int create(const std::vector<std::string>& args);
/// Whether `scontrol update <args>` is a reservation's (ReservationName=
/// and no job named), as scontrol's _update_it decides.
bool is_reservation_update(const std::vector<std::string>& args);
/// `scontrol update ReservationName=X ...`.
int update(const std::vector<std::string>& args);
/// `scontrol delete ReservationName=X` or `scontrol delete reservation X`.
int remove(const std::vector<std::string>& args);
/// `scontrol show reservation [NAME]`.
int show(const std::vector<std::string>& names, bool one_liner);

}  // namespace stint::tools::scontrol_resv
