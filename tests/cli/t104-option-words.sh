#!/usr/bin/env bash
# What the option parser refuses is said in the tool's words, with what to
# give instead, never the parser library's ("At Most 1 required but received
# 2", "Could not convert", "A subcommand is required"); scontrol's --help lists
# its commands as `scontrol help` does.
source "$(dirname "$0")/lib.sh"
default_config

command_refused_with 255 "a negative count" "run-create: invalid value '-1' for --nodes: see \"--help\" for what it takes
Try \"run-create --help\" for more information" run-create --project p --nodes -1 -- true
command_refused_with 255 "an option twice" "run-create: --nodes was given more than once: give it once
Try \"run-create --help\" for more information" run-create --project p --nodes 1 --nodes 2 -- true
command_refused_with 255 "a value not in the list" "run-create: invalid value 'maybe' for --keep-alive: one of on, off
Try \"run-create --help\" for more information" run-create --project p --keep-alive maybe -- true
command_refused_with 255 "no command" "run-storage: a command is required: create, list or delete
Try \"run-storage --help\" for more information" run-storage
command_refused_with 255 "an unknown command" "run-storage: unknown command 'bogus': the commands are create, list or delete
Try \"run-storage --help\" for more information" run-storage bogus
command_refused_with 255 "an unknown command of stint" "stint: unknown command 'bogus': the commands are init, config, daemon, db, report, export or version
Try \"stint --help\" for more information" stint bogus
command_refused_with 255 "extra words, in their order" "run-storage: unexpected arguments: x y
Try \"run-storage --help\" for more information" run-storage list x y
expect_eq "nothing made" "" "$(run-list 2>/dev/null | tail -n +2)"

# scontrol's -h, --help and --usage: its options and commands, as `scontrol help`.
want=$(scontrol help)
expect_contains "scontrol help" "$want" "Valid <COMMAND> values are:"
for flag in --help -h --usage; do
  expect_eq "scontrol $flag" "$want" "$(scontrol $flag)"
done
echo "t104-option-words: ok"
