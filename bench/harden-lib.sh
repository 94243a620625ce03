# Shared by the hardening scripts (bench/soak.sh, bench/slowloris.sh, bench/bad-input.sh); sourced, never run.
# Gives them one way to build the release binary, start and always stop `spotcheck serve`, read its RSS,
# and report PASS/FAIL per check. Deliberately independent of bench/run.sh (the peer comparison).
#
#   source "$(dirname "$0")/harden-lib.sh"     # cds to the repository root, sets OUT=bench/out
#   harden_build; serve_start [extra serve flags]; ...; check NAME PASS|FAIL "detail"; checks_exit

cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=bench/out
mkdir -p "$OUT"
HARDEN_PIDS=()
CHECK_LINES=()
CHECK_FAILED=0

# Every background process a script starts goes through `harden_track`, so the EXIT trap can stop it.
harden_track() { HARDEN_PIDS+=("$1"); }

harden_cleanup() {
    local pid
    for pid in "${HARDEN_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
}
trap harden_cleanup EXIT
trap 'exit 130' INT TERM

# Installs wrk with apt when it is missing (root or sudo).
harden_need_wrk() {
    command -v wrk >/dev/null 2>&1 && return 0
    echo "== installing wrk (apt)"
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq wrk >/dev/null
}

# Builds `spotcheck` in release mode unless the binary is newer than every source file; sets BIN.
# SPOTCHECK_BIN=path uses that binary instead (e.g. a debug build on a machine too busy for a release build).
harden_build() {
    if [ -n "${SPOTCHECK_BIN:-}" ]; then BIN=$SPOTCHECK_BIN; echo "== using $BIN (SPOTCHECK_BIN)"; return 0; fi
    BIN="$(swift build -c release --show-bin-path)/spotcheck"
    if [ -x "$BIN" ] && [ -z "$(find Sources Package.swift -newer "$BIN" -print -quit)" ]; then
        echo "== release build is up to date ($BIN)"
        return 0
    fi
    echo "== release build"
    if ! swift build -c release --product spotcheck > "$OUT/harden-build.log" 2>&1; then
        cat "$OUT/harden-build.log" >&2
        return 1
    fi
    tail -n 1 "$OUT/harden-build.log"
}

# Starts `spotcheck serve --port 0 --quiet --seed 1 "$@"`, reads its `Listening on URL` line and waits for
# GET /api/health; sets SERVE_URL, SERVE_HOSTPORT ("127.0.0.1:PORT") and SERVE_PID.
serve_start() {
    local log="$OUT/serve-$$.log" deadline=$(( $(date +%s) + 30 ))
    : > "$log"
    "$BIN" serve --port 0 --quiet --seed 1 "$@" > "$log" 2>&1 &
    SERVE_PID=$!
    harden_track "$SERVE_PID"
    SERVE_LOG=$log
    until grep -q '^Listening on ' "$log"; do
        if ! kill -0 "$SERVE_PID" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
            echo "spotcheck serve did not start:" >&2; cat "$log" >&2; return 1
        fi
        sleep 0.01
    done
    SERVE_URL=$(sed -n 's/^Listening on \(http[^ ]*\).*$/\1/p' "$log" | head -n 1)
    SERVE_HOSTPORT=${SERVE_URL#http://}
    until curl -fs -o /dev/null "$SERVE_URL/api/health"; do
        [ "$(date +%s)" -ge "$deadline" ] && { echo "no answer from $SERVE_URL/api/health" >&2; return 1; }
        sleep 0.01
    done
    echo "== spotcheck serve (pid $SERVE_PID) at $SERVE_URL"
}

# Whether the server process is still alive and its health endpoint answers 200.
serve_healthy() {
    kill -0 "$SERVE_PID" 2>/dev/null && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$SERVE_URL/api/health")" = 200 ]
}

serve_stop() {
    kill "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
}

# Resident set size of a process in KiB (VmRSS from /proc), or nothing if it is gone.
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/${1:-$SERVE_PID}/status" 2>/dev/null; }

# RSS in KiB after asking glibc to hand its free heap pages back (malloc_trim(0) called through gdb), or nothing
# when gdb is missing or cannot attach. A diagnostic, run after the measurements: memory that trimming
# returns was free inside the allocator (retention), memory that stays is still referenced (a leak).
rss_after_trim_kib() {
    local pid=${1:-$SERVE_PID}
    command -v gdb >/dev/null 2>&1 || return 0
    timeout 60 gdb -p "$pid" -batch -ex 'call (int)malloc_trim(0)' >/dev/null 2>&1 || return 0
    sleep 1
    rss_kib "$pid"
}

# Samples the server's RSS every `interval` seconds into `file` as "seconds-since-start KiB" lines,
# in the background, until `rss_sampler_stop`. Sets SAMPLER_PID.
rss_sampler_start() {
    local file=$1 interval=${2:-5} pid=$SERVE_PID
    : > "$file"
    (
        start=$(date +%s.%N)
        while kill -0 "$pid" 2>/dev/null; do
            echo "$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }") $(rss_kib "$pid")" >> "$file"
            sleep "$interval"
        done
    ) &
    SAMPLER_PID=$!
    harden_track "$SAMPLER_PID"
}

rss_sampler_stop() { kill "$SAMPLER_PID" 2>/dev/null || true; wait "$SAMPLER_PID" 2>/dev/null || true; }

# Records one check's verdict; `checks_exit` prints them all and exits 1 if any failed.
check() { # name PASS|FAIL detail
    CHECK_LINES+=("$(printf '%-4s  %-34s %s' "$2" "$1" "$3")")
    [ "$2" = PASS ] || CHECK_FAILED=1
}

checks_exit() {
    echo
    echo "== summary"
    local line
    for line in "${CHECK_LINES[@]}"; do echo "$line"; done
    if [ "$CHECK_FAILED" -ne 0 ]; then echo "RESULT: FAIL"; exit 1; fi
    echo "RESULT: PASS"
}

# Records the verdicts a script's evaluation wrote as "PASS|FAIL<TAB>name<TAB>detail" lines; other lines are shown.
checks_from() {
    local verdict name detail
    grep -Ev $'^(PASS|FAIL)\t' "$1" || true
    while IFS=$'\t' read -r verdict name detail; do
        check "$name" "$verdict" "$detail"
    done < <(grep -E $'^(PASS|FAIL)\t' "$1")
}
