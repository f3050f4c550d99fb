#!/usr/bin/env bash
# The man pages and the bash completion stay current with the tools:
# - every tool has a page; the OPTIONS section of each page lists exactly the
#   options the tool's --help lists (and its subcommands' --help), no more, no
#   fewer; groff has nothing to warn about in any page;
# - completions/stint.bash registers every tool, completes each tool's options
#   as its --help lists them, and completes partitions, job ids, verbs and
#   states from the cluster itself.
source "$(dirname "$0")/lib.sh"

BUILD_DIR=$(cd "$STINT_BIN/.." && pwd)
MAN_DIR=$BUILD_DIR/man
COMPLETION=$STINT_SOURCE_DIR/completions/stint.bash

# The tools: every executable the build put in bin/, but the unit tests.
tools=()
for f in "$STINT_BIN"/*; do
  name=${f##*/}
  [ -f "$f" ] && [ -x "$f" ] || continue
  case $name in unit_* | bench* | *.so*) continue ;; esac
  tools+=("$name")
done
[ ${#tools[@]} -ge 3 ] || fail "found only ${tools[*]} in $STINT_BIN"

# own_options TOOL [WORDS...]: the option names `TOOL WORDS... --help` lists
# (stint's own list, STINT_HELP_FORMAT=stint, where --help prints Slurm's
# text), one a line; nothing when the tool has no --help (stint-stepd).
own_options() {
  { STINT_HELP_FORMAT=stint "$@" --help 2>/dev/null </dev/null || true; } | awk '
    match($0, /^ +-/) && RLENGTH <= 9 {
      spec = $0
      sub(/^ +/, "", spec)
      # Names end where the description starts (the Slurm layout writes one
      # pair without a comma: "-B  --extra-node-info=S[:C[:T]]").
      n = split(spec, tok, / +/)
      for (i = 1; i <= n; i++) {
        if (tok[i] !~ /^-/) break
        m = split(tok[i], part, /,/)
        for (j = 1; j <= m; j++) { p = part[j]; sub(/\[?=.*/, "", p); if (p ~ /^-/) print p }
        if (tok[i] !~ /,$/ && tok[i + 1] !~ /^--/) break
      }
    }'
}

# subcommands TOOL [WORDS...]: the subcommands `TOOL WORDS... --help` lists.
subcommands() {
  { STINT_HELP_FORMAT=stint "$@" --help 2>/dev/null </dev/null || true; } |
    awk '/^[^ ].*:$/ { s = ($0 == "Subcommands:"); next } s && /^  [^ ]/ { print $1 }'
}

# help_options TOOL: own_options of the tool and of all its subcommands, so
# that `stint init --force` counts.
help_options() {
  own_options "$@"
  local sub
  for sub in $(subcommands "$@"); do
    help_options "$@" "$sub"
  done
}

# The page as a reader sees it: plain text, long lines, no hyphenation.
render() {
  groff -man -Tutf8 -rHY=0 -rLL=250n -P-cbou "$1" 2>/dev/null
}

# The options a rendered page documents: the tags of its OPTIONS section
# ("-A, --account=name", "-n, --name, --jobname TEXT", "--export[=names]").
page_options() {
  awk '
    /^[A-Z]/ { in_options = ($0 == "OPTIONS"); next }
    in_options && /^       -/ && !/^        / {
      line = substr($0, 8)
      n = split(line, part, /, /)
      for (i = 1; i <= n; i++) {
        p = part[i]
        sub(/[ =[].*/, "", p)
        if (p ~ /^-/) print p
      }
    }'
}

# --- man pages ---------------------------------------------------------------

if ! command -v scdoc >/dev/null || ! command -v groff >/dev/null; then
  echo "SKIP man pages: scdoc or groff is not installed (scripts/install-deps)" >&2
else
  [ -d "$MAN_DIR" ] || fail "no $MAN_DIR: the man pages were not built"
  pages=()
  for tool in "${tools[@]}"; do
    page=$(ls "$MAN_DIR/$tool".[1-8] 2>/dev/null | head -n 1)
    [ -n "$page" ] || fail "$tool has no man page (add man/$tool.<section>.scd)"
    pages+=("$page")

    text=$(render "$page")
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES "SEE ALSO"; do
      grep -qx "$section" <<<"$text" || fail "$page has no $section section"
    done
    case $text in *%%*%%*) fail "$page has an unreplaced %%...%% marker" ;; esac

    want=$(help_options "$STINT_BIN/$tool" | sort -u)
    have=$(page_options <<<"$text" | sort -u)
    missing=$(comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$have") | tr '\n' ' ')
    extra=$(comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$have") | tr '\n' ' ')
    [ -z "${missing// /}" ] || fail "$page lacks options of '$tool --help': $missing"
    [ -z "${extra// /}" ] || fail "$page lists options '$tool --help' does not have: $extra"
  done
  [ -f "$MAN_DIR/stint.yaml.5" ] || fail "no stint.yaml.5"
  pages+=("$MAN_DIR/stint.yaml.5")
  grep -q "node_pool_ids" <(render "$MAN_DIR/stint.yaml.5") || fail "stint.yaml.5 lacks node_pool_ids"

  for page in "${pages[@]}"; do
    warnings=$(groff -ww -man -Tutf8 -z "$page" 2>&1)
    [ -z "$warnings" ] || fail "groff warns about $page: $warnings"
  done
fi

# --- bash completion ---------------------------------------------------------

bash -n "$COMPLETION" || fail "completions/stint.bash does not parse"

# complete WORD... : what the completion offers for the command line WORDS
# (the last is the word being completed), one a line, sorted; run in a bare
# bash, as bash-completion would call it.
complete_line() {
  bash --norc --noprofile -c '
    source "$1"
    shift
    spec=$(complete -p "$1") || exit 3
    func=$(sed -n "s/.* -F \([^ ]*\) .*/\1/p" <<<"$spec")
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    "$func" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$@" | sort
}

# offers WHAT EXPECTED-WORD COMMAND-LINE...
offers() {
  local what=$1 word=$2
  shift 2
  local got
  got=$(complete_line "$@")
  grep -qxF -- "$word" <<<"$got" || fail "$what: '$*' does not offer '$word'; got: $(tr '\n' ' ' <<<"$got")"
}

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: cpu, count: 2, cpus: 4, memory: 4G}
  - {id: gpu, count: 1, cpus: 8, memory: 8G, gpus: 2}
partitions:
  - {id: debug, node_pool_ids: [cpu], max_time: "1:00:00"}
  - {id: gpus, node_pool_ids: [gpu]}
YAML

# Every tool people run is registered (stint-stepd is internal).
for tool in "${tools[@]}"; do
  [ "$tool" = stint-stepd ] && continue
  bash --norc --noprofile -c 'source "$1"; complete -p "$2" >/dev/null' _ "$COMPLETION" "$tool" ||
    fail "completions/stint.bash does not register $tool"
done

# Each tool's options, exactly as its --help lists them.
for tool in "${tools[@]}"; do
  [ "$tool" = stint-stepd ] && continue
  want=$(own_options "$STINT_BIN/$tool" | sort -u)
  got=$(complete_line "$tool" - | sort -u)
  [ "$want" = "$got" ] || fail "'$tool -<TAB>' offers: $(tr '\n' ' ' <<<"$got"); --help lists: $(tr '\n' ' ' <<<"$want")"
done

offers "long option" --partition sbatch --part
[ "$(complete_line sbatch --part)" = --partition ] || fail "'sbatch --part' offers more than --partition"
offers "partition" debug sbatch -p ""
offers "partition" gpus sbatch -p ""
[ "$(complete_line sbatch -p "" | tr '\n' ' ')" = "debug gpus " ] || fail "sbatch -p offers $(complete_line sbatch -p "")"
offers "partition after =" gpus sbatch --partition = g
offers "partition, one word" --partition=gpus sbatch --partition=g
offers "partition list" debug,gpus squeue -p debug,g
offers "node" cpu-2 scontrol show node ""
offers "state" PENDING squeue -t P
offers "signal" USR1 scancel -s US
offers "subcommand" init stint ""
offers "subcommand" daemon stint ""
offers "sub-subcommand" check stint config ""
offers "sub-subcommand" start stint daemon s
offers "subcommand option" --force stint init --f
[ "$(complete_line stint config show -)" = "$(own_options "$STINT_BIN/stint" config show | sort -u)" ] ||
  fail "'stint config show -' offers: $(complete_line stint config show -)"
offers "scontrol verb" show scontrol ""
offers "scontrol verb" release scontrol ""
offers "scontrol entity" partition scontrol show ""
offers "scontrol partition" debug scontrol show partition ""

# Job ids: the user's own pending jobs.
a=$(submit -H --wrap true)
b=$(submit -H -J second --wrap true)
offers "scancel job id" "$a" scancel ""
offers "scancel job id" "$b" scancel ""
offers "release job id" "$b" scontrol release ""
offers "update job id" "$a" scontrol update job ""
offers "after an option" "$a" scancel -Q ""
# An option that takes a value is not mistaken for an operand, nor its value.
[ -z "$(complete_line scancel -n "")" ] || fail "scancel -n offers: $(complete_line scancel -n "")"

# The verbs offered are the ones scontrol takes.
for verb in $(complete_line scontrol ""); do
  out=$(scontrol "$verb" 2>&1 || true)
  case $out in *"invalid keyword"*) fail "completion offers scontrol verb '$verb', which scontrol refuses" ;; esac
done
scancel "$a" "$b"
