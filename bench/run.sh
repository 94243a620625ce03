#!/usr/bin/env bash
# The benchmark of issue 8: SpotCheck's mock backend (`spotcheck serve`) beside the Pact stub server
# on the same contract (bench/petspot.pact.json) and nginx serving the same GET-by-id bytes as a static
# file (the ceiling of the load generator), all in one run; then the bundled scenario library.
# Writes docs/performance.md (regenerated entirely) and bench/out/results.json.
#
#   bash bench/run.sh
#   DURATION=30s CONNECTIONS=64 RUNS=5 bash bench/run.sh
#
# Environment: DURATION (10s), THREADS (2), CONNECTIONS (32), RUNS (3 wrk runs per figure), STARTS
# (15 cold starts per server), MILLION (1000000 requests before the last SpotCheck RSS reading),
# LIBRARY_RUNS (3 timed runs of the scenario library per mode), BURST ("1000 5000": connection counts
# opened at once for the burst runs, GET by id, SpotCheck and nginx), BURST_RUNS (RUNS). Installs wrk and nginx with apt when
# missing and pact-python-cli in a venv under bench/out/venv. See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
RUNS=${RUNS:-3}
STARTS=${STARTS:-15}
MILLION=${MILLION:-1000000}
LIBRARY_RUNS=${LIBRARY_RUNS:-3}
BURST=${BURST:-1000 5000}
# The build README.md tells users to run a long-running mock from (`spotcheck-serve`, static); SWIFT_BUILD_FLAGS=""
# measures the plain release build.
SWIFT_BUILD_FLAGS=${SWIFT_BUILD_FLAGS-"--static-swift-stdlib"}
BURST_RUNS=${BURST_RUNS:-$RUNS}
# WireMock is a JVM: it starts in seconds, so it gets fewer starts, and is warmed up (its JIT) before it is measured.
WIREMOCK_STARTS=${WIREMOCK_STARTS:-3}
WARMUP=${WARMUP:-10s}
# Exploration throughput: sessions of `spotcheck explore`, generated cases of `spotcheck verify`.
EXPLORE_RUNS=${EXPLORE_RUNS:-200}
VERIFY_CASES=${VERIFY_CASES:-1000}
DATADIR_CHANGES=${DATADIR_CHANGES:-1000000}
OUT=bench/out
RAW=$OUT/raw
PACT_FILE=bench/petspot.pact.json
NGINX_DIR=$PWD/$OUT/nginx

fail() { echo "bench/run.sh: $*" >&2; exit 1; }
step() { echo "== $*"; }

# The burst runs open thousands of connections at once; servers started from here inherit the limit.
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
rm -rf "$RAW" "$NGINX_DIR" "$OUT/cache"
# serve's lint cache (issue 23) lives here for the run: the first start lints and fills it, later starts skip the lint,
# as every start after the first does for a user whose contracts did not change.
export SPOTCHECK_CACHE_DIR=$PWD/$OUT/cache
mkdir -p "$RAW" "$NGINX_DIR/www" "$NGINX_DIR/tmp"
# What the machine was doing before we started, for the report (the cores are shared).
cut -d' ' -f1-3 /proc/loadavg > "$RAW/load-start.txt"
# Busy and total CPU jiffies of the machine: with this script's own CPU time (bash `times`, which counts
# every waited-for child: servers, wrk, builds) they tell how much CPU other work took during the run.
machine_jiffies() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
read -r BUSY_START TOTAL_START < <(machine_jiffies)
WALL_START=$(date +%s.%N)
python3 bench/other_cpu.py snapshot "$RAW/cpu-start.json"

