# bash completion for stint's tools: sbatch, srun, salloc, sstat, sattach, squeue, scancel, sinfo, scontrol,
# sacctmgr, sprio, sshare, sacct, stint and stintd. One script serves them all; it is installed under
# each tool's name so that bash-completion loads it on first use.
#
# Nothing here lists a tool's options: they are read from the tool's own
# --help (which CLI11 writes from the option definitions, and sbatch from its
# option table) the first time they are needed, and kept for the session in
# _stint_help_cache. A new option is completed as soon as the tool has it.
# Values come from the cluster itself: partitions and nodes from sinfo, job
# ids from squeue, accounts, users and QOS from sacctmgr (users also from the
# system), field names from each tool's --helpformat.

declare -gA _stint_help_cache=()

# Slurm's job state names (squeue -t, scancel -t, sacct -s).
_stint_job_states="PENDING RUNNING SUSPENDED COMPLETING COMPLETED CANCELLED FAILED TIMEOUT
PREEMPTED NODE_FAIL OUT_OF_MEMORY BOOT_FAIL DEADLINE REQUEUED RESIZING REVOKED SPECIAL_EXIT"

# _stint_help CMD [WORDS...]: the text of `CMD WORDS... --help` in
# _stint_text, asked once per session.
_stint_help() {
  local key="$*"
  if [[ -z ${_stint_help_cache[$key]+set} ]]; then
    # STINT_HELP_FORMAT=stint: the tool's own option list, not Slurm's text.
    _stint_help_cache[$key]=$(STINT_HELP_FORMAT=stint LC_ALL=C "$@" --help 2>/dev/null </dev/null)
  fi
  _stint_text=${_stint_help_cache[$key]}
}

