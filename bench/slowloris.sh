#!/usr/bin/env bash
# Slow and many connections against `spotcheck serve` (issue 8, hardening).
#
#   bash bench/slowloris.sh                      # 3 cycles of 3 x 10 s wrk runs, 200 held, 1,000 keep-alive
#   DURATION=20 REPEAT=5 HELD=500 MANY=2000 bash bench/slowloris.sh
#
# 1. GET by id under `wrk -t2 -c32` (bench/report.lua for p50/p99), REPEAT (3) cycles of three runs:
#    usual (nothing held) -> with HELD (200) idle connections open (connected, nothing sent) -> with HELD
#    connections each dripping a never-finished request head, one byte per second per connection.
#    The held connections are opened by `bench/harden.py hold` before wrk starts and closed after it ends.
# 2. `wrk -t2 -c$MANY` (1,000 keep-alive connections, opened at once) on GET by id, then
#    `bench/harden.py keepalive`: MANY connections opened at once, each sends a request and then a second
#    one on the same connection.
#
# Pass means:
#   - with the held connections, GET by id's p99 (median of the REPEAT runs) is at most
#     max(1.5 x usual, usual + 2 ms), usual being the median p99 of the REPEAT runs without them,
#     interleaved with the held runs so that load drift on the shared machine hits both alike and one
#     spike (another engineer's build) cannot decide the verdict. Why that tolerance: wrk, the holder and
#     the server share two cores, so p99 moves between identical runs (every run's p99 is in the output);
#     1.5x covers that noise but not requests queueing behind 200 held connections, which would multiply
#     p99; the +2 ms floor is there because at a p99 of a few ms one scheduler preemption on two
#     cores decides it, not the server;
#   - the held connections stay open during their runs (the idle timeout, 60 s, is longer than a run), and
#     no 32-connection run sees a socket error or a non-2xx;
#   - with MANY connections: no socket errors (connect, read, write, timeout) and no non-2xx in wrk, and every
#     one of the MANY keep-alive connections gets both of its answers (200) on the same connection.
# Raises `ulimit -n` for itself (and so for the server it starts). Figures: bench/out/slowloris.json.
set -euo pipefail
source "$(dirname "$0")/harden-lib.sh"

