#!/usr/bin/env bash
# Instruction counts of one command, repeatable where timings on a shared
# machine are not: callgrind (GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1, so
# valgrind copes with Go) runs it RUNS times (default 5) and prints every
# total and the median; with BREAKDOWN=1 it also prints the median run's
# instructions grouped by the package of the function that executed them
# (self cost, so nothing is counted twice). Go's stack switching defeats
# callgrind's inclusive (caller) costs: use self costs, or compare totals of
# two programs that differ in one thing.
# Usage: bench/callgrind.sh CMD ARGS...
set -euo pipefail
runs=${RUNS:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$runs"); do
  GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$i" "$@" >/dev/null 2>"$tmp/err.$i" || true
  n=$(grep -o 'Collected : [0-9]*' "$tmp/err.$i" | cut -d' ' -f3)
  echo "$n $i" >> "$tmp/totals"
done
sort -n "$tmp/totals" > "$tmp/sorted"
med=$(sed -n "$(( (runs + 1) / 2 ))p" "$tmp/sorted")
echo "instructions: median $(echo "$med" | cut -d' ' -f1) of $(cut -d' ' -f1 "$tmp/sorted" | tr '\n' ' ')"
if [ "${BREAKDOWN:-}" = 1 ]; then
  callgrind_annotate --auto=no "$tmp/cg.$(echo "$med" | cut -d' ' -f2)" 2>/dev/null | grep -v '=>\|<' |
    awk '/^ *[0-9,]+ +\(/ && !/PROGRAM TOTALS/ {
      n = $1; gsub(",", "", n)
      f = $0; sub(/ \[.*$/, "", f); sub(/^.*:/, "", f)     # file:function -> function
      sub(/\(.*$/, "", f); sub(/\.[^.\/]*$/, "", f)           # drop receiver/method
      gsub(/\.func[0-9.]*$/, "", f); sub(/\.init$/, "", f)
      pkg[f] += n; total += n }
      END { for (p in pkg) printf "%12d %5.1f%%  %s\n", pkg[p], 100 * pkg[p] / total, p }' | sort -rn | head -${TOP:-25}
fi
