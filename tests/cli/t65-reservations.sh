#!/usr/bin/env bash
# Advance reservations as Slurm 22.05 has them: scontrol create, show (exact
# format), update and delete reservation with Slurm's messages and exit
# codes; sinfo -T; a job in a reservation runs on its node, one outside it
# never does while it holds it; a job waits with reason Reservation before
# the window; a maintenance reservation over a whole partition gives
# "ReqNodeNotAvail, Reserved for maintenance"; at the end its running job
# ends TIMEOUT and its pending job is held; reservations survive a restart.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: a, count: 1, cpus: 4, memory: 4G}
  - {id: b, count: 1, cpus: 4, memory: 4G}
partitions:
  - {id: all, node_pool_ids: [a, b], max_time: "1:00:00"}
  - {id: small, node_pool_ids: [a]}
config:
  KillWait: "1"
YAML
me=$(id -un)
gate='for i in $(seq 600); do [ -e go-$SLURM_JOB_ID ] && break; sleep 0.1; done; echo done'
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
reason_is() { [ "$(squeue -h -j "$1" -o %r)" = "$2" ]; }
node_state() { sinfo -h -N -p all -o '%N %t' | awk -v n="$1" '$1 == n {print $2}'; }
# refused EXPECTED_OUTPUT COMMAND...: exits 1 printing exactly that.
refused() {
  local want=$1 out rc
  shift
  set +e
  out=$("$@" 2>&1)
  rc=$?
  set -e
  expect_eq "exit status of: $*" 1 "$rc"
  expect_eq "output of: $*" "$want" "$out"
}

# None yet.
expect_eq "show, none" "No reservations in the system" "$(scontrol show reservation)"
expect_eq "sinfo -T, none" "No reservations in the system" "$(sinfo -T)"

# scontrol's own checks, then stintd's: nothing is created.
refused "scontrol: error: Either Users/Groups and/or Accounts must be specified.  No reservation created." \
  scontrol create reservation starttime=now duration=10 nodes=b-1
refused "scontrol: error: A start time must be given.  No reservation created." \
  scontrol create res duration=10 users="$me" nodes=b-1
refused "scontrol: error: Unknown parameter Colour=red.  No reservation created." \
  scontrol create res starttime=now duration=10 users="$me" nodes=b-1 Colour=red
refused "Error creating the reservation: Invalid node name specified" \
  scontrol create res starttime=now duration=10 users="$me" nodes=zz-1
refused "Error creating the reservation: Invalid user id" \
  scontrol create res starttime=now duration=10 users=no_such_user_x nodes=b-1
out=$(scontrol create res starttime=now duration=10 users="$me" nodes=b-1 flags=magnetic 2>&1) &&
  fail "an unsupported flag was accepted"
expect_contains "unsupported flag" "$out" "Reservation flag magnetic is not supported here"
expect_eq "still none" "No reservations in the system" "$(scontrol show reservation)"

# A future one, shown exactly; a generated name (<user>_<id>).
expect_eq "create later" "Reservation created: later" \
  "$(scontrol create reservation ReservationName=later StartTime=2035-01-01T10:00:00 \
     Duration=1:00:00 Users="$me" Nodes=a-1 Flags=DAILY)"
expect_eq "show later" "ReservationName=later StartTime=2035-01-01T10:00:00 EndTime=2035-01-01T11:00:00 Duration=01:00:00
   Nodes=a-1 NodeCnt=1 CoreCnt=4 Features=(null) PartitionName=(null) Flags=DAILY,SPEC_NODES
   TRES=cpu=4
   Users=$me Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)" "$(scontrol show reservation later)"
expect_eq "generated name" "Reservation created: ${me}_2" \
  "$(scontrol create res start=2036-01-01T00:00:00 end=2036-01-01T01:00:00 users="$me" nodecnt=1)"
expect_contains "NodeCnt picks in the default partition" \
  "$(scontrol -o show res "${me}_2")" "Nodes=a-1 NodeCnt=1 CoreCnt=4 Features=(null) PartitionName=all"
scontrol delete ReservationName="${me}_2"

# The one the jobs use: b-1 for this user, from now.
expect_eq "create r1" "Reservation created: r1" \
  "$(scontrol create res ReservationName=r1 StartTime=now Duration=10 Users="$me" Nodes=b-1)"
refused "Error creating the reservation: Duplicate reservation name" \
  scontrol create res ReservationName=r1 StartTime=now Duration=10 Users="$me" Nodes=a-1
refused "Error creating the reservation: Requested reservation overlaps with another reservation" \
  scontrol create res StartTime=now Duration=10 Users="$me" Nodes=b-1
expect_contains "active" "$(scontrol -o show res r1)" "State=ACTIVE"
expect_eq "reserved node" resv "$(node_state b-1)"
expect_contains "node state" "$(scontrol show node b-1)" "State=IDLE+RESERVED "
header=$(sinfo -T | head -n 1)
expect_eq "sinfo -T header" "RESV_NAME     STATE           START_TIME             END_TIME     DURATION  NODELIST" "$header"
line=$(sinfo -T -h | grep '^r1 ')
[[ "$line" =~ ^r1\ +ACTIVE\ +[-0-9T:]{19}\ +[-0-9T:]{19}\ +00:10:00\ +b-1$ ]] ||
  fail "sinfo -T line: $line"

# Jobs: one in the reservation runs on b-1; the ones outside never go there.
refused "sbatch: error: Batch job submission failed: Requested reservation is invalid" \
  sbatch --reservation=nosuch --wrap true
