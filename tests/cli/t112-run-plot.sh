#!/usr/bin/env bash
# run-plot draws the learning curves of a sweep: a well-formed SVG (read
# with a real XML parser) with one curve per run and metric, each run in one
# colour across the panels, a legend naming the variable that differs
# (LR, not BATCH, which all share), --metric for fewer panels, a run without
# records left out with a warning, names escaped, a single record drawn, -o
# -, errors that say what to give, --follow rewriting the files until the
# runs end; then a real browser renders the page, and the curves' colours
# are in the screenshot.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 3, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
YAML

command_refused "nothing named" \
  "run-plot: error: give the runs to plot (PROJECT/N ...) or --project PROJECT" run-plot
command_refused "no such project" "run-plot: error: Project sweep has no runs" \
  run-plot --project sweep
command_refused "--follow needs files" \
  "run-plot: error: --follow rewrites files: give -o FILE.svg, not standard output" \
  run-plot --project sweep --follow -o -

# Three runs of a sweep over LR, the same BATCH; each writes three records.
cat >train.sh <<'SH'
#!/bin/sh
for step in 100 200 300; do
  awk -v lr="$LR" -v s="$step" 'BEGIN {
    printf "{\"step\": %d, \"loss\": %g, \"val_acc\": %g}\n", s, 1 / (lr * s), lr * s / 300 }' \
    >>"$STINT_METRICS"
done
SH
chmod +x train.sh
for lr in 0.2 0.9 0.5; do
  run-create --project sweep --env LR=$lr --env BATCH=64 -- ./train.sh >/dev/null
done
# And one that writes none.
run-create --project sweep --env LR=1 --env BATCH=64 -- true >/dev/null
completed() { [ "$(run-list --project "$1" | awk 'NR > 1 && $2 == "COMPLETED"' | wc -l)" = "$2" ]; }
wait_for 60 completed sweep 4

out=$(run-plot --project sweep -o curves.svg 2>err.txt)
expect_eq "what it wrote" "Wrote curves.svg and curves.html" "$out"
expect_eq "the run without records" "run-plot: warning: sweep/4 has no metric records yet" \
  "$(cat err.txt)"

xmllint --noout curves.svg || fail "curves.svg is not well-formed XML"
# The SVG's elements are in its namespace: matched by local name.
el() { echo "//*[local-name()='$1']"; }
xpath() { xmllint --xpath "$2" "$1"; }
curves() { echo "$(el path)[@class='curve']${1:-}"; }
expect_eq "a curve per run and metric" 6 "$(xpath curves.svg "count($(curves))")"
for run in sweep/1 sweep/2 sweep/3; do
  for metric in loss val_acc; do
    expect_eq "$run $metric" 1 \
      "$(xpath curves.svg "count($(curves "[@data-run='$run'][@data-metric='$metric']"))")"
  done
done
expect_eq "no curve of sweep/4" 0 "$(xpath curves.svg "count($(el '*')[@data-run='sweep/4'])")"
panel() { xpath curves.svg "string(($(el g)[@class='panel'])[$1]/@data-metric)"; }
expect_eq "a panel per metric" "2 loss val_acc" \
  "$(xpath curves.svg "count($(el g)[@class='panel'])") $(panel 1) $(panel 2)"
stroke() { xpath curves.svg "string($(curves "[@data-run='$1'][@data-metric='$2']")/@stroke)"; }
expect_eq "one colour per run" "$(stroke sweep/1 loss)" "$(stroke sweep/1 val_acc)"
[ "$(stroke sweep/1 loss)" != "$(stroke sweep/2 loss)" ] || fail "sweep/1 and sweep/2 share a colour"
[ "$(stroke sweep/2 loss)" != "$(stroke sweep/3 loss)" ] || fail "sweep/2 and sweep/3 share a colour"
legend() { xpath "$1" "string($(el text)[@class='legend-label'][@data-run='$2'])"; }
expect_eq "legend" "sweep/1 LR=0.2|sweep/2 LR=0.9|sweep/3 LR=0.5" \
  "$(legend curves.svg sweep/1)|$(legend curves.svg sweep/2)|$(legend curves.svg sweep/3)"