# --- tools ------------------------------------------------------------------------------------------
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
NGINX=$(command -v nginx || true); [ -z "$NGINX" ] && [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx
if ! command -v wrk >/dev/null 2>&1 || [ -z "$NGINX" ]; then
    step "installing wrk and nginx (apt)"
    $SUDO apt-get update -qq >/dev/null || fail "apt-get update failed"
    # policy-rc.d-less systems would start the distribution's nginx on port 80; we run our own instance.
    $SUDO env RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx >/dev/null \
        || fail "apt-get install wrk nginx failed (needs root or sudo)"
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi
# A static Swift standard library links Foundation's networking statically, which needs libcurl's headers.
if [[ "$SWIFT_BUILD_FLAGS" == *static-swift-stdlib* ]] && command -v dpkg >/dev/null 2>&1 && ! dpkg -s libcurl4-openssl-dev >/dev/null 2>&1; then
    step "installing libcurl4-openssl-dev (apt) for --static-swift-stdlib"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >/dev/null \
        || fail "apt-get install libcurl4-openssl-dev failed (needed by --static-swift-stdlib; or run with SWIFT_BUILD_FLAGS=)"
fi
command -v wrk >/dev/null 2>&1 || fail "wrk is not installed"
[ -x "$NGINX" ] || fail "nginx is not installed"
if [ ! -x "$OUT/venv/bin/pact" ]; then
    step "installing pact-python-cli (venv in $OUT/venv)"
    python3 -m venv "$OUT/venv" || fail "python3 -m venv failed (apt-get install python3-venv)"
    "$OUT/venv/bin/pip" install -q pact-python-cli || fail "pip install pact-python-cli failed"
fi
PACT=$OUT/venv/bin/pact
# WireMock's standalone jar ships inside the `wiremock` package on PyPI (its admin client); Java 17 from Debian runs it.
if ! "$OUT/venv/bin/python" -c 'import wiremock' 2>/dev/null; then
    step "installing wiremock (venv in $OUT/venv) for its standalone jar"
    "$OUT/venv/bin/pip" install -q wiremock || fail "pip install wiremock failed"
fi
WIREMOCK_JAR=$("$OUT/venv/bin/python" -c 'import glob, os, wiremock; print(sorted(glob.glob(os.path.join(os.path.dirname(wiremock.__file__), "server", "wiremock-standalone-*.jar")))[-1])') \
    || fail "no wiremock-standalone jar in the wiremock package"
if ! command -v java >/dev/null 2>&1; then
    step "installing Java 17 (apt) for WireMock"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null \
        || fail "apt-get install openjdk-17-jre-headless failed"
fi
JAVA=$(command -v java)

step "release build (once): swift build -c release $SWIFT_BUILD_FLAGS"
# shellcheck disable=SC2086 # the flags are words
swift build -c release $SWIFT_BUILD_FLAGS > "$RAW/build.log" 2>&1 || { tail -n 30 "$RAW/build.log" >&2; fail "release build failed"; }
tail -n 1 "$RAW/build.log"
# shellcheck disable=SC2086
BIN_DIR=$(swift build -c release $SWIFT_BUILD_FLAGS --show-bin-path)
BIN=$BIN_DIR/spotcheck
# The mock measured: the lean binary README.md names for a long-running mock (`spotcheck serve` without the scenario
# engine and the reference client); `spotcheck` itself exports the pact and runs the scenario library.
SERVE_BIN=$BIN_DIR/spotcheck-serve

step "pact file: spotcheck export pact --out $PACT_FILE"
"$BIN" export pact --out "$PACT_FILE" 2> "$RAW/pact-skipped.txt"
if ! git diff --quiet -- "$PACT_FILE" 2>/dev/null; then
    echo "   note: $PACT_FILE changed with the contracts; commit it with docs/performance.md"
fi
# Both servers get the same POST body, and it must be the pact's create request, or Pact answers 404.
python3 - "$PACT_FILE" bench/create-body.json "$RAW/minimal.pact.json" > "$RAW/pact-get-path.txt" <<'PY' || fail "bench/create-body.json is not the request body of the pact's 'createAnnouncement: minimal report created' interaction"
import json, sys
pact = json.load(open(sys.argv[1]))
by = {i["description"]: i for i in pact["interactions"]}
create, get = by["createAnnouncement: minimal report created"], by["getAnnouncement: with photo"]
if create["request"]["body"] != json.load(open(sys.argv[2])) or create["response"]["status"] != 201:
    sys.exit(1)
print(get["request"]["path"])
# The Pact stub's speed depends on the pact's size, so it is also measured on a pact of only the
# interactions the load uses (and health, for the readiness check).
pact["interactions"] = [by[d] for d in ("health: ok", "getAnnouncement: with photo", "createAnnouncement: minimal report created")]
json.dump(pact, open(sys.argv[3], "w"), indent=2)
PY
PACT_GET_PATH=$(cat "$RAW/pact-get-path.txt")
# The peers' other settings from the same 3 interactions: the pact with `like(...)` type matchers on the create body's
# fields (what a consumer test writes), and WireMock stub mappings equivalent to the exact pact.
python3 bench/peer_stubs.py "$RAW/minimal.pact.json" "$RAW/like.pact.json" "$RAW/wiremock" || fail "bench/peer_stubs.py failed"

# --- server control ---------------------------------------------------------------------------------
PIDS=()
cleanup() {
    local pid
    for pid in ${PIDS[@]+"${PIDS[@]}"}; do stop "$pid"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Runs a long command (wrk, the scenario library) in the background and waits for it, so Ctrl-C or
# SIGTERM reaches the trap at once instead of after the command, and cleanup stops it too.
run_bg() {
    "$@" &
    local pid=$!
    PIDS+=("$pid")
    wait "$pid"
}

# Creates an announcement from bench/create-body.json on the SpotCheck at URL and prints its id.
create_announcement() { # url
    curl -fs --max-time 5 -X POST "$1/api/v1/announcements" -H 'Content-Type: application/json' \
        --data @bench/create-body.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# Polls until `url` answers 2xx; gives up after 30 s so a broken server cannot hang the run.
wait_http() {
    local url=$1 deadline=$(( $(date +%s) + 30 ))
    until curl -fs -o /dev/null --max-time 2 "$url"; do
        [ "$(date +%s)" -ge "$deadline" ] && fail "no 2xx answer from $url within 30 s"
        sleep 0.01
    done
}

# Stops a server: SIGTERM, SIGKILL after 10 s; a server is our child, so it is gone once it is a zombie.
stop() { # pid
    kill "$1" 2>/dev/null || return 0
    local deadline=$(( $(date +%s) + 10 )) state
    while state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state:0:1}" != Z ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then kill -9 "$1" 2>/dev/null || true; break; fi
        sleep 0.05
    done
    wait "$1" 2>/dev/null || true
}

write_nginx_conf() { # port
    local user=""; [ "$(id -u)" -eq 0 ] && user="user root;"
    cat > "$NGINX_DIR/nginx.conf" <<EOF
# Generated by bench/run.sh: the static-file ceiling, GET only.
$user
worker_processes 2;
worker_rlimit_nofile 20000;
daemon off;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log warn;
events { worker_connections 10000; }
http {
    access_log off;
    default_type application/json;
    client_body_temp_path $NGINX_DIR/tmp/body;
    proxy_temp_path $NGINX_DIR/tmp/proxy;
    fastcgi_temp_path $NGINX_DIR/tmp/fastcgi;
    uwsgi_temp_path $NGINX_DIR/tmp/uwsgi;
    scgi_temp_path $NGINX_DIR/tmp/scgi;
    server {
        listen 127.0.0.1:$1;
        root $NGINX_DIR/www;
    }
}
EOF
}

# Sets CMD to a server's command line; nginx and Pact get a free port each start (PORT), SpotCheck binds
# port 0 and prints its URL. Pact logs nothing, like SpotCheck with --quiet and nginx without access_log.
set_cmd() { # server
    case $1 in
    spotcheck) CMD=("$SERVE_BIN" --port 0 --quiet) ;;
    spotcheck-nv) CMD=("$SERVE_BIN" --port 0 --quiet --validate off) ;;
    spotcheck-all) CMD=("$SERVE_BIN" --port 0 --quiet --validate all) ;;
    # The same server keeping 100 announcements instead of 20,000: its memory without the store's contents.
    spotcheck-small) CMD=("$SERVE_BIN" --port 0 --quiet --store-limit 100) ;;
    pact) PORT=$(free_port); CMD=("$PACT" stub -f "$PACT_FILE" -p "$PORT" -l none) ;;
    pact-min) PORT=$(free_port); CMD=("$PACT" stub -f "$RAW/minimal.pact.json" -p "$PORT" -l none) ;;
    pact-like) PORT=$(free_port); CMD=("$PACT" stub -f "$RAW/like.pact.json" -p "$PORT" -l none) ;;
    # As WireMock's docs advise for load: no request journal (it keeps every request otherwise), no request logging,
    # not verbose (the default); its stubs are bench/peer_stubs.py's mappings.
    wiremock) PORT=$(free_port); CMD=("$JAVA" -jar "$WIREMOCK_JAR" --port "$PORT" --bind-address 127.0.0.1 --root-dir "$RAW/wiremock"
              --no-request-journal --disable-request-logging --disable-banner) ;;
    nginx) PORT=$(free_port); write_nginx_conf "$PORT"
           CMD=("$NGINX" -p "$NGINX_DIR/" -c "$NGINX_DIR/nginx.conf" -e "$NGINX_DIR/error.log") ;;
    esac
}

