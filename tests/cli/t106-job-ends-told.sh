#!/usr/bin/env bash
# Why work ended, where a user looks: a job whose output file cannot be opened
# fails as on a cluster (JobLaunchFailure, ExitCode 0:53, its .batch step
# CANCELLED) and scontrol and sacct say why (SystemComment); a kept-alive run
# nobody uses is released after StintKeepAliveMax with the reason in run-show,
# while a run-exec keeps it; squeue's NAME column fits a run's name; run-list
# has each run's duration and exit code.
source "$(dirname "$0")/lib.sh"
# StintKeepAliveMax: long enough for the tools between a run's command's end and
# the first run-exec, on a slow (sanitizer) build too.
idle=$(scaled 8)
idle_text=0:$(printf %02d "$idle")
write_config <<YAML
node_pools:
  - {id: c, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: main, node_pool_ids: [c]}
config:
  StintRunPorts: "31240-31259"
  StintKeepAliveMax: "$idle_text"
YAML

# --- an output file that cannot be opened ----------------------------------------------
bad=$(submit -o /nonexistent/dir/x.out --wrap 'echo x')
wait_for 30 job_ended "$bad"
expect_eq "sacct's lines" "$bad|FAILED|0:53 $bad.batch|CANCELLED|0:53" \
  "$(sacct -n -P -j "$bad" -o JobID,State,ExitCode | lines)"
shown=$(scontrol show job "$bad")
expect_contains "scontrol's reason" "$shown" "JobState=FAILED Reason=JobLaunchFailure Dependency=(null)"
expect_contains "scontrol says why" "$shown" \
  "SystemComment=Could not open stdout file /nonexistent/dir/x.out: No such file or directory "
expect_eq "sacct says why" \
  "Could not open stdout file /nonexistent/dir/x.out: No such file or directory" \
  "$(sacct -n -P -X -j "$bad" -o SystemComment)"
expect_contains "squeue --json too" "$(squeue --json -j "$bad" -t all)" \
  '"system_comment": "Could not open stdout file /nonexistent/dir/x.out'
expect_contains "--helpformat lists the field" "$(sacct --helpformat)" "SystemComment"
# A job that ran has none.
fine=$(submit --wrap true)
wait_for 30 job_ended "$fine"
expect_eq "no comment" "" "$(scontrol show job "$fine" | grep SystemComment || true)"

# --- squeue's NAME fits a run's name; Slurm's layout otherwise ---------------------------
expect_eq "Slurm's header" \
  "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)" \
  "$(squeue | head -n 1)"
long=$(run-create --project imagenet-resnet50 -- sleep 300)
expect_eq "run name" "imagenet-resnet50/1" "$long"
running() { [ "$(run-show "$1" | sed -n 's/^State: *//p')" = RUNNING ]; }
wait_for 30 running "$long"
table=$(squeue)
expect_eq "the header grows" \
  "             JOBID PARTITION                NAME     USER ST       TIME  NODES NODELIST(REASON)" \
  "$(head -n 1 <<<"$table")"
expect_eq "the whole name" "imagenet-resnet50/1" "$(awk 'NR == 2 {print $3}' <<<"$table")"
expect_eq "-o keeps its width" "imagene" "$(squeue -h -o '%.7j')"

# --- run-list: duration and exit code ----------------------------------------------------
failing=$(run-create --project imagenet-resnet50 -- sh -c 'exit 3')
state_of() { run-list --project imagenet-resnet50 --json | python3 -c '
import json, sys
print(next(r["state"] for r in json.load(sys.stdin) if r["run"] == sys.argv[1]))' "$1"; }
failed() { [ "$(state_of "$failing")" = FAILED ]; }
wait_for 30 failed
table=$(run-list --project imagenet-resnet50)
expect_contains "header" "$(head -n 1 <<<"$table")" "DURATION  EXIT"
expect_eq "the failed run's exit" "3:0" "$(awk -v r="$failing" '$1 == r {print $6}' <<<"$table")"
expect_eq "a running run has none yet" "-" "$(awk -v r="$long" '$1 == r {print $6}' <<<"$table")"
case "$(awk -v r="$long" '$1 == r {print $5}' <<<"$table")" in
  [0-9]:[0-9][0-9]) ;;
  *) fail "the running run's duration: $table" ;;
esac
run-stop "$long" >/dev/null

# --- StintKeepAliveMax: an unused kept-alive run lets its nodes go --------------------------
kept=$(run-create --project nb --keep-alive on -- true)
kept_alive() { [ "$(run-show "$1" | sed -n 's/^State: *//p')" = KEPT_ALIVE ]; }
wait_for 30 kept_alive "$kept"
# run-exec says a command's failure in its own words, as a shell would.
command_refused_with 7 "run-exec's failing command" "run-exec: nb/1 node 0: command exited 7" \
  run-exec "$kept" -- sh -c 'exit 7'
command_refused_with 127 "run-exec's unknown command" \
  "run-exec: nb/1 node 0: no-such-program: command not found" run-exec "$kept" -- no-such-program
# A run-exec longer than the limit is use: the run stays while it runs.
run-exec "$kept" -- sleep $((idle + 2)) || fail "run-exec in a kept-alive run failed (released under it?)"
kept_alive "$kept" || fail "released right after a run-exec: $(run-show "$kept")"
released() { run-show "$1" | grep -q '^Reason: *Released after'; }
wait_for $((idle + 30)) released "$kept"
shown=$(run-show "$kept")
expect_contains "run-show's reason" "$shown" \
  "Reason:       Released after $idle_text unused with its command ended (StintKeepAliveMax)"
case "$(sed -n 's/^State: *//p' <<<"$shown")" in
  COMPLETED | STOPPED) ;;
  *) fail "a released run's state: $shown" ;;
esac
expect_contains "run-show --json" "$(run-show --json "$kept")" "\"reason\":\"Released after $idle_text"
expect_contains "stint config show" "$(stint config show)" "StintKeepAliveMax"
echo "ok"
