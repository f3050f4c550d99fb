#!/usr/bin/env bash
# OCI images through podman: an image imported in the test from a busybox
# root file system runs each node of a 2-node run in a container (the host's
# network, the working directory and a storage bound, the node's variables
# passed in), run-stop stops a running one and leaves no container, and an
# image podman does not have is refused at create time with no run made.
# Skips (77) without podman, a static busybox, or a container runtime that
# works here.
source "$(dirname "$0")/lib.sh"
podman=$(command -v podman || true)
busybox=$(command -v busybox || true)
[ -n "$podman" ] && [ -n "$busybox" ] || { echo "SKIP: needs podman and a static busybox" >&2; exit 77; }

image="localhost/stint-t84-$$:latest"
trap 'rc=$?; "$podman" rmi -f "$image" >/dev/null 2>&1; (exit $rc); cleanup' EXIT
mkdir -p rootfs/bin
cp "$busybox" rootfs/bin/busybox
for applet in sh cat echo test sleep true; do ln -s busybox "rootfs/bin/$applet"; done
tar -C rootfs -cf rootfs.tar .
"$podman" import rootfs.tar "$image" >/dev/null 2>&1 || { echo "SKIP: podman import failed" >&2; exit 77; }

# Podman's defaults may ask for more than a sandbox allows (RLIMIT_NOFILE,
# cgroups crun cannot drive): then the test runs with a containers.conf of
# its own (runc, modest limits), as a site would configure it.
if ! "$podman" run --rm "$image" /bin/true >/dev/null 2>&1; then
  runtime=$(command -v runc || command -v crun || true)
  cat >containers.conf <<CONF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
runtime = "$(basename "${runtime:-crun}")"
CONF
  export CONTAINERS_CONF="$PWD/containers.conf"
  err=$("$podman" run --rm "$image" /bin/true 2>&1) ||
    { echo "SKIP: podman cannot run a container here: $err" >&2; exit 77; }
fi

write_config <<'YAML'
node_pools:
  - {id: c, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: main, node_pool_ids: [c]}
config:
  KillWait: "2"
  StintRunPorts: "31300-31319"
YAML

# --- a missing image: refused at create, no run -------------------------------------
err=$(run-create --project oci --image localhost/stint-no-such-image:1 -- true 2>&1) &&
  fail "a missing OCI image was taken"
expect_contains "missing image" "$err" "run-create: error: --image localhost/stint-no-such-image:1: no such OCI image"
[ -z "$(run-list --project oci | tail -n +2)" ] || fail "a refused run was created"

# --- a 2-node run in containers ------------------------------------------------------------
path=$(run-storage create ocidata)
echo "from the storage" >"$path/in.txt"
run=$(run-create --project oci --nodes 2 --image "$image" --storage ocidata -- \
  sh -c 'echo "$RANK $WORLD_SIZE $MASTER_PORT" > "rank-$RANK.txt"
         cat /storage/ocidata/in.txt > "read-$RANK.txt"
         test -e /etc/debian_version || echo container > "where-$RANK.txt"')
expect_eq "run name" "oci/1" "$run"
completed() { run-list --project oci --json | grep -q '"run":"oci/1","state":"COMPLETED"'; }
wait_for 60 completed
port=$(run-show oci/1 | awk '$1 == "0" {print $NF}' | cut -d, -f1)
expect_eq "rank 1's variables" "1 2 $port" "$(cat rank-1.txt)"
expect_eq "rank 0 read the storage" "from the storage" "$(cat read-0.txt)"
expect_eq "rank 1 ran in the image" "container" "$(cat where-1.txt)"

# --- a node's exit status comes out of its container ------------------------------------
run-create --project oci --image "$image" -- sh -c 'exit 3' >/dev/null
failed() { run-list --project oci --json | grep -q '"run":"oci/2","state":"FAILED"'; }
wait_for 60 failed
expect_eq "exit code" "3:0" "$(run-show oci/2 | awk '$1 == "0" {print $4}')"

# --- run-stop stops a running container, and none is left -------------------------------
run-create --project oci --image "$image" -- sleep 300 >/dev/null
running() { run-list --project oci --json | grep -q '"run":"oci/3","state":"RUNNING"'; }
wait_for 30 running
job=$(sacct -n -X -P -o JobID,JobName | awk -F'|' '$2 == "oci/3" {print $1}')
# The test's image is its own: its containers are this run's.
up() { "$podman" ps --filter "ancestor=$image" --format '{{.Names}}' | grep -q "^stint-$job-0-"; }
wait_for 30 up
expect_eq "stop" "oci/3 stopped" "$(run-stop oci/3)"
gone() { [ -z "$("$podman" ps -a --filter "ancestor=$image" --format '{{.Names}}')" ]; }
deadline=$((SECONDS + 30))
until gone || [ $SECONDS -ge $deadline ]; do sleep 0.1; done
if ! gone; then
  "$podman" ps -a --filter "ancestor=$image"
  ps -ef | grep -E "podman|conmon|catatonit|sleep 300" | grep -v grep
  tail -n 20 "$STINT_STATE_DIR/log/stepd.log"
  fail "container left"
fi
stopped() { run-list --project oci --json | grep -q '"run":"oci/3","state":"STOPPED"'; }
wait_for 30 stopped
echo "ok"
