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
