#!/usr/bin/env bash
# --mail-type/--mail-user: stintd runs MailProg as slurmctld does
# (`MailProg -s "<subject>" <user>`, Slurm's subject lines and variables) at
# the start, the end (by state), a requeue, a time-limit fraction and a
# dependency that can never be met; an array without ARRAY_TASKS mails once
# for the whole array. Without MailProg the user's ~/.config/stint/notify
# runs instead; with neither, stintd says so once in its log.
source "$(dirname "$0")/lib.sh"
me=$(id -un)
mkdir -p "$WORK/mails" "$WORK/home"
# The hook is looked for in the personal stintd's HOME.
export HOME="$WORK/home"
cat >"$WORK/fakemail" <<EOF
#!/bin/bash
# MailProg gets no PATH from slurmctld.
PATH=/usr/bin:/bin
f=\$(mktemp "$WORK/mails/m.XXXXXX")
{ printf 'ARG=%s\n' "\$@"; env | grep -E '^(SLURM_|STINT_)' | sort; } >"\$f"
EOF
chmod +x "$WORK/fakemail"
write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  StintRequeueDelay: "1"
  MailProg: "$WORK/fakemail"
  MailDomain: example.com
YAML

# The mail whose subject is $1 (exactly, or starting with it when $2 is
# "prefix"): its file name, once it has come.
mail_file() {
  local f
  for f in "$WORK"/mails/m.*; do
    [ -f "$f" ] || continue
    if [ "${2:-}" = prefix ]; then
      grep -qF -- "ARG=$1" "$f" && { echo "$f"; return 0; }
    else
      grep -qxF -- "ARG=$1" "$f" && { echo "$f"; return 0; }
    fi
  done
  return 1
}
has_mail() { mail_file "$@" >/dev/null; }
count_mails() { grep -l -F -- "$1" "$WORK"/mails/m.* 2>/dev/null | wc -l; }

# TIME_LIMIT_50 of a two-minute job comes after 60 s: submitted first, the
# rest is checked meanwhile. Two minutes, not one: under ASan on a loaded
# machine the rest took longer than a one-minute job ran, and the job had
# ended by the time its state was read.
half=$(submit -J half -t 2 --mail-type=TIME_LIMIT_50 --wrap 'sleep 150')

# BEGIN and END, to the user at MailDomain; the arguments and variables.
ok=$(submit -J ok --mail-type=BEGIN,END --wrap 'exit 0')
wait_for 20 has_mail "Slurm Job_id=$ok Name=ok Ended, Run time 00:00:0" prefix
f=$(mail_file "Slurm Job_id=$ok Name=ok Began, Queued time 00:00:0" prefix)
expect_eq "MailProg's arguments" "ARG=-s" "$(sed -n 1p "$f")"
expect_eq "recipient" "ARG=$me@example.com" "$(sed -n 3p "$f")"
e=$(cat "$f")
expect_contains "job id" "$e" "SLURM_JOB_ID=$ok"
expect_contains "mail type" "$e" "SLURM_JOB_MAIL_TYPE=Began"
expect_contains "state at start" "$e" "SLURM_JOB_STATE=RUNNING"
expect_contains "user" "$e" "SLURM_JOB_USER=$me"
expect_contains "queued time" "$e" "SLURM_JOB_QUEUED_TIME=00:00:0"
f=$(mail_file "Slurm Job_id=$ok Name=ok Ended, Run time 00:00:0" prefix)
expect_contains "end subject" "$(cat "$f")" ", COMPLETED, ExitCode 0"
expect_contains "state at end" "$(cat "$f")" "SLURM_JOB_STATE=COMPLETED"
expect_contains "exit code" "$(cat "$f")" "SLURM_JOB_EXIT_CODE_MAX=0"

# FAIL, to --mail-user; END is not asked for, so only one mail.
bad=$(submit -J bad --mail-type=FAIL --mail-user=someone@example.org --wrap 'exit 3')
wait_for 20 has_mail "Slurm Job_id=$bad Name=bad Failed, Run time 00:00:0" prefix
f=$(mail_file "Slurm Job_id=$bad Name=bad Failed" prefix)
expect_contains "fail subject" "$(cat "$f")" ", FAILED, ExitCode 3"
expect_contains "fail recipient" "$(cat "$f")" "ARG=someone@example.org"
expect_eq "mails about $bad" 1 "$(count_mails "Job_id=$bad ")"

