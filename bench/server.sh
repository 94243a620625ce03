#!/usr/bin/env bash
# Benchmarks `spotcheck serve` against a peer measured in the same run; see bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=bench/out
DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
STARTS=${STARTS:-5}
mkdir -p "$OUT/static"

if ! command -v wrk >/dev/null 2>&1; then
    echo "== installing wrk (apt)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq wrk >/dev/null
fi

echo "== release build (once)"
swift build -c release --product spotcheck 2>&1 | tail -n 1
BIN="$(swift build -c release --show-bin-path)/spotcheck"

PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
now_ns() { date +%s%N; }

# Polls until `url` answers 2xx; gives up after 30 s so a broken server cannot hang the script.
wait_for() {
    local url=$1 deadline=$(( $(date +%s) + 30 ))
    until curl -fs -o /dev/null "$url"; do
        [ "$(date +%s)" -ge "$deadline" ] && { echo "no answer from $url" >&2; return 1; }
        sleep 0.002
    done
}

# Starts `spotcheck serve --port 0`, reads the printed URL, and waits for the first answer. Sets SERVE_URL and SERVE_PID.
start_spotcheck() {
    local log="$OUT/serve.log" deadline=$(( $(date +%s) + 30 ))
    : > "$log"
    "$BIN" serve --port 0 --quiet --seed 1 > "$log" 2>&1 &
    SERVE_PID=$!
    PIDS+=("$SERVE_PID")
    until grep -q '^Listening on ' "$log"; do
        [ "$(date +%s)" -ge "$deadline" ] && { cat "$log" >&2; return 1; }
        sleep 0.001
    done
    SERVE_URL=$(sed -n 's/^Listening on //p' "$log" | head -n 1)
    wait_for "$SERVE_URL/api/health"
}

# Starts the peer: Python's standard-library static file server. Sets PEER_URL and PEER_PID.
start_peer() {
    local port; port=$(free_port)
    python3 -m http.server "$port" --bind 127.0.0.1 --directory "$OUT/static" > "$OUT/peer.log" 2>&1 &
    PEER_PID=$!
    PIDS+=("$PEER_PID")
    PEER_URL="http://127.0.0.1:$port"
    wait_for "$PEER_URL/announcement.json"
}

stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# Median of process start -> first answered request, in milliseconds.
echo "== start to first answer ($STARTS starts each)"
printf '{"ok": true}\n' > "$OUT/static/announcement.json"
: > "$OUT/starts.txt"
for _ in $(seq "$STARTS"); do
    t0=$(now_ns); start_spotcheck; t1=$(now_ns); stop "$SERVE_PID"
    t2=$(now_ns); start_peer; t3=$(now_ns); stop "$PEER_PID"
    echo "$(( (t1 - t0) / 1000 )) $(( (t3 - t2) / 1000 ))" >> "$OUT/starts.txt"
done

echo "== throughput and latency (wrk -t$THREADS -c$CONNECTIONS -d$DURATION)"
start_spotcheck
ID=$(curl -fs -X POST "$SERVE_URL/api/v1/announcements" -H 'Content-Type: application/json' \
    --data @bench/create-body.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
# The peer serves the very bytes GET by id answers, so both move the same payload.
curl -fs "$SERVE_URL/api/v1/announcements/$ID" > "$OUT/static/announcement.json"
start_peer

run_wrk() { # name url [script]
    local name=$1 url=$2 script=${3:-bench/report.lua}
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$script" "$url" > "$OUT/$name.txt" 2>&1
    grep '^{' "$OUT/$name.txt" | tail -n 1 > "$OUT/$name.json"
    echo "   $name: $(cat "$OUT/$name.json")"
}
run_wrk get-by-id "$SERVE_URL/api/v1/announcements/$ID"
run_wrk peer-static "$PEER_URL/announcement.json"
run_wrk create "$SERVE_URL/api/v1/announcements" bench/create.lua
stop "$SERVE_PID"; stop "$PEER_PID"

python3 - "$OUT" <<'PY'
import json, statistics, sys, os, platform
out = sys.argv[1]
load = lambda n: json.load(open(os.path.join(out, n + ".json")))
get, peer, create = load("get-by-id"), load("peer-static"), load("create")
starts = [tuple(map(int, l.split())) for l in open(os.path.join(out, "starts.txt")) if l.strip()]
ours_start = statistics.median(s[0] for s in starts) / 1000
peer_start = statistics.median(s[1] for s in starts) / 1000
result = {
    "machine": f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}",
    "peer": "python3 -m http.server (ThreadingHTTPServer) serving the same announcement JSON as a static file",
    "getById": {**get, "rpsVsPeer": round(get["rps"] / peer["rps"], 2), "p99VsPeer": round(get["p99_ms"] / peer["p99_ms"], 2)},
    "create": {**create, "rpsVsPeer": round(create["rps"] / peer["rps"], 2), "p99VsPeer": round(create["p99_ms"] / peer["p99_ms"], 2)},
    "peerStatic": peer,
    "startToFirstAnswerMs": {"spotcheck": round(ours_start, 1), "peer": round(peer_start, 1), "ratio": round(ours_start / peer_start, 2)},
}
json.dump(result, open(os.path.join(out, "results.json"), "w"), indent=2)
print()
print(f"{'':28}{'req/s':>10}{'p99 ms':>10}{'req/s vs peer':>16}{'p99 vs peer':>13}")
print(f"{'GET by id (spotcheck)':28}{get['rps']:>10.0f}{get['p99_ms']:>10.2f}{result['getById']['rpsVsPeer']:>15.2f}x{result['getById']['p99VsPeer']:>12.2f}x")
print(f"{'POST create (spotcheck)':28}{create['rps']:>10.0f}{create['p99_ms']:>10.2f}{result['create']['rpsVsPeer']:>15.2f}x{result['create']['p99VsPeer']:>12.2f}x")
print(f"{'static file (peer)':28}{peer['rps']:>10.0f}{peer['p99_ms']:>10.2f}")
print(f"start to first answer: spotcheck {ours_start:.1f} ms, peer {peer_start:.1f} ms (ratio {ours_start / peer_start:.2f}x, median of {len(starts)})")
bad = [n for n, r in (("get-by-id", get), ("create", create), ("peer-static", peer)) if r["non2xx"] or r["errors"]]
if bad: print("WARNING: non-2xx answers or socket errors in: " + ", ".join(bad))
print(f"(full results: {out}/results.json)")
PY
