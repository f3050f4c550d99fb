#pragma once
// What the store needs of the Reason table: how many reasons there are, so a
// stored number above the last reads as none (a newer stint's reason).

#include <cstdint>

namespace stint::model_detail {

/// The highest Reason value, as a number: the table's last row.
std::int64_t last_reason_value();

}  // namespace stint::model_detail
