#pragma once
// scontrol's partition commands (cli/scontrol_partition.cpp): update, create
// and delete, sent to stintd (operators only). Each takes the words after its
// verb and returns scontrol's exit status.

#include <string>
#include <vector>

namespace stint::tools::scontrol_partition {

/// `scontrol update PartitionName=X Key=value ...`.
int update(const std::vector<std::string>& args);
/// `scontrol create PartitionName=X [Key=value ...]`.
int create(const std::vector<std::string>& args);
/// `scontrol delete PartitionName=X`; `value` is X, `word` the entity's word
/// as typed (Slurm's message names it).
int remove(const std::string& word, const std::string& value);

}  // namespace stint::tools::scontrol_partition
