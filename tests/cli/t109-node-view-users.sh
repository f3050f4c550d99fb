#!/usr/bin/env bash
# The node a task sees, for a user's jobs: on a system stintd (root's), the
# batch task gets its node's view before it becomes the user, and the tasks
# srun starts on the other nodes get theirs through a user namespace of the
# user's; on a personal stintd (the user's own), every task does. Either
# way the task is the user (uid, gid) and every node name resolves.
. "$(dirname "$0")/users.sh"

u="stintv$$"
add_test_user "$u"
home="$TEST_ROOT/home-$u"
config='node_pools:
  - {id: g, count: 2, cpus: 2, memory: 1G}
partitions:
  - {id: debug, node_pool_ids: [g]}
config:
  KillWait: "1"'
printf '%s\n' "$config" | write_config
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"
expect_eq "the hosts file is everyone's to read" 644 "$(stat -c %a "$STINT_STATE_DIR/hosts")"

# --- System mode: root's stepd, the user's tasks.
cat >"$home/where.sh" <<'SH'
#!/bin/sh
#SBATCH -N2 --ntasks-per-node=1 -o where.out
echo "batch $(hostname) $(id -un) $(getent hosts g-2 | awk '{print $1}')"
srun sh -c 'echo "task $SLURM_PROCID $(hostname) $(id -un) $(getent hosts g-1 | awk "{print \$1}")"'
SH
chown "$u" "$home/where.sh"
j=$(as "$u" sbatch --parsable where.sh)
wait_for 30 job_ended "$j"
expect_eq "the user's job" COMPLETED "$(job_state "$j")"
userns=$(cat /proc/sys/user/max_user_namespaces 2>/dev/null || echo 0)
if [ "$(sed -n 3p "$home/where.out" | awk '{print $3}')" != g-2 ] && [ "$userns" = 0 ]; then
  # The batch task has its view (root made it); another node's task needs a
  # user namespace, which this kernel does not give.
  expect_eq "batch task" "batch g-1 $u 127.0.1.2" "$(sed -n 1p "$home/where.out")"
  echo "SKIP: no user namespaces here: srun's tasks on other nodes keep the machine's name" >&2
  exit 77
fi
expect_eq "where it ran, as whom" \
  "batch g-1 $u 127.0.1.2|task 0 g-1 $u 127.0.1.1|task 1 g-2 $u 127.0.1.1" \
  "$(sort "$home/where.out" | paste -sd'|')"
# Files the task makes are the user's, inside the namespace and out.
expect_eq "srun from the login shell" "g-1 $u|g-2 $u" \
  "$(as "$u" srun -N2 sh -c 'touch "made-$(hostname)"; echo "$(hostname) $(id -un)"' | sort |
    paste -sd'|')"
expect_eq "their files' owner" "$u $u" "$(stat -c %U "$home/made-g-1" "$home/made-g-2" | lines)"

# --- Personal mode: the user's own stintd, without any privilege.
personal="$home/state"
as "$u" sh -c "mkdir -p '$personal' && chmod 700 '$personal' && cat >'$personal/stint.yaml'" \
  <<<"$config"
mine() { as "$u" env STINT_STATE_DIR="$personal" "$@"; }
expect_eq "srun -N2 hostname" "g-1 g-2" "$(mine srun -N2 hostname | sort | lines)"
expect_eq "getent hosts g-2" "127.0.1.2 g-2" "$(mine srun -N1 -w g-1 getent hosts g-2 | awk '{print $1, $2}')"
expect_eq "still the user" "$(id -u "$u") $(id -g "$u")" "$(mine srun -N1 -w g-2 sh -c 'echo "$(id -u) $(id -g)"')"
expect_eq "the personal stintd is the user's" "$u" \
  "$(ps -o user= -p "$(cat "$personal/stintd.lock")")"
mine scancel --me >/dev/null 2>&1 || true
echo ok