# The options of the help text in _stint_text, one a line: the option's names
# (short and long, space-separated), a tab, and 1 when it takes a value. Read
# from the option column of lines such as "  -p,--partition TEXT   ..." (CLI11)
# or "  -p, --partition=partition   ..." (Slurm's layout, sbatch).
_stint_parse_options() {
  awk '
    # (mawk, the awk of a bare Debian, has no {m,n} in its regular expressions)
    match($0, /^ +-/) && RLENGTH <= 9 {
      spec = $0
      sub(/^ +/, "", spec)
      # The option column ends at two spaces before a description ("-B
      # --extra-node-info=S[:C[:T]]" has two spaces between its names).
      if (match(spec, /  +[^ -]/)) spec = substr(spec, 1, RSTART - 1)
      n = split(spec, tok, / +/)
      names = ""; arg = 0
      for (i = 1; i <= n; i++) {
        t = tok[i]
        if (t !~ /^-/) break
        if (t ~ /\[?=/) arg = 1
        m = split(t, part, /,/)
        for (j = 1; j <= m; j++) {
          p = part[j]
          sub(/\[?=.*/, "", p)
          if (p ~ /^-/) names = names (names == "" ? "" : " ") p
        }
        if (t !~ /,$/ && tok[i + 1] !~ /^--/) break
      }
      # CLI11: "TEXT", "INT", "TEXT:{on,off}"
      if (i < n && tok[i + 1] ~ /^[A-Z][A-Z0-9_:]*($|:[{])/) arg = 1
      if (names != "") print names "\t" arg
    }' <<<"$_stint_text"
}

# The subcommands (CLI11's "Subcommands:") or commands ("Commands:") the help
# in _stint_text lists, one a line.
_stint_parse_commands() {
  awk '
    /^[^ ].*:$/ { in_list = ($0 == "Subcommands:" || $0 == "Commands:"); next }
    /^[ \t]*$/ { next }
    in_list && match($0, /^ +[^ -]/) && RLENGTH <= 9 { print $1 }' <<<"$_stint_text"
}

# _stint_run TOOL ARGS...: another stint tool, from the same folder as the one
# being completed when it is there (so a build tree completes from itself).
_stint_run() {
  local tool=$1
  shift
  if [[ -n $_stint_dir && -x $_stint_dir/$tool ]]; then
    tool=$_stint_dir/$tool
  fi
  LC_ALL=C "$tool" "$@" 2>/dev/null </dev/null
}

# _stint_reply WORDS: COMPREPLY from WORDS that start with $cur (after the last
# comma of a comma-separated list), each with $prefix in front.
_stint_reply() {
  local list_prefix="" word
  local -a matches=()
  if [[ $_stint_comma_list == 1 && $cur == *,* ]]; then
    list_prefix=${cur%,*},
  fi
  local part=${cur#"$list_prefix"}
  local -a words=()
  local -A seen=()
  read -r -d '' -a words <<<"$1"  # split on blanks, no globbing
  for word in "${words[@]}"; do
    [[ $word == "$part"* && -z ${seen[$word]+set} ]] || continue
    seen[$word]=1
    matches+=("$prefix$list_prefix$word")
  done
  COMPREPLY+=("${matches[@]}")
}

_stint_no_files() {
  compopt +o default +o bashdefault 2>/dev/null
  return 0
}

# Values of an option, by its long name.
_stint_values() {
  local long=$1
  _stint_comma_list=1
  case $long in
    --partition | --partitions | --server-type)
      _stint_no_files
      _stint_reply "$(_stint_run sinfo -h -o %R)"
      ;;
    --project)
      _stint_no_files
      _stint_reply "$(_stint_run run-list | awk 'NR > 1 { sub("/.*", "", $1); print $1 }' | sort -u)"
      ;;
    --nodelist | --nodes | --exclude)
      if [[ ($_stint_tool == sbatch || $_stint_tool == run-create) && $long == --nodes ]]; then
        _stint_no_files
        return
      fi
      _stint_no_files
      _stint_reply "$(_stint_run sinfo -h -N -o %N)"
      ;;
    --user | --users | --uid)
      # The users accounting knows first, then every user of the system.
      _stint_no_files
      _stint_reply "$(_stint_run sacctmgr -n -P list user format=user) $(compgen -u)"
      ;;
    --account | --accounts)
      _stint_no_files
      _stint_reply "$(_stint_run sacctmgr -n -P list account format=account)"
      ;;
    --qos)
      _stint_no_files
      _stint_reply "$(_stint_run sacctmgr -n -P list qos format=name)"
      ;;
    --reservation)
      _stint_no_files
      _stint_reply "$(_stint_reservations)"
      ;;
    --storage)
      _stint_no_files
      _stint_comma_list=0
      _stint_reply "$(_stint_storages)"
      ;;
    --keep-alive)
      _stint_no_files
      _stint_reply "on off"
      ;;
    --node)
      # run-logs --node: the ranks of the run named before it.
      _stint_no_files
      if [[ $_stint_tool == run-logs && ${#operands[@]} -gt 0 ]]; then
        local count
        count=$(_stint_run run-show "${operands[0]}" | awk '$1 == "Nodes:" { print $2 }')
        [[ $count =~ ^[0-9]+$ ]] && ((count > 0)) && _stint_reply "$(seq 0 $((count - 1)))"
      fi
      ;;
    --metric)
      # run-plot --metric: the metrics of the runs named before it (the
      # names in run-show's Metrics section); run-list's takes a pick too.
      _stint_no_files
      if [[ $_stint_tool == run-plot ]]; then
        local run names=""
        for run in "${operands[@]}"; do
          names+=" $(_stint_run run-show "$run" |
            awk '/^Metrics:/ { on = 1; next } on && /^  [^ ]/ { print $1; next } on { on = 0 }')"
        done
        _stint_reply "$names"
      fi
      ;;
    --env)
      # run-clone --env: the source run's own variables, to change ("LR=").
      _stint_no_files
      _stint_comma_list=0
      if [[ $_stint_tool == run-clone && ${#operands[@]} -gt 0 ]]; then
        compopt -o nospace 2>/dev/null
        _stint_reply "$(_stint_run run-show "${operands[0]}" |
          awk '/^Environment:/ { on = 1; next } on && /^  [A-Za-z_][A-Za-z0-9_]*=/ { sub(/=.*/, "="); sub(/^  /, ""); print; next } on && !/^  / { on = 0 }')"
      fi
      ;;
    --format | --Format)
      # Field names where the option takes names (squeue -O, sacct -o,
      # sshare -o), from the tool's own --helpformat; squeue's and sinfo's -o
      # take %-letters, which are free text.
      _stint_no_files
      case $_stint_tool:$long in
        squeue:--Format | sacct:--format | sshare:--format)
          _stint_reply "$(_stint_run "$_stint_tool" --helpformat)"
          ;;
      esac
      ;;
    --state | --states)
      _stint_no_files
      if [[ $_stint_tool == sinfo ]]; then
        # Node states, as sinfo -t takes them.
        _stint_reply "all idle mixed allocated completing down drain drained draining reserved maint"
        return
      fi
      local states=$_stint_job_states
      [[ $_stint_tool == squeue ]] && states+=" all"
      [[ $cur == [a-z]* ]] && states=${states,,}
      _stint_reply "$states"
      ;;
    --clusters | --cluster)
      _stint_no_files
      _stint_reply "$(_stint_run scontrol show config | awk '$1 == "ClusterName" { print $3 }') all"
      ;;
    --iterate)
      _stint_no_files
      ;;
    --steps)
      _stint_no_files
      _stint_reply "$(_stint_run squeue -h -s -o %i)"
      ;;
    --jobs | --jobid | --dependency)
      _stint_no_files
      _stint_reply "$(_stint_run squeue -h -o %i --me)"
      ;;
    --signal)
      _stint_no_files
      local signals
      signals=$(compgen -A signal | grep -v '[-+]' | sed 's/^SIG//')
      _stint_reply "$signals"
      ;;
    --chdir | --state-dir)
      _stint_comma_list=0
      compopt -o filenames 2>/dev/null
      local IFS=$'\n'
      COMPREPLY=($(compgen -d -- "$cur"))
      ;;
    --sort | --job-name | --jobname | --name | --comment | --time | \
      --mem | --mem-per-cpu | --cpus-per-task | --ntasks | --ntasks-per-node | --gpus | \
      --gpus-per-node | --gres | --nice | --priority | --wrap | --export | --idle-exit | \
      --starttime | --endtime | --start | --end | --title | --wckey | --sibling | --wckeys | \
      --gid | --group | --timelimit-min | --timelimit-max | --whole-hetjob | --constraints | \
      --reason | --nnodes | --ncpus | --flags | --associations)
      # Free text: nothing to offer, and file names would mislead.
      _stint_no_files
      ;;
    *)
      # Anything else (--output, --error, --from, --file): file names.
      _stint_comma_list=0
      compopt -o filenames 2>/dev/null
      local IFS=$'\n'
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
  esac
  _stint_comma_list=0
}