# Starts a server in the background for the load runs. Sets URL and PID.
start_server() { # server
    set_cmd "$1"
    "${CMD[@]}" > "$RAW/$1.log" 2>&1 &
    PID=$!; PIDS+=("$PID")
    case $1 in
    spotcheck|spotcheck-nv|spotcheck-all|spotcheck-small)
        local deadline=$(( $(date +%s) + 30 ))
        until grep -q '^Listening on ' "$RAW/$1.log"; do
            kill -0 "$PID" 2>/dev/null || fail "spotcheck serve exited: $(cat "$RAW/$1.log")"
            [ "$(date +%s)" -ge "$deadline" ] && fail "spotcheck serve printed no 'Listening on' line within 30 s"
            sleep 0.01
        done
        URL=$(sed -n 's/^Listening on //p' "$RAW/$1.log" | head -n 1); URL=${URL%/}
        wait_http "$URL/api/health" ;;
    pact|pact-min|pact-like|wiremock) URL="http://127.0.0.1:$PORT"; wait_http "$URL/api/health" ;;
    nginx) URL="http://127.0.0.1:$PORT"; wait_http "$URL$NGINX_PATH" ;;
    esac
}

# VmRSS of the process that serves and its descendants, launchers (python) excluded; nginx counts its
# master and workers. Appends {"server", "phase", "kib", "processes"} to rss.jsonl.
record_rss() { # server phase pid
    local pids=("$3") i=0 total=0 names=() child comm kib
    while [ $i -lt ${#pids[@]} ]; do
        for child in $(pgrep -P "${pids[$i]}" || true); do pids+=("$child"); done
        i=$((i + 1))
    done
    for i in "${pids[@]}"; do
        comm=$(cat "/proc/$i/comm" 2>/dev/null) || continue
        case $comm in python*) continue ;; esac
        kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$i/status" 2>/dev/null) || continue
        [ -n "$kib" ] || continue
        total=$((total + kib)); names+=("$comm (pid $i)")
    done
    [ "$total" -gt 0 ] || fail "no RSS readable for $1 (pid $3)"
    local joined; joined=$(IFS=,; echo "${names[*]}")
    printf '{"server": "%s", "phase": "%s", "kib": %d, "processes": "%s"}\n' "$1" "$2" "$total" "${joined//,/, }" >> "$RAW/rss.jsonl"
    echo "   $1 RSS $2: $((total / 1024)) MiB (${joined//,/, })"
}

# One wrk run; appends its report line (bench/report.lua) with server, benchmark and run to runs.jsonl
# and prints it. Returns the request count in REQUESTS. CONNS overrides CONNECTIONS for one call.
run_wrk() { # server benchmark run url [script]
    local file="$RAW/wrk-$1-$2-$3.txt" script=${5:-bench/report.lua}
    run_bg timeout 900 wrk -t"$THREADS" -c"${CONNS:-$CONNECTIONS}" -d"$DURATION" -s "$script" "$4" > "$file" 2>&1 \
        || fail "wrk failed against $1 ($4): $(tail -n 3 "$file")"
    local line; line=$(grep '^{' "$file" | tail -n 1)
    [ -n "$line" ] || fail "wrk printed no report line against $1; see $file"
    echo "{\"server\": \"$1\", \"benchmark\": \"$2\", \"run\": $3, ${line#\{}" >> "$RAW/runs.jsonl"
    REQUESTS=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["requests"])' "$line")
    echo "   $1 $2 #$3: $line"
}

