#!/usr/bin/env bash
# What each layer of a create (or GET by id) costs, as shares of the server's CPU (issue 36): starts a release
# spotcheck-serve, warms it up with wrk, records it with `perf record -g` under the same wrk load, and charges each
# sample to the innermost layer on its stack (bench/perf_layers.py: parsing, rules, store, journal, fault layer,
# request check, writing the answer, ...).
#
#   bash bench/profile-layers.sh [SERVE_BIN] [create|get]      # default: .build/release/spotcheck-serve, create
#   DURATION=10 FREQUENCY=999 bash bench/profile-layers.sh
#
# Writes bench/out/profile-layers/{perf.data,layers.txt}. Needs perf and wrk; run as root (kernel frames).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/spotcheck-serve}
LOAD=${2:-create}
DURATION=${DURATION:-10}
FREQUENCY=${FREQUENCY:-999}
OUT=bench/out/profile-layers
mkdir -p "$OUT"
"$BIN" --port 0 --quiet ${SERVE_ARGS:-} > "$OUT/serve.log" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "Listening on" "$OUT/serve.log" && break; sleep 0.1; done
URL=$(grep -o "http://[0-9.:]*" "$OUT/serve.log" | head -n 1 || true)
[ -n "$URL" ] || { cat "$OUT/serve.log" >&2; exit 1; }
if [ "$LOAD" = get ]; then
    id=$(curl -s -H 'Content-Type: application/json' --data @bench/create-body.json "$URL/api/v1/announcements" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    printf 'wrk.method = "GET"\n' > "$OUT/get.lua"
    script="$OUT/get.lua"; target="$URL/api/v1/announcements/$id"
else
    script=bench/create.lua; target="$URL/api/v1/announcements"
fi
wrk -t2 -c32 -d2s -s "$script" "$target" > /dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
wrk -t2 -c32 -d"$((DURATION + 2))s" -s "$script" "$target" | grep -E 'Requests/sec' &
WRK=$!
sleep 1
perf record -g -F "$FREQUENCY" -p "$PID" -o "$OUT/perf.data" -- sleep "$DURATION" 2> "$OUT/perf-record.log"
wait "$WRK"
perf script -i "$OUT/perf.data" 2>/dev/null | swift demangle --simplified | python3 bench/perf_layers.py --top "${TOP:-12}" \
    | tee "$OUT/layers.txt"
