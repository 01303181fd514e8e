#!/bin/bash
# dtrcheck sweep from the command line: byte-identical output for any
# --jobs in every format, shards merged back equal the whole, an
# interrupted-then-resumed sweep equals the whole, bad input exits 2.
#   sweep_cli_test.sh DTRCHECK TRACES_DIR
set -u
bin=$1
trace=$2/resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log
[ -f "$trace" ] || { echo "skip: no $trace"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # check NAME COMMAND...: the command must succeed
  local name=$1; shift
  if ! "$@"; then echo "FAIL: $name"; fail=1; fi
}
grid=(--from 0.100 --to 0.130 --step 0.002 --overhead-limit 8)
for fmt in table csv jsonl; do
  "$bin" sweep "$trace" "${grid[@]}" --format $fmt --jobs 1 > "$tmp/j1.$fmt"
  "$bin" sweep "$trace" "${grid[@]}" --format $fmt --jobs 2 > "$tmp/j2.$fmt"
  "$bin" sweep "$trace" "${grid[@]}" --format $fmt --jobs 3 -o "$tmp/j3.$fmt"
  check "jobs 1 vs 2 ($fmt)" cmp -s "$tmp/j1.$fmt" "$tmp/j2.$fmt"
  check "jobs 1 vs 3 ($fmt)" cmp -s "$tmp/j1.$fmt" "$tmp/j3.$fmt"
done
check "16 points" test "$(wc -l < "$tmp/j1.jsonl")" -eq 16

for i in 0 1 2; do "$bin" sweep "$trace" "${grid[@]}" --format jsonl --shard $i/3 -o "$tmp/s$i.jsonl"; done
"$bin" sweep --merge "$tmp/s2.jsonl" "$tmp/s0.jsonl" "$tmp/s1.jsonl" --format jsonl -o "$tmp/merged.jsonl"
check "shards merged" cmp -s "$tmp/merged.jsonl" "$tmp/j1.jsonl"
"$bin" sweep --merge "$tmp/s0.jsonl" "$tmp/s1.jsonl" "$tmp/s2.jsonl" --format table > "$tmp/merged.table"
check "shards merged (table)" cmp -s "$tmp/merged.table" "$tmp/j1.table"

# A partial file (what Ctrl-C leaves: finished points, in order, with gaps)
# resumed in place.
sed -n '1p;4p;5p;9p' "$tmp/j1.jsonl" > "$tmp/partial.jsonl"
"$bin" sweep "$trace" "${grid[@]}" --format jsonl --resume "$tmp/partial.jsonl" -o "$tmp/partial.jsonl"
check "resumed" cmp -s "$tmp/partial.jsonl" "$tmp/j1.jsonl"

# SIGINT: exit 130, finished points written in budget order to
# int.jsonl.partial, never int.jsonl (they would read as the whole sweep).
# The grid (9,001 points) takes minutes; the signal comes once the first
# point is written (to the output's temporary, .int.jsonl.XXXXXX.tmp),
# however fast the simulator has become.
"$bin" sweep "$trace" --from 0.100 --to 1.000 --step 0.0001 --overhead-limit 8 --format jsonl --jobs 2 \
    -o "$tmp/int.jsonl" 2> /dev/null &
pid=$!
for _ in $(seq 200); do  # written as it goes
  for f in "$tmp"/.int.jsonl.*.tmp; do [ -s "$f" ] && break 2; done
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "SIGINT exit code 130 (got $rc)" test $rc -eq 130
check "interrupted: nothing under the final name" test ! -e "$tmp/int.jsonl"
check "interrupted output sorted" python3 -c "
import json, sys
b = [json.loads(l)['budget'] for l in open('$tmp/int.jsonl.partial')]
sys.exit(0 if b == sorted(b) and 0 < len(b) < 9001 else 1)"

