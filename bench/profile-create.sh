#!/usr/bin/env bash
# The create path under valgrind's callgrind (issue 23): instruction counts are stable on a busy machine, where perf's
# samples are not. Starts spotcheck-serve under callgrind, posts bench/create-body.json for DURATION with wrk (4
# connections: callgrind runs one thread at a time), stops the server so callgrind writes its profile, and prints
# the inclusive share of the functions the create path spends in.
#
#   bash bench/profile-create.sh [SERVE_BIN] [--validate off|requests|all]
#   DURATION=20s bash bench/profile-create.sh
#
# Writes bench/out/profile/callgrind.out and callgrind.txt (callgrind_annotate --inclusive=yes). Needs valgrind and wrk.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-$(swift build -c release --static-swift-stdlib --show-bin-path)/spotcheck-serve}
shift || true
DURATION=${DURATION:-10s}
OUT=bench/out/profile
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
rm -f "$OUT"/callgrind.out*
SPOTCHECK_CACHE_DIR=off valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
    "$BIN" --port 0 --quiet "$@" > "$OUT/serve.log" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q '^Listening on ' "$OUT/serve.log" && break; sleep 0.1; done
URL=$(sed -n 's/^Listening on //p' "$OUT/serve.log" | head -n 1); URL=${URL%/}
[ -n "$URL" ] || { cat "$OUT/serve.log" >&2; exit 1; }
wrk -t1 -c4 -d"$DURATION" -s bench/create.lua "$URL/api/v1/announcements" | tee "$OUT/wrk.txt" | grep -E 'Requests/sec|requests in'
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true
trap - EXIT
callgrind_annotate --inclusive=yes "$OUT/callgrind.out" > "$OUT/callgrind.txt" 2>/dev/null
total=$(grep -m1 -E '^ *[0-9,]+ +\(100.0%\) +PROGRAM TOTALS' "$OUT/callgrind.txt" | awk '{print $1}')
echo "program total: $total instructions"
# The create path's parts, by inclusive share of all instructions (the demangled Swift names contain these words).
for part in 'RequestValidation.violations' 'CompiledSchema.validate' 'SchemaValidator.validate' 'JSONValue.init(parsing' \
            'CreateAnnouncementValidator' 'RecordStore' 'ExchangeMonitor' 'Journal' 'ModelRandom' 'serializedBytes' \
            'NIOHTTP1' 'writev'; do
    line=$(grep -F "$part" "$OUT/callgrind.txt" | head -n 1 || true)
    [ -n "$line" ] && printf '%-32s %s\n' "$part" "$(echo "$line" | awk '{print $1, $2}')"
done