# The names of the run storages (run-storage list's first column).
_stint_storages() {
  _stint_run run-storage list | awk 'NR > 1 { print $1 }'
}

# The names of the reservations (sinfo -T's first column).
_stint_reservations() {
  _stint_run sinfo -h -T | awk '$2 == "ACTIVE" || $2 == "INACTIVE" {print $1}'
}

# The operands of scontrol, by the words before them.
_stint_scontrol_operands() {
  local -a words=("$@")
  local n=${#words[@]}
  _stint_no_files
  if ((n == 0)); then
    _stint_help "$_stint_cmd"
    local verbs
    verbs=$(_stint_parse_commands)
    # scontrol reads its command as words, not as CLI11 subcommands, so its
    # help may not list them; these are the ones it takes.
    [[ -n $verbs ]] || verbs="show hold uhold release requeue requeuehold top update create delete reconfigure shutdown ping version write suspend resume listpids pidinfo completing help"
    _stint_reply "$verbs"
    return
  fi
  local verb=${words[0],,} what=${words[1],,}
  case $verb in
    write)
      if ((n == 1)); then
        _stint_reply "batch_script config"
      elif ((n == 2)) && [[ $what == b* ]]; then
        _stint_reply "$(_stint_run squeue -h -o %i --me)"
      fi
      ;;
    sh | sho | show)
      if ((n == 1)); then
        _stint_reply "job node partition reservation config hostnames hostlist assoc_mgr"
      elif ((n == 2)); then
        case $what in
          j*) _stint_reply "$(_stint_run squeue -h -o %i)" ;;
          n*) _stint_reply "$(_stint_run sinfo -h -N -o %N)" ;;
          p*) _stint_reply "$(_stint_run sinfo -h -o %R)" ;;
          r*) _stint_reply "$(_stint_reservations)" ;;
        esac
      fi
      ;;
    cr | cre | crea | creat | create)
      if ((n == 1)); then
        _stint_reply "reservation PartitionName="
      elif [[ $what == partitionname=* || $what == partition=* ]]; then
        _stint_reply "Nodes= MaxTime= DefaultTime= State= Priority= PriorityTier= PriorityJobFactor= AllowAccounts= DenyAccounts= AllowQos= DenyQos="
      else
        _stint_reply "ReservationName= StartTime= EndTime= Duration= Users= Accounts= Nodes= NodeCnt= PartitionName= Features= Flags="
      fi
      ;;
    del | dele | delet | delete)
      if ((n == 1)); then
        _stint_reply "ReservationName= reservation PartitionName= partition"
      elif ((n == 2)) && [[ $what == p* ]]; then
        _stint_reply "$(_stint_run sinfo -h -o %R)"
      elif ((n == 2)); then
        _stint_reply "$(_stint_reservations)"
      fi
      ;;
    sus | susp | suspe | suspen | suspend)
      _stint_reply "$(_stint_run squeue -h -o %i -t RUNNING)"
      ;;
    res | resu | resum | resume)
      _stint_reply "$(_stint_run squeue -h -o %i -t SUSPENDED)"
      ;;
    hold | uhold)
      _stint_reply "$(_stint_run squeue -h -o %i --me -t PENDING)"
      ;;
    shutdown)
      ((n == 1)) && _stint_reply "slurmctld controller"
      ;;
    requeue | requeueh | requeueho | requeuehol | requeuehold)
      # Flags come before the job ids.
      local ids
      ids=$(_stint_run squeue -h -o %i --me)
      if [[ $verb == requeueh* ]]; then
        _stint_reply "incomplete State=SpecialExit $ids"
      else
        _stint_reply "incomplete $ids"
      fi
      ;;
    rel | rele | relea | releas | release)
      _stint_reply "$(_stint_run squeue -h -o %i --me -t PENDING)"
      ;;
    u* )
      local first=${words[1],,}
      # NodeName=<TAB>: bash splits "NodeName" "=" "" where '=' breaks words.
      if ((n == 2)) && [[ $first == nodename && ${COMP_WORDS[COMP_CWORD - 1]} == "=" ]]; then
        _stint_reply "$(_stint_run sinfo -h -N -o %N)"
        return
      fi
      if ((n == 1)) && [[ ${cur,,} == nodename=* ]]; then
        prefix=${cur%%=*}=
        cur=${cur#*=}
        _stint_reply "$(_stint_run sinfo -h -N -o %N)"
        return
      fi
      if ((n == 1)); then
        _stint_reply "job NodeName= PartitionName= ReservationName="
      elif ((n == 2)) && [[ $what == job ]]; then
        _stint_reply "$(_stint_run squeue -h -o %i --me)"
      elif [[ $first == reservationname=* ]]; then
        _stint_reply "StartTime= EndTime= Duration= Users= Accounts= Nodes= NodeCnt= PartitionName= Flags= Skip"
      elif [[ $first == nodename=* || $first == node=* ]]; then
        _stint_reply "State= Reason= AvailableFeatures= ActiveFeatures="
      elif [[ $first == partitionname=* ]]; then
        _stint_reply "State= MaxTime= DefaultTime= Priority= PriorityTier= PriorityJobFactor= Nodes= AllowAccounts= DenyAccounts= AllowQos= DenyQos="
      fi
      ;;
  esac
}

