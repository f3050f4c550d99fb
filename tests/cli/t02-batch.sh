#!/usr/bin/env bash
# Batch jobs run and end with Slurm's states and exit codes.
source "$(dirname "$0")/lib.sh"
default_config

# A --wrap job: COMPLETED, output in slurm-<id>.out in the submit directory.
out=$(sbatch --wrap 'echo hello from $SLURM_JOB_ID')
case "$out" in "Submitted batch job "*) ;; *) fail "unexpected sbatch output: $out" ;; esac
wrap=${out##* }
wait_for 30 job_ended "$wrap"
expect_eq "wrap state" COMPLETED "$(job_state "$wrap")"
expect_eq "wrap output" "hello from $wrap" "$(cat "slurm-$wrap.out")"
expect_eq "wrap exit code" "0:0" "$(sacct -n -X -P -o ExitCode -j "$wrap")"
expect_eq "wrap name" "wrap" "$(sacct -n -X -P -o JobName -j "$wrap")"

# A script with #SBATCH directives; arguments reach it; directives after the
# first command are ignored, as in Slurm.
cat > job.sh <<'SH'
#!/bin/bash
#SBATCH --job-name=demo
#SBATCH --output=demo-%j.out
#SBATCH --time=00:05:00
echo "args: $*"
echo "name=$SLURM_JOB_NAME partition=$SLURM_JOB_PARTITION nodes=$SLURM_JOB_NODELIST"
echo "cwd=$(pwd)"
#SBATCH --job-name=ignored
SH
script=$(submit job.sh a 'b c')
wait_for 30 job_ended "$script"
expect_eq "script state" COMPLETED "$(job_state "$script")"
expect_eq "script name" demo "$(sacct -n -X -P -o JobName -j "$script")"
[ -f "demo-$script.out" ] || fail "demo-$script.out missing"
expect_eq "script args" "args: a b c" "$(head -n 1 "demo-$script.out")"
expect_contains "script env" "$(cat "demo-$script.out")" "name=demo partition=debug nodes=n-1"
expect_contains "script cwd" "$(cat "demo-$script.out")" "cwd=$WORK"

# exit 3: FAILED 3:0.
failed=$(submit --wrap 'exit 3')
wait_for 30 job_ended "$failed"
expect_eq "exit 3 state" FAILED "$(job_state "$failed")"
expect_eq "exit 3 code" "3:0" "$(sacct -n -X -P -o ExitCode -j "$failed")"

# Killed by a signal: FAILED 0:9.
killed=$(submit --wrap 'kill -9 $$')
wait_for 30 job_ended "$killed"
expect_eq "signal state" FAILED "$(job_state "$killed")"
expect_eq "signal code" "0:9" "$(sacct -n -X -P -o ExitCode -j "$killed")"

# Over its time limit (one minute, the smallest Slurm has): TIMEOUT; KillWait is 2 s here.
slow=$(submit -t 1 --wrap "sleep 300")
wait_for 120 job_ended "$slow"
expect_eq "timeout state" TIMEOUT "$(job_state "$slow")"
grep -q "DUE TO TIME LIMIT" "slurm-$slow.out" || fail "no time limit message in the output"

# stderr to its own file with -e.
split=$(submit -o out-%j.txt -e err-%j.txt --wrap 'echo to-out; echo to-err >&2')
wait_for 30 job_ended "$split"
expect_eq "stdout file" to-out "$(cat "out-$split.txt")"
expect_eq "stderr file" to-err "$(cat "err-$split.txt")"