# --- measurements -----------------------------------------------------------------------------------
step "SpotCheck: ready, one announcement to read"
start_server spotcheck; SPOT_URL=$URL; SPOT_PID=$PID
record_rss spotcheck ready "$SPOT_PID"
SPOT_REQUESTS=0
ID=$(create_announcement "$SPOT_URL") || fail "SpotCheck did not create the announcement from bench/create-body.json"
SPOT_GET_PATH=/api/v1/announcements/$ID
# nginx serves the very bytes SpotCheck's GET by id answers, at the same path.
NGINX_PATH=$SPOT_GET_PATH
mkdir -p "$NGINX_DIR/www/api/v1/announcements"
curl -fs --max-time 5 "$SPOT_URL$SPOT_GET_PATH" > "$NGINX_DIR/www$NGINX_PATH" || fail "SpotCheck did not answer GET $SPOT_GET_PATH"

step "start -> first answered request ($STARTS starts each, servers in turn)"
for n in $(seq "$STARTS"); do
    for server in spotcheck pact-min pact nginx; do
        set_cmd "$server"
        case $server in
        spotcheck) poll=(--url-from-log "Listening on " --path /api/health) ;;
        pact|pact-min) poll=(--url "http://127.0.0.1:$PORT/api/health") ;;
        nginx) poll=(--url "http://127.0.0.1:$PORT$NGINX_PATH") ;;
        esac
        python3 bench/first_answer.py --log "$RAW/start-$server.log" "${poll[@]}" -- "${CMD[@]}" \
            | sed "s/^{/{\"server\": \"$server\", /" >> "$RAW/starts.jsonl" || fail "$server start $n failed; see $RAW/start-$server.log"
    done
