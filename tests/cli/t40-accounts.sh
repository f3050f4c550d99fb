#!/usr/bin/env bash
# Accounts, associations, QOS and limits: sacctmgr's listings and changes,
# AccountingStorageEnforce at submit, and run limits that keep jobs pending
# with Slurm's reasons until they fit.
source "$(dirname "$0")/lib.sh"

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 8, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
  - {id: other, node_pool_ids: [n]}
config:
  KillWait: "2"
  AccountingStorageEnforce: "associations,limits,qos"
YAML
me=$(id -un)

# pending_as JOB REASON: the job is pending for that reason.
pending_as() {
  [ "$(squeue -h -j "$1" -o '%t %r')" = "PD $2" ]
}
running() {
  [ "$(squeue -h -j "$1" -o %t)" = R ]
}

# --- listings need no stintd --------------------------------------------------

expect_eq "fresh accounts" "root" "$(sacctmgr -n -P list account format=account)"
expect_eq "fresh users" "root|root|Administrator" "$(sacctmgr -n -P list users)"
expect_eq "fresh qos" "normal|0|cluster" "$(sacctmgr -n -P show qos format=name,priority,preemptmode)"
[ ! -S "$STINT_STATE_DIR/stintd.sock" ] || fail "a listing started stintd"

# --- without -i the answer to Slurm's question is read from standard input --

# At the end of input the answer is no (Slurm would ask for ever).
out=$(timeout 20 sacctmgr add account lab </dev/null) || fail "sacctmgr without -i failed: $out"
expect_contains "summary" "$out" " Adding Account(s)"
expect_contains "question at end of input" "$out" \
  "Would you like to commit changes? (You have 30 seconds to decide)
(N/y): 
 Changes Discarded"
expect_eq "lab not added" "" "$(sacctmgr -n list account lab)"
# A script's pipe answers as a person would: n discards, y commits.
out=$(echo n | timeout 20 sacctmgr add account lab) || fail "sacctmgr with n failed: $out"
expect_contains "n discards" "$out" "(N/y): 
 Changes Discarded"
expect_eq "n: lab not added" "" "$(sacctmgr -n list account lab)"
out=$(echo y | timeout 20 sacctmgr add account piped) || fail "sacctmgr with y failed: $out"
expect_eq "y commits" "Would you like to commit changes? (You have 30 seconds to decide)
(N/y): " "$(printf '%s\n' "$out" | tail -n 2)"
expect_eq "committed on y" "piped" "$(sacctmgr -n -P list account piped format=account)"
# Anything else asks again.
out=$(printf 'x\ny\n' | timeout 20 sacctmgr add account again) || fail "sacctmgr with x failed: $out"
expect_contains "asked again" "$out" "(N/y): 
Y or N please
(N/y): 
 Changes Discarded"
expect_eq "the newline after x is a no" "" "$(sacctmgr -n list account again)"
if command -v script >/dev/null; then
  # On a terminal too.
  out=$(printf 'y\n' | timeout 60 script -qec "sacctmgr add account ttyacct" /dev/null) ||
    fail "sacctmgr on a terminal failed: $out"
  expect_contains "question" "$out" "Would you like to commit changes? (You have 30 seconds to decide)"
  expect_eq "committed on y" "ttyacct" "$(sacctmgr -n -P list account ttyacct format=account)"
fi

# --- the seed's form, and what Slurm prints -----------------------------------

out=$(sacctmgr -i add account lab Description="test lab" Organization=uni)
expect_contains "add account" "$out" "  A = lab        C = test      "
out=$(sacctmgr -i add User Accounts=lab Partition=debug "$me")
expect_contains "seed form" "$out" " Associations ="
expect_eq "association" "lab|$me|debug" \
  "$(sacctmgr -n -P show assoc where account=lab user="$me" format=account,user,partition)"
out=$(sacctmgr -i add account lab) && fail "adding lab twice succeeded"
expect_eq "nothing new" " Nothing new added." "$out"
err=$(sacctmgr -i modify user "$me" set Bogus=1 2>&1) && fail "Bogus=1 was accepted"
expect_contains "unknown option" "$err" " Unknown option: Bogus=1"
expect_contains "list accounts" "$(sacctmgr list accounts)" "       lab             test lab                  uni "

# --- enforcement at submit ----------------------------------------------------

# A user not added to an account is refused.
sacctmgr -i add account otheraccount >/dev/null
err=$(sbatch -A otheraccount --wrap true 2>&1) && fail "a job in an account without association was accepted"
expect_eq "no association" \
  "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" "$err"
