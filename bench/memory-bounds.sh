#!/usr/bin/env bash
# Memory bounded in bytes (issue 22): the store's byte bound, the paged state dump, and slow request bodies,
# measured on the release `spotcheck serve`.
#
#   bash bench/memory-bounds.sh                    # ~3 min
#   BIG=100000 CREATES=800 BOUND=48M TRICKLERS=320 bash bench/memory-bounds.sh
#
# 1. Store at its byte bound: `serve --store-limit 0 --store-max-bytes $BOUND --journal-limit 1` (the journal, bounded
#    apart at 1,000 entries of at most 2 x 64 KiB of bodies, would otherwise add up to 128 MiB of its own and hide the
#    store's figure), then CREATES announcements whose description is BIG bytes (100 KB, the create limit), 8 at a time. RSS is read before and after, and the count the
#    store kept. Pass: RSS growth stays under BOUND + 25% (the bound counts the buffers' whole storage; the allocator's
#    own slack is the rest), and the store kept fewer than CREATES (eviction happened).
# 2. The state dump: `GET /__spotcheck/state?limit=20000` on that full store. Pass: the answer is at most the page
#    budget (4 MiB) plus one announcement, says `next`, and the peak RSS (VmHWM) rose by less than 64 MiB.
#    Before paging, the same request answered 2 GB and peaked at 8.6 GB RSS (issue 22).
# 3. Slow bodies: TRICKLERS (320) connections each send a chunked POST head and then one body byte every 10 s, against a
#    server with `--idle-timeout`-free defaults (60 s). Meanwhile the main and admin ports must answer GET health within
#    1 s, the idle server's CPU time must grow by less than 2 s over 20 s, and all trickling connections must be closed
#    by the server within 75 s of their first byte (60 s window + slack). Before this change none ever were.
# 0. A typical announcement's cost (issue 36): `serve --store-limit 0 --journal-limit 1`, WARM (2,000) creates of
#    bench/create-body.json, then RSS, then TYPICAL (20,000) more on 4 keep-alive connections, then RSS again: the
#    growth divided by TYPICAL is the memory per stored announcement (record, key, index entries, allocator slack).
# Figures go to bench/out/memory-bounds.json and are printed.
#
# Another binary: SPOTCHECK_BIN=path (run as `path serve ...`; a wrapper script can add `--contracts DIR` for a binary
# of another commit). PARTS="0" runs part 0 only (without 1, the script stops after 0), e.g. to compare two commits:
#   for b in /tmp/before-serve /tmp/after-serve; do SPOTCHECK_BIN=$b PARTS=0 bash bench/memory-bounds.sh; done
set -euo pipefail
source "$(dirname "$0")/harden-lib.sh"

BIG=${BIG:-100000}
CREATES=${CREATES:-800}
BOUND=${BOUND:-48M}
TRICKLERS=${TRICKLERS:-320}
WARM=${WARM:-2000}
TYPICAL=${TYPICAL:-20000}
PARTS=${PARTS:-0 1 2 3}
part() { [[ " $PARTS " == *" $1 "* ]]; }

ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
harden_build
bound_bytes=$(python3 -c "import sys; s=sys.argv[1].upper(); m={'K':1<<10,'M':1<<20,'G':1<<30}; print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$BOUND")

hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$SERVE_PID/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVE_PID/stat"; }

