#!/usr/bin/env bash
# The server's CPU time per request of two spotcheck-serve binaries, alternated: what compare-serve.sh's requests per
# second stand for once the machine is shared. On a loaded machine (other builds) a server's throughput follows the
# share of the cores the scheduler gives it; the CPU it spends per answered request does far less.
# Usage: bench/cpu-per-request.sh BEFORE_BINARY AFTER_BINARY   (run from the repository root; needs wrk)
# Environment: DURATION (5s), THREADS (2), CONNECTIONS (32), RUNS (3). For each run and benchmark: requests done by wrk,
# the server's user+system CPU over them (/proc/PID/stat, all threads), microseconds per request; then medians and
# before/after ratios (> 1: the after binary spends less CPU per request).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2; exit 2; }
DURATION=${DURATION:-5s}; THREADS=${THREADS:-2}; CONNECTIONS=${CONNECTIONS:-32}; RUNS=${RUNS:-3}
out=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$out"' EXIT
hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }

start() { # binary -> sets pid and url
    "$1" --port 0 --quiet > "$out/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do grep -q "Listening on" "$out/serve.log" && break; sleep 0.1; done
    url=$(grep -o 'http://[0-9.:]*' "$out/serve.log" | head -n 1 || true)
    [ -n "$url" ] || { echo "$1 did not start" >&2; exit 1; }
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq "$RUNS"); do
    for side in before after; do
        bin=$([ "$side" = before ] && echo "$1" || echo "$2")
        start "$bin"
        id=$(curl -s -H 'Content-Type: application/json' --data @bench/create-body.json "$url/api/v1/announcements" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
        printf 'wrk.method = "GET"\ndofile("bench/report.lua")\n' > "$out/get.lua"
        for bench in get create; do  # GET first: the creates would evict the read announcement (--store-limit)
            if [ "$bench" = create ]; then script=bench/create.lua; target="$url/api/v1/announcements"
            else script="$out/get.lua"; target="$url/api/v1/announcements/$id"; fi
            wrk -t"$THREADS" -c"$CONNECTIONS" -d1s -s "$script" "$target" > /dev/null  # warm-up
            t0=$(ticks)
            line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$script" "$target" | tail -n 1)
            t1=$(ticks)
            us=$(echo "$line" | python3 -c "import json,sys; d=json.load(sys.stdin); print(round(($t1 - $t0) / $hz * 1e6 / d['requests'], 1))")
            echo "$side $bench run $run: $us us CPU per request ($(echo "$line" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["requests"], "requests,", d["rps"], "rps")'); load $(cut -d' ' -f1 /proc/loadavg))"
            echo "$us" >> "$out/$side-$bench"
        done
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for bench in get create; do
    b=$(median "$out/before-$bench"); a=$(median "$out/after-$bench")
    echo "$bench: before $b us, after $a us CPU per request (medians): before/after = $(python3 -c "print(round($b / $a, 2))")x"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
