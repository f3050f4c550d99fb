#!/usr/bin/env bash
# The lab server's accounting (with ../clusters/lab-server.yaml): an account per group
# under `lab`, their fair shares, a QOS for short debugging jobs, and the
# users. Run it once as the installation's admin; `sacctmgr show assoc tree`
# shows the result.
#
#   ./lab-accounts.sh USER...     # users to add (default: yourself), split
#                                 # between the two groups in turn
set -euo pipefail
[ $# -gt 0 ] || set -- "$(id -un)"

# Two groups sharing the server 2:1; each may use at most 6 of the 8 GPUs at once.
sacctmgr -i add account lab Description="the lab" Organization=lab
sacctmgr -i add account vision Parent=lab Fairshare=2 Description="vision group"
sacctmgr -i add account nlp Parent=lab Fairshare=1 Description="language group"
sacctmgr -i modify account vision,nlp set GrpTRES=gres/gpu=6

# debug: quick jobs jump the queue, but only short ones, two at a time.
sacctmgr -i add qos debug Priority=100 MaxWall=00:30:00 MaxJobsPerUser=2

i=0
for user in "$@"; do
  if [ $((i % 2)) -eq 0 ]; then account=vision; else account=nlp; fi
  sacctmgr -i add user "$user" Account="$account" DefaultAccount="$account" QOS=normal,debug
  i=$((i + 1))
done
