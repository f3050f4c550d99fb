#!/usr/bin/env bash
# A job over its --mem ends OUT_OF_MEMORY; sacct's TotalCPU and MaxRSS are right.
source "$(dirname "$0")/lib.sh"
default_config
command -v python3 >/dev/null || { echo "python3 is needed to allocate memory"; exit 77; }

oom=$(submit --mem=50M --wrap 'python3 -c "b = bytearray(300*1024*1024); import time; time.sleep(30)"')
wait_for 60 job_ended "$oom"
expect_eq "over --mem" OUT_OF_MEMORY "$(job_state "$oom")"

rss=$(submit --mem=1G --wrap 'python3 -c "b = bytearray(200*1024*1024); b[::4096] = b\"x\" * len(b[::4096]); import time; time.sleep(1)"')
# Two CPU-seconds whatever the load: a subshell limited to 2 s of CPU spins
# until SIGXCPU stops it; its CPU time is the job's.
printf '#!/bin/bash\n( ulimit -t 2; while :; do :; done )\nexit 0\n' > burn.sh
burn=$(submit burn.sh)
wait_for 60 job_ended "$rss"
wait_for 60 job_ended "$burn"
expect_eq "rss job" COMPLETED "$(job_state "$rss")"
maxrss=$(sacct -n -P -o MaxRSS --units=M -j "$rss" | grep -v '^$' | sort -n | tail -n 1 | tr -d 'M')
maxrss=${maxrss%.*}
[ "$maxrss" -ge 170 ] && [ "$maxrss" -le 260 ] || fail "MaxRSS ${maxrss}M for a 200 MB job"
total=$(sacct -n -X -P -o TotalCPU -j "$burn")
secs=$(echo "$total" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print int(s + 0.5) }')
[ "$secs" -ge 1 ] && [ "$secs" -le 3 ] || fail "TotalCPU $total for a 2 CPU-second job"