DURATION=${DURATION:-10}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
REPEAT=${REPEAT:-3}
HELD=${HELD:-200}
MANY=${MANY:-1000}

ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
harden_need_wrk
harden_build
serve_start
ID=$(curl -fs -X POST "$SERVE_URL/api/v1/announcements" -H 'Content-Type: application/json' \
    --data @bench/create-body.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
GET_URL="$SERVE_URL/api/v1/announcements/$ID"

run_wrk() { # name connections
    local name=$1 connections=$2
    wrk -t"$THREADS" -c"$connections" -d"${DURATION}s" -s bench/report.lua "$GET_URL" > "$OUT/slowloris-$name.txt" 2>&1 || true
    grep '^{' "$OUT/slowloris-$name.txt" | tail -n 1 > "$OUT/slowloris-$name.json" || true
    if [ ! -s "$OUT/slowloris-$name.json" ]; then cat "$OUT/slowloris-$name.txt" >&2; echo '{}' > "$OUT/slowloris-$name.json"; fi
    echo "   $name: $(cat "$OUT/slowloris-$name.json")"
}

# Runs wrk while HELD connections of one kind are open; the holder's report goes to slowloris-holder-<mode>-<cycle>.json.
run_held() { # mode cycle
    local mode=$1 name=$1-$2 deadline=$(( $(date +%s) + 60 ))
    : > "$OUT/slowloris-holder-$name.txt"
    python3 bench/harden.py hold "$SERVE_HOSTPORT" "$HELD" "$mode" > "$OUT/slowloris-holder-$name.txt" 2>&1 &
    local holder=$!
    harden_track "$holder"
    until grep -q '^holding' "$OUT/slowloris-holder-$name.txt"; do
        if ! kill -0 "$holder" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
            cat "$OUT/slowloris-holder-$name.txt" >&2; return 1
        fi
        sleep 0.1
    done
    local port=${SERVE_HOSTPORT##*:}
    echo "   $HELD $mode connections held (server side established: $(ss -Htn state established "( sport = :$port )" | wc -l))"
    run_wrk "held-$name" "$CONNECTIONS"
    kill -TERM "$holder"
    wait "$holder" || true
    grep '^{' "$OUT/slowloris-holder-$name.txt" | tail -n 1 > "$OUT/slowloris-holder-$name.json"
    echo "   holder: $(cat "$OUT/slowloris-holder-$name.json")"
}

echo "== GET by id p99, wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s; $REPEAT cycles of: usual, $HELD idle held, $HELD partial-head held"
for cycle in $(seq "$REPEAT"); do
    run_wrk "usual-$cycle" "$CONNECTIONS"
    run_held idle "$cycle"
    run_held partial "$cycle"
done

# System-wide (other processes count too), so only a hint: SYNs dropped because an accept queue was full.
listen_overflows() { awk '/^TcpExt:/ { if (!n) { for (i = 1; i <= NF; i++) if ($i == "ListenOverflows") c = i; n = 1 } else print $c }' /proc/net/netstat; }

echo "== $MANY concurrent keep-alive connections"
overflows_before=$(listen_overflows)
run_wrk many "$MANY"
overflows=$(( $(listen_overflows) - overflows_before ))
echo "   listen queue overflows on this machine during the run: $overflows"
python3 bench/harden.py keepalive "$SERVE_HOSTPORT" "$MANY" "/api/v1/announcements/$ID" > "$OUT/slowloris-keepalive.json"
echo "   two requests on each of $MANY connections: $(cat "$OUT/slowloris-keepalive.json")"
healthy=false
serve_healthy && healthy=true

python3 - "$OUT" "$HELD" "$MANY" "$REPEAT" "$healthy" "$overflows" > "$OUT/slowloris-verdicts.txt" <<'PY'
import json, re, statistics, sys
out, held, many, repeat, healthy, overflows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "true", int(sys.argv[6])
def load(name):
    try:
        return json.load(open(f"{out}/slowloris-{name}.json"))
    except (OSError, ValueError):
        return {}
def socket_errors(name):
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", open(f"{out}/slowloris-{name}.txt").read())
    return dict(zip(("connect", "read", "write", "timeout"), map(int, m.groups()))) if m else {"connect": 0, "read": 0, "write": 0, "timeout": 0}
names = [f"{kind}-{c}" for c in range(1, repeat + 1) for kind in ("usual", "held-idle", "held-partial")] + ["many"]
runs = {n: load(n) for n in names}
verdicts = []
def check(name, ok, detail): verdicts.append((name, "PASS" if ok else "FAIL", detail))
figures = {"runs": {n: dict(r, socketErrors=socket_errors(n)) for n, r in runs.items()}, "listenOverflowsDuringMany": overflows}
missing = [n for n, r in runs.items() if "p99_ms" not in r]
check("wrk reports", not missing, f"no report from {missing} (see bench/out/slowloris-*.txt)" if missing else f"{len(runs)} runs")
if not missing:
    p99s = lambda kind: [runs[f"{kind}-{c}"]["p99_ms"] for c in range(1, repeat + 1)]
    usual = statistics.median(p99s("usual"))
    limit = max(1.5 * usual, usual + 2.0)
    figures.update(usualP99Ms=round(usual, 3), limitP99Ms=round(limit, 3))
    fmt = lambda xs: ", ".join(f"{x:.2f}" for x in xs)
    for mode in ("idle", "partial"):
        held_p99 = statistics.median(p99s(f"held-{mode}"))
        figures[f"held{mode.capitalize()}P99Ms"] = round(held_p99, 3)
        check(f"{held} {mode} held: p99 within usual", held_p99 <= limit,
              f"median p99 {held_p99:.2f} ms (runs {fmt(p99s(f'held-{mode}'))}) vs usual {usual:.2f} ms "
              f"(runs {fmt(p99s('usual'))}), limit {limit:.2f} ms")
        holders = [load(f"holder-{mode}-{c}") for c in range(1, repeat + 1)]
        figures[f"holders{mode.capitalize()}"] = holders
        closed = sum(h.get("closedByServer", held) for h in holders)
        check(f"{held} {mode} held: stayed open", closed == 0, f"{closed} of {held * repeat} closed by the server during the runs")
    bad = {n: (r["errors"], r["non2xx"]) for n, r in runs.items() if n != "many" and (r["errors"] or r["non2xx"])}
    check("32-connection runs: no errors, 2xx", not bad, f"(socket errors, non-2xx) per run: {bad}" if bad else
          f"{sum(r['requests'] for n, r in runs.items() if n != 'many')} answers in {len(runs) - 1} runs, all 2xx")
    r = runs["many"]
    check(f"{many} connections: wrk clean", r["errors"] == 0 and r["non2xx"] == 0,
          f"{r['requests']} answers ({r['rps']:.0f}/s, p99 {r['p99_ms']:.1f} ms); socket errors {socket_errors('many')}, {r['non2xx']} non-2xx; "
          f"{overflows} listen-queue overflows machine-wide")
k = load("keepalive")
figures["keepalive"] = k
check(f"{many} keep-alive: all served twice", k.get("servedFirst") == many and k.get("servedSecondOnSameConnection") == many,
      f"{k.get('servedFirst')} first answers, {k.get('servedSecondOnSameConnection')} second on the same connection, in {k.get('seconds')} s; {k.get('outcomes')}")
check("server alive, health 200 after", healthy, "")
figures["verdicts"] = [{"check": n, "result": v, "detail": d} for n, v, d in verdicts]
json.dump(figures, open(f"{out}/slowloris.json", "w"), indent=2)
for n, v, d in verdicts: print(f"{v}\t{n}\t{d}")
PY
checks_from "$OUT/slowloris-verdicts.txt"
echo "   figures: $OUT/slowloris.json"
checks_exit