# The association allows partition debug only.
err=$(sbatch -A lab -p other --wrap true 2>&1) && fail "a partition the association lacks was accepted"
expect_contains "partition" "$err" "Invalid account or account/partition combination specified"
# A QOS that does not exist, or that the association may not use.
err=$(sbatch -A lab --qos=nosuch --wrap true 2>&1) && fail "an unknown QOS was accepted"
expect_contains "unknown qos" "$err" "Invalid qos specification"
sacctmgr -i add qos high Priority=100 >/dev/null
err=$(sbatch -A lab --qos=high --wrap true 2>&1) && fail "a QOS the association lacks was accepted"
expect_contains "qos not allowed" "$err" "Invalid qos specification"
sacctmgr -i modify user "$me" where account=lab set qos+=high >/dev/null
job=$(submit -A lab --qos=high -H --wrap true)
expect_eq "qos allowed" "lab high" "$(squeue -h -j "$job" -o '%a %q')"
scancel "$job"

# Submit limits refuse with the limit's name and Slurm's policy message.
sacctmgr -i modify user "$me" where account=lab set MaxSubmitJobs=1 >/dev/null
held=$(submit -A lab -H --wrap true)
err=$(sbatch -A lab --wrap true 2>&1) && fail "MaxSubmitJobs=1 let a second job in"
expect_eq "max submit" "sbatch: error: AssocMaxSubmitJobLimit
sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)" "$err"
scancel "$held"
sacctmgr -i modify user "$me" where account=lab set MaxSubmitJobs=-1 >/dev/null
sacctmgr -i modify account lab set MaxWall=10 >/dev/null
# Over a per-job limit a job waits with its reason (Slurm refuses it only
# when its QOS has DenyOnLimit, below).
over=$(submit -A lab -t 20 --wrap true)
wait_for 30 pending_as "$over" AssocMaxWallDurationPerJobLimit
scancel "$over"
sacctmgr -i modify qos normal set Flags=DenyOnLimit >/dev/null
err=$(sbatch -A lab -t 20 --wrap true 2>&1) && fail "a job over MaxWall was accepted with DenyOnLimit"
expect_contains "max wall, DenyOnLimit" "$err" "AssocMaxWallDurationPerJobLimit"
sacctmgr -i modify qos normal set Flags=-1 >/dev/null
job=$(submit -A lab -H --wrap true)
expect_eq "MaxWall is the default time" "10:00" "$(squeue -h -j "$job" -o %l)"
scancel "$job"
sacctmgr -i modify account lab set MaxWall=-1 >/dev/null

# --- MaxJobs=2: the third job waits for one of the first two ------------------

sacctmgr -i modify user "$me" where account=lab set MaxJobs=2 >/dev/null
a=$(submit -A lab --wrap 'sleep 300')
b=$(submit -A lab --wrap 'sleep 300')
c=$(submit -A lab --wrap 'sleep 300')
wait_for 30 running "$a"
wait_for 30 running "$b"
wait_for 30 pending_as "$c" AssocMaxJobsLimit
expect_contains "scontrol" "$(scontrol show job "$c")" "Reason=AssocMaxJobsLimit"
scancel "$a"
wait_for 30 running "$c"
scancel "$b" "$c"

# --- GrpTRES=cpu=4 over an account and the accounts beneath it ----------------

sacctmgr -i add account grp >/dev/null
sacctmgr -i add account grp_a grp_b Parent=grp >/dev/null
sacctmgr -i add user "$me" Account=grp_a,grp_b >/dev/null
sacctmgr -i modify account grp set GrpTRES=cpu=4 >/dev/null
expect_eq "GrpTRES shown" "grp|cpu=4" "$(sacctmgr -n -P show assoc where account=grp user= format=account,grptres | head -n 1)"
x=$(submit -A grp_a -c 2 --wrap 'sleep 300')
y=$(submit -A grp_b -c 2 --wrap 'sleep 300')
z=$(submit -A grp_b -c 2 --wrap 'sleep 300')
wait_for 30 running "$x"
wait_for 30 running "$y"
wait_for 30 pending_as "$z" AssocGrpCpuLimit
scancel "$x"
wait_for 30 running "$z"
scancel "$y" "$z"

# --- a job's association cannot be deleted under it ---------------------------

