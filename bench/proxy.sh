#!/usr/bin/env bash
# Throughput through the validating proxy vs the bare server, in one run (issue 14).
#
# Starts `spotcheck serve` (release build, --no-validate) as the "real server", then two proxies in front of it:
# one validating every exchange (the default) and one with --no-validate, and runs wrk against all three:
# GET by id and POST create (bench/create.lua). Prints the table and the ratios, writes bench/out/proxy.json.
#
# Environment: DURATION (10s), THREADS (2), CONNECTIONS (32), RUNS (3; the median run is reported).
# Installs wrk with apt when missing (root). Every server it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
RUNS=${RUNS:-3}
OUT=bench/out
mkdir -p "$OUT"

if ! command -v wrk >/dev/null 2>&1; then
    echo "installing wrk (apt)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null || { echo "apt-get install wrk failed (needs root)" >&2; exit 2; }
fi

echo "building spotcheck (release)" >&2
swift build -c release --product spotcheck >/dev/null
BIN=$(swift build -c release --show-bin-path)/spotcheck

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# Starts a command that prints "... http://127.0.0.1:PORT ..." on its first line; echoes the port.
start() {
    local log
    log=$(mktemp)
    "$@" >"$log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 200); do
        if grep -qo 'http://127.0.0.1:[0-9]*' "$log" 2>/dev/null; then
            grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1 | sed 's/.*://'
            return
        fi
        sleep 0.05
    done
    echo "server did not start: $*" >&2
    cat "$log" >&2
    exit 2
}

SERVE=$(start "$BIN" serve --quiet --no-validate --seed 1)
# The proxy's admin API answers on its admin port only; a free port is picked here so the violations can be read at the end.
VALIDATING_ADMIN=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
VALIDATING=$(start "$BIN" proxy --target "http://127.0.0.1:$SERVE" --quiet --admin-port "$VALIDATING_ADMIN")
PLAIN=$(start "$BIN" proxy --target "http://127.0.0.1:$SERVE" --quiet --no-validate)
ID=$(curl -s -X POST "http://127.0.0.1:$SERVE/api/v1/announcements" -H 'Content-Type: application/json' -d @bench/create-body.json \
    | sed 's/.*"id":"\([^"]*\)".*/\1/')

# One wrk run: prints its report line (bench/report.lua).
measure() {
    local port=$1 bench=$2
    if [ "$bench" = get ]; then
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s bench/report.lua "http://127.0.0.1:$port/api/v1/announcements/$ID" | tail -1
    else
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s bench/create.lua "http://127.0.0.1:$port/api/v1/announcements" | tail -1
    fi
}

: >"$OUT/proxy-runs.jsonl"
for bench in get create; do
    for run in $(seq 1 "$RUNS"); do
        for target in bare:$SERVE validating:$VALIDATING plain:$PLAIN; do
            line=$(measure "${target#*:}" "$bench")
            echo "{\"server\": \"${target%%:*}\", \"bench\": \"$bench\", \"run\": $run, \"report\": $line}" >>"$OUT/proxy-runs.jsonl"
        done
    done
done

VIOLATIONS=$(curl -s "http://127.0.0.1:$VALIDATING_ADMIN/__spotcheck/violations")
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$OUT" "$VIOLATIONS" "$LOAD" "$DURATION" "$THREADS" "$CONNECTIONS" <<'PY'
import json, statistics, sys
out, violations, load, duration, threads, connections = sys.argv[1:7]
runs = [json.loads(l) for l in open(f"{out}/proxy-runs.jsonl")]
table = {}
for bench in ("get", "create"):
    for server in ("bare", "plain", "validating"):
        rps = [r["report"]["rps"] for r in runs if r["bench"] == bench and r["server"] == server]
        errs = sum(r["report"]["non2xx"] + r["report"]["errors"] for r in runs if r["bench"] == bench and r["server"] == server)
        table[(bench, server)] = (statistics.median(rps), errs)
totals = json.loads(violations)["totals"]
result = {"load_at_end": load, "wrk": f"-t{threads} -c{connections} -d{duration}", "validated_exchanges": totals["exchanges"],
          "violations": totals["violations"], "figures": {}}
print(f"wrk {result['wrk']}, median of runs; load average at the end: {load}")
print(f"{'benchmark':10} {'bare serve':>12} {'proxy --no-validate':>20} {'validating proxy':>17} {'validating/bare':>16} {'validating/no-validate':>23}")
for bench in ("get", "create"):
    bare, plain, val = (table[(bench, s)][0] for s in ("bare", "plain", "validating"))
    errors = sum(table[(bench, s)][1] for s in ("bare", "plain", "validating"))
    result["figures"][bench] = {"bare_rps": bare, "proxy_no_validate_rps": plain, "validating_proxy_rps": val,
                                "validating_over_bare": val / bare, "validating_over_no_validate": val / plain, "non2xx_or_errors": errors}
    print(f"{bench:10} {bare:12.0f} {plain:20.0f} {val:17.0f} {val / bare:16.2f} {val / plain:23.2f}")
print(f"validated exchanges: {totals['exchanges']}, violations: {totals['violations']}")
json.dump(result, open(f"{out}/proxy.json", "w"), indent=2)
PY
