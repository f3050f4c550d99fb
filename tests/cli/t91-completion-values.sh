#!/usr/bin/env bash
# completions/stint.bash completes values from the cluster itself: partitions
# and nodes (sinfo), job ids (squeue --me), accounts, users and QOS
# (sacctmgr), field names (each tool's --helpformat), and stint report's
# options. t90 checks the options and the structure.
source "$(dirname "$0")/lib.sh"
COMPLETION=$STINT_SOURCE_DIR/completions/stint.bash

# complete_line WORD...: what the completion offers for the command line (the
# last word is the one being completed), one a line, sorted; a bare bash.
complete_line() {
  bash --norc --noprofile -c '
    source "$1"
    shift
    func=$(complete -p "$1" | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    "$func" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$@" | sort
}
offers() {  # offers WHAT WORD COMMAND-LINE...
  local what=$1 word=$2
  shift 2
  local got
  got=$(complete_line "$@")
  grep -qxF -- "$word" <<<"$got" || fail "$what: '$*' does not offer '$word'; got: $(tr '\n' ' ' <<<"$got")"
}
offers_not() {  # offers_not WHAT WORD COMMAND-LINE...
  local what=$1 word=$2
  shift 2
  ! complete_line "$@" | grep -qxF -- "$word" || fail "$what: '$*' offers '$word'"
}

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: cpu, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [cpu]}
  - {id: long, node_pool_ids: [cpu]}
YAML
me=$(id -un)

[ "$(complete_line sbatch --part)" = --partition ] || fail "sbatch --part offers $(complete_line sbatch --part)"
expect_eq "sbatch -p" "debug long" "$(complete_line sbatch -p "" | tr '\n' ' ' | sed 's/ $//')"
offers "scontrol show node" cpu-2 scontrol show node ""

# Accounts, users and QOS, as sacctmgr lists them.
sacctmgr -i add account physics >/dev/null
sacctmgr -i add qos rush Priority=10 >/dev/null
sacctmgr -i add user "$me" Account=physics >/dev/null
offers "sbatch -A" physics sbatch -A ""
offers "sbatch --account=" --account=physics sbatch --account=ph
offers_not "sbatch -A, accounts only" rush sbatch -A ""
offers "sacct -A list" root,physics sacct -A root,ph
offers "sbatch --qos" rush sbatch --qos ""
offers "sbatch -q" normal sbatch -q ""
offers "squeue -u" "$me" squeue -u ""
offers "sacctmgr account names" physics sacctmgr modify account ""

# Field names: squeue -O, sacct -o and sshare -o take names; squeue -o takes
# %-letters and gets none.
offers "squeue -O" jobarrayid squeue -O job
offers "squeue --Format list" state,reason squeue --Format state,rea
offers "sacct -o" Elapsed sacct -o Ela
offers "sacct --format list" JobID,State sacct --format JobID,Sta
[ -z "$(complete_line squeue -o "")" ] || fail "squeue -o offers $(complete_line squeue -o "")"

# Job ids: the user's own, from squeue.
a=$(submit -H --wrap true)
b=$(submit -H -p long --wrap true)
expect_eq "scancel" "$a $b" "$(complete_line scancel "" | tr '\n' ' ' | sed 's/ $//')"
offers "scancel list" "$a,$b" scancel "$a,"
offers "scontrol hold" "$b" scontrol hold ""
scancel "$a" "$b"

# Reservations: scontrol's verbs and the names, from sinfo -T.
offers "scontrol verbs" create scontrol ""
scontrol create res ReservationName=night StartTime=now+1day Duration=60 Users="$me" Nodes=cpu-1 >/dev/null
offers "scontrol show reservation" night scontrol show reservation ""
offers "scontrol delete" night scontrol delete ReservationName ""
offers "scontrol update reservation keys" Duration= scontrol update ReservationName=night ""
scontrol delete ReservationName=night
offers "scontrol update partition keys" AllowAccounts= scontrol update PartitionName=x ""
offers "scontrol create partition keys" DefaultTime= scontrol create PartitionName=x ""
offers "scontrol write" config scontrol write ""

# stint report: its options, and file names for -o.
offers "stint report options" --start stint report --st
offers "stint report options" --output stint report --o
touch report-here.svg
offers "stint report -o" report-here.svg stint report -o report-h

# The run tools: storages, keep-alive, a run's ranks and its variables, nodes.
run-storage create imagenet >/dev/null
offers "run-create --storage" imagenet run-create --storage ""
offers "run-storage delete" imagenet run-storage delete ""
offers_not "run-storage delete, no files" report-here.svg run-storage delete ""
offers "run-create --keep-alive" off run-create --keep-alive ""
run=$(run-create --project comp --nodes 2 --env LR=0.1 --env BATCH=8 -- true)
offers "run-logs --node" 1 run-logs "$run" --node ""
offers_not "run-logs --node, its ranks only" 2 run-logs "$run" --node ""
offers "run-clone --env" LR= run-clone "$run" --env ""
offers "run-clone --env" BATCH= run-clone "$run" --env ""
offers "run-project's subcommands" delete run-project ""
offers "run-storage's subcommands" list run-storage ""
offers "run-project delete" comp run-project delete ""
offers "sprio --json" --json sprio --js
offers "scontrol update NodeName=" cpu-2 scontrol update NodeName = ""
offers "scontrol update NodeName=c" NodeName=cpu-1 scontrol update NodeName=c