job=$(submit -A grp_a -H --wrap true)
err=$(sacctmgr -i delete user "$me" account=grp_a 2>&1) && fail "deleted an association with a job"
expect_contains "active jobs" "$err" " Error with request: Job(s) active, cancel job(s) before remove"
scancel "$job"
out=$(sacctmgr -i delete user "$me" account=grp_a)
expect_contains "deleted" "$out" " Deleting user associations..."

# --- Slurm's other spellings -----------------------------------------------------

# add user user=NAME and add account name=NAME, as Slurm's test scripts write them.
out=$(sacctmgr -i add account name=spell cluster=test)
expect_contains "account name=" "$out" " Adding Account(s)"
out=$(sacctmgr -i add user user=speller account=spell cluster=test)
expect_contains "user user=" "$out" " Adding User(s)"
expect_eq "user=: the association" "spell|speller" \
  "$(sacctmgr -n -P show assoc where user=speller format=account,user)"
sacctmgr -i delete user speller >/dev/null
sacctmgr -i delete account spell >/dev/null
# A QOS's MaxJobs and MaxSubmitJobs are its per-user limits; MaxCPUs,
# MaxNodes, GrpCPUs, ... one TRES of the TRES limits (qos_functions.c).
out=$(sacctmgr -i add qos oldnames MaxSubmitJobs=100 MaxJobs=50 MaxCPUs=80 MaxNodes=2 \
  GrpCPUs=8 GrpNodes=1 MaxCPUMins=600 GrpCPUMins=240)
expect_contains "old names" "$out" " Adding QOS(s)"
expect_contains "old names: MaxSubmitJobs" "$out" "  MaxSubmitJobsPerUser     = 100"
expect_eq "old names listed" "MaxSubmit|MaxJobs|MaxCPUs|MaxNodes|GrpCPUs|GrpNodes|MaxCPUMins|GrpCPUMins
100|50|80|2|8|1|600|240" \
  "$(sacctmgr -P show qos oldnames \
    format=MaxSubmitJobs,MaxJobs,MaxCPUs,MaxNodes,GrpCPUs,GrpNodes,MaxCPUMins,GrpCPUMins)"
expect_eq "as the per-user and TRES limits" "50|100|cpu=80,node=2|cpu=8,node=1" \
  "$(sacctmgr -n -P show qos oldnames format=MaxJobsPU,MaxSubmitPU,MaxTRES,GrpTRES)"
sacctmgr -i modify qos where name=oldnames set MaxSubmitJobs=-1 MaxCPUs=-1 GrpCPUMins=-1 >/dev/null
expect_eq "cleared with -1" "|||2" \
  "$(sacctmgr -n -P show qos oldnames format=MaxSubmitJobs,MaxCPUs,GrpCPUMins,MaxNodes)"
sacctmgr -i delete qos oldnames >/dev/null
err=$(sacctmgr -i add qos peracct MaxSubmitJobsPerAccount=1 2>&1) &&
  fail "MaxSubmitJobsPerAccount accepted"
expect_contains "per-account limits refused" "$err" \
  " MaxSubmitJobsPerAccount is not supported here: stint's QOS limits are per job"
# Keys shortened as sacctmgr allows them (Slurm's test21.30 resets a QOS so).
sacctmgr -i add qos short >/dev/null
out=$(sacctmgr -i modify qos where name=short set MaxCpuMin=10 GrpJob=3 MaxNode=2 GrpMem=100 \
  MaxCpusPerUser=4 MaxJobs=-1 GrpCpuRunMin=-1) || fail "abbreviated QOS keys refused: $out"
expect_eq "abbreviated keys" "3|cpu=10|node=2|mem=100M|cpu=4" \
  "$(sacctmgr -n -P show qos short format=GrpJobs,MaxTRESMins,MaxTRES,GrpTRES,MaxTRESPU)"
err=$(sacctmgr -i modify qos where name=short set Max=2 2>&1) && fail "Max= accepted"
expect_contains "too short a key" "$err" " Unknown option: Max=2"
err=$(sacctmgr -i modify qos where name=short set MaxJobsx=2 2>&1) && fail "MaxJobsx= accepted"
expect_contains "longer than the key" "$err" " Unknown option: MaxJobsx=2"
# QOS lists take a sign on each name; a user's associations under one account
# are modified through the account with where user=.
sacctmgr -i add account signs >/dev/null
sacctmgr -i add user signer account=signs >/dev/null
sacctmgr -i modify account signs set qos=+short >/dev/null || fail "qos=+NAME refused"
expect_eq "qos=+short" "|normal,short" \
  "$(sacctmgr -n -P show assoc where account=signs format=user,qos | head -1)"
