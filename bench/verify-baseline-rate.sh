#!/usr/bin/env bash
# Generated cases per second of `spotcheck verify` in its three modes, one build, alternated (issue 42: "bench/ gives
# the baseline mode's rate"): plain (the server against the in-process model), live baseline (`--baseline URL`: the
# target against a second server) and replay (`--baseline FILE`: the target against a recording made just before).
#
#   bench/verify-baseline-rate.sh                 # the debug build of this checkout
#   BIN=.build/release/spotcheck RUNS=3 CASES=1000 bench/verify-baseline-rate.sh
#
# Each run starts fresh `spotcheck serve` processes on ephemeral ports (127.0.0.1), so every mode meets the same empty
# store. The rate is the exploration's own count and time ("explored with seed …: N generated requests … in X s"),
# examples excluded. Reported as ratios to plain in the same run: a busy machine moves all three alike.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}; CASES=${CASES:-1000}; SEED=${SEED:-1}
BIN=${BIN:-$(swift build --show-bin-path)/spotcheck}
[ -x "$BIN" ] || { echo "$BIN is missing: build it first" >&2; exit 2; }
admin_token=tajnehasloadmina
out=$(mktemp -d)
# serve runs inside $(...), a subshell: its pids go to a file the trap and stop_all read.
: >"$out/pids"
cleanup() {
    while read -r p; do kill "$p" 2>/dev/null || true; done <"$out/pids"
    rm -rf "$out"
}
trap cleanup EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

serve() { # log file; prints the URL
    "$BIN" serve --port 0 --quiet --seed "$SEED" --admin-token "$admin_token" >"$1" 2>&1 &
    echo $! >>"$out/pids"
    local url=
    for _ in $(seq 100); do url=$(grep -o 'http://[0-9.:]*' "$1" | head -n 1 || true); [ -n "$url" ] && break; sleep 0.1; done
    [ -n "$url" ] || { echo "serve did not start" >&2; cat "$1" >&2; exit 1; }
    echo "$url"
}

stop_all() {
    local p
    while read -r p; do
        kill "$p" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    done <"$out/pids"
    : >"$out/pids"
}

measure() { # mode, run, verify log
    local line sent seconds r
    line=$(grep -a -m1 '^explored with seed' "$3" || true)
    sent=$(echo "$line" | sed -n 's/.*: \([0-9]*\) generated requests.*/\1/p')
    seconds=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s,.*/\1/p')
    [ -n "$sent" ] && [ -n "$seconds" ] || { echo "$1: no exploration line" >&2; tail -n 20 "$3" >&2; exit 1; }
    r=$(python3 -c "print(f'{$sent / $seconds:.1f}')")
    echo "$1 run $2: $sent generated requests in $seconds s = $r cases/s (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$r" >>"$out/$1.rates"
}

verify() { # extra arguments
    "$BIN" verify --seed "$SEED" --cases "$CASES" --admin-token "$admin_token" --skip "photo of 20 MiB" --timeout 120 "$@"
}

for run in $(seq "$RUNS"); do
    target=$(serve "$out/plain.serve")
    verify --target "$target" >"$out/plain.log" 2>&1 || true
    stop_all
    measure plain "$run" "$out/plain.log"

    target=$(serve "$out/live-target.serve"); baseline=$(serve "$out/live-baseline.serve")
    verify --target "$target" --baseline "$baseline" >"$out/live.log" 2>&1 || true
    stop_all
    measure live "$run" "$out/live.log"

    baseline=$(serve "$out/record.serve")
    verify --target "$baseline" --record-baseline "$out/recording.json" >"$out/record.log" 2>&1 || true
    stop_all
    target=$(serve "$out/replay.serve")
    verify --target "$target" --baseline "$out/recording.json" >"$out/replay.log" 2>&1 || true
    stop_all
    measure replay "$run" "$out/replay.log"
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
p=$(median "$out/plain.rates"); l=$(median "$out/live.rates"); r=$(median "$out/replay.rates")
echo "median cases/s: plain $p, live baseline $l ($(python3 -c "print(f'{$l / $p:.2f}')")x plain), replay $r ($(python3 -c "print(f'{$r / $p:.2f}')")x plain)"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