# scan --records: the same findings as the scan that wrote the records.
"$bin" scan "$trace" --from 0.100 --to 0.115 --step 0.001 --overhead-limit 8 --report "$tmp/scan" > "$tmp/scan1.txt"
"$bin" scan "$trace" --records "$tmp/scan/points.jsonl" --overhead-limit 8 > "$tmp/scan2.txt"
check "scan --records" cmp -s <(tail -n +3 "$tmp/scan1.txt") <(tail -n +3 "$tmp/scan2.txt")
check "scan found the inversion" grep -q "inversion: ratio 0.101" "$tmp/scan1.txt"
for f in points.jsonl scan.json report.md overhead.svg; do check "report has $f" test -s "$tmp/scan/$f"; done

bad() {  # bad NAME ARGS...: must exit 2
  local name=$1; shift
  "$bin" "$@" > /dev/null 2>&1
  local rc=$?
  if [ $rc -ne 2 ]; then echo "FAIL: $name exited $rc, not 2"; fail=1; fi
}
bad "zero step" sweep "$trace" --from 0.1 --to 0.2 --step 0
bad "reversed grid" sweep "$trace" --from 0.2 --to 0.1 --step 0.01
bad "not a number" sweep "$trace" --from 0.1x --to 0.2 --step 0.01
bad "missing step" sweep "$trace" --from 0.1 --to 0.2
bad "ratio and grid" sweep "$trace" --from 0.1 --to 0.2 --step 0.01 --ratio 0.3
bad "bad shard" sweep "$trace" --from 0.1 --to 0.2 --step 0.01 --shard 2/2
bad "bad format" sweep "$trace" --from 0.1 --to 0.2 --step 0.01 --format xml
bad "unknown heuristic" sweep "$trace" --from 0.1 --to 0.2 --step 0.01 --heuristics DTR,Nope
bad "resume of another sweep" sweep "$trace" --from 0.100 --to 0.130 --step 0.002 --overhead-limit 7 --resume "$tmp/j1.jsonl"
# Resume names the offending line, and refuses an edited record.
bad_at() {  # bad_at NAME WANT ARGS...: must exit 2 with WANT in its message
  local name=$1 want=$2; shift 2
  local err; err=$("$bin" "$@" 2>&1 > /dev/null); local rc=$?
  if [ $rc -ne 2 ] || [[ "$err" != *"$want"* ]]; then
    echo "FAIL: $name exited $rc: $err"; fail=1
  fi
}
sed -n '1,2p' "$tmp/j1.jsonl" > "$tmp/damaged.jsonl"; echo '{"budget": 1,' >> "$tmp/damaged.jsonl"
bad_at "resume of a damaged file" "damaged.jsonl:3:" sweep "$trace" "${grid[@]}" --format jsonl --resume "$tmp/damaged.jsonl"
sed -n '1,3p' "$tmp/j1.jsonl" | sed '2s/"clock":[0-9]*/"clock":12345/' > "$tmp/edited.jsonl"
bad_at "resume of an edited record" "edited.jsonl:2: the record does not match" sweep "$trace" "${grid[@]}" --format jsonl --resume "$tmp/edited.jsonl"
bad_at "resume with other parse options" "j1.jsonl:1: the record does not match" sweep "$trace" "${grid[@]}" --format jsonl --preallocate --resume "$tmp/j1.jsonl"
"$bin" sweep --merge "$tmp/s0.jsonl" "$tmp/s1.jsonl" --format jsonl -o "$tmp/m01.jsonl"
"$bin" sweep "$trace" "${grid[@]}" --format jsonl --resume "$tmp/m01.jsonl" -o "$tmp/m01.jsonl"
check "merged shards resumed" cmp -s "$tmp/m01.jsonl" "$tmp/j1.jsonl"
echo '{"not": "a record"}' > "$tmp/junk.jsonl"
bad "merge junk" sweep --merge "$tmp/junk.jsonl"
bad "compare one budget" compare "$trace" --at 0.1
bad "diagnose without budget" diagnose "$trace"
bad "scan records of another configuration" scan "$trace" --records "$tmp/scan/points.jsonl" --overhead-limit 7
bad "scan bad cliff factor" scan "$trace" --from 0.1 --to 0.2 --step 0.01 --cliff-factor 0.5
[ $fail -eq 0 ] && echo "all sweep CLI checks passed"
exit $fail