done
grep -o '"server": "[a-z-]*", "ms": [0-9.]*' "$RAW/starts.jsonl" | sed 's/^/   /'
# Where SpotCheck's start goes: `serve --timings` prints the phases (contract loading and lint apart) on standard error.
for n in $(seq "$STARTS"); do
    python3 bench/first_answer.py --log "$RAW/start-timings-$n.log" --url-from-log "Listening on " --path /api/health \
        -- "$SERVE_BIN" --port 0 --quiet --timings > /dev/null || fail "spotcheck-serve --timings failed; see $RAW/start-timings-$n.log"
    grep '^{"timings"' "$RAW/start-timings-$n.log" >> "$RAW/start-timings.jsonl" || fail "no timings line in $RAW/start-timings-$n.log"
done
tail -n 1 "$RAW/start-timings.jsonl" | sed 's/^/   /'
# The same with the lint cache off: what a start costs when the contracts changed (every start lints).
for n in $(seq "$STARTS"); do
    SPOTCHECK_CACHE_DIR=off python3 bench/first_answer.py --log "$RAW/start-timings-cold-$n.log" --url-from-log "Listening on " \
        --path /api/health -- "$SERVE_BIN" --port 0 --quiet --timings > /dev/null || fail "spotcheck-serve --timings failed; see $RAW/start-timings-cold-$n.log"
    grep '^{"timings"' "$RAW/start-timings-cold-$n.log" >> "$RAW/start-timings-cold.jsonl" || fail "no timings line in $RAW/start-timings-cold-$n.log"
done
tail -n 1 "$RAW/start-timings-cold.jsonl" | sed 's/^/   /'
for n in $(seq "$WIREMOCK_STARTS"); do
    set_cmd wiremock
    python3 bench/first_answer.py --log "$RAW/start-wiremock.log" --url "http://127.0.0.1:$PORT/api/health" -- "${CMD[@]}" \
        | sed "s/^{/{\"server\": \"wiremock\", /" >> "$RAW/starts.jsonl" || fail "wiremock start $n failed; see $RAW/start-wiremock.log"
done
grep -o '"server": "wiremock", "ms": [0-9.]*' "$RAW/starts.jsonl" | sed 's/^/   /'

step "Pact stub (the whole pact and the minimal one) and nginx: ready"
start_server pact; PACT_URL=$URL; PACT_PID=$PID
record_rss pact ready "$PACT_PID"
start_server pact-min; MIN_URL=$URL; MIN_PID=$PID
record_rss pact-min ready "$MIN_PID"
start_server nginx; NGINX_URL=$URL; NGINX_PID=$PID
record_rss nginx ready "$NGINX_PID"
start_server pact-like; LIKE_URL=$URL; LIKE_PID=$PID
record_rss pact-like ready "$LIKE_PID"
start_server wiremock; WM_URL=$URL; WM_PID=$PID
record_rss wiremock ready "$WM_PID"
for peer in "$LIKE_URL" "$WM_URL"; do
    status=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X POST "$peer/api/v1/announcements" \
        -H 'Content-Type: application/json' --data @bench/create-body.json)
    [ "$status" = 201 ] || fail "$peer answered $status, not 201, to the create body"
    curl -fs --max-time 5 -o /dev/null "$peer$PACT_GET_PATH" || fail "$peer did not answer GET $PACT_GET_PATH"