per_typical=null; rss_typical_before=null; rss_typical_after=null
if part 0; then
echo "== 0. a typical announcement: $WARM creates to warm up, then $TYPICAL of bench/create-body.json, --store-limit 0"
serve_start --store-limit 0 --journal-limit 1
creates() { # count
    python3 - "$SERVE_HOSTPORT" "$1" <<'PY'
import concurrent.futures, http.client, sys
host, count = sys.argv[1], int(sys.argv[2])
body = open("bench/create-body.json", "rb").read()
def run(n):
    c = http.client.HTTPConnection(host, timeout=60)
    bad = 0
    for _ in range(n):
        c.request("POST", "/api/v1/announcements", body, {"Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        bad += r.status != 201
    c.close()
    return bad
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    bad = sum(pool.map(run, [count // 4 + (1 if i < count % 4 else 0) for i in range(4)]))
print(f"   {count} creates, {bad} not 201")
sys.exit(1 if bad else 0)
PY
}
creates "$WARM"
sleep 1
rss_typical_before=$(rss_kib)
creates "$TYPICAL"
sleep 1
rss_typical_after=$(rss_kib)
per_typical=$(( (rss_typical_after - rss_typical_before) * 1024 / TYPICAL ))
echo "   RSS ${rss_typical_before} -> ${rss_typical_after} KiB: ${per_typical} bytes per stored announcement"
serve_stop
fi
if ! part 1; then
    python3 - "$OUT/memory-bounds.json" <<PY
import json, sys
json.dump({"warm": $WARM, "typical": $TYPICAL, "rssTypicalBeforeKiB": $rss_typical_before,
           "rssTypicalAfterKiB": $rss_typical_after, "bytesPerTypicalAnnouncement": $per_typical}, open(sys.argv[1], "w"), indent=1)
PY
    exit 0
fi

echo "== 1. store at its byte bound: $CREATES creates of ${BIG}-byte descriptions, --store-max-bytes $BOUND"
serve_start --store-limit 0 --store-max-bytes "$BOUND" --journal-limit 1 --admin-port 0
ADMIN_URL=$(sed -n 's|^Admin API on \(http://[^/]*\)/.*$|\1|p' "$SERVE_LOG" | head -n 1)
rss_before=$(rss_kib)
python3 - "$SERVE_URL" "$CREATES" "$BIG" <<'PY'
import concurrent.futures, http.client, json, sys, urllib.parse
url, count, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
host = urllib.parse.urlparse(url).netloc
body = json.dumps({"species": "DOG", "sex": "MALE", "description": "d" * (big - 400), "locationLatitude": 52.2,
                   "locationLongitude": 21.0, "email": "a@b.co", "lastSeenDate": "2025-11-18", "status": "MISSING"})
def create(_):
    c = http.client.HTTPConnection(host, timeout=60)
    c.request("POST", "/api/v1/announcements", body, {"Content-Type": "application/json"})
    status = c.getresponse().status
    c.close()
    return status
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    statuses = list(pool.map(create, range(count)))
bad = [s for s in statuses if s != 201]
print(f"   {count} creates, {len(bad)} not 201")
sys.exit(1 if bad else 0)
PY
sleep 2
rss_store=$(rss_kib)
kept=$(curl -fs "$ADMIN_URL/__spotcheck/state?limit=0" | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')
growth=$(( rss_store - rss_before ))
echo "   RSS ${rss_before} -> ${rss_store} KiB (+${growth} KiB); the store kept $kept of $CREATES"
limit_kib=$(( bound_bytes * 5 / 4 / 1024 ))
[ "$growth" -le "$limit_kib" ] && check "store RSS growth within bound+25%" PASS "+${growth} KiB <= ${limit_kib} KiB" \
    || check "store RSS growth within bound+25%" FAIL "+${growth} KiB > ${limit_kib} KiB"
[ "$kept" -lt "$CREATES" ] && check "store evicted at its bound" PASS "kept $kept of $CREATES" \
    || check "store evicted at its bound" FAIL "kept all $CREATES"
per=$(( bound_bytes / (kept > 0 ? kept : 1) ))
echo "   bound / kept = $per bytes per ${BIG}-byte announcement"

echo "== 2. state dump: GET /__spotcheck/state?limit=20000"
hwm_before=$(hwm_kib)
dump_bytes=$(curl -fs -o "$OUT/memory-bounds-state.json" -w '%{size_download}' "$ADMIN_URL/__spotcheck/state?limit=20000")
hwm_after=$(hwm_kib)
shown=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["records"]), d["next"] is not None)' "$OUT/memory-bounds-state.json")
echo "   answer $dump_bytes bytes, announcements shown and next: $shown; peak RSS $hwm_before -> $hwm_after KiB"
[ "$dump_bytes" -le $(( 4 * 1024 * 1024 + BIG + 4096 )) ] && check "state page within its byte budget" PASS "$dump_bytes bytes" \
    || check "state page within its byte budget" FAIL "$dump_bytes bytes"
[ $(( hwm_after - hwm_before )) -lt 65536 ] && check "state dump peak RSS" PASS "+$(( hwm_after - hwm_before )) KiB" \
    || check "state dump peak RSS" FAIL "+$(( hwm_after - hwm_before )) KiB"
serve_stop

echo "== 3. $TRICKLERS connections trickling a chunked body, one byte every 10 s"
serve_start --admin-port 0
ADMIN_URL=$(sed -n 's|^Admin API on \(http://[^/]*\)/.*$|\1|p' "$SERVE_LOG" | head -n 1)
python3 - "$SERVE_HOSTPORT" "$TRICKLERS" > "$OUT/memory-bounds-trickle.txt" 2>&1 <<'PY' &
import socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
count = int(sys.argv[2])
socks = []
for _ in range(count):
    s = socket.create_connection((host, int(port)))
    s.sendall(b"POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n")
    socks.append(s)
start = time.time()
print(f"trickling {count}", flush=True)
open_ = list(socks)
closed_at = []
while open_ and time.time() - start < 100:
    time.sleep(10)
    still = []
    for s in open_:
        try:
            s.sendall(b"1\r\n \r\n")
            s.settimeout(0.01)
            try:
                if s.recv(1) == b"":
                    raise ConnectionError
            except socket.timeout:
                pass
            still.append(s)
        except OSError:
            closed_at.append(time.time() - start)
    open_ = still
print(f"closed {len(closed_at)} of {count}; last after {max(closed_at) if closed_at else -1:.0f} s; open {len(open_)}", flush=True)
PY
trickler=$!
harden_track "$trickler"
until grep -q '^trickling' "$OUT/memory-bounds-trickle.txt"; do sleep 0.2; done
sleep 2
cpu0=$(cpu_ticks)
slowest=0
for i in $(seq 20); do
    for url in "$SERVE_URL/api/health" "$ADMIN_URL/__spotcheck/health"; do
        t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 5 "$url" || echo 5)
        slowest=$(python3 -c "print(max($slowest, $t))")
    done
    sleep 1
done
cpu1=$(cpu_ticks)
hz=$(getconf CLK_TCK)
cpu_s=$(python3 -c "print(round(($cpu1 - $cpu0) / $hz, 2))")
echo "   slowest health answer ${slowest} s; server CPU over 20 s with $TRICKLERS tricklers: ${cpu_s} s"
python3 -c "import sys; sys.exit(0 if $slowest < 1 else 1)" && check "ports answer beside tricklers" PASS "slowest ${slowest} s" \
    || check "ports answer beside tricklers" FAIL "slowest ${slowest} s"
python3 -c "import sys; sys.exit(0 if $cpu_s < 2 else 1)" && check "idle CPU beside tricklers" PASS "${cpu_s} s in 20 s" \
    || check "idle CPU beside tricklers" FAIL "${cpu_s} s in 20 s"
wait "$trickler" || true
cat "$OUT/memory-bounds-trickle.txt"
closed=$(sed -n 's/^closed \([0-9]*\) of.*last after \([0-9-]*\) s.*/\1 \2/p' "$OUT/memory-bounds-trickle.txt")
set -- $closed
[ "${1:-0}" = "$TRICKLERS" ] && [ "${2:-999}" -le 75 ] && check "tricklers cut" PASS "all $TRICKLERS within ${2} s" \
    || check "tricklers cut" FAIL "${1:-0} of $TRICKLERS closed, last after ${2:-?} s"
serve_stop

python3 - "$OUT/memory-bounds.json" <<PY
import json, sys
json.dump({"warm": $WARM, "typical": $TYPICAL, "rssTypicalBeforeKiB": $rss_typical_before,
           "rssTypicalAfterKiB": $rss_typical_after, "bytesPerTypicalAnnouncement": $per_typical,
           "bound": "$BOUND", "creates": $CREATES, "descriptionBytes": $BIG, "kept": $kept,
           "rssBeforeKiB": $rss_before, "rssStoreKiB": $rss_store, "stateAnswerBytes": $dump_bytes,
           "stateHwmBeforeKiB": $hwm_before, "stateHwmAfterKiB": $hwm_after, "tricklers": $TRICKLERS,
           "slowestHealthS": $slowest, "cpuS": $cpu_s}, open(sys.argv[1], "w"), indent=1)
PY
checks_exit
