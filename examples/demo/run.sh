#!/usr/bin/env bash
# The demo workload: a few jobs of different sizes on the default cluster, one
# that fails and one that times out; then squeue, sinfo and sacct.
# Usage: examples/demo/run.sh BIN_DIR   (BIN_DIR holds sbatch, squeue, ...)
set -euo pipefail
bin=${1:?usage: run.sh BIN_DIR}
export PATH="$bin:$PATH"
here=$(cd "$(dirname "$0")" && pwd)
export STINT_STATE_DIR=${STINT_STATE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/stint-demo-XXXXXX")}
work="$STINT_STATE_DIR/work"
mkdir -p "$work"
cd "$work"

echo "== state directory: $STINT_STATE_DIR"
stint init >/dev/null
cpus=$(sinfo -h -o %c | head -n 1)
echo "== the default cluster (this machine, autodetected)"
sinfo
echo
echo "== submitting the demo workload"
ids=()
ids+=("$(sbatch --parsable "$here/hello.sh")")
ids+=("$(sbatch --parsable -J small -c 1 -t 1 --wrap 'sleep 2; echo small done')")
ids+=("$(sbatch --parsable -J whole -c "$cpus" -t 1 --wrap 'sleep 3; echo used all CPUs')")
ids+=("$(sbatch --parsable "$here/fails.sh")")
ids+=("$(sbatch --parsable "$here/timeout.sh")")
ids+=("$(sbatch --parsable -J after -c 1 -t 1 --wrap 'echo queued behind the big one')")
echo "submitted jobs ${ids[*]}"
echo
echo "== squeue"
squeue
echo
echo "== waiting for the jobs to end"
deadline=$((SECONDS + 120))
while [ -n "$(squeue -h -o %i)" ]; do
  if [ $SECONDS -ge $deadline ]; then echo "demo: jobs still running after 120 s" >&2; exit 1; fi
  sleep 0.5
done
echo
echo "== sacct"
sacct -o JobID,JobName,Partition,AllocCPUS,State,ExitCode,Elapsed
echo
echo "== output of job ${ids[0]}"
cat "slurm-${ids[0]}.out"
stint daemon stop >/dev/null || true
echo
echo "The state directory $STINT_STATE_DIR is kept; rm -rf it when done."
