# A real Slurm 22.05 from Debian's packages on this machine, loopback only,
# for the slurm backend's tests (sourced after lib.sh): munged, mariadbd,
# slurmdbd, slurmctld and SLURM_NODES slurmd (default 2, NodeName n1, n2, ...:
# multiple-slurmd mode; SLURM_CONF_EXTRA: more slurm.conf lines; SLURM_CONF_FROM:
# a cluster's own slurm.conf, whose NodeName lines name one node each, run with
# the daemons' places and ports of this file instead of the test cluster),
# all with their state, sockets, pid files and ports of their own under
# $TEST_ROOT/slurm, and stopped by their pid files when the test ends. The
# approach is the shared slurm-oracle's (../shared/slurm-oracle beside the checkout) (setup.sh, teardown.sh).
# Skips (exit 77) when it cannot be had: not root, packages not installable,
# daemons that do not start.

SLURM_DIR=${SLURM_DIR:-$TEST_ROOT/slurm}
SLURM_NODES=${SLURM_NODES:-2}
export SLURM_CONF="$SLURM_DIR/slurm.conf"  # read by the real tools this test runs
SLURM_PORT_BASE=${STINT_TEST_SLURM_PORT_BASE:-26800}
SLURM_CLUSTER=${SLURM_CLUSTER:-stinttest}
SLURM_PARTITION=debug

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

# The real tool, not stint's of the same name (stint's folder comes first in PATH).
real() {
  local tool=$1
  shift
  "/usr/bin/$tool" "$@"
}

slurm_install() {
  local need=() p
  for p in slurmctld slurmd slurm-client munge slurmdbd mariadb-server; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || skip "Slurm's packages (${need[*]}) are not installed and there is no apt-get"
  echo "installing ${need[*]} (Debian's packages)" >&2
  # Debian's policy-rc.d keeps postinst from starting services where one is set.
  if ! DEBIAN_FRONTEND=noninteractive timeout 600 apt-get -o DPkg::Lock::Timeout=300 install -y \
    --no-install-recommends "${need[@]}" >"$TEST_ROOT/apt.log" 2>&1; then
    tail -n 5 "$TEST_ROOT/apt.log" >&2
    skip "Slurm's packages (${need[*]}) could not be installed"
  fi
}

# pid_alive PIDFILE NAME: the pid file names a live process called NAME.
pid_alive() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(tr -dc '0-9' <"$1")
  [ -n "$pid" ] && [ -d "/proc/$pid" ] && [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$2"* ]]
}

# Stops exactly what slurm_up started, by its pid files, last started first.
slurm_down() {
  local pf name pid ids
  # Jobs first, so that no batch script or step outlives its slurmd.
  if pid_alive "$SLURM_DIR/run/slurmctld.pid" slurmctld; then
    ids=$(/usr/bin/squeue -h -o %A 2>/dev/null | sort -u)
    if [ -n "$ids" ]; then
      # shellcheck disable=SC2086
      /usr/bin/scancel $ids 2>/dev/null || true
      for _ in $(seq 1 150); do
        [ -z "$(/usr/bin/squeue -h -t R,CG,S -o %A 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
  fi
  for pf in "$SLURM_DIR"/run/slurmd-n*.pid "$SLURM_DIR/run/slurmctld.pid" \
    "$SLURM_DIR/run/slurmdbd.pid" "$SLURM_DIR/mysql/mysqld.pid" "$SLURM_DIR/munge/munged.pid"; do
    [ -e "$pf" ] || continue
    name=$(basename "$pf" .pid)
    name=${name%%-*}
    [ "$name" = mysqld ] && name=mariadbd
    pid_alive "$pf" "$name" || continue
    pid=$(tr -dc '0-9' <"$pf")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  # What outlived its slurmd: our slurmstepd (it holds files here) and our
  # batch scripts (run from here), each with its process group (srun, tasks).
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    case "$(cat "$d/comm" 2>/dev/null)" in
      slurmstepd)
        ls -l "$d/fd" 2>/dev/null | grep -q -- "$SLURM_DIR/" && kill -KILL "$pid" 2>/dev/null || true ;;
      slurm_script)
        # slurmstepd made it a process group leader: its group is its srun and tasks.
        if tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q -- "$SLURM_DIR/" &&
          [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ]; then
          kill -KILL -- "-$pid" 2>/dev/null || true
        fi ;;
    esac
  done
}

