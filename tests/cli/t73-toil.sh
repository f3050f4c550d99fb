#!/usr/bin/env bash
# Toil 5.9 (Debian 12's) drives stint as it drives Slurm with --batchSystem
# slurm: `scontrol show config` for how often to look (SchedulerTimeSlice,
# AcctGatherNodeFreq), sbatch -J --export=ALL,... --mem --cpus-per-task -o -e
# --wrap, squeue -h --format '%i %t %M', sacct -n -j --format
# JobIDRaw,State,ExitCode -P -S 1970-01-01 (scontrol show job when sacct
# fails), scancel. A Python workflow (toil.job) whose one child fails, and CWL
# tools through toil-cwl-runner, one that works and one that fails: results
# where they worked, a failure reported (exit status, sacct FAILED) where not.
source "$(dirname "$0")/lib.sh"
need_debian_package toil toil-cwl-runner
# Debian's Python, which has Toil, not one a Python environment earlier in
# PATH may hold.
python=/usr/bin/python3
toil_cwl=/usr/bin/toil-cwl-runner
[ -x "$toil_cwl" ] || toil_cwl=$(command -v toil-cwl-runner)

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
YAML

# Toil's own reading of scontrol show config: 1.2 times the longer of
# SchedulerTimeSlice (30 s) and AcctGatherNodeFreq (0 s), rounded up.
expect_eq "Toil's state polling wait" 36 \
  "$("$python" -c 'from toil.batchSystems.slurm import SlurmBatchSystem as S; print(S.getWaitDuration())')"

cat >workflow.py <<'PY'
import sys

from toil.common import Toil
from toil.job import Job


def good(job, path):
    with open(path, "w") as out:
        out.write("good\n")


def bad(job):
    raise RuntimeError("this job fails on purpose")


def root(job, path):
    job.addChildJobFn(good, path, memory="512M", disk="10M")
    job.addChildJobFn(bad, memory="512M", disk="10M")


if __name__ == "__main__":
    parser = Job.Runner.getDefaultArgumentParser()
    parser.add_argument("output")
    options = parser.parse_args()
    with Toil(options) as toil:
        toil.start(Job.wrapJobFn(root, options.output, memory="512M", disk="10M"))
PY

cat >ok.cwl <<'CWL'
cwlVersion: v1.2
class: CommandLineTool
baseCommand: [sh, -c]
inputs:
  word: {type: string, inputBinding: {position: 1}}
arguments: [{valueFrom: 'echo "hello $0" > out.txt', position: 0}]
outputs:
  out: {type: File, outputBinding: {glob: out.txt}}
CWL
cat >fail.cwl <<'CWL'
cwlVersion: v1.2
class: CommandLineTool
baseCommand: [sh, -c, 'echo failing; exit 2']
inputs: []
outputs: []
CWL

# Each Toil leader polls every second (--statePollingWait) rather than every
# 36 s; the three runs go side by side, each with its own job store. A Toil
# worker (Python) holds about 140 MB: less memory than that and stint kills it
# over the limit, as Slurm's OverMemoryKill would.
common=(--batchSystem slurm --statePollingWait 1 --retryCount 0 --disableCaching
  --defaultMemory 512M --defaultDisk 10M --logLevel INFO)
start=$SECONDS
(
  "$python" workflow.py "${common[@]}" --workDir "$PWD" "$PWD/python-store" "$PWD/good.txt" \
    >python.log 2>&1 && echo 0 >python.rc || echo $? >python.rc
  echo "toil (python): $((SECONDS - start)) s" >&2
) &
(
  mkdir -p cwl-out
  "$toil_cwl" "${common[@]}" --jobStore "$PWD/cwl-store" --outdir "$PWD/cwl-out" ok.cwl \
    --word stint >cwl.json 2>cwl.log && echo 0 >cwl.rc || echo $? >cwl.rc
  echo "toil-cwl-runner (ok): $((SECONDS - start)) s" >&2
) &
(
  "$toil_cwl" "${common[@]}" --jobStore "$PWD/fail-store" --outdir "$PWD/fail-out" fail.cwl \
    >fail.json 2>fail.log && echo 0 >fail.rc || echo $? >fail.rc
  echo "toil-cwl-runner (fail): $((SECONDS - start)) s" >&2
) &
wait

# The Python workflow: the good child's file, the bad child reported failed.
[ "$(cat python.rc)" != 0 ] || { cat python.log >&2; fail "the workflow with a failing job succeeded"; }
[ "$(cat good.txt 2>/dev/null)" = good ] || { cat python.log >&2; fail "the good job's output: $(cat good.txt 2>&1)"; }
grep -q "this job fails on purpose" python.log || { cat python.log >&2; fail "the failure is not reported"; }
# Toil 5.9 names a Python job's batch job toil_job_<n>_None: the root and the
# good child completed, the bad child failed with the worker's exit status 1.
python_jobs=$(sacct -n -X -P -o JobName,State,ExitCode |
  awk -F'|' '$1 ~ /^toil_job_/ && $1 !~ /\.cwl$/ {print $2 "/" $3}' | sort | tr '\n' ' ')
expect_eq "the Python workflow's jobs" "COMPLETED/0:0 COMPLETED/0:0 FAILED/1:0 " "$python_jobs"

# CWL: the tool ran as a job and its output came back; the failing one failed.
[ "$(cat cwl.rc)" = 0 ] || { cat cwl.log >&2; fail "toil-cwl-runner exited $(cat cwl.rc)"; }
expect_eq "the CWL tool's output" "hello stint" "$(cat cwl-out/out.txt)"
expect_contains "cwl output object" "$(cat cwl.json)" '"basename": "out.txt"'
[ "$(cat fail.rc)" != 0 ] || { cat fail.log >&2; fail "a failing CWL tool succeeded"; }
expect_contains "failing tool's log" "$(cat fail.log)" "failing"
expect_eq "the CWL tool's job" COMPLETED \
  "$(sacct -n -X -P -o JobName,State | awk -F'|' '$1 ~ /^toil_job_[0-9]+_ok\.cwl$/ {print $2}')"
expect_eq "the failing CWL tool's job" FAILED \
  "$(sacct -n -X -P -o JobName,State | awk -F'|' '$1 ~ /^toil_job_[0-9]+_fail\.cwl$/ {print $2}')"

# Toil reads a job's end from sacct, and from `scontrol show job` when sacct
# fails: both readings agree, for every job of the test.
ids=$(sacct -n -X -P -o JobID | paste -sd ' ')
readings=$("$python" - $ids <<'PY' 2>/dev/null
import sys
from toil.batchSystems.slurm import SlurmBatchSystem
worker = SlurmBatchSystem.Worker.__new__(SlurmBatchSystem.Worker)
ids = [int(i) for i in sys.argv[1:]]
print(worker._getJobDetailsFromSacct(ids) == worker._getJobDetailsFromScontrol(ids))
print(sorted(state for state, _ in worker._getJobDetailsFromScontrol(ids).values()))
PY
)
expect_eq "sacct and scontrol agree" True "$(head -n 1 <<<"$readings")"
expect_contains "states read" "$(tail -n 1 <<<"$readings")" "'FAILED', 'FAILED'"