# INVALID_DEPEND: afterok on a job that failed can never be met.
dep=$(submit -J dep --mail-type=INVALID_DEPEND -d "afterok:$bad" --wrap true)
wait_for 20 has_mail "Slurm Job_id=$dep Name=dep Invalid dependency"
scancel "$dep"

# An array without ARRAY_TASKS: one BEGIN and one summary at its end.
arr=$(submit -J arr --array=0-2 --mail-type=BEGIN,END --wrap 'exit 0')
wait_for 20 has_mail "Slurm Array Summary Job_id=${arr}_* ($arr) Name=arr Ended, COMPLETED, ExitCode [0-0]"
has_mail "Slurm Array Summary Job_id=${arr}_* ($arr) Name=arr Began" ||
  fail "no BEGIN summary for the array"
expect_eq "mails about array $arr" 2 "$(count_mails "Job_id=${arr}_")"
# Tasks that end differently: Mixed, and FAIL rather than END.
mix=$(submit -J mix --array=0-1 --mail-type=END,FAIL --wrap 'exit $SLURM_ARRAY_TASK_ID')
wait_for 20 has_mail "Slurm Array Summary Job_id=${mix}_* ($mix) Name=mix Failed, Mixed, ExitCode [0-1]"
expect_eq "mails about array $mix" 1 "$(count_mails "Job_id=${mix}_")"
# With ARRAY_TASKS: each task for itself.
tasks=$(submit -J each --array=0-1 --mail-type=END,ARRAY_TASKS --wrap 'exit 0')
# Each task's own id in parentheses: the first to start took the next id, the
# last the array's, as in Slurm.
wait_for 20 has_mail "Slurm Array Task Job_id=${tasks}_0 ($((tasks + 1))) Name=each Ended, Run time 00:00:0" prefix
wait_for 20 has_mail "Slurm Array Task Job_id=${tasks}_1 ($tasks) Name=each Ended, Run time 00:00:0" prefix
expect_eq "mails about array $tasks" 2 "$(count_mails "Job_id=${tasks}_")"

# REQUEUE: scontrol requeue of a running job.
rq=$(submit -J rq --mail-type=REQUEUE --wrap 'sleep 60')
wait_for 20 sh -c "[ \"\$(squeue -h -j $rq -o %T)\" = RUNNING ]"
scontrol requeue "$rq"
wait_for 20 has_mail "Slurm Job_id=$rq Name=rq Requeued, Run time 00:00:0" prefix
scancel "$rq"

# The time-limit fraction, while the job runs.
wait_for 90 has_mail "Slurm Job_id=$half Name=half Reached 50% of time limit, Run time 00:01:0" prefix
f=$(mail_file "Slurm Job_id=$half Name=half Reached 50%" prefix)
expect_contains "time mail type" "$(cat "$f")" "SLURM_JOB_MAIL_TYPE=Reached 50% of time limit"
expect_contains "run time" "$(cat "$f")" "SLURM_JOB_RUN_TIME=00:01:0"
expect_eq "state while running" RUNNING "$(squeue -h -j "$half" -o %T)"
scancel "$half"

# No MailProg: the user's hook, with the subject in STINT_SUBJECT.
sed -i "s|MailProg: .*|MailProg: \"$WORK/no-such-mailer\"|" "$STINT_STATE_DIR/stint.yaml"
scontrol reconfigure
mkdir -p "$HOME/.config/stint"
cat >"$HOME/.config/stint/notify" <<EOF
#!/bin/bash
printf '%s|%s|%s\n' "\$STINT_SUBJECT" "\$3" "\$SLURM_JOB_MAIL_TYPE" >>"$WORK/hook.log"
EOF
chmod +x "$HOME/.config/stint/notify"
hk=$(submit -J hk --mail-type=END --wrap true)
wait_for 20 grep -q "^Slurm Job_id=$hk Name=hk Ended, Run time 00:00:0.*|$me@example.com|Ended\$" "$WORK/hook.log"
# Neither: said once in the log, and nothing runs.
rm "$HOME/.config/stint/notify"
n1=$(submit -J none1 --mail-type=END --wrap true)
n2=$(submit -J none2 --mail-type=END --wrap true)
wait_for 20 job_ended "$n2"
wait_for 20 job_ended "$n1"
wait_for 10 grep -q "mail not sent: MailProg $WORK/no-such-mailer does not exist" "$STINT_STATE_DIR/log/stintd.log"
expect_eq "said once" 1 "$(grep -c "mail not sent" "$STINT_STATE_DIR/log/stintd.log")"
expect_eq "the hook ran once" 1 "$(wc -l <"$WORK/hook.log")"
echo "t17-mail: ok"
