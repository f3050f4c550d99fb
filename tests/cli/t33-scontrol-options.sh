#!/usr/bin/env bash
# scontrol's options as Slurm 22.05's getopt reads them: anywhere among the
# command's words, long names abbreviated; -M for this cluster's name (another
# refused with Slurm's message, from the command line or SLURM_CLUSTERS); -u
# for the invoking user only; --json and --yaml for show job and show node;
# the options with nothing to act on here change nothing.
source "$(dirname "$0")/lib.sh"
default_config

j=$(submit -H -J opts --wrap true)
plain=$(scontrol show job "$j")
for opt in -a --all --hide -F --future --federation --local --sibling --sib --fut; do
  expect_eq "$opt" "$plain" "$(scontrol "$opt" show job "$j")"
done
expect_eq "an option after the command" "$(scontrol -o show job "$j")" "$(scontrol show job "$j" --one)"

# -M: this cluster, or all.
expect_eq "-M test" "$plain" "$(scontrol -M test show job "$j")"
expect_eq "--clusters=all" "$plain" "$(scontrol --clusters=all show job "$j")"
expect_eq "--cluster" "$plain" "$(scontrol --cluster test show job "$j")"
command_refused "-M elsewhere" \
  "scontrol: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  scontrol -M elsewhere show job "$j"
command_refused "SLURM_CLUSTERS elsewhere" \
  "scontrol: error: 'elsewhere' can't be reached now, or it is an invalid entry for SLURM_CLUSTERS.  Use 'sacctmgr list clusters' to see available clusters." \
  env SLURM_CLUSTERS=elsewhere scontrol show job "$j"

# -u: the invoking user, by name or number; nobody else.
expect_eq "-u me" "$plain" "$(scontrol -u "$(id -un)" show job "$j")"
expect_eq "--uid=<number>" "$plain" "$(scontrol --uid="$(id -u)" show job "$j")"
command_refused "-u bogus" 'scontrol: error: --uid="no_such_user_x" invalid' \
  scontrol -u no_such_user_x show job "$j"
other=$([ "$(id -u)" = 0 ] && echo nobody || echo root)
command_refused "-u another" \
  "scontrol: error: --uid: acting as another user is not supported here; run the command as that user (su or sudo -u)" \
  scontrol -u "$other" hold "$j"
expect_eq "nothing done as another user" "PD JobHeldUser" "$(squeue -h -j "$j" -o '%t %r')"

# --json / --yaml: squeue's and sinfo's documents for the same records.
scontrol --json show job "$j" >job.json
python3 - "$j" job.json <<'PY' || fail "show job --json: $(cat job.json)"
import json, sys
jobs = json.load(open(sys.argv[2]))["jobs"]
assert [x["job_id"] for x in jobs] == [int(sys.argv[1])], jobs
assert jobs[0]["name"] == "opts", jobs[0]["name"]
PY
scontrol --json show node n-1 >node.json
python3 - node.json <<'PY' || fail "show node --json: $(cat node.json)"
import json, sys
nodes = json.load(open(sys.argv[1]))["nodes"]
assert [n["name"] for n in nodes] == ["n-1"], nodes
PY
expect_contains "--yaml" "$(scontrol --yaml show job "$j")" "job_id: !!int $j"
command_refused "--json show partition" \
  "scontrol: error: --json is supported here for show job and show node, not for show partition; leave it out for Slurm's text" \
  scontrol --json show partition

# getopt's words for an unknown or ambiguous option.
command_refused "unknown option" "scontrol: unrecognized option '--bogus'
Try \"scontrol --help\" for more information" scontrol --bogus show job "$j"
scancel "$j"

# write config: every value show config prints, in slurm.conf's words (or
# commented out where there is none), into FILE.<time>; nodes and partitions.
out=$(scontrol write config "$PWD/written.conf")
case "$out" in "Slurm config saved to $PWD/written.conf."20*) ;; *) fail "write config said: $out" ;; esac
written=${out#Slurm config saved to }
expect_contains "sections" "$(cat "$written")" "#                   CONTROL                    #"
missing=0
while IFS='=' read -r key value; do
  key=${key%% *}
  value=${value# }
  value=${value%%[ (]*}
  [ -z "$key" ] && break
  case "$key" in BOOT_TIME | HASH_VAL | MULTIPLE_SLURMD | NEXT_JOB_ID | SLURM_CONF | SLURM_VERSION | *\[*) continue ;; esac
  grep -qxF "$key=$value" "$written" || grep -qx "#$key=" "$written" || { echo "missing: $key=$value"; missing=$((missing + 1)); }
done < <(scontrol show config | tail -n +2)
expect_eq "every key of show config written" 0 "$missing"
expect_eq "a partition line" 1 "$(grep -c '^PartitionName=' "$written")"
# SLURM_CONF is the slurm.conf jobs find in theirs, as Slurm's is the file
# its tools read (stint.yaml is stint config show's to name).
expect_eq "SLURM_CONF" "$STINT_STATE_DIR/slurm.conf" \
  "$(scontrol show config | awk -F' = ' '$1 ~ /^SLURM_CONF /{print $2}')"
echo "t33 passed"