expect_contains "hover text" "$(xpath curves.svg "string($(curves "[@data-run='sweep/2'][@data-metric='val_acc']")/*[local-name()='title'])")" \
  "sweep/2 LR=0.9: val_acc 0.9 at step 300 (3 records)"
grep -q '<svg ' curves.html || fail "curves.html does not hold the SVG"
grep -q 'http-equiv' curves.html && fail "a page that does not follow reloads itself"

# --metric: its panel only; runs named: the legend compares those alone.
run-plot --project sweep --metric loss -o loss.svg >/dev/null 2>&1
expect_eq "--metric loss" "3 3" \
  "$(xpath loss.svg "count($(curves))") $(xpath loss.svg "count($(curves "[@data-metric='loss']"))")"
run-plot sweep/3 sweep/1 -o two.svg >/dev/null
expect_eq "named runs" 4 "$(xpath two.svg "count($(curves))")"
expect_eq "named runs' legend" "sweep/3 LR=0.5|sweep/1 LR=0.2" \
  "$(legend two.svg sweep/3)|$(legend two.svg sweep/1)"
run-plot --metric val_acc sweep/2 -o one.svg >/dev/null
expect_eq "a run named after --metric's value" "1 sweep/2" \
  "$(xpath one.svg "count($(curves))") $(xpath one.svg "string($(curves)/@data-run)")"
mkdir here
(cd here && run-plot sweep/2 >out.txt)
expect_eq "default names" "Wrote run-plot.svg and run-plot.html" "$(cat here/out.txt)"
[ -s here/run-plot.svg ] && [ -s here/run-plot.html ] || fail "no run-plot.svg and run-plot.html"
expect_eq "one run: its name alone" "sweep/2" "$(legend here/run-plot.svg sweep/2)"
run-plot sweep/1 -o - >stdout.svg
xmllint --noout stdout.svg || fail "-o - printed no well-formed SVG"
[ ! -e -.html ] && [ ! -e - ] || fail "-o - wrote a file"

command_refused "an unknown metric" \
  "run-plot: error: no run has metric acc; the runs have: loss, val_acc" \
  run-plot sweep/1 --metric loss --metric acc
command_refused "no records at all" "run-plot: warning: sweep/4 has no metric records yet
run-plot: error: no run has metric records yet (sweep/4): a run's command appends them to \$STINT_METRICS, see run-create(1)" \
  run-plot sweep/4
command_refused "an unknown run" "run-plot: error: No run sweep/9" run-plot sweep/1 sweep/9
err=$(run-plot -o /nonexistent/dir/c.svg sweep/1 2>&1) && fail "writing into a missing folder succeeded"
expect_eq "bad output" "run-plot: error: Unable to write /nonexistent/dir/c.svg: No such file or directory" "$err"

# A metric named with XML's own characters, and a single record.
run-create --project odd -- sh -c 'echo "{\"step\": 7, \"a<b&c\": 0.5}" >>"$STINT_METRICS"' >/dev/null
wait_for 30 completed odd 1
run-plot --project odd -o odd.svg >/dev/null
xmllint --noout odd.svg || fail "odd.svg is not well-formed XML"
expect_eq "escaped metric" 1 "$(xpath odd.svg "count($(curves "[@data-metric='a<b&c']"))")"
expect_eq "one record: a dot" 1 "$(xpath odd.svg "count($(el circle)[@class='point'])")"

# --follow: written at once and again every 10 s while the run goes on, the
# page reloading itself; once it has ended, written a last time and done.
run-create --project live -- sh -c '
  echo "{\"step\": 1, \"loss\": 2}" >>"$STINT_METRICS"
  for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done
  echo "{\"step\": 2, \"loss\": 1}" >>"$STINT_METRICS"' >/dev/null
has_records() { run-show live/1 | grep -q '^Metrics:'; }
wait_for 30 has_records
run-plot --project live --follow -o live.svg >follow.out 2>follow.err &
follower=$!
wait_for 20 test -s live.html
grep -q '<meta http-equiv="refresh" content="10">' live.html || fail "the page does not reload itself"
expect_contains "first picture" "$(cat live.svg)" "(1 record)"
touch go
running() { kill -0 "$follower"; }
wait_for 60 eval '! running'
wait "$follower" || fail "run-plot --follow exited $?: $(cat follow.err)"
expect_eq "--follow's lines" "Wrote live.svg and live.html (again every 10 s while a run goes on)
Wrote live.svg and live.html (every run has ended)" "$(cat follow.out)"
expect_contains "last picture" "$(cat live.svg)" "(2 records)"
grep -q 'http-equiv' live.html && fail "the last page still reloads itself"

# Completion offers run names for run-plot, and the metrics of the runs named.
completion_of() {
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _stint_complete "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$STINT_SOURCE_DIR/completions/stint.bash" "$@" | sort | lines
}
expect_eq "run names" "sweep/1 sweep/2 sweep/3 sweep/4" "$(completion_of run-plot sw)"
expect_eq "metrics" "loss val_acc" "$(completion_of run-plot sweep/1 --metric "")"

# A browser renders the page: the three runs' colours are on the screen.
if ! command -v chromium >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends chromium >"$TEST_ROOT/apt.log" 2>&1 || tail -n 3 "$TEST_ROOT/apt.log" >&2
fi
if ! command -v chromium >/dev/null; then
  echo "SKIP the browser's rendering: chromium is not installed and could not be" >&2
  echo ok
  exit 0
fi
# A profile of its own, so that no user's chromium is disturbed.
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TEST_ROOT/chromium" \
  --screenshot="$WORK/shot.png" --window-size=1000,800 "file://$WORK/curves.html" \
  >"$TEST_ROOT/chromium.log" 2>&1 || { tail -n 5 "$TEST_ROOT/chromium.log" >&2; fail "chromium failed"; }
[ -s shot.png ] || fail "chromium wrote no screenshot"
# The PNG decoded (no imaging library needed): its size, how many colours,
# and how many pixels of each run's colour.
python3 - shot.png "$(stroke sweep/1 loss)" "$(stroke sweep/2 loss)" "$(stroke sweep/3 loss)" \
  >png.txt <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert depth == 8 and ctype in (2, 6), f"depth {depth}, colour type {ctype}"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
rows, prev, i = [], bytearray(stride), 0
for _ in range(height):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride if f else 0):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
pixels = [r[x:x + 3] for r in rows for x in range(0, stride, bpp)]
near = lambda p, q: all(abs(p[k] - q[k]) <= 24 for k in range(3))
print(width, height, len(set(pixels)))
for colour in sys.argv[2:]:
    rgb = bytes.fromhex(colour.lstrip("#"))
    print(sum(1 for p in pixels if near(p, rgb)))
PY
read -r width height colours <png.txt
expect_eq "screenshot size" "1000 800" "$width $height"
[ "$colours" -gt 50 ] || fail "the screenshot has $colours colours: a blank page?"
n=0
for count in $(tail -n +2 png.txt); do
  n=$((n + 1))
  [ "$count" -gt 100 ] || fail "run $n's colour covers $count pixels of the screenshot"
done
echo ok