# The operands of sacctmgr: a verb, an entity, then names and Key=value words.
_stint_sacctmgr_operands() {
  local -a words=("$@")
  local n=${#words[@]}
  _stint_no_files
  if ((n == 0)); then
    _stint_reply "add create modify update delete remove show list"
    return
  fi
  local verb=${words[0],,} what=${words[1],,}
  if ((n == 1)); then
    case $verb in
      sh* | li*) _stint_reply "account association cluster qos tres user" ;;
      *) _stint_reply "account cluster qos user" ;;
    esac
    return
  fi
  local names=""
  case $what in
    ac*) names=$(_stint_run sacctmgr -n -P list account format=account) ;;
    u*) names=$(_stint_run sacctmgr -n -P list user format=user) ;;
    q*) names=$(_stint_run sacctmgr -n -P list qos format=name) ;;
  esac
  case $verb in
    a* | c*) _stint_reply "Account= Partition= DefaultAccount= AdminLevel= Description= Organization= Parent= Fairshare= MaxJobs= MaxSubmitJobs= MaxWall= MaxTRES= GrpJobs= GrpSubmitJobs= GrpTRES= GrpTRESMins= GrpTRESRunMins= GrpWall= MaxTRESMins= QOS= DefaultQOS=" ;;
    m* | up*) _stint_reply "$names where set" ;;
    sh* | li*) _stint_reply "$names where format= withassoc tree" ;;
    *) _stint_reply "$names where" ;;
  esac
}

