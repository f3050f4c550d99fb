#!/usr/bin/env python3
"""Checks one phase of the crash harness (crash.sh): the ids the tools printed,
sacct -D (one row per attempt) and the jobs' own log must agree exactly.

usage: check.py PHASE IDS FAILS SACCT LOG RUNS_JSON KILLS SECONDS [SKIP_UP_TO]
"""
import collections
import json
import sys

FINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "PREEMPTED", "DEADLINE", "BOOT_FAIL"}
# An attempt that ended this way may have run its task (once) or not at all.
LOST = {"NODE_FAIL", "REQUEUED", "PREEMPTED"}


def main():
    phase, ids_path, fails_path, sacct_path, log_path, runs_path, kills, seconds = sys.argv[1:9]
    skip_up_to = int(sys.argv[9]) if len(sys.argv) > 9 else 0
    problems = []

    printed = []  # (kind, id-or-run-name)
    for line in open(ids_path):
        kind, value = line.split(maxsplit=1)
        printed.append((kind, value.strip()))
    failed = sum(1 for _ in open(fails_path))

    attempts = collections.defaultdict(list)  # id -> [(restarts, state)]
    for line in open(sacct_path):
        raw, state, restarts = line.rstrip("\n").split("|")
        if "." in raw:
            continue
        job = int(raw)
        if job <= skip_up_to:
            continue
        attempts[job].append((int(restarts), state.split()[0]))

    log = collections.Counter()
    for line in open(log_path):
        parts = line.split()
        if len(parts) != 3:
            problems.append(f"malformed log line {line!r}")
            continue
        log[tuple(int(p) for p in parts)] += 1

    run_names = set()
    run_ranks = {}
    if runs_path:
        for run in json.load(open(runs_path)):
            run_names.add(run["run"])
            run_ranks[int(run["job_id"])] = int(run.get("nodes", 2))

    # No accepted submission is lost: every id a tool printed is in sacct.
    for kind, value in printed:
        if kind == "run":
            if value not in run_names:
                problems.append(f"run {value} was printed but run-list does not know it")
        elif int(value.split(";")[0]) not in attempts:
            problems.append(f"{kind} job {value} was printed but sacct does not know it")

    # Every job has exactly one final state, its attempts are 0, 1, 2... and
    # only the last may be anything but an attempt that was cut short.
    for job, rows in attempts.items():
        restarts = [r for r, _ in rows]
        if sorted(restarts) != list(range(len(rows))):
            problems.append(f"job {job}: attempts {restarts} are not 0..{len(rows) - 1}")
        rows.sort()
        *earlier, (last_r, last_state) = rows
        if last_state not in FINAL:
            problems.append(f"job {job}: ends {last_state}, not a final state")
        if last_state != "COMPLETED":
            problems.append(f"job {job}: ended {last_state} (every job of the workload succeeds)")
        for r, state in earlier:
            if state not in LOST:
                problems.append(f"job {job}: attempt {r} ended {state} and yet was requeued")

    # Each attempt ran exactly once (an attempt cut short: at most once), on
    # every rank, and nothing ran that sacct does not know.
    expected = set()
    for job, rows in attempts.items():
        for r, state in rows:
            for rank in range(run_ranks.get(job, 1)):
                key = (job, r, rank)
                expected.add(key)
                n = log.get(key, 0)
                if state == "COMPLETED" and n != 1:
                    problems.append(f"job {job} attempt {r} rank {rank}: COMPLETED, ran {n} times")
                elif n > 1:
                    problems.append(f"job {job} attempt {r} rank {rank}: ran {n} times")
    for key, n in log.items():
        if key not in expected:
            problems.append(f"log line {key} ({n}x) is no attempt sacct knows")

    cut_short = sum(1 for rows in attempts.values() for _, s in rows[:-1] if s in LOST)
    tasks_of = {"array": 25, "bigarray": 1000}  # the arrays crash.sh submits
    unacknowledged = len(attempts) - sum(tasks_of.get(k, 1) for k, _ in printed)
    # Exactly once: a tool whose answer was lost with a killed stintd sends
    # its submission again under the same token and prints the one job id.
    if failed:
        problems.append(f"{failed} submissions printed an error (the tools retry until answered)")
    if unacknowledged:
        problems.append(f"{unacknowledged} jobs were made that no tool printed")
    print(f"{phase}: {len(attempts)} jobs, {sum(len(r) for r in attempts.values())} attempts "
          f"({cut_short} cut short and requeued), {sum(log.values())} log lines, "
          f"{len(printed)} submissions answered, {failed} unanswered "
          f"({unacknowledged} jobs accepted without an answer), {kills} kills, {seconds} s")
    for p in problems[:40]:
        print(f"  {p}", file=sys.stderr)
    if len(problems) > 40:
        print(f"  ... and {len(problems) - 40} more", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
