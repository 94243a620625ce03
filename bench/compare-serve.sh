#!/usr/bin/env bash
# Compares two spotcheck-serve binaries on the hot path: wrk POST create and GET by id against each, one at a time.
# Usage: bench/compare-serve.sh BEFORE_BINARY AFTER_BINARY   (run from the repository root; needs wrk)
# Environment: DURATION (5s), THREADS (2), CONNECTIONS (32), RUNS (3 alternating runs per binary and benchmark),
# BEFORE_ARGS and AFTER_ARGS (words added to each side's command line, e.g. --contracts DIR; the same binary twice with
# different contracts compares the contracts: bench/compare-document.sh).
# Prints one line per run and the median requests per second of each; for a change's cost (e.g. the Express ETag),
# not a replacement for bench/run.sh.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2; exit 2; }
command -v wrk >/dev/null 2>&1 || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
DURATION=${DURATION:-5s}; THREADS=${THREADS:-2}; CONNECTIONS=${CONNECTIONS:-32}; RUNS=${RUNS:-3}
out=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$out"' EXIT

start() { # binary, extra words -> sets pid and url
    # shellcheck disable=SC2086 # the extra arguments are words on purpose
    "$1" $2 --port 0 --quiet > "$out/serve.log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do grep -q "Listening on" "$out/serve.log" && break; sleep 0.1; done
    url=$(grep -o 'http://[0-9.:]*' "$out/serve.log" | head -n 1)
    [ -n "$url" ] || { echo "$1 did not start" >&2; exit 1; }
}

for run in $(seq "$RUNS"); do
    for side in before after; do
        bin=$([ "$side" = before ] && echo "$1" || echo "$2")
        extra=$([ "$side" = before ] && echo "${BEFORE_ARGS:-}" || echo "${AFTER_ARGS:-}")
        start "$bin" "$extra"
        id=$(curl -s -H 'Content-Type: application/json' --data @bench/create-body.json "$url/api/v1/announcements" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
        printf 'wrk.method = "GET"\ndofile("bench/report.lua")\n' > "$out/get.lua"
        for bench in get create; do  # GET first: the creates would evict the read announcement (--store-limit)
            if [ "$bench" = create ]; then script=bench/create.lua; target="$url/api/v1/announcements"
            else script="$out/get.lua"; target="$url/api/v1/announcements/$id"; fi
            line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$script" "$target" | tail -n 1)
            echo "$side $bench run $run: $line"
            echo "$line" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rps"])' >> "$out/$side-$bench"
        done
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
done
for bench in get create; do  # GET first: the creates would evict the read announcement (--store-limit)
    for side in before after; do
        echo "$bench $side median rps: $(sort -n "$out/$side-$bench" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    done
done