sacctmgr -i modify account signs set qos=-normal >/dev/null || fail "qos=-NAME refused"
expect_eq "qos=-normal" "|short" \
  "$(sacctmgr -n -P show assoc where account=signs format=user,qos | head -1)"
err=$(sacctmgr -i modify account signs set qos=normal,+short 2>&1) && fail "mixed signs accepted"
expect_contains "mixed signs" "$err" "You can't set qos equal to something and then add"
out=$(sacctmgr -i modify account signs where user=signer set maxjob=2 MaxCPUs=6 Priority=9) ||
  fail "modify account where user= failed: $out"
expect_contains "user associations modified" "$out" " Modified account associations...
  C = test       A = signs                U = signer"
expect_eq "the user's association" "2|cpu=6" \
  "$(sacctmgr -n -P show assoc where account=signs user=signer format=maxjobs,maxtres)"
expect_eq "not the account's" "||" \
  "$(sacctmgr -n -P show assoc where account=signs format=user,maxjobs,maxtres | head -1)"
# scontrol show assoc_mgr: Slurm's layout, each limit as limit(in use).
line=$(scontrol -o show assoc_mgr users=signer accounts=signs flags=assoc | grep "UserName=signer")
expect_contains "assoc_mgr: user association" "$line" \
  "ClusterName=test Account=signs UserName=signer(4294967294) Partition= Priority=9 ID="
expect_contains "assoc_mgr: MaxJobs" "$line" " MaxJobs=2(0) MaxJobsAccrue= MaxSubmitJobs= MaxWallPJ= "
expect_contains "assoc_mgr: MaxTRESPJ" "$line" " MaxTRESPJ=cpu=6 "
expect_contains "assoc_mgr: GrpTRES" "$line" " GrpTRES=cpu=N(0),mem=N(0),energy=N(0),node=N(0),"
out=$(scontrol show assoc_mgr flags=qos qos=short)
expect_contains "assoc_mgr: QOS" "$out" "QOS Records