done
# A JVM compiles its hot paths while it serves: WireMock gets both loads once before anything of it is measured.
step "warming WireMock up (wrk $WARMUP per operation, not measured)"
run_bg wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$WM_URL$PACT_GET_PATH" > "$RAW/wiremock-warmup-get.txt" 2>&1 || fail "wrk warm-up failed"
run_bg wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s bench/create.lua "$WM_URL/api/v1/announcements" > "$RAW/wiremock-warmup-create.txt" 2>&1 \
    || fail "wrk warm-up failed"
curl -fs --max-time 5 -o /dev/null "$PACT_URL$PACT_GET_PATH" || fail "Pact stub did not answer GET $PACT_GET_PATH"
# SpotCheck with the other validation scopes: --validate off (what the mock itself costs) and --validate all
# (answers and invariants checked too, as the proxy does by default).
start_server spotcheck-nv; NV_URL=$URL; NV_PID=$PID
NV_GET_PATH=/api/v1/announcements/$(create_announcement "$NV_URL") || fail "SpotCheck --validate off did not create the announcement"
start_server spotcheck-all; ALL_URL=$URL; ALL_PID=$PID
ALL_GET_PATH=/api/v1/announcements/$(create_announcement "$ALL_URL") || fail "SpotCheck --validate all did not create the announcement"
status=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X POST "$PACT_URL/api/v1/announcements" \
    -H 'Content-Type: application/json' --data @bench/create-body.json)
[ "$status" = 201 ] || fail "Pact stub answered $status, not 201, to the create body"

step "GET by id (wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $RUNS runs, servers in turn)"
for n in $(seq "$RUNS"); do
    run_wrk spotcheck get "$n" "$SPOT_URL$SPOT_GET_PATH"; SPOT_REQUESTS=$((SPOT_REQUESTS + REQUESTS))
    run_wrk pact get "$n" "$PACT_URL$PACT_GET_PATH"
    run_wrk nginx get "$n" "$NGINX_URL$NGINX_PATH"
    run_wrk pact-min get "$n" "$MIN_URL$PACT_GET_PATH"
    run_wrk wiremock get "$n" "$WM_URL$PACT_GET_PATH"
    run_wrk spotcheck-nv get "$n" "$NV_URL$NV_GET_PATH"
    run_wrk spotcheck-all get "$n" "$ALL_URL$ALL_GET_PATH"
done
step "POST create ($RUNS runs, servers in turn)"
for n in $(seq "$RUNS"); do
    run_wrk spotcheck create "$n" "$SPOT_URL/api/v1/announcements" bench/create.lua; SPOT_REQUESTS=$((SPOT_REQUESTS + REQUESTS))
    run_wrk pact create "$n" "$PACT_URL/api/v1/announcements" bench/create.lua
    run_wrk pact-min create "$n" "$MIN_URL/api/v1/announcements" bench/create.lua
    run_wrk pact-like create "$n" "$LIKE_URL/api/v1/announcements" bench/create.lua
    run_wrk wiremock create "$n" "$WM_URL/api/v1/announcements" bench/create.lua
    run_wrk spotcheck-nv create "$n" "$NV_URL/api/v1/announcements" bench/create.lua
    run_wrk spotcheck-all create "$n" "$ALL_URL/api/v1/announcements" bench/create.lua
done
record_rss spotcheck after-load "$SPOT_PID"
record_rss pact after-load "$PACT_PID"
record_rss nginx after-load "$NGINX_PID"
record_rss pact-min after-load "$MIN_PID"
record_rss pact-like after-load "$LIKE_PID"
record_rss wiremock after-load "$WM_PID"
stop "$PACT_PID"; stop "$MIN_PID"; stop "$NV_PID"; stop "$ALL_PID"; stop "$LIKE_PID"; stop "$WM_PID"

# A burst: every connection opened at once (wrk connects all of them before the first request), so the
# servers must accept a thousand or more while already answering the first ones. wrk gives up on a request
# after 2 s and counts it as a timeout. Fresh servers, so the burst meets a cold listener.
step "burst: GET by id, connections $BURST opened at once (wrk -t$THREADS -d$DURATION, $BURST_RUNS runs, fresh servers)"
stop "$NGINX_PID"
for conns in $BURST; do
    for n in $(seq "$BURST_RUNS"); do
        start_server spotcheck; BURST_PID=$PID
        id=$(create_announcement "$URL") || fail "SpotCheck did not create the announcement for the burst"
        CONNS=$conns run_wrk spotcheck "burst-$conns" "$n" "$URL/api/v1/announcements/$id"
        stop "$BURST_PID"
        start_server nginx; BURST_PID=$PID
        CONNS=$conns run_wrk nginx "burst-$conns" "$n" "$URL$NGINX_PATH"
        stop "$BURST_PID"
    done
