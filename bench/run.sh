#!/usr/bin/env bash
# Prints pilotage-lint's cost as ratios to decoding the same JSON, measured
# in one run with alternated pairs (see bench/README.md). Needs only Go.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-10}
out=bench/out
mkdir -p "$out/bin"
go build -o "$out/bin/pilotage-lint" ./cmd/pilotage-lint
go build -o "$out/bin/decode" ./bench/decode
go build -o "$out/bin/compare" ./bench/compare
go run ./bench/gen -out "$out"
lint="$out/bin/pilotage-lint --no-config --max-bytes 1000000000"
cmp="$out/bin/compare -pairs $PAIRS"

echo "== whole process, bundled example (target <= 1.5x)"
$cmp -label example -- $lint -q fixtures/examples/good-server.snapshot.json -- "$out/bin/decode" fixtures/examples/good-server.snapshot.json

echo "== startup with no input: --version vs decode of nothing"
$cmp -label startup -- $lint --version -- "$out/bin/decode"

echo "== large input, 10k tools + 200 Languages (target wall <= 2x, RSS <= 4x file + 30 MB)"
ls -l "$out/snapshot-10k.json" | awk '{printf "file size %.1f MiB\n", $5/1048576}'
$cmp -label 10k -- $lint -q "$out/snapshot-10k.json" -- "$out/bin/decode" "$out/snapshot-10k.json"

echo "== linearity: 1k, 10k, 100k tools (lint / decode per size)"
for n in 1k 100k; do
  $cmp -pairs 3 -label "$n" -- $lint -q "$out/snapshot-$n.json" -- "$out/bin/decode" "$out/snapshot-$n.json"
done

echo "== many files: per-file cost at 1000 files vs at 100 (target <= 1.2x)"
rm -rf "$out/many100" "$out/many1000"; mkdir -p "$out/many100" "$out/many1000"
for i in $(seq 1 1000); do
  cp fixtures/examples/good-server.snapshot.json "$out/many1000/s$i.json"
  [ "$i" -le 100 ] && cp fixtures/examples/good-server.snapshot.json "$out/many100/s$i.json"
done
# A has 10x the files of B: a per-file ratio of 1.0 shows as a wall ratio of 10.
$cmp -label many -- $lint -q "$out/many1000" -- $lint -q "$out/many100"
echo "(divide the wall ratio by 10 for the per-file ratio)"
