#!/usr/bin/env bash
# Slurm 22.05's whole sbatch vocabulary: every option sbatch --help lists is
# accepted on the command line, in an #SBATCH line and through each of its
# input environment variables (from the man page's table), and its effect
# shows where Slurm shows it: scontrol show job, the job's environment, sacct.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G, gpus: 2}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
config:
  KillWait: "2"
  TrackWCKey: "YES"
YAML

printf 'capacity=1G\n' >bb.txt
printf 'FROM_FILE=yes\n' >env.txt
printf 'n-1\nn-2\n' >nodes.txt
printf 'line\n' >in.txt

# A value each option takes here; "-" marks a flag.
declare -A sample=(
  [account]=- [acctg-freq]=task=30 [array]=0-1 [batch]=ssd [bb]=capacity=1G [bbf]=bb.txt
  [begin]=now+60 [chdir]=. [cluster]=test [cluster-constraint]=c1 [clusters]=test [comment]=hi
  [constraint]=- [container]=/bundle [context]=unconfined_u [contiguous]=- [core-spec]=1
  [cores-per-socket]=2 [cpu-freq]=high [cpus-per-gpu]=1 [cpus-per-task]=2 [deadline]=now+3600
  [delay-boot]=10 [dependency]=afterany:1 [distribution]=cyclic [error]=e.txt [exclude]=n-2
  [exclusive]=- [export]=ALL [export-file]=env.txt [extra-node-info]=1 [get-user-env]=-
  [gid]=- [gpu-bind]=closest [gpu-freq]=high [gpus]=1 [gpus-per-node]=1 [gpus-per-socket]=1
  [gpus-per-task]=1 [gres]=gpu:1 [gres-flags]=enforce-binding [help]=- [hint]=nomultithread
  [hold]=- [ignore-pbs]=- [input]=in.txt [job-name]=x [kill-on-invalid-dep]=yes [licenses]=-
  [mail-type]=END [mail-user]=me@example.org [mcs-label]=- [mem]=100 [mem-bind]=local
  [mem-per-cpu]=100 [mem-per-gpu]=100 [mincpus]=1 [network]=sn_all [nice]=5 [no-kill]=-
  [no-requeue]=- [nodefile]=nodes.txt [nodelist]=n-1 [nodes]=1 [ntasks]=1 [ntasks-per-core]=1
  [ntasks-per-gpu]=1 [ntasks-per-node]=1 [ntasks-per-socket]=1 [ntasks-per-tres]=1
  [open-mode]=append [output]=o.txt [overcommit]=- [oversubscribe]=- [parsable]=- [partition]=debug
  [power]=level [prefer]=- [priority]=5 [profile]=task [propagate]=- [qos]=normal [quiet]=-
  [reboot]=- [requeue]=- [reservation]=- [signal]=USR1@30 [sockets-per-node]=1 [spread-job]=-
  [switches]=1@10 [tasks-per-node]=1 [test-only]=- [thread-spec]=1 [threads-per-core]=1
  [time]=10 [time-min]=5 [tmp]=0 [uid]=- [usage]=- [use-min-nodes]=- [verbose]=- [version]=-
  [wait]=- [wait-all-nodes]=1 [wckey]=w [wrap]=-
)
# What some need beside them, as in Slurm (GPUs per task need a task count).
declare -A extra=([gpus-per-task]="-n1")

# Options whose test is elsewhere: the tool's own flags, --wrap (it is the
# script), --account/--qos (the accounts tests), --uid/--gid (root: t93),
# --constraint/--prefer/--licenses/--reservation (need declared features,
# licenses and reservations), --mcs-label (refused here as under Slurm's
# mcs/none: checked below).
skip=" help usage version wrap test-only wait parsable quiet verbose uid gid account "
skip+=" constraint prefer licenses reservation mcs-label "

help=$(sbatch --help)
mapfile -t names < <(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sed 's/^--//' | sort -u)
[ "${#names[@]}" -ge 106 ] || fail "sbatch --help lists ${#names[@]} options, not Slurm's 106"
# Each option's input environment variables, from the man page's table.
table=$(STINT_HELP_FORMAT=scdoc sbatch --help)

word() {  # the option as one command-line word
  local v=${sample[$1]}
  if [ "$v" = - ]; then printf -- '--%s' "$1"; else printf -- '--%s=%s' "$1" "$v"; fi
}

