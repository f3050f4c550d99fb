#!/usr/bin/env bash
# Snakemake 7 (Debian 12's) drives stint as it drives Slurm, in its two ways:
# its slurm executor (--slurm: sinfo -o %P for the default partition, sacct -u
# for an account, sbatch -J -o --export=ALL -p --cpus-per-task -D --wrap, sacct
# -P -n --format=JobIdRaw,State -j for each job's state, and inside each job
# `srun -n1 --cpu-bind=q` around the rule), and --cluster "sbatch ..." with a
# --cluster-status script (sacct). In each, a rule that fails is reported
# failed (snakemake's exit status, sacct's FAILED) while the others complete
# (--keep-going) with their outputs.
source "$(dirname "$0")/lib.sh"
need_debian_package snakemake snakemake
# Debian's snakemake, not one a Python environment earlier in PATH may hold.
snakemake=/usr/bin/snakemake
[ -x "$snakemake" ] || snakemake=$(command -v snakemake)
# The slurm executor guesses the account from `sacct -u "$USER"`.
export USER="${USER:-$(id -un)}"

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 8G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
YAML

cat >Snakefile <<'SMK'
rule all:
    input: "upper.txt", "broken.txt"

rule hello:
    output: "hello.txt"
    shell: "echo hello from job $SLURM_JOB_ID > {output}"

rule upper:
    input: "hello.txt"
    output: "upper.txt"
    shell: "tr a-z A-Z < {input} > {output}"

rule broken:
    output: "broken.txt"
    shell: "echo partial > {output}; exit 3"
SMK

# The state of the job named like PATTERN (sacct's JobName), one per line.
states_of() {
  sacct -n -X -P -o JobName,State | awk -F'|' -v p="$1" '$1 ~ p {print $2}'
}

# The two ways run side by side, each in its own folder, to keep the test
# short: Snakemake takes seconds to start, and each job starts it again.
# The slurm executor checks states every 33 s by default (0.03 a second, for a
# busy cluster's sacct; Snakemake 7.21 takes any rate above 1 for that too); a
# local one answers at once, so once a second here. Its
# run asks for hello.txt and broken.txt (one round of jobs); the cluster run
# for everything, upper.txt after hello.txt.
cat >status.sh <<'SH'
#!/usr/bin/env bash
# Snakemake's --cluster-status protocol: one word for the job id given.
state=$(sacct -n -X -P -o State -j "$1" | head -n 1)
case "$state" in
  COMPLETED) echo success ;;
  FAILED|CANCELLED*|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|DEADLINE|BOOT_FAIL) echo failed ;;
  *) echo running ;;
esac
SH
chmod +x status.sh
mkdir -p cluster-logs
# The slurm executor checks a rule's slurm_account with sacctmgr (-s list user
# format=account%20) and passes it with -A; runtime and mem_mb become -t and
# --mem. The job's processes count against it together, as under Slurm's job
# cgroup: Snakemake (over 100 MB), the srun it starts, and Snakemake again in
# the step. Under ASan srun alone holds a few hundred MB (its shadow and
# quarantine, counted again in the child it forks): 600 MB ran out there, so
# 2000 MB, and nodes large enough for these jobs beside the cluster run's.
account=$(sacctmgr -n -s list user "$USER" format=account%20 | awk 'NR == 1 {print $1}')
[ -n "$account" ] || fail "no account for $USER"
start=$SECONDS
(
  "$snakemake" --slurm --jobs 2 --keep-going --max-status-checks-per-second 1 --latency-wait 10 \
    --default-resources "slurm_account=$account" runtime=5 mem_mb=2000 \
    -s "$PWD/Snakefile" -d slurm-run hello.txt broken.txt >slurm-run.log 2>&1 &&
    echo 0 >slurm-run.rc || echo $? >slurm-run.rc
  echo "snakemake --slurm: $((SECONDS - start)) s" >&2
) &
(
  "$snakemake" --cluster "sbatch --parsable -J smk-{rule} -o $PWD/cluster-logs/%j.out -c {threads}" \
    --cluster-status "$PWD/status.sh" --jobs 2 --keep-going --latency-wait 10 \
    -s "$PWD/Snakefile" -d cluster-run >cluster-run.log 2>&1 &&
    echo 0 >cluster-run.rc || echo $? >cluster-run.rc
  echo "snakemake --cluster: $((SECONDS - start)) s" >&2
) &
wait