QOS=short("
expect_contains "assoc_mgr: QOS limits" "$out" "    MaxTRESMinsPJ=cpu=10
"
expect_contains "assoc_mgr: no users" "$out" "User Limits
        No Users"
[[ $out != *"Association Records"* ]] || fail "flags=qos showed associations"
err=$(scontrol show assoc_mgr bogus=1 2>&1) && fail "show assoc_mgr bogus=1 succeeded"
expect_eq "assoc_mgr: bad key" "invalid entity: bogus for keyword:show assoc_mgr" "$err"
err=$(scontrol show assoc_mgr flags=none 2>&1) && fail "show assoc_mgr flags=none succeeded"
expect_eq "assoc_mgr: bad flag" \
  "invalid flag 'none', valid options are 'Assoc, QOS, and/or Users'" "$err"
sacctmgr -i delete user signer >/dev/null
sacctmgr -i delete account signs >/dev/null
sacctmgr -i delete qos short >/dev/null

# --- sshare -v says what it was asked ------------------------------------------

err=$(sshare -v -A Lab,root 2>&1 >/dev/null)
expect_eq "sshare -v" "$(printf 'Users requested:\n\t: %s\nAccounts requested:\n\t: lab\n\t: root' "$me")" "$err"
err=$(sshare -a --verbose 2>&1 >/dev/null)
expect_eq "sshare -a -v" "$(printf 'Users requested:\n\t: all\nAccounts requested:\n\t: all')" "$err"

# --- show config: slurm.conf's accounting keys, then slurmdbd's -------------------

out=$(sacctmgr show config) || fail "sacctmgr show config failed"
[[ $(head -n 1 <<<"$out") =~ ^Configuration\ data\ as\ of\ [0-9]{4}-[0-9]{2}-[0-9]{2}T ]] ||
  fail "show config begins with '$(head -n 1 <<<"$out")'"
expect_contains "slurm.conf part" "$out" "AccountingStorageBackupHost  = (null)
AccountingStorageHost  = localhost
AccountingStorageParameters = (null)
AccountingStoragePass  = (null)
AccountingStoragePort  = 6819
AccountingStorageType  = accounting_storage/slurmdbd
"
expect_contains "SLURM_VERSION" "$out" "SLURM_VERSION          = 22.05"
expect_contains "TrackWCKey" "$out" "TrackWCKey             = No

SlurmDBD configuration:
AllowNoDefAcct         = No
"
expect_contains "the database" "$out" "StorageLoc             = $STINT_STATE_DIR/stint.db"
expect_contains "slurmdbd's seconds" "$out" "TCPTimeout             = 2 secs"
err=$(sacctmgr show config bogus 2>&1) && fail "show config bogus accepted"
expect_contains "show config takes nothing" "$err" " Unknown option: bogus"

# --- show stats and clear stats: stintd's requests --------------------------------

before=$(date +%s)
sacctmgr clear stats || fail "sacctmgr clear stats failed"
sacctmgr -i add account statacct >/dev/null
out=$(sacctmgr show stats) || fail "sacctmgr show stats failed"
after=$(date +%s)
expect_contains "banner" "$out" "All statistics are in microseconds
*******************************************************************

Remote Procedure Call statistics by message type
"
since=$(sed -n 's/^Data since  *[A-Z][a-z][a-z] [A-Z][a-z][a-z] [0-9][0-9] [0-9:]* [0-9]* (\([0-9]*\))$/\1/p' <<<"$out")
[ -n "$since" ] && [ "$since" -ge "$before" ] && [ "$since" -le "$after" ] ||
  fail "Data since is not the clear's time ($before..$after): $out"
# The clear, the add (each connection's end a DBD_FINI), most first.
grep -q -E $'^\tDBD_FINI                 \( 1401\) count:2      ave_time:[0-9]+ +total_time:[0-9]+$' <<<"$out" ||
  fail "no DBD_FINI line: $out"
grep -q -E $'^\tDBD_ADD_ACCOUNTS         \( 1402\) count:1 ' <<<"$out" || fail "no DBD_ADD_ACCOUNTS line: $out"
grep -q -E $'^\tDBD_CLEAR_STATS          \( 1491\) count:1 ' <<<"$out" || fail "no DBD_CLEAR_STATS line: $out"
expect_contains "by user" "$out" "
Remote Procedure Call statistics by user
"
grep -q -E "^$(printf '\t%-20s(%10u)' "$me" "$(id -u)" | sed 's/[()]/\\&/g') count:2 " <<<"$out" ||
  fail "no line for $me: $out"
sacctmgr show stats total_time >/dev/null || fail "show stats total_time failed"
err=$(sacctmgr show stats bogus 2>&1) && fail "show stats bogus accepted"
expect_contains "show stats bogus" "$err" " Unknown option: bogus (show stats takes ave_time or total_time)"
sacctmgr -i delete account statacct >/dev/null

# --- a non-admin's changes are refused ----------------------------------------

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent passwd nobody >/dev/null; then
  nobody_group=$(id -gn nobody)
  as_nobody() {
    (cd / && setpriv --reuid=nobody --regid="$nobody_group" --clear-groups "$@")
  }
  # The state directory as a shared installation has it: others may reach the socket.
  chmod 711 "$TEST_ROOT" "$STINT_STATE_DIR"
  err=$(as_nobody sacctmgr -i add account evil 2>&1) && fail "nobody added an account"
  expect_eq "refusal" " Problem adding accounts: Access/permission denied" "$err"
  expect_eq "evil not added" "" "$(sacctmgr -n list account evil)"
  err=$(as_nobody sacctmgr -i modify account lab set MaxJobs=1 2>&1) && fail "nobody changed a limit"
  expect_contains "modify refusal" "$err" "Access/permission denied"
  # nobody is in no account: refused at submit.
  err=$(as_nobody sbatch --wrap true 2>&1) && fail "nobody's job without an association was accepted"
  expect_contains "nobody refused" "$err" "Invalid account or account/partition combination specified"
  # An operator may change accounts.
  sacctmgr -i add user nobody Account=lab AdminLevel=Operator >/dev/null
  as_nobody sacctmgr -i add account byoperator >/dev/null || fail "an operator could not add an account"
  err=$(as_nobody sacctmgr -i modify user nobody set AdminLevel=Admin 2>&1) &&
    fail "an operator made itself an administrator"
  expect_eq "still an operator" "Operator" "$(sacctmgr -n -P list user nobody format=admin)"
  # The statistics are an administrator's, as slurmdbd's are.
  err=$(as_nobody sacctmgr show stats 2>&1) && fail "an operator read the statistics"
  expect_contains "stats refused" "$err" "Access/permission denied"
  err=$(as_nobody sacctmgr clear stats 2>&1) && fail "an operator cleared the statistics"
  expect_contains "clear stats refused" "$err" "Access/permission denied"
else
  echo "SKIP non-admin checks: they need root, setpriv and the user nobody" >&2
fi
