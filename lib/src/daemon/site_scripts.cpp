#include "daemon/site_scripts.hpp"

#include <grp.h>
#include <unistd.h>

#include <stint/parse.hpp>

#include "util/proc.hpp"

namespace stint::daemon {
namespace {

std::string group_name(std::uint32_t gid) {
  std::vector<char> buf(4096);
  group g{};
  group* found = nullptr;
  if (::getgrgid_r(gid, &g, buf.data(), buf.size(), &found) == 0 && found) return g.gr_name;
  return std::to_string(gid);
}

std::string join_ids(const std::vector<std::uint32_t>& ids) {
  std::string out;
  for (std::uint32_t i : ids) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

}  // namespace

std::vector<std::vector<std::string>> site_scripts(const Config& config, bool prolog) {
  std::vector<std::vector<std::string>> out;
  const std::string path = config.conf(prolog ? "Prolog" : "Epilog").value_or("");
  if (!path.empty()) out.push_back({path});
  for (const std::string& text : prolog ? config.prolog_bash_scripts : config.epilog_bash_scripts)
    out.push_back({"/bin/bash", "-c", text, prolog ? "prolog" : "epilog"});
  return out;
}

Environment script_environment(const Job& job, const Config& config) {
  Environment env;
  const std::string id = std::to_string(job.id);
  env.emplace_back("SLURM_JOB_ID", id);
  env.emplace_back("SLURM_JOBID", id);
  env.emplace_back("SLURM_JOB_USER", job.user_name);
  env.emplace_back("SLURM_JOB_UID", std::to_string(job.user_id));
  env.emplace_back("SLURM_JOB_GID", std::to_string(job.group_id));
  env.emplace_back("SLURM_JOB_GROUP", group_name(job.group_id));
  env.emplace_back("SLURM_JOB_PARTITION", job.partition);
  env.emplace_back("SLURM_JOB_NAME", job.spec.name);
  env.emplace_back("SLURM_JOB_ACCOUNT", job.account);
  env.emplace_back("SLURM_JOB_QOS", job.qos);
  env.emplace_back("SLURM_JOB_NODELIST", parse::compress_hostlist(job.node_names()));
  env.emplace_back("SLURM_JOB_CONSTRAINTS", "");
  env.emplace_back("SLURM_CLUSTER_NAME", config.cluster_name);
  env.emplace_back("SLURM_RESTART_COUNT", std::to_string(job.restart_count));
  if (job.is_array_task()) {
    env.emplace_back("SLURM_ARRAY_JOB_ID", std::to_string(job.array_job_id));
    env.emplace_back("SLURM_ARRAY_TASK_ID", std::to_string(job.array_task_id));
  }
  if (!job.alloc.empty() && !job.alloc.front().gpu_ids.empty()) {
    // Host indices, as slurmd gives the prolog.
    const std::string ids = join_ids(job.alloc.front().gpu_ids);
    env.emplace_back("SLURM_JOB_GPUS", ids);
    env.emplace_back("CUDA_VISIBLE_DEVICES", ids);
  }
  return env;
}

}  // namespace stint::daemon