_stint_complete() {
  COMPREPLY=()
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" prefix=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # "--partition=de": bash splits it into "--partition" "=" "de" when '=' is
  # a word break (the default), else keeps it whole.
  if [[ $cur == "=" && $prev == -* ]]; then
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == --*=* ]]; then
    prev=${cur%%=*}
    prefix=$prev=
    cur=${cur#*=}
  fi

  local _stint_cmd=${COMP_WORDS[0]}
  local _stint_tool=${_stint_cmd##*/}
  local _stint_dir="" _stint_text="" _stint_comma_list=0
  local path
  path=$(type -P -- "$_stint_cmd" 2>/dev/null) || path=""
  [[ -n $path ]] && _stint_cmd=$path && _stint_dir=${path%/*}
  [[ -n $path ]] || return 0

  # Walk the words before the cursor: the subcommand path (stint config
  # show), the operands, and the options with their values.
  local -a level=() operands=()
  local options commands i word takes
  _stint_help "$_stint_cmd"
  options=$(_stint_parse_options)
  commands=$(_stint_parse_commands)
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == "=" ]]; then
      ((i++))  # "--opt" "=" "value": skip the value
      continue
    fi
    if [[ $word == -?* && ${#operands[@]} -eq 0 || $word == -?* && $_stint_tool != sbatch && $_stint_tool != srun && $_stint_tool != salloc ]]; then
      [[ $word == *=* ]] && continue
      takes=$(awk -F '\t' -v w="$word" '{ n = split($1, a, / /); for (j = 1; j <= n; j++) if (a[j] == w) print $2 }' <<<"$options")
      [[ $takes == 1 && ${COMP_WORDS[i + 1]} != "=" ]] && ((i++))
      continue
    fi
    if ((${#operands[@]} == 0)) && [[ -n $commands ]] && grep -qxF -- "$word" <<<"$commands"; then
      level+=("$word")
      _stint_help "$_stint_cmd" "${level[@]}"
      options=$(_stint_parse_options)
      commands=$(_stint_parse_commands)
      continue
    fi
    operands+=("$word")
  done

  # The value of an option.
  if [[ $prev == -?* && -z $prefix || -n $prefix ]]; then
    local line long="" names=""
    line=$(awk -F '\t' -v w="$prev" '{ n = split($1, a, / /); for (j = 1; j <= n; j++) if (a[j] == w) print }' <<<"$options")
    if [[ -n $line && ( ${line##*$'\t'} == 1 || -n $prefix ) ]]; then
      names=${line%%$'\t'*}
      for word in $names; do
        [[ $word == --* ]] && long=$word && break
      done
      _stint_values "${long:-$prev}"
      return 0
    fi
  fi

  # Options (for sbatch, srun and salloc, only ahead of the script or program: what
  # follows is its own).
  if [[ $cur == -* && ! (($_stint_tool == sbatch || $_stint_tool == srun || $_stint_tool == salloc) && ${#operands[@]} -gt 0) ]]; then
    _stint_no_files
    local all
    all=$(cut -f1 <<<"$options" | tr ' ' '\n')
    if [[ $cur == --* ]]; then all=$(grep -- '^--' <<<"$all"); fi
    _stint_reply "$all"
    return 0
  fi

  # Operands.
  case $_stint_tool in
    scontrol)
      _stint_scontrol_operands "${operands[@]}"
      ;;
    sacctmgr)
      _stint_sacctmgr_operands "${operands[@]}"
      ;;
    scancel)
      _stint_no_files
      _stint_comma_list=1
      _stint_reply "$(_stint_run squeue -h -o %i --me)"
      _stint_comma_list=0
      ;;
    sattach)
      # One running step of the user's jobs ("12.0"); not the batch or extern step.
      _stint_no_files
      if ((${#operands[@]} == 0)); then
        _stint_reply "$(_stint_run squeue -s -h -o %i --me | grep -v -e '\.batch$' -e '\.extern$')"
      fi
      ;;
    run-stop | run-show | run-logs | run-clone | run-exec | run-delete | run-plot)
      _stint_no_files
      _stint_reply "$(_stint_run run-list | awk 'NR > 1 { print $1 }')"
      ;;
    run-storage | run-project)
      # The subcommand, then for delete the storage's or project's name.
      _stint_no_files
      if [[ ${level[0]} == delete ]]; then
        if [[ $_stint_tool == run-storage ]]; then
          _stint_reply "$(_stint_storages)"
        else
          _stint_reply "$(_stint_run run-project list -n | awk '{ print $1 }')"
        fi
      elif [[ -n $commands && ${#operands[@]} -eq 0 ]]; then
        _stint_reply "$commands"
      fi
      ;;
    srun | salloc)
      # The program, then its arguments: file names.
      local IFS=$'\n'
      if ((${#operands[@]} == 0)); then
        COMPREPLY=($(compgen -c -- "$cur"))
      else
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
      fi
      ;;
    sbatch)
      # The script, then its arguments: file names.
      compopt -o filenames 2>/dev/null
      local IFS=$'\n'
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
    *)
      if [[ -n $commands && ${#operands[@]} -eq 0 ]]; then
        _stint_no_files
        _stint_reply "$commands"
      fi
      ;;
  esac
  return 0
}

complete -o bashdefault -o default -F _stint_complete sbatch srun salloc sstat sattach squeue scancel sinfo scontrol sacct sacctmgr sprio sshare stint stintd \
  run-create run-clone run-stop run-list run-show run-logs run-plot run-exec run-storage run-project run-delete