ids=()
checked=0
for name in "${names[@]}"; do
  [[ -v sample[$name] ]] || fail "no sample value for --$name"
  case "$skip" in *" $name "*) continue ;; esac
  # Command line.
  more=${extra[$name]:-}
  # shellcheck disable=SC2086 # $more is words
  id=$(sbatch --parsable -H $more "$(word "$name")" --wrap true 2>err.txt) ||
    fail "sbatch $(word "$name") refused: $(cat err.txt)"
  ids+=("${id%%;*}")
  # An #SBATCH line.
  printf '#!/bin/sh\n#SBATCH %s\ntrue\n' "$(word "$name")" >d.sh
  # shellcheck disable=SC2086
  id=$(sbatch --parsable -H $more d.sh 2>err.txt) || fail "#SBATCH $(word "$name") refused: $(cat err.txt)"
  ids+=("${id%%;*}")
  # Its input environment variables.
  vars=$(awk -v opt="*--$name*" '
    !/^\t/ { found = 0; n = split($0, w, /, /); for (i = 1; i <= n; i++) {
        t = w[i]; sub(/[=[].*/, "", t); if (t == opt) found = 1 } next }
    found && /Input environment variable/ { print }' <<<"$table" |
    { grep -oE '(SBATCH|SLURM)(\\_[A-Z0-9]+)+' || true; } | sed 's/\\//g')
  for var in $vars; do
    [ "$var" = SBATCH_IGNORE_PBS ] && continue
    value=${sample[$name]}
    case $name in
      exclusive) value=user ;; no-kill) value=set ;; switches) value=1 ;;
      *) [ "$value" = - ] && value=1 ;;
    esac
    # shellcheck disable=SC2086
    id=$(env "$var=$value" sbatch --parsable -H $more --wrap true 2>err.txt) ||
      fail "$var=$value refused: $(cat err.txt)"
    ids+=("${id%%;*}")
  done
  checked=$((checked + 1))
done
[ "$checked" -ge 85 ] || fail "only $checked options checked"

# --mcs-label: no MCS plugin here, as Slurm's default mcs/none refuses it.
set +e
err=$(sbatch --mcs-label=m --wrap true 2>&1)
rc=$?
set -e
expect_eq "--mcs-label exit" 1 "$rc"
expect_eq "--mcs-label" "sbatch: error: Batch job submission failed: Invalid mcs_label specified" "$err"

# Where Slurm shows them: scontrol show job.
show() { scontrol show job "$1"; }
id=$(submit -H --comment=hi --time-min=5 --mail-type=END,begin --mail-user=me@example.org \
  --wckey=proj --core-spec=1 --reboot --delay-boot=10 --network=sn_all --switches=2@10 \
  --bb=capacity=1G --cpu-freq=high --power=level --gres-flags=enforce-binding --spread-job \
  --container=/bundle --context=u -i in.txt --cluster-constraint=c1 --exclusive \
  --kill-on-invalid-dep=yes --wrap true)
out=$(show "$id")
for want in "Comment=hi " "TimeMin=00:05:00" "MailUser=me@example.org MailType=BEGIN,END" \
  "WCKey=proj" "CoreSpec=1" "Reboot=1" "DelayBoot=00:10:00" "Network=sn_all" \
  "Switches=2@00:10:00" "BurstBuffer=capacity=1G" "CPU_max_freq=High" "Power=LEVEL" \
  "GresEnforceBind=YesKillOInInvalidDependent=YesSpreadJob=Yes" "Container=/bundle" \
  "SELinuxContext=u" "StdIn=$WORK/in.txt" "ClusterFeatures=c1" "OverSubscribe=NO"; do
  expect_contains "scontrol show job (options)" "$out" "$want"
done
id=$(submit -H -n1 --gpus-per-task=1 --cpus-per-gpu=1 --mem-per-gpu=100 --gpu-bind=closest \
  --gpu-freq=high --wrap true)
out=$(show "$id")
for want in "CpusPerTres=gres:gpu:1" "MemPerTres=gres:gpu:100" "TresBind=gpu:closest" \
  "TresFreq=gpu:high" "TresPerTask=gres:gpu:1"; do
  expect_contains "scontrol show job (GPU options)" "$out" "$want"
done
expect_contains "--thread-spec" "$(show "$(submit -H --thread-spec=2 --wrap true)")" "ThreadSpec=2"
expect_contains "--ntasks-per-gpu" "$(show "$(submit -H -G 1 --ntasks-per-gpu=2 --wrap true)")" \
  "NtasksPerTRES=2"
expect_contains "--gpus" "$(show "$(submit -H --gpus=2 --wrap true)")" "TresPerJob=gres:gpu:2"

# The job's environment: what sbatch puts there for the job's steps.
id=$(submit -o env.out --hint=nomultithread --acctg-freq=task=30 --profile=task \
  --export-file=env.txt --open-mode=append --wrap 'env | sort')
wait_for 30 job_ended "$id"
envout=$(cat env.out)
for want in SLURM_HINT=nomultithread SLURM_ACCTG_FREQ=task=30 SLURM_PROFILE=task FROM_FILE=yes \
  SLURM_OPEN_MODE=a; do
  expect_contains "job environment" "$envout" "$want"