slurm_logs() {
  local f
  for f in "$SLURM_DIR"/log/*.log; do
    [ -e "$f" ] || continue
    echo "--- $f" >&2
    tail -n 15 "$f" >&2
  done
}

# wait_up SECONDS WHAT CMD...: like wait_for, but a daemon that does not come
# up skips the test rather than failing it.
wait_up() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  while ! "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      slurm_logs
      skip "$what did not start"
    fi
    sleep 0.1
  done
}

slurm_up() {
  [ "$(id -u)" = 0 ] || skip "a real Slurm needs root (slurmd, munged as munge)"
  slurm_install
  local host cpus rmem p=$SLURM_PORT_BASE
  host=$(hostname -s)
  # munged runs as munge and mariadbd as mysql: they must reach their folders.
  chmod 755 "$TEST_ROOT"
  mkdir -p "$SLURM_DIR"/{run,log,ctld,slurmd,munge,mysql}
  chmod 755 "$SLURM_DIR" "$SLURM_DIR/run" "$SLURM_DIR/log"

  # munge: Slurm's clients reach slurmdbd through munged's default socket
  # whatever AuthInfo says (22.05), so the test uses the munged serving it,
  # or starts one there with a key of its own (and stops it at the end).
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    chown munge:munge "$SLURM_DIR/munge"
    mungekey --create --keyfile="$SLURM_DIR/munge/munge.key" >/dev/null 2>&1 ||
      dd if=/dev/urandom of="$SLURM_DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
    chown munge:munge "$SLURM_DIR/munge/munge.key"
    chmod 400 "$SLURM_DIR/munge/munge.key"
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged --key-file="$SLURM_DIR/munge/munge.key" \
      --pid-file="$SLURM_DIR/munge/munged.pid" --log-file="$SLURM_DIR/munge/munged.log" \
      --seed-file="$SLURM_DIR/munge/munged.seed" || skip "munged did not start"
    wait_up 10 munged sh -c "munge -n | unmunge"
  fi

  # The accounting database (sacct: the ranks' steps and their exit codes).
  chown mysql:mysql "$SLURM_DIR/mysql"
  mariadb-install-db --no-defaults --user=mysql --datadir="$SLURM_DIR/mysql" \
    --auth-root-authentication-method=socket --skip-test-db >"$SLURM_DIR/log/mariadb-install.log" 2>&1 ||
    skip "mariadb-install-db failed"
  setsid /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$SLURM_DIR/mysql" \
    --socket="$SLURM_DIR/mysql/mysqld.sock" --pid-file="$SLURM_DIR/mysql/mysqld.pid" \
    --port=$((p + 6)) --bind-address=127.0.0.1 --log-error="$SLURM_DIR/log/mariadb.log" \
    --innodb-buffer-pool-size=64M --innodb-flush-log-at-trx-commit=2 </dev/null >/dev/null 2>&1 &
  wait_up 60 mariadbd mariadb-admin --no-defaults --socket="$SLURM_DIR/mysql/mysqld.sock" -uroot ping
  mariadb --no-defaults --socket="$SLURM_DIR/mysql/mysqld.sock" -uroot <<SQL
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'stint-test';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL

  read -r cpus rmem < <(slurmd -C | head -n 1 | tr ' ' '\n' |
    awk -F= '/^CPUs=/{c=$2} /^RealMemory=/{m=$2} END {print c, m}')
  rmem=$((rmem > 1024 ? rmem - 256 : rmem))
  # The daemons' own places, ports and plugins: what any cluster's file gets
  # here (this machine's folders, loopback, no cgroup delegation).
  local own_keys='AccountingStorageHost|AccountingStoragePort|AuthType|CommunicationParameters|CredType|JobAcctGatherType|JobCompType|KillWait|MailProg|MinJobAge|MpiDefault|ProctrackType|ReturnToService|SchedulerParameters|SlurmUser|SlurmctldHost|SlurmctldLogFile|SlurmctldPidFile|SlurmctldPort|SlurmdLogFile|SlurmdPidFile|SlurmdPort|SlurmdSpoolDir|SlurmdUser|StateSaveLocation|TaskPlugin'
  cat >"$SLURM_CONF" <<EOF
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=$((p + 17))
SlurmdPort=$((p + 18))
StateSaveLocation=$SLURM_DIR/ctld
SlurmdSpoolDir=$SLURM_DIR/slurmd/%n
SlurmctldPidFile=$SLURM_DIR/run/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/run/slurmd-%n.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd-%n.log
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
KillWait=2
MinJobAge=300
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,bf_interval=1
AccountingStorageHost=localhost
AccountingStoragePort=$((p + 19))
JobCompType=jobcomp/none
EOF
  if [ -n "${SLURM_CONF_FROM:-}" ]; then
    # Its keys but the daemons' own; each NodeName line gets this machine as
    # its host and a port of its own, as multiple-slurmd needs.
    grep -Ev "^(${own_keys})=" "$SLURM_CONF_FROM" |
      awk -v host="$host" -v port=$((p + 21)) '
        /^NodeName=/ { $0 = $0 " NodeHostname=" host " NodeAddr=127.0.0.1 Port=" port++ }
        { print }' >>"$SLURM_CONF"
  else
    cat >>"$SLURM_CONF" <<EOF
ClusterName=$SLURM_CLUSTER
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=64
AccountingStorageType=accounting_storage/slurmdbd
NodeName=n[1-$SLURM_NODES] NodeHostname=$host NodeAddr=127.0.0.1 Port=[$((p + 21))-$((p + 20 + SLURM_NODES))] CPUs=$cpus RealMemory=$rmem State=UNKNOWN
PartitionName=$SLURM_PARTITION Nodes=n[1-$SLURM_NODES] Default=YES MaxTime=INFINITE State=UP
EOF
  fi
  [ -z "${SLURM_CONF_EXTRA:-}" ] || echo "$SLURM_CONF_EXTRA" >>"$SLURM_CONF"
  # slurmdbd.conf is read from slurm.conf's folder.
  cat >"$SLURM_DIR/slurmdbd.conf" <<EOF
AuthType=auth/munge
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$((p + 19))
SlurmUser=root
LogFile=$SLURM_DIR/log/slurmdbd.log
PidFile=$SLURM_DIR/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$((p + 6))
StorageUser=slurm
StoragePass=stint-test
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$SLURM_DIR/slurmdbd.conf"
  /usr/sbin/slurmdbd || skip "slurmdbd did not start"
  wait_up 60 slurmdbd real sacctmgr -n list cluster
  real sacctmgr -i add cluster "$SLURM_CLUSTER" >/dev/null
  /usr/sbin/slurmctld || skip "slurmctld did not start"
  wait_up 60 slurmctld sh -c "/usr/bin/scontrol ping | grep -q 'is UP'"
  local n
  for ((n = 1; n <= SLURM_NODES; n++)); do
    /usr/sbin/slurmd -N "n$n" || skip "slurmd n$n did not start"
  done
  wait_up 60 "the nodes" sh -c "[ \"\$(/usr/bin/sinfo -h -N -o '%N %t' | sort -u | grep -c idle)\" = $SLURM_NODES ]"
  # Until slurmctld has registered with slurmdbd, a job's record there may be
  # a placeholder (JobName "allocation", one node).
  wait_up 60 "slurmctld's registration with slurmdbd" sh -c \
    "/usr/bin/sacctmgr -n -P show cluster $SLURM_CLUSTER format=ControlPort | grep -q '[1-9]'"
}
