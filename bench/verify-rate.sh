#!/usr/bin/env bash
# Generated cases per second of `spotcheck verify`'s exploration, two checkouts alternated (issue 35: "verify stays at
# or above 200 cases/s on the bundled contracts; bench/ shows before/after").
#
#   bench/verify-rate.sh BEFORE_TREE AFTER_TREE      # each a checkout with a release build (swift build -c release)
#   RUNS=3 CASES=1000 SEED=1 bench/verify-rate.sh /work/wt/base4dfd .
#
# For each run and side in turn: that tree's `spotcheck serve` on an ephemeral port, then that tree's
# `spotcheck verify --cases CASES` against it, from the tree (so each side uses its own contracts). Prints one line per
# run with the exploration's own count and time ("explored with seed …: N generated requests … in X s") and the
# medians. The rate counts every generated request (systematic, walk steps, random pairs), each sent to the server and
# to the two in-process models, and excludes the examples that run first. Needs an idle machine for figures to quote.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_TREE AFTER_TREE" >&2; exit 2; }
RUNS=${RUNS:-3}; CASES=${CASES:-1000}; SEED=${SEED:-1}
admin_token=tajnehasloadmina
trees=("$(cd "$1" && pwd)" "$(cd "$2" && pwd)")
out=$(mktemp -d)
pid=
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$out"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

rate() { # tree, label, run
    local tree=$1 label=$2 run=$3 bin
    bin="$tree/.build/release/spotcheck"
    [ -x "$bin" ] || { echo "$bin is missing: run swift build -c release in $tree" >&2; exit 2; }
    (cd "$tree" && exec "$bin" serve --port 0 --quiet --seed "$SEED" --admin-token "$admin_token") >"$out/serve.log" 2>&1 &
    pid=$!
    local url=
    for _ in $(seq 100); do url=$(grep -o 'http://[0-9.:]*' "$out/serve.log" | head -n 1 || true); [ -n "$url" ] && break; sleep 0.1; done
    [ -n "$url" ] || { echo "$label: serve did not start" >&2; cat "$out/serve.log" >&2; exit 1; }
    (cd "$tree" && "$bin" verify --target "$url" --seed "$SEED" --cases "$CASES" --admin-token "$admin_token" \
        --skip "photo of 20 MiB") >"$out/verify.log" 2>&1 || true
    kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=
    local line sent seconds
    line=$(grep -a -m1 '^explored with seed' "$out/verify.log" || true)
    sent=$(echo "$line" | sed -n 's/.*: \([0-9]*\) generated requests.*/\1/p')
    seconds=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s,.*/\1/p')
    [ -n "$sent" ] && [ -n "$seconds" ] || { echo "$label: no exploration line" >&2; tail -n 20 "$out/verify.log" >&2; exit 1; }
    local r; r=$(python3 -c "print(f'{$sent / $seconds:.1f}')")
    echo "$label run $run: $sent generated requests in $seconds s = $r cases/s ($(grep -a -cE '^  ✗ ' "$out/verify.log" || true) differences; load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$r" >>"$out/$label.rates"
}

for run in $(seq "$RUNS"); do
    rate "${trees[0]}" before "$run"
    rate "${trees[1]}" after "$run"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
b=$(median "$out/before.rates"); a=$(median "$out/after.rates")
echo "median cases/s: before $b, after $a, after/before = $(python3 -c "print(f'{$a / $b:.2f}')")x"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