done

step "SpotCheck: GET by id until $MILLION requests in total"
n=0
while [ "$SPOT_REQUESTS" -lt "$MILLION" ]; do
    n=$((n + 1)); [ "$n" -le 200 ] || fail "still under $MILLION requests after 200 extra wrk runs"
    run_wrk spotcheck million "$n" "$SPOT_URL$SPOT_GET_PATH"; SPOT_REQUESTS=$((SPOT_REQUESTS + REQUESTS))
done
echo "{\"requests\": $SPOT_REQUESTS}" > "$RAW/million.json"
record_rss spotcheck "after-$SPOT_REQUESTS-requests" "$SPOT_PID"
stop "$SPOT_PID"

# The mock is stateful: most of what it holds after the load above is the 20,000 announcements it keeps. The same
# creates and GETs against a server that keeps 100 show its memory without them, the figure comparable to a stub's.
step "SpotCheck with --store-limit 100: one create run, then GET by id until $MILLION requests in total"
start_server spotcheck-small; SMALL_URL=$URL; SMALL_PID=$PID
run_wrk spotcheck-small small-create 1 "$SMALL_URL/api/v1/announcements" bench/create.lua; SMALL_REQUESTS=$REQUESTS
# Created after the creates: with room for 100, one made before them would long be evicted (every GET a 404).
SMALL_ID=$(create_announcement "$SMALL_URL") || fail "SpotCheck (--store-limit 100) did not create the announcement"
n=0
while [ "$SMALL_REQUESTS" -lt "$MILLION" ]; do
    n=$((n + 1)); [ "$n" -le 200 ] || fail "still under $MILLION requests after 200 wrk runs (--store-limit 100)"
    run_wrk spotcheck-small small-get "$n" "$SMALL_URL/api/v1/announcements/$SMALL_ID"; SMALL_REQUESTS=$((SMALL_REQUESTS + REQUESTS))
done
record_rss spotcheck-small "after-$SMALL_REQUESTS-requests" "$SMALL_PID"
stop "$SMALL_PID"

# The scenario library: every bundled scenario through the embedded mock backend, in-process, through
# the external client (spotcheck-client over JSON lines) and with one job; medians of LIBRARY_RUNS.
step "scenario library ($LIBRARY_RUNS runs per mode)"
time_library() { # mode args...
    local mode=$1; shift
    for n in $(seq "$LIBRARY_RUNS"); do
        local start end
        start=$(date +%s.%N)
        run_bg timeout 900 "$BIN" run "$@" --quiet > "$RAW/library-$mode-$n.txt" 2>&1 \
            || fail "spotcheck run ($mode) failed; see $RAW/library-$mode-$n.txt"
        end=$(date +%s.%N)
        echo "{\"mode\": \"$mode\", \"run\": $n, \"seconds\": $(awk "BEGIN { print $end - $start }")}" >> "$RAW/library.jsonl"
    done
    tail -n "$LIBRARY_RUNS" "$RAW/library.jsonl" | sed 's/^/   /'
}
time_library in-process
time_library external-client --client "$BIN_DIR/spotcheck-client"
time_library one-job --jobs 1

# Exploration throughput (issue 23): `spotcheck explore` sessions/s and `spotcheck verify`'s generated cases/s against
# a fresh spotcheck-serve, each when this build has the command; best effort, a failure is reported, not fatal.
step "exploration throughput (explore: $EXPLORE_RUNS sessions; verify: $VERIFY_CASES generated cases; seed 1)"
time_exploration() { # kind count args...
    local kind=$1 count=$2; shift 2
    local start end
    start=$(date +%s.%N)
    if run_bg timeout 900 "$BIN" "$@" > "$RAW/exploration-$kind.txt" 2>&1; then
        end=$(date +%s.%N)
        echo "{\"kind\": \"$kind\", \"count\": $count, \"seconds\": $(awk "BEGIN { print $end - $start }")}" >> "$RAW/exploration.jsonl"
        tail -n 1 "$RAW/exploration.jsonl" | sed 's/^/   /'
    else
        echo "   $kind failed (exit $?); see $RAW/exploration-$kind.txt"
    fi
}
if "$BIN" explore --help > /dev/null 2>&1; then
    time_exploration explore "$EXPLORE_RUNS" explore --runs "$EXPLORE_RUNS" --seed 1