expect_eq "create r2" "Reservation created: r2" \
  "$(scontrol create res ReservationName=r2 StartTime=now+1day Duration=10 Users=nobody Nodes=b-1 Flags=OVERLAP)"
refused "sbatch: error: Batch job submission failed: Access denied to requested reservation" \
  sbatch --reservation=r2 --wrap true
scontrol delete reservation r2
in1=$(submit -p all -c 2 -t 5 --reservation=r1 --wrap "$gate")
out1=$(submit -p all -c 4 -t 5 --wrap "$gate")
wait_for 30 running "$in1"
wait_for 30 running "$out1"
expect_eq "in the reservation: b-1" b-1 "$(squeue -h -j "$in1" -o %N)"
expect_eq "outside it: a-1" a-1 "$(squeue -h -j "$out1" -o %N)"
out2=$(submit -p all -c 1 -t 5 --wrap true)
wait_for 10 reason_is "$out2" Resources
expect_eq "squeue %v" "r1 (null)" "$(squeue -h -j "$in1,$out1" -o %v | sort -r | tr '\n' ' ' | sed 's/ $//')"
expect_eq "squeue -R" "$in1" "$(squeue -h -R r1 -o %i)"
expect_contains "show job" "$(scontrol show job "$in1")" "
   Reservation=r1
"

# A job of a reservation that has not begun waits with reason Reservation.
expect_eq "create soon" "Reservation created: soon" \
  "$(scontrol create res ReservationName=soon StartTime=now+1hour Duration=10 Users="$me" Nodes=a-1)"
early=$(submit -p all -t 5 --reservation=soon --wrap true)
wait_for 10 reason_is "$early" Reservation
refused "Requested reservation is invalid for job $early" \
  scontrol update JobId="$early" Reservation=nosuch

# A maintenance of all of partition small: its jobs wait with Slurm's words.
expect_eq "create maint" "Reservation created: m1" \
  "$(scontrol create res ReservationName=m1 StartTime=now Duration=10 Users=root Nodes=a-1 Flags=MAINT,IGNORE_JOBS)"
expect_eq "maint node (busy)" 'alloc$' "$(node_state a-1)"
small=$(submit -p small -t 5 --wrap true)
wait_for 10 reason_is "$small" "ReqNodeNotAvail, Reserved for maintenance"
expect_contains "show job reason" "$(scontrol show job "$small")" \
  "Reason=ReqNodeNotAvail,_Reserved_for_maintenance"
scontrol delete ReservationName=m1

# Update: Slurm's messages; the change shows.
expect_eq "update" "Reservation updated." "$(scontrol update ReservationName=r1 Duration=20 Users+=nobody)"
expect_contains "updated" "$(scontrol -o show res r1)" "Duration=00:20:00"
expect_contains "updated users" "$(scontrol -o show res r1)" "Users=$me,nobody "
refused "Error updating the reservation: Requested reservation is invalid
slurm_update error: Requested reservation is invalid" scontrol update ReservationName=nosuch Duration=5
refused "Error updating the reservation: Reservation already started
slurm_update error: Reservation already started" scontrol update ReservationName=r1 StartTime=now+1hour
refused "scontrol: error: Error parsing flags bogus.  No reservation update." \
  scontrol update ReservationName=r1 Flags=bogus
# Delete: refused while a job uses it.
refused "delete_reservation ReservationName=r1: Requested reservation is in use" \
  scontrol delete ReservationName=r1
touch "go-$in1" "go-$out1"
wait_for 30 job_ended "$in1"
wait_for 30 job_ended "$out2"
wait_for 30 job_ended "$small"
scontrol delete ReservationName=r1
refused "Reservation r1 not found" scontrol show reservation r1
refused "delete_reservation ReservationName=r1: Requested reservation is invalid" \
  scontrol delete ReservationName=r1

# Reservations survive a restart of stintd (and show without it).
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -TERM "$pid"
wait_for 10 sh -c "! kill -0 $pid"
expect_contains "shown while stintd is down" "$(scontrol show res)" "ReservationName=soon "
again=$(submit -t 1 --wrap true)  # starts stintd again
wait_for 10 reason_is "$early" Reservation
scancel "$early"
wait_for 30 job_ended "$again"

# The end: its running job ends TIMEOUT, its pending job is held until released.
expect_eq "create brief" "Reservation created: brief" \
  "$(scontrol create res ReservationName=brief StartTime=now EndTime=now+$(scaled 8) Users="$me" Nodes=b-1)"
ran=$(submit -p all -c 4 -t 5 --reservation=brief --wrap "$gate")
held=$(submit -p all -c 4 -t 5 --reservation=brief --wrap true)
wait_for 10 running "$ran"
wait_for 30 job_ended "$ran"
expect_eq "killed at the end" TIMEOUT "$(job_state "$ran")"
wait_for 10 reason_is "$held" "Reservation brief was deleted"
expect_eq "held" "RD RESV_DEL_HOLD" "$(squeue -h -j "$held" -o "%t %T")"
expect_contains "held, scontrol" "$(scontrol show job "$held")" "JobState=RESV_DEL_HOLD Reason=Reservation_brief_was_deleted "
expect_contains "gone" "$(scontrol show res)" "ReservationName=soon"
[[ "$(scontrol show res)" != *brief* ]] || fail "brief is still there"
scontrol release "$held"
wait_for 30 job_ended "$held"
expect_eq "released job ran" COMPLETED "$(job_state "$held")"
echo "t65 passed"
