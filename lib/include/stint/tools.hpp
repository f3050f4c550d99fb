#pragma once
/// The tools' entry points: each executable's main is one call to one of these.
/// Each parses its own command line, does its work through the library, prints,
/// and returns the exit status; errors are printed by the one boundary in
/// cli/boundary.cpp as `<tool>: error: <message>`.

#include <string>
#include <string_view>

#include <stint/export.hpp>

STINT_API_BEGIN
namespace stint {

std::string_view version();
/// The Slurm release whose interface the tools follow ("22.05.8"): what
/// --version, scontrol show config's SLURM_VERSION and a node's Version say.
std::string_view slurm_release();
/// What every tool's --version prints: the Slurm release whose interface the
/// tools follow, then stint's own ("slurm 22.05.8 (stint 0.1.0)"). Scripts
/// and Slurm's test suite parse the first two words.
std::string version_line();

namespace tools {
int sbatch(int argc, char** argv);
int squeue(int argc, char** argv);
int scancel(int argc, char** argv);
int sinfo(int argc, char** argv);
int scontrol(int argc, char** argv);
int sacct(int argc, char** argv);
int sacctmgr(int argc, char** argv);  ///< accounts, users, associations, QOS
int sprio(int argc, char** argv);     ///< priority factors of pending jobs
int sshare(int argc, char** argv);    ///< fair share of the associations
int srun(int argc, char** argv);      ///< job steps inside an allocation, or one of its own
int salloc(int argc, char** argv);    ///< an allocation held while a command runs here
int sstat(int argc, char** argv);     ///< live CPU and memory of a running job's steps
int sattach(int argc, char** argv);   ///< the standard I/O of a running job step
int stint(int argc, char** argv);     ///< init, config show, daemon status|stop, version
int stintd(int argc, char** argv);    ///< the controller daemon
int stepd(int argc, char** argv);     ///< stint-stepd, one task of one job on one node
// Runs, the NSML way.
int run_create(int argc, char** argv);
int run_clone(int argc, char** argv);
int run_stop(int argc, char** argv);
int run_list(int argc, char** argv);
int run_show(int argc, char** argv);
int run_logs(int argc, char** argv);
int run_plot(int argc, char** argv);     ///< learning curves of runs (SVG and HTML)
int run_storage(int argc, char** argv);  ///< create|list|delete named folders kept across runs
int run_exec(int argc, char** argv);     ///< a command inside a run's node
int run_project(int argc, char** argv);  ///< create|list the projects runs belong to
int run_delete(int argc, char** argv);   ///< ended runs leave the run tools
}  // namespace tools
}  // namespace stint
STINT_API_END