done

# -i: the script reads the file as its standard input.
id=$(submit -o in.out -i in.txt --wrap 'cat')
wait_for 30 job_ended "$id"
expect_eq "-i input" "line" "$(cat in.out)"

# sacct's WCKey.
expect_eq "sacct WCKey" "proj" "$(sacct -n -X -P -o WCKey -j "$(submit -H --wckey=proj --wrap true)")"

# #PBS lines, as Slurm's sbatch reads them.
printf '#!/bin/sh\n#PBS -N pbsname\n#PBS -l walltime=0:20:00\ntrue\n' >pbs.sh
id=$(submit -H pbs.sh)
out=$(show "$id")
expect_contains "#PBS -N" "$out" "JobName=pbsname"
expect_contains "#PBS walltime" "$out" "TimeLimit=00:20:00"
expect_contains "--ignore-pbs" "$(show "$(submit -H --ignore-pbs pbs.sh)")" "JobName=pbs.sh"

# A mistyped directive names the file and line, and the option meant.
printf '#!/bin/sh\n#SBATCH -J x\n#SBATCH --mial-type=ALL\ntrue\n' >typo.sh
set +e
err=$(sbatch typo.sh 2>&1)
rc=$?
set -e
expect_eq "typo exit" 255 "$rc"
expect_eq "typo message" "sbatch: unrecognized option '--mial-type=ALL'
sbatch: error: typo.sh:3: unrecognized option '--mial-type=ALL'; did you mean '--mail-type'?
Try \"sbatch --help\" for more information" "$err"

# -v lists the options set once they are read (Slurm's "defined options"), in
# Slurm's order and its spelling of each value; SBATCH_DEBUG sets the level.
err=$(SBATCH_DEBUG=4 SBATCH_TIMELIMIT=3 sbatch -H -N1 -o none --mem=1024 --contiguous \
  --wrap true 2>&1 >/dev/null | grep -v ': debug:  ')
expect_eq "-v list" "sbatch: defined options
sbatch: -------------------- --------------------
sbatch: contiguous          : set
sbatch: hold                : set
sbatch: mem                 : 1G
sbatch: nodes               : 1
sbatch: output              : none
sbatch: time                : 00:03:00
sbatch: verbose             : 4
sbatch: wrap                : true
sbatch: -------------------- --------------------
sbatch: end of defined options" "$err"
expect_eq "no list without -v" "" "$(sbatch -H -N1 --wrap true 2>&1 >/dev/null)"
scancel --me
# SLURM_HINT gives way to --threads-per-core and --ntasks-per-core given on
# the command line, silently; scontrol shows what the job asked for.
id=$(SLURM_HINT=nomultithread sbatch --parsable -v -H --threads-per-core=1 --ntasks-per-core=1 \
  --wrap true 2>err.txt)
case "$(cat err.txt)" in *"mutually exclusive"* | *"hint "*) fail "SLURM_HINT: $(cat err.txt)" ;; esac
out=$(scontrol show job "$id")
expect_contains "ReqB:S:C:T" "$out" "ReqB:S:C:T=0:0:*:1"
expect_contains "NtasksPerN:B:S:C" "$out" "NtasksPerN:B:S:C=0:0:*:1"
expect_contains "no shape asked" "$(scontrol show job "$(submit -H --wrap true)")" \
  "Socks/Node=* NtasksPerN:B:S:C=0:0:*:*"
scancel --me

scancel "${ids[@]}" >/dev/null 2>&1 || true

# -S and --thread-spec together end the submission, as slurm_opt.c's check.
command_refused "-S with --thread-spec" \
  "sbatch: fatal: -S/--core-spec and --thred-spec options are mutually exclusive" \
  sbatch --thread-spec=1 -S1 --wrap true
out=$(SBATCH_CORE_SPEC=1 SBATCH_THREAD_SPEC=1 sbatch --wrap true 2>&1) && fail "both from the environment submitted"
expect_eq "both from the environment" \
  "sbatch: fatal: Both --core-spec and --thread-spec set using environment variables. Those options are mutually exclusive." \
  "$out"
# A node count in 1024s (Slurm's k suffix): read, then refused as too many.
out=$(sbatch -N2k --wrap true 2>&1) && fail "-N2k submitted"
expect_contains "-N2k" "$out" "Requested node configuration is not available"
expect_contains "-N2k, what the partition has" "$out" "sbatch: partition "
# -vv: Slurm's debug lines for what sbatch passes on.
out=$(sbatch -vv -H --wrap true 2>&1 >/dev/null)
expect_contains "-vv debug" "$out" "sbatch: debug:  propagating UMASK="
scancel --me