# engine_failed RUN WHY: why first (a CI log keeps a failure's first and last
# lines), then every job's end as sacct has it, the jobs' own logs and the end
# of Snakemake's.
engine_failed() {
  local run=$1
  shift
  echo "FAIL: $*" >&2
  sacct -a -o JobID,JobName%24,State,ExitCode,Reason%20,MaxRSS,ReqMem,Elapsed >&2 || true
  for f in "$run"/.snakemake/slurm_logs/*/*.log cluster-logs/*.out; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
  done
  echo "--- the end of $run.log" >&2
  tail -n 30 "$run.log" >&2
  fail "$*"
}

# --- The slurm executor.
[ "$(cat slurm-run.rc)" = 1 ] || engine_failed slurm-run "snakemake --slurm exited $(cat slurm-run.rc), not 1"
grep -q "SLURM-job '[0-9]*' failed, SLURM status is: 'FAILED'" slurm-run.log ||
  engine_failed slurm-run "snakemake --slurm did not report the failed job"
hello=$(cat slurm-run/hello.txt 2>/dev/null) || engine_failed slurm-run "no hello.txt"
case "$hello" in "hello from job "[0-9]*) ;; *) fail "hello.txt: $hello" ;; esac
[ ! -e slurm-run/broken.txt ] || fail "the failed rule's output was kept"
expect_eq "hello's job" COMPLETED "$(states_of '^snakejob_hello_')"
expect_eq "broken's job" FAILED "$(states_of '^snakejob_broken_')"
# Each rule ran in a step (srun inside the job), the failing one failed.
hello_id=$(sacct -n -X -P -o JobID,JobName | awk -F'|' '$2 ~ /^snakejob_hello_/ {print $1}')
broken_id=$(sacct -n -X -P -o JobID,JobName | awk -F'|' '$2 ~ /^snakejob_broken_/ {print $1}')
expect_eq "hello's step" "COMPLETED" "$(sacct -n -P -o State -j "$hello_id.0")"
expect_eq "broken's step" "FAILED" "$(sacct -n -P -o State -j "$broken_id.0")"
expect_eq "hello's account and limits" "$account|00:05:00|2000M" \
  "$(sacct -n -X -P -o Account,Timelimit,ReqMem -j "$hello_id")"

# --- --cluster with a status script.
[ "$(cat cluster-run.rc)" = 1 ] || engine_failed cluster-run "snakemake --cluster exited $(cat cluster-run.rc), not 1"
grep -q "Error in rule broken" cluster-run.log || engine_failed cluster-run "no error for rule broken"
hello=$(cat cluster-run/hello.txt 2>/dev/null) || engine_failed cluster-run "no hello.txt"
case "$hello" in "hello from job "[0-9]*) ;; *) fail "hello.txt: $hello" ;; esac
expect_eq "upper.txt" "$(tr a-z A-Z <<<"$hello")" "$(cat cluster-run/upper.txt)"
[ ! -e cluster-run/broken.txt ] || fail "the failed rule's output was kept"
expect_eq "hello's job" COMPLETED "$(states_of '^smk-hello$')"
expect_eq "upper's job" COMPLETED "$(states_of '^smk-upper$')"
expect_eq "broken's job" FAILED "$(states_of '^smk-broken$')"
# The job script is Snakemake running the rule, which exits 1 when it fails.
expect_eq "broken's exit code" "1:0" \
  "$(sacct -n -X -P -o JobName,ExitCode | awk -F'|' '$1 == "smk-broken" {print $2}')"
expect_contains "broken's log" "$(cat cluster-logs/*.out)" "Error in rule broken"
