#!/usr/bin/env bash
# A bad config file is refused with file, line and key; the old one stays in
# force for a running stintd, and `stint init` changes nothing when refused.
source "$(dirname "$0")/lib.sh"
default_config
expect_eq "partition" "debug" "$(sinfo -h -o %R | head -n 1)"

cp "$STINT_STATE_DIR/stint.yaml" good.yaml
cat > bad.yaml <<'YAML'
node_pools:
  - id: n
    count: 1
    cpus: many
partitions:
  - {id: p, node_pool_ids: [n]}
YAML
set +e
err=$(stint init --force --from bad.yaml 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "stint init accepted a bad file"
expect_contains "init message" "$err" "bad.yaml:4"
expect_contains "init message" "$err" "cpus"
cmp -s good.yaml "$STINT_STATE_DIR/stint.yaml" || fail "refused init changed stint.yaml"

# A stintd started on a bad file refuses to start and says why.
cp bad.yaml "$STINT_STATE_DIR/stint.yaml"
set +e
err=$(sbatch --wrap true 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "sbatch with a bad config succeeded"
expect_contains "sbatch with bad config" "$err" "stint.yaml:4"

# The seed's JSON cluster spec loads as it is.
stint config check "$STINT_SOURCE_DIR/examples/clusters/seed-spec.json" >/dev/null
cp good.yaml "$STINT_STATE_DIR/stint.yaml"
id=$(submit --wrap true)
wait_for 30 job_ended "$id"
expect_eq "job after fixing the config" COMPLETED "$(job_state "$id")"
expect_contains "scontrol show config" "$(scontrol show config)" "KillWait"

# scontrol show config prints Slurm's keys, values alone (workflow engines read
# them with awk -F=), and that the controller is up; origins and stint's own
# keys are stint config show's.
expect_eq "SchedulerTimeSlice as Toil reads it" " 30 sec" \
  "$(scontrol show config | awk -F= '/^SchedulerTimeSlice/ {print $2}')"
config=$(scontrol show config)
expect_eq "KillWait" " 2 sec" "$(awk -F= '/^KillWait/ {print $2}' <<<"$config")"
expect_eq "SLURM_VERSION" "22.05.8" "$(awk '$1 == "SLURM_VERSION" {print $3}' <<<"$config")"
expect_eq "StateSaveLocation" "$STINT_STATE_DIR" "$(awk '$1 == "StateSaveLocation" {print $3}' <<<"$config")"
expect_eq "last line" "is UP" "$(tail -n 1 <<<"$config" | grep -o 'is UP$')"
if grep -q -e '(stint.yaml)' -e '^Stint' <<<"$config"; then fail "origins or stint keys in scontrol show config"; fi
shown=$(stint config show)
expect_contains "stint config show: origin" "$shown" "KillWait                = 2 sec (stint.yaml)"
expect_contains "stint config show: stint's keys" "$shown" "StintIdleExit           = 300 sec (default)"

# A state directory that is another user's is served by that user's stintd,
# which no tool starts: with none running, scontrol still prints the
# configuration, says the controller is DOWN (with Slurm's banner for root)
# and exits 1.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  other="$TEST_ROOT/other-state"
  mkdir -p "$other"
  cp "$STINT_STATE_DIR/stint.yaml" "$other/"
  chown -R nobody "$other"
  set +e
  down=$(STINT_STATE_DIR="$other" scontrol show config 2>&1)
  rc=$?
  set -e
  expect_eq "exit status with stintd down" 1 "$rc"
  expect_eq "BOOT_TIME with stintd down" "Unknown" "$(awk '$1 == "BOOT_TIME" {print $3}' <<<"$down")"
  expect_contains "DOWN" "$down" "is DOWN
*****************************************
** RESTORE SLURMCTLD DAEMON TO SERVICE **"
  expect_eq "SlurmUser: the directory's owner" "nobody($(id -u nobody))" \
    "$(awk '$1 == "SlurmUser" {print $3}' <<<"$down")"
fi

# A broken file while stintd runs: stintd refuses it and runs on, and every
# reader shows the configuration stintd runs (its copy in the database), not
# a YAML error; with stintd stopped too, as long as the file does not load.
cp "$STINT_STATE_DIR/stint.yaml" kept.yaml
shown=$(j=$(submit --wrap true) && wait_for 30 job_ended "$j" && echo "$j")
printf 'node_pools: [[[\n' >"$STINT_STATE_DIR/stint.yaml"
for round in "stintd up" "stintd down"; do
  parts=$(sinfo -h -o %R | lines)
  [ -n "$parts" ] || fail "sinfo over a broken file ($round): nothing"
  squeue >/dev/null || fail "squeue over a broken file ($round)"
  expect_eq "sacct over a broken file ($round)" COMPLETED "$(sacct -n -X -P -j "$shown" -o State)"
  scontrol show partition >/dev/null || fail "scontrol show over a broken file ($round)"
  stop_stintd
done
# The next start refuses the file, in its words.
set +e
err=$(sbatch --wrap true 2>&1)
set -e
expect_contains "start on a broken file" "$err" "stint.yaml"
cp kept.yaml "$STINT_STATE_DIR/stint.yaml"
