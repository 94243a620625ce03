#!/usr/bin/env bash
# Generated cases per second of `spotcheck verify`'s exploration against a local `spotcheck serve`, and
# Schemathesis on the same server with the exported OpenAPI document in the same run; then the same two
# on a server with each drift of `serve --drift` (Sources/MockBackend/Drift/), with what each tool found.
#
#   bench/verify-explore.sh                       # release build, 1000 cases, Schemathesis 100 examples per operation
#   CONFIG=debug CASES=400 SCHEMATHESIS_EXAMPLES=50 bench/verify-explore.sh
#
# Schemathesis comes from PyPI (pinned like scripts/schemathesis.sh), installed into .build-venv.
# Not part of CI: it measures, and a drifted server is meant to fail. See docs/verify.md.
set -euo pipefail
cd "$(dirname "$0")/.."

config=${CONFIG:-release}
cases=${CASES:-1000}
seed=${SEED:-1}
examples=${SCHEMATHESIS_EXAMPLES:-100}
venv=.build-venv
version=4.32.5
work=.build-bench-verify
admin_token=tajnehasloadmina
mkdir -p "$work"

if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -qx "schemathesis, version $version"; then
    echo "== installing schemathesis $version into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
fi

echo "== building spotcheck ($config)"
swift build -c "$config" --product spotcheck >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
bin="$(swift build -c "$config" --show-bin-path)/spotcheck"
"$bin" export openapi --out "$work/openapi.json" >/dev/null

server_pid=
cleanup() { if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

# start_server LOG [serve options...]: starts serve on an ephemeral port, sets $url.
start_server() {
    local log=$1; shift
    : >"$log"
    "$bin" serve --port 0 --quiet --seed 1 "$@" >"$log" 2>&1 &
    server_pid=$!
    url=
    for _ in $(seq 1 100); do
        url=$(sed -n 's/^Listening on \(http[^ ]*\).*$/\1/p' "$log" | head -n 1)
        [ -n "$url" ] && return 0
        sleep 0.1
    done
    echo "serve did not start:" >&2; cat "$log" >&2; exit 1
}

stop_server() { cleanup; server_pid=; }

# spotcheck NAME: exploration only matters here, but verify runs its examples first as always.
run_spotcheck() {
    local name=$1
    local out="$work/spotcheck-$name.log"
    "$bin" verify --target "$url" --seed "$seed" --cases "$cases" --admin-token "$admin_token" \
        --skip "photo of 20 MiB" --json "$work/spotcheck-$name.json" >"$out" 2>&1 || true
    local line; line=$(grep -a -m1 '^explored with seed' "$out" || echo "explored: (no exploration line)")
    local sent seconds
    sent=$(echo "$line" | sed -n 's/.*: \([0-9]*\) generated requests.*/\1/p')
    seconds=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s,.*/\1/p')
    spot_rate=$(python3 -c "print(f'{$sent / $seconds:.0f}' if '$seconds' and float('$seconds') > 0 else '?')" 2>/dev/null || echo "?")
    spot_found=$(grep -acE '^  ✗ |^  ℹ the server' "$out" || true)
    spot_examples=$(grep -acE '^FAIL' "$out" || true)
    echo "   spotcheck: $sent generated requests in ${seconds}s ($spot_rate/s); $spot_found exploration finding(s), $spot_examples failing example(s)"
    grep -aE '^  ✗ |^  ℹ ' "$out" | cut -c1-220 | sed 's/^/     /' || true
}

run_schemathesis() {
    local name=$1
    local out="$work/schemathesis-$name.log"
    local assignments
    # A drifted server can break seed.py's own create (no managementPassword): Schemathesis then runs with
    # credentials that match nothing, as it would against such a server.
    if ! assignments=$("$venv/bin/python" scripts/schemathesis/seed.py "$url" 2>"$work/seed-$name.log"); then
        echo "   (seed.py could not seed this server: $(tail -n 1 "$work/seed-$name.log"))"
        assignments="SC_ID=00000000-0000-4000-8000-000000000000 SC_PASSWORD=000000 SC_IMAGE=none.png"
    fi
    export SC_ADMIN_TOKEN=$admin_token
    for assignment in $assignments; do export "${assignment?}"; done
    local checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance
    checks=$checks,response_schema_conformance,negative_data_rejection,missing_required_header,ignored_auth,use_after_free,ensure_resource_availability
    local started ended
    started=$(date +%s.%N)
    "$venv/bin/schemathesis" --config-file scripts/schemathesis/schemathesis.toml run "$work/openapi.json" \
        --url "$url" --checks "$checks" --max-examples "$examples" --seed "$seed" --workers 1 \
        --generation-database none --request-timeout 10 --no-color >"$out" 2>&1 || true
    ended=$(date +%s.%N)
    local generated
    generated=$(grep -oE '[0-9]+ generated' "$out" | head -n1 | grep -oE '[0-9]+' || echo 0)
    schema_rate=$(python3 -c "print(f'{$generated / ($ended - $started):.0f}')")
    schema_found=$(grep -acE '^_+ .* _+$|^[0-9]+\. ' "$out" || true)
    echo "   schemathesis: $generated test cases in $(python3 -c "print(f'{$ended - $started:.1f}')")s ($schema_rate/s)"
    sed -n '/FAILURES/,/SUMMARY/p' "$out" | grep -E '^- |^[A-Z].*(failed|error)|^_+ ' | sort -u | head -n 12 | cut -c1-200 | sed 's/^/     /' || true
    grep -E 'Failures:|failed|passed' "$out" | tail -n 3 | sed 's/^/     /' || true
}

echo "== faithful server (spotcheck serve)"
start_server "$work/serve-faithful.log" --admin-token "$admin_token"
run_spotcheck faithful
run_schemathesis faithful
stop_server

# ContractDrift's cases; serve refuses a name it does not know, so a stale list fails loudly.
for drift in renamedManagementPassword photoUploadAnswers200 bearerInsteadOfBasic missingRequestID serverErrorOnUnknownFields; do
    echo "== serve --drift $drift"
    start_server "$work/serve-$drift.log" --admin-token "$admin_token" --drift "$drift"
    run_spotcheck "$drift"
    run_schemathesis "$drift"
    stop_server
done
echo "logs: $work/"
