#!/usr/bin/env bash
# The benchmark of issue 18, in one go: for each input of the issue's table,
# the decode-only floor (bench/decode), pilotage-lint and the peers run
# alternated in rounds (bench/compare), and the ratios are printed with
# their min–max spread, for wall time, CPU time and peak RSS (also per input
# byte). Timings on a shared machine are noisy: read ratios, never one
# absolute time. ROUNDS=N sets the rounds (default 10; the 100k row and the
# go vet row use fewer). The peers, ajv-cli and Spectral, are installed from
# npm the way .ci/run installs its tools (npm install -g), never into the
# repository; SKIP_PEERS=1 leaves them out. BEFORE=path/to/pilotage-lint
# adds that binary to every row, for before/after ratios in the same rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-10}
out=bench/out
bin=$out/bin
mkdir -p "$bin"
# As released (.goreleaser.yaml): without cgo, so pilotage-lint is a static
# binary like the floor, and no dynamic loader or libc runs before main.
CGO_ENABLED=0 go build -o "$bin/pilotage-lint" ./cmd/pilotage-lint
CGO_ENABLED=0 go build -o "$bin/pilotage-vet" ./cmd/pilotage-vet
go build -o "$bin/decode" ./bench/decode
go build -tags libinit -o "$bin/libinit" ./bench/decode
go build -o "$bin/compare" ./bench/compare
go run ./bench/gen -out "$out" >/dev/null

peers=1
if [ "${SKIP_PEERS:-}" = 1 ]; then
  peers=0
elif ! command -v ajv >/dev/null || ! command -v spectral >/dev/null; then
  npm install -g --no-audit --no-fund ajv-cli@5 ajv-formats@3 @stoplight/spectral-cli@6 >/dev/null
fi

flags="--no-config -q --max-bytes 1000000000"
lint="$bin/pilotage-lint $flags"
# with FILE...: the before binary's command line as extra compare arguments
bef() { if [ -n "${BEFORE:-}" ]; then echo "-- $BEFORE $flags $*"; fi; }
names() { if [ -n "${BEFORE:-}" ]; then echo "$1,before"; else echo "$1"; fi; }
cmp="$bin/compare -rounds $ROUNDS"
size() { stat -c %s "$1"; }

echo "== machine"
uname -srm
grep -m1 'model name' /proc/cpuinfo || true
echo "cores: $(nproc)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
go version
[ $peers = 1 ] && echo "node $(node --version); ajv-cli $(npm ls -g ajv-cli --depth=0 2>/dev/null | grep -o 'ajv-cli@[^ ]*'); $(npm ls -g @stoplight/spectral-cli --depth=0 2>/dev/null | grep -o 'spectral-cli@[^ ]*')"
echo "binary: pilotage-lint $(size "$bin/pilotage-lint") bytes"
echo

s9=$out/snapshot-9.json
echo "== 1. Harborview-sized snapshot (9 tools, $(size $s9) bytes): target lint <= 2.5x the floor, wall and CPU"
echo "   (libinit = the floor plus jsonschema/v6's package init, which pilotage-lint cannot avoid)"
$cmp -label snapshot-9 -names "$(names floor,lint,version,libinit)" -bytes "$(size $s9)" -- \
  "$bin/decode" $s9 -- $lint $s9 -- $lint --version -- "$bin/libinit" $s9 $(bef $s9)
echo

man=$out/manifest.json
if [ $peers = 1 ]; then
  echo "== 2. manifest only: lint vs ajv-cli with the official schema (target lint/ajv <= 0.10); Spectral with bench/peers/spectral.yaml on the snapshot"
  $cmp -label manifest -names "$(names ajv,lint,floor)" -- \
    ajv validate --spec=draft2020 -c ajv-formats --strict=false -s bench/peers/manifest-ref.json -r testdata/reference/pilotage.schema.json -d $man -- \
    $lint $man -- "$bin/decode" $man $(bef $man)
  $cmp -rounds 5 -label spectral -names spectral,lint -- \
    spectral lint -q -r bench/peers/spectral.yaml $s9 -- $lint $s9
  echo
fi

echo "== 3. 1,000 small files in one run: target lint <= 1.5x the floor, wall"
$cmp -label many -names "$(names floor,lint)" -bytes "$(du -sb $out/many | cut -f1)" -- \
  "$bin/decode" $out/many/*.json -- $lint $out/many $(bef $out/many)
echo

s10=$out/snapshot-10k.json
echo "== 4. 10,000-tool listing ($(size $s10) bytes): target lint <= 0.55x the floor, wall; <= 3 bytes of peak RSS per input byte"
$cmp -label 10k -names "$(names floor,lint)" -bytes "$(size $s10)" -- "$bin/decode" $s10 -- $lint $s10 $(bef $s10)
echo "-- linearity: 1k and 100k tools (compare the per-byte RSS and the ratios with 10k)"
s1=$out/snapshot-1k.json s100=$out/snapshot-100k.json
$cmp -label 1k -names "$(names floor,lint)" -bytes "$(size $s1)" -- "$bin/decode" $s1 -- $lint $s1 $(bef $s1)
$cmp -rounds 3 -label 100k -names "$(names floor,lint)" -bytes "$(size $s100)" -- "$bin/decode" $s100 -- $lint $s100 $(bef $s100)
echo

if [ "${CALLGRIND:-}" = 1 ]; then
  echo "== instructions (callgrind, median of 3; GOGC=off for the many-file and 10k rows, where GC timing otherwise varies the count)"
  cg() { RUNS=3 bench/callgrind.sh "$@" | head -1; }
  for b in "$bin/decode" "$bin/libinit"; do echo "$(basename "$b") 9-tool: $(cg "$b" $s9)"; done
  for b in "$bin/pilotage-lint" ${BEFORE:-}; do
    echo "$b --version: $(cg "$b" --version)"
    echo "$b 9-tool: $(cg "$b" $flags $s9)"
    echo "$b 1,000 files: $(GOGC=off cg "$b" $flags $out/many)"
  done
  echo
fi

echo "== 5. pilotage-vet as go vet -vettool vs plain go vet, warm cache: target <= 1.1x"
$cmp -rounds 3 -label vet -names go-vet,vettool -- \
  go vet ./lint/rules -- go vet -vettool="$PWD/$bin/pilotage-vet" ./lint/rules