else
    echo "   spotcheck explore: not in this build"
fi
if "$BIN" verify --help 2>&1 | grep -q -- '--cases'; then
    start_server spotcheck; VERIFY_PID=$PID
    time_exploration verify "$VERIFY_CASES" verify --target "$URL" --cases "$VERIFY_CASES" --seed 1
    stop "$VERIFY_PID"
else
    echo "   spotcheck verify --cases: not in this build"
fi

# The data directory's start after a million changes (issue 22's bench/datadir_start.py, on this run's release
# binary); best effort like the exploration figures.
step "data directory start after $DATADIR_CHANGES changes (bench/datadir_start.py, 3 starts, seed 1)"
if [ -f bench/datadir_start.py ]; then
    if [ ! -x "$OUT/datadir-venv/bin/python" ]; then
        python3 -m venv "$OUT/datadir-venv" && "$OUT/datadir-venv/bin/pip" install -q crc32c==2.9.post0 || echo "   crc32c install failed"
    fi
    run_bg timeout 1800 "$OUT/datadir-venv/bin/python" bench/datadir_start.py "$BIN" --changes "$DATADIR_CHANGES" --starts 3 --seed 1 \
        > "$RAW/datadir-start.txt" 2>&1 || echo "   bench/datadir_start.py failed; see $RAW/datadir-start.txt"
    sed 's/^/   /' "$RAW/datadir-start.txt"
fi

# --- report -----------------------------------------------------------------------------------------
cut -d' ' -f1-3 /proc/loadavg > "$RAW/load-end.txt"
read -r BUSY_END TOTAL_END < <(machine_jiffies)
python3 bench/other_cpu.py since "$RAW/cpu-start.json" $$ > "$RAW/busy-during.txt"
times > "$RAW/times.txt"   # not in a pipe: a subshell would report its own, empty, times
OWN_SECONDS=$(tail -n 1 "$RAW/times.txt" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } print s }')
{
    echo "nproc=$(nproc)"
    echo "cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "kernel=$(uname -sr)"
    echo "memory=$(awk '/^MemTotal:/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "wrk=$(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2)"
    echo "nginx=$("$NGINX" -v 2>&1 | sed 's/^nginx version: //')"
    echo "pact=Pact Stub Server $("$PACT" stub --version 2>&1 | sed -n 's/^pact stub server version *: *//p') (pact-python-cli $("$OUT/venv/bin/pip" show pact-python-cli 2>/dev/null | sed -n 's/^Version: //p'))"
    echo "swift=$(swift --version 2>&1 | grep -m1 -o 'Swift version [0-9.]*')"
    echo "build=swift build -c release${SWIFT_BUILD_FLAGS:+ $SWIFT_BUILD_FLAGS}"
    echo "commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' + uncommitted changes')"
    echo "scenarios=$(ls scenarios/*.json | wc -l)"
    echo "wall_seconds=$(awk "BEGIN { print $(date +%s.%N) - $WALL_START }")"
    echo "machine_busy_seconds=$(awk "BEGIN { print ($BUSY_END - $BUSY_START) / $(getconf CLK_TCK) }")"
    echo "own_cpu_seconds=$OWN_SECONDS"
    echo "wiremock=WireMock $(basename "$WIREMOCK_JAR" .jar | sed 's/^wiremock-standalone-//') (standalone jar of the wiremock $("$OUT/venv/bin/pip" show wiremock 2>/dev/null | sed -n 's/^Version: //p') package), $("$JAVA" -version 2>&1 | head -n 1)"
    echo "pact_interactions=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["interactions"]))' "$PACT_FILE")"
} > "$RAW/env.txt"
python3 bench/performance_report.py "$RAW" "$OUT/results.json" docs/performance.md \
    "wrk -t$THREADS -c$CONNECTIONS -d$DURATION" "$RUNS" "$STARTS" "$LIBRARY_RUNS"
echo "wrote docs/performance.md and $OUT/results.json"
