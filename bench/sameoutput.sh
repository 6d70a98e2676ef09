#!/usr/bin/env bash
# Byte comparison of two pilotage-lint binaries' output: every fixture,
# testdata/realworld and the reference transcripts, one file at a time in
# every format, plus whole-directory runs. A performance change must print
# "same" everywhere. Usage: bench/sameoutput.sh OLD-BINARY NEW-BINARY
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 OLD-BINARY NEW-BINARY" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
find fixtures testdata/realworld testdata/reference/transcripts -name '*.json' -o -name '*.jsonl' | sort > "$tmp/list"
echo "$(wc -l < "$tmp/list") files"
status=0
for side in old new; do
  bin=$1; [ $side = new ] && bin=$2
  for fmt in text json sarif github junit; do
    while read -r f; do
      echo "== $f"; "$bin" --no-config --format "$fmt" "$f" 2>&1; echo "rc=$?"
    done < "$tmp/list" > "$tmp/$side.$fmt"
  done
  for fmt in text json; do
    { "$bin" --no-config --format $fmt fixtures testdata/realworld 2>&1; echo "rc=$?"; } > "$tmp/$side.all-$fmt"
  done
done
for f in "$tmp"/old.*; do
  k=${f#"$tmp"/old.}
  if cmp -s "$f" "$tmp/new.$k"; then echo "same $k"; else echo "DIFFERENT $k"; diff "$f" "$tmp/new.$k" | head -20; status=1; fi
done
exit $status
